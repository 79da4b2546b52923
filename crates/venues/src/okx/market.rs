//! Public market data of OKX's USDT perpetuals: ticker (with the mark price), order book,
//! candles and funding, with sizes turned from contracts into coins.
//!
//! Endpoints and fields: OKX API v5 docs, "Market Data" → "GET / Ticker", "GET / Order book",
//! "GET / Candlesticks" and "GET / Candlesticks history"; "Public Data" → "GET / Mark price",
//! "GET / Funding rate" (https://www.okx.com/docs-v5/en/).

use std::sync::Arc;

use async_trait::async_trait;
use nofxi_domain::Interval;
use nofxi_domain::market::{BookLevel, Candle, FundingRate, OrderBook, Symbol, Ticker};

use super::client::OkxClient;
use super::contracts::Contracts;
use super::wire;
use crate::{KlineQuery, MarketData, VenueError};

const TICKER: &str = "/api/v5/market/ticker";
const MARK: &str = "/api/v5/public/mark-price";
const BOOKS: &str = "/api/v5/market/books";
const CANDLES: &str = "/api/v5/market/candles";
const HISTORY_CANDLES: &str = "/api/v5/market/history-candles";
const FUNDING: &str = "/api/v5/public/funding-rate";
/// Candles a page: "The maximum is 300" (candles); `candles` serves the latest 1,440 only.
const PAGE: usize = 300;
const RECENT: i64 = 1_440;
/// Book depth per side: "Maximum 400".
const MAX_DEPTH: usize = 400;

#[derive(Debug, Clone)]
pub struct OkxMarket {
    client: Arc<OkxClient>,
    contracts: Arc<Contracts>,
}

impl OkxMarket {
    /// `contracts`: the account adapter's ([`super::OkxSwap::contracts`]), or a new one.
    pub fn new(client: Arc<OkxClient>, contracts: Arc<Contracts>) -> Self {
        OkxMarket { client, contracts }
    }
}

/// OKX's bar for an interval; days and weeks open at 00:00 UTC (the `utc` bars), as nofxi's
/// candles do everywhere.
fn bar(interval: Interval) -> &'static str {
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

fn of_get(path: &str) -> impl Fn(VenueError) -> VenueError + '_ {
    move |e| e.in_answer_to(&format!("GET {path}"))
}

#[async_trait]
impl MarketData for OkxMarket {
    fn source(&self) -> &str {
        self.client.venue()
    }

    async fn ticker(&self, symbol: &Symbol) -> Result<Ticker, VenueError> {
        let c = self.contracts.get(symbol).await?;
        let inst = [("instId", c.inst_id.clone())];
        let day = self.client.public(TICKER, &inst).await?;
        let day = wire::first(&day).map_err(of_get(TICKER))?;
        let mark = self
            .client
            .public(
                MARK,
                &[("instType", "SWAP".into()), ("instId", c.inst_id.clone())],
            )
            .await?;
        let mark = wire::first(&mark).map_err(of_get(MARK))?;
        Ok(Ticker {
            symbol: symbol.clone(),
            last: wire::dec(day, "last").map_err(of_get(TICKER))?,
            bid: wire::dec(day, "bidPx").map_err(of_get(TICKER))?,
            ask: wire::dec(day, "askPx").map_err(of_get(TICKER))?,
            mark: wire::dec(mark, "markPx").map_err(of_get(MARK))?,
            volume_24h: wire::dec(day, "volCcy24h").map_err(of_get(TICKER))?,
            time_ms: wire::ms(day, "ts").unwrap_or_else(|_| self.client.clock().now_ms()),
        })
    }

    async fn order_book(&self, symbol: &Symbol, depth: usize) -> Result<OrderBook, VenueError> {
        let c = self.contracts.get(symbol).await?;
        let params = [
            ("instId", c.inst_id.clone()),
            ("sz", depth.clamp(1, MAX_DEPTH).to_string()),
        ];
        let data = self.client.public(BOOKS, &params).await?;
        let book = wire::first(&data).map_err(of_get(BOOKS))?;
        // Each level is `[price, size in contracts, "0", orders]`.
        let side = |name: &str| -> Result<Vec<BookLevel>, VenueError> {
            let levels = book[name].as_array().ok_or_else(|| wire::bad(name))?;
            levels
                .iter()
                .take(depth)
                .map(|l| {
                    let at = |i: usize| {
                        l[i].as_str()
                            .and_then(|s| s.parse::<rust_decimal::Decimal>().ok())
                            .ok_or_else(|| wire::bad(&format!("{name}[{i}]")))
                    };
                    Ok(BookLevel {
                        price: at(0)?,
                        quantity: c.coins(at(1)?),
                    })
                })
                .collect()
        };
        Ok(OrderBook {
            symbol: symbol.clone(),
            bids: side("bids").map_err(of_get(BOOKS))?,
            asks: side("asks").map_err(of_get(BOOKS))?,
            time_ms: wire::ms(book, "ts").unwrap_or_else(|_| self.client.clock().now_ms()),
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
        // The window the query selects, as every source computes it; OKX is then paged
        // backwards from its end, newest first, until the window's start.
        let times = query.open_times(interval, now);
        let (Some(&first), Some(&last)) = (times.first(), times.last()) else {
            return Ok(Vec::new());
        };
        let path = if now - first > RECENT * interval.millis() {
            HISTORY_CANDLES
        } else {
            CANDLES
        };
        let mut candles: Vec<Candle> = Vec::with_capacity(times.len());
        let mut before_ts = last + 1;
        for _ in 0..times.len().div_ceil(PAGE) + 1 {
            let params = [
                ("instId", c.inst_id.clone()),
                ("bar", bar(interval).to_string()),
                ("after", before_ts.to_string()),
                ("limit", PAGE.to_string()),
            ];
            let data = self.client.public(path, &params).await?;
            let rows = wire::rows(&data).map_err(of_get(path))?;
            let page: Vec<Candle> = rows
                .iter()
                .map(wire::candle)
                .collect::<Result<_, _>>()
                .map_err(of_get(path))?;
            let Some(oldest) = page.iter().map(|c| c.open_time_ms).min() else {
                break;
            };
            candles.extend(
                page.into_iter()
                    .filter(|c| (first..=last).contains(&c.open_time_ms)),
            );
            if oldest <= first || oldest >= before_ts {
                break;
            }
            before_ts = oldest;
        }
        candles.sort_by_key(|c| c.open_time_ms);
        candles.dedup_by_key(|c| c.open_time_ms);
        Ok(candles)
    }

    async fn funding_rate(&self, symbol: &Symbol) -> Result<Option<FundingRate>, VenueError> {
        let c = self.contracts.get(symbol).await?;
        let data = self
            .client
            .public(FUNDING, &[("instId", c.inst_id.clone())])
            .await?;
        let v = wire::first(&data).map_err(of_get(FUNDING))?;
        Ok(Some(FundingRate {
            symbol: symbol.clone(),
            rate: wire::dec(v, "fundingRate").map_err(of_get(FUNDING))?,
            // `fundingTime` is when the rate given is settled: the next funding.
            next_funding_time_ms: wire::ms(v, "fundingTime").map_err(of_get(FUNDING))?,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_interval_has_a_bar_and_days_open_at_utc_midnight() {
        for interval in Interval::ALL {
            assert!(!bar(interval).is_empty());
        }
        assert_eq!(bar(Interval::D1), "1Dutc");
        assert_eq!(bar(Interval::H1), "1H");
    }
}
