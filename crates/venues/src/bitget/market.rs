//! Public market data of Bitget's USDT-M perpetuals: ticker (with the mark price), order book,
//! candles and funding, all in the base coin.
//!
//! Endpoints and fields: Bitget API docs, "Futures" → "Market" → "Get Ticker", "Get Merge
//! Market Depth", "Get Candlestick Data", "Get Historical Candlestick" and "Get Current
//! Funding Rate" (https://www.bitget.com/api-doc/contract/market/…).

use std::sync::Arc;

use async_trait::async_trait;
use nofxi_domain::Interval;
use nofxi_domain::market::{BookLevel, Candle, FundingRate, OrderBook, Symbol, Ticker};

use super::client::BitgetClient;
use super::contracts::{Contracts, PRODUCT_TYPE};
use super::wire;
use crate::{KlineQuery, MarketData, VenueError};

const TICKER: &str = "/api/v2/mix/market/ticker";
const DEPTH: &str = "/api/v2/mix/market/merge-depth";
const CANDLES: &str = "/api/v2/mix/market/candles";
const HISTORY_CANDLES: &str = "/api/v2/mix/market/history-candles";
const FUNDING: &str = "/api/v2/mix/market/current-fund-rate";
/// Candles a request: "maximum: 1000" (candles), "maximum: 200" (history).
const PAGE: i64 = 1_000;
const HISTORY_PAGE: i64 = 200;
/// "the maximum time query range is 90 days".
const MAX_RANGE_MS: i64 = 90 * 86_400_000;
/// The depth gears `limit` takes: "1/5/15/50/max".
const GEARS: [usize; 4] = [1, 5, 15, 50];

#[derive(Debug, Clone)]
pub struct BitgetMarket {
    client: Arc<BitgetClient>,
    contracts: Arc<Contracts>,
}

impl BitgetMarket {
    /// `contracts`: the account adapter's ([`super::BitgetFutures::contracts`]), or a new one.
    pub fn new(client: Arc<BitgetClient>, contracts: Arc<Contracts>) -> Self {
        BitgetMarket { client, contracts }
    }
}

/// Bitget's granularity for an interval; six hours and longer open at 00:00 UTC (the `utc`
/// lines), as nofxi's candles do everywhere.
fn granularity(interval: Interval) -> &'static str {
    match interval {
        Interval::M1 => "1m",
        Interval::M3 => "3m",
        Interval::M5 => "5m",
        Interval::M15 => "15m",
        Interval::M30 => "30m",
        Interval::H1 => "1H",
        Interval::H2 => "2H",
        Interval::H4 => "4H",
        Interval::H6 => "6Hutc",
        Interval::H12 => "12Hutc",
        Interval::D1 => "1Dutc",
        Interval::W1 => "1Wutc",
    }
}

/// How far back `candles` serves an interval ("1m, 3m, and 5m can be checked for up to one
/// month; 15m … 52 days; 30m … 62 days; 1H … 83 days; 2H … 120 days; 4H … 240 days; 6H …
/// 360 days"); older candles come from `history-candles`. The docs give no reach for longer
/// intervals.
fn reach_days(interval: Interval) -> Option<i64> {
    match interval {
        Interval::M1 | Interval::M3 | Interval::M5 => Some(30),
        Interval::M15 => Some(52),
        Interval::M30 => Some(62),
        Interval::H1 => Some(83),
        Interval::H2 => Some(120),
        Interval::H4 => Some(240),
        Interval::H6 => Some(360),
        Interval::H12 | Interval::D1 | Interval::W1 => None,
    }
}

fn of_get(path: &str) -> impl Fn(VenueError) -> VenueError + '_ {
    move |e| e.in_answer_to(&format!("GET {path}"))
}

fn params(symbol: &Symbol) -> Vec<(&'static str, String)> {
    vec![
        ("symbol", symbol.as_str().to_string()),
        ("productType", PRODUCT_TYPE.to_string()),
    ]
}

#[async_trait]
impl MarketData for BitgetMarket {
    fn source(&self) -> &str {
        self.client.venue()
    }

    async fn ticker(&self, symbol: &Symbol) -> Result<Ticker, VenueError> {
        let c = self.contracts.get(symbol).await?;
        let data = self.client.public(TICKER, &params(&c.symbol)).await?;
        let t = wire::first(&data).map_err(of_get(TICKER))?;
        Ok(Ticker {
            symbol: symbol.clone(),
            last: wire::dec(t, "lastPr").map_err(of_get(TICKER))?,
            bid: wire::dec(t, "bidPr").map_err(of_get(TICKER))?,
            ask: wire::dec(t, "askPr").map_err(of_get(TICKER))?,
            mark: wire::dec(t, "markPrice").map_err(of_get(TICKER))?,
            volume_24h: wire::dec(t, "baseVolume").map_err(of_get(TICKER))?,
            time_ms: wire::ms(t, "ts").unwrap_or_else(|_| self.client.clock().now_ms()),
        })
    }

