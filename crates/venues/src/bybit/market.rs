//! Public market data of Bybit's USDT perpetuals: ticker (with the mark price and funding),
//! order book, klines and funding.
//!
//! Endpoints and fields: Bybit API v5 docs, "Market" → "Get Tickers", "Get Orderbook" and
//! "Get Kline" (https://bybit-exchange.github.io/docs/v5/market/tickers,
//! https://bybit-exchange.github.io/docs/v5/market/orderbook,
//! https://bybit-exchange.github.io/docs/v5/market/kline). A linear ticker carries the
//! current `fundingRate` and `nextFundingTime` itself.

use std::str::FromStr;
use std::sync::Arc;

use async_trait::async_trait;
use nofxi_domain::Interval;
use nofxi_domain::market::{BookLevel, Candle, FundingRate, OrderBook, Symbol, Ticker};
use rust_decimal::Decimal;
use serde_json::Value;

use super::client::BybitClient;
use super::instruments::Instruments;
use super::wire;
use crate::{KlineQuery, MarketData, VenueError};

const TICKERS: &str = "/v5/market/tickers";
const ORDERBOOK: &str = "/v5/market/orderbook";
const KLINE: &str = "/v5/market/kline";
/// Klines a page: "[`1`, `1000`]".
const PAGE: usize = 1000;
/// Book depth per side for linear: "[`1`, `1000`]".
const MAX_DEPTH: usize = 1000;

#[derive(Debug, Clone)]
pub struct BybitMarket {
    client: Arc<BybitClient>,
    instruments: Arc<Instruments>,
}

impl BybitMarket {
    /// `instruments`: the account adapter's ([`super::BybitLinear::instruments`]), or new.
    pub fn new(client: Arc<BybitClient>, instruments: Arc<Instruments>) -> Self {
        BybitMarket {
            client,
            instruments,
        }
    }

    /// The one ticker row of `symbol`.
    async fn ticker_row(&self, symbol: &Symbol) -> Result<Value, VenueError> {
        self.instruments.get(symbol).await?;
        let result = self
            .client
            .public(
                TICKERS,
                &[
                    ("category", "linear".to_string()),
                    ("symbol", symbol.as_str().to_string()),
                ],
            )
            .await?;
        wire::list(&result)
            .and_then(|rows| {
                rows.first()
                    .cloned()
                    .ok_or_else(|| wire::bad("result.list[0]"))
            })
            .map_err(of_get(TICKERS))
    }
}

/// Bybit's interval for nofxi's; days and weeks open at 00:00 UTC (weeks on Mondays), as
/// nofxi's candles do everywhere.
fn interval(i: Interval) -> &'static str {
    match i {
        Interval::M1 => "1",
        Interval::M3 => "3",
        Interval::M5 => "5",
        Interval::M15 => "15",
        Interval::M30 => "30",
        Interval::H1 => "60",
        Interval::H2 => "120",
        Interval::H4 => "240",
        Interval::H6 => "360",
        Interval::H12 => "720",
        Interval::D1 => "D",
        Interval::W1 => "W",
    }
}

fn of_get(path: &str) -> impl Fn(VenueError) -> VenueError + '_ {
    move |e| e.in_answer_to(&format!("GET {path}"))
}

#[async_trait]
impl MarketData for BybitMarket {
    fn source(&self) -> &str {
        self.client.venue()
    }

    async fn ticker(&self, symbol: &Symbol) -> Result<Ticker, VenueError> {
        let row = self.ticker_row(symbol).await?;
        let field = |name: &str| wire::dec(&row, name).map_err(of_get(TICKERS));
        Ok(Ticker {
            symbol: symbol.clone(),
            last: field("lastPrice")?,
            bid: field("bid1Price")?,
            ask: field("ask1Price")?,
            mark: field("markPrice")?,
            // `volume24h` is in the base coin for a USDT contract.
            volume_24h: field("volume24h")?,
            time_ms: self.client.clock().now_ms(),
        })
    }