    async fn order_book(&self, symbol: &Symbol, depth: usize) -> Result<OrderBook, VenueError> {
        let c = self.contracts.get(symbol).await?;
        let gear = GEARS
            .iter()
            .find(|g| **g >= depth)
            .map_or("max".to_string(), |g| g.to_string());
        let mut p = params(&c.symbol);
        p.push(("limit", gear));
        let data = self.client.public(DEPTH, &p).await?;
        let side = |name: &str| -> Result<Vec<BookLevel>, VenueError> {
            let levels = data[name].as_array().ok_or_else(|| wire::bad(name))?;
            levels
                .iter()
                .take(depth)
                .map(|l| {
                    let (price, quantity) = wire::level(l, name)?;
                    Ok(BookLevel { price, quantity })
                })
                .collect()
        };
        Ok(OrderBook {
            symbol: symbol.clone(),
            bids: side("bids").map_err(of_get(DEPTH))?,
            asks: side("asks").map_err(of_get(DEPTH))?,
            time_ms: wire::ms(&data, "ts").unwrap_or_else(|_| self.client.clock().now_ms()),
        })
    }

    async fn klines(
        &self,
        symbol: &Symbol,
        interval: Interval,
        query: KlineQuery,
    ) -> Result<Vec<Candle>, VenueError> {
        query.validate()?;
        let c = self.contracts.get(symbol).await?;
        let now = self.client.clock().now_ms();
        // The window the query selects, as every source computes it; Bitget is then asked for
        // it in chunks that fit one request's limit and its 90-day range.
        let times = query.open_times(interval, now);
        let (Some(&first), Some(&last)) = (times.first(), times.last()) else {
            return Ok(Vec::new());
        };
        let step = interval.millis();
        let reach = reach_days(interval).map(|d| d * 86_400_000);
        let mut candles: Vec<Candle> = Vec::with_capacity(times.len());
        let mut start = first;
        while start <= last {
            let recent = reach.is_none_or(|r| now - start <= r);
            let (path, page) = if recent {
                (CANDLES, PAGE)
            } else {
                (HISTORY_CANDLES, HISTORY_PAGE)
            };
            // Two bars of slack for a server that rounds the ends outwards.
            let bars = (page - 2).min(MAX_RANGE_MS / step).max(1);
            let end = (start + (bars - 1) * step).min(last);
            let mut p = params(&c.symbol);
            p.extend([
                ("granularity", granularity(interval).to_string()),
                ("startTime", start.to_string()),
                // Through the end bar's open whether Bitget reads the end as inclusive or not.
                ("endTime", (end + step - 1).to_string()),
                ("limit", page.to_string()),
            ]);
            let data = self.client.public(path, &p).await?;
            let rows = wire::rows(&data).map_err(of_get(path))?;
            for row in rows {
                let candle = wire::candle(row).map_err(of_get(path))?;
                if (start..=end).contains(&candle.open_time_ms) {
                    candles.push(candle);
                }
            }
            start = end + step;
        }
        candles.sort_by_key(|c| c.open_time_ms);
        candles.dedup_by_key(|c| c.open_time_ms);
        Ok(candles)
    }

    async fn funding_rate(&self, symbol: &Symbol) -> Result<Option<FundingRate>, VenueError> {
        let c = self.contracts.get(symbol).await?;
        let data = self.client.public(FUNDING, &params(&c.symbol)).await?;
        let v = wire::first(&data).map_err(of_get(FUNDING))?;
        Ok(Some(FundingRate {
            symbol: symbol.clone(),
            rate: wire::dec(v, "fundingRate").map_err(of_get(FUNDING))?,
            next_funding_time_ms: wire::ms(v, "nextUpdate").map_err(of_get(FUNDING))?,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_interval_has_a_granularity_and_days_open_at_utc_midnight() {
        for interval in Interval::ALL {
            assert!(!granularity(interval).is_empty());
        }
        assert_eq!(granularity(Interval::D1), "1Dutc");
        assert_eq!(granularity(Interval::H1), "1H");
        assert_eq!(reach_days(Interval::M1), Some(30));
    }
}