    async fn order_book(&self, symbol: &Symbol, depth: usize) -> Result<OrderBook, VenueError> {
        self.instruments.get(symbol).await?;
        let params = [
            ("category", "linear".to_string()),
            ("symbol", symbol.as_str().to_string()),
            ("limit", depth.clamp(1, MAX_DEPTH).to_string()),
        ];
        let book = self.client.public(ORDERBOOK, &params).await?;
        // `b` and `a`: `[price, size]` levels, best first.
        let side = |name: &str| -> Result<Vec<BookLevel>, VenueError> {
            let levels = book[name].as_array().ok_or_else(|| wire::bad(name))?;
            levels
                .iter()
                .take(depth)
                .map(|l| {
                    let at = |i: usize| {
                        l[i].as_str()
                            .and_then(|s| Decimal::from_str(s).ok())
                            .ok_or_else(|| wire::bad(&format!("{name}[{i}]")))
                    };
                    Ok(BookLevel {
                        price: at(0)?,
                        quantity: at(1)?,
                    })
                })
                .collect()
        };
        Ok(OrderBook {
            symbol: symbol.clone(),
            bids: side("b").map_err(of_get(ORDERBOOK))?,
            asks: side("a").map_err(of_get(ORDERBOOK))?,
            time_ms: wire::ms(&book, "ts").unwrap_or_else(|_| self.client.clock().now_ms()),
        })
    }

    async fn klines(
        &self,
        symbol: &Symbol,
        interval_: Interval,
        query: KlineQuery,
    ) -> Result<Vec<Candle>, VenueError> {
        query.validate()?;
        self.instruments.get(symbol).await?;
        let now = self.client.clock().now_ms();
        // The window the query selects, as every source computes it; Bybit is then paged
        // backwards from its end ("Sort in reverse by startTime") until the window's start.
        let times = query.open_times(interval_, now);
        let (Some(&first), Some(&last)) = (times.first(), times.last()) else {
            return Ok(Vec::new());
        };
        let mut candles: Vec<Candle> = Vec::with_capacity(times.len());
        let mut end = last;
        for _ in 0..times.len().div_ceil(PAGE) + 1 {
            let params = [
                ("category", "linear".to_string()),
                ("symbol", symbol.as_str().to_string()),
                ("interval", interval(interval_).to_string()),
                ("start", first.to_string()),
                ("end", end.to_string()),
                ("limit", PAGE.to_string()),
            ];
            let result = self.client.public(KLINE, &params).await?;
            let page: Vec<Candle> = wire::list(&result)
                .map_err(of_get(KLINE))?
                .iter()
                .map(wire::candle)
                .collect::<Result<_, _>>()
                .map_err(of_get(KLINE))?;
            let Some(oldest) = page.iter().map(|c| c.open_time_ms).min() else {
                break;
            };
            candles.extend(
                page.into_iter()
                    .filter(|c| (first..=last).contains(&c.open_time_ms)),
            );
            if oldest <= first || oldest > end {
                break;
            }
            end = oldest - 1;
        }
        candles.sort_by_key(|c| c.open_time_ms);
        candles.dedup_by_key(|c| c.open_time_ms);
        Ok(candles)
    }

    async fn funding_rate(&self, symbol: &Symbol) -> Result<Option<FundingRate>, VenueError> {
        let row = self.ticker_row(symbol).await?;
        Ok(Some(FundingRate {
            symbol: symbol.clone(),
            rate: wire::dec(&row, "fundingRate").map_err(of_get(TICKERS))?,
            next_funding_time_ms: wire::ms(&row, "nextFundingTime").map_err(of_get(TICKERS))?,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_interval_has_a_bybit_name() {
        for i in Interval::ALL {
            assert!(!interval(i).is_empty());
        }
        assert_eq!(interval(Interval::H4), "240");
        assert_eq!(interval(Interval::D1), "D");
    }
}
