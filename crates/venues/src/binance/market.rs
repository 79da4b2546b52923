//! Binance futures public market data: no key needed.

use std::sync::Arc;

use async_trait::async_trait;
use nofxi_domain::Interval;
use nofxi_domain::market::{BookLevel, Candle, FundingRate, OrderBook, Symbol, Ticker};

use super::client::BinanceClient;
use super::wire;
use crate::{KlineQuery, MarketData, VenueError};

#[derive(Debug, Clone)]
pub struct BinanceMarket {
    client: Arc<BinanceClient>,
}

impl BinanceMarket {
    pub fn new(client: Arc<BinanceClient>) -> Self {
        BinanceMarket { client }
    }
}

fn sym(symbol: &Symbol) -> (&'static str, String) {
    ("symbol", symbol.to_string())
}

const BOOK: &str = "/fapi/v1/ticker/bookTicker";
const DAY: &str = "/fapi/v1/ticker/24hr";
const PREMIUM: &str = "/fapi/v1/premiumIndex";

#[async_trait]
impl MarketData for BinanceMarket {
    fn source(&self) -> &str {
        self.client.venue()
    }

    async fn ticker(&self, symbol: &Symbol) -> Result<Ticker, VenueError> {
        let book = self.client.public(BOOK, &[sym(symbol)], 2).await?;
        let day = self.client.public(DAY, &[sym(symbol)], 1).await?;
        let premium = self.client.public(PREMIUM, &[sym(symbol)], 1).await?;
        Ok(Ticker {
            symbol: symbol.clone(),
            last: wire::dec(&day, "lastPrice").map_err(wire::of_get(DAY))?,
            bid: wire::dec(&book, "bidPrice").map_err(wire::of_get(BOOK))?,
            ask: wire::dec(&book, "askPrice").map_err(wire::of_get(BOOK))?,
            mark: wire::dec(&premium, "markPrice").map_err(wire::of_get(PREMIUM))?,
            volume_24h: wire::dec(&day, "volume").map_err(wire::of_get(DAY))?,
            time_ms: book["time"]
                .as_i64()
                .unwrap_or_else(|| self.client.clock().now_ms()),
        })
    }

    async fn order_book(&self, symbol: &Symbol, depth: usize) -> Result<OrderBook, VenueError> {
        // Binance only accepts these depths; ask for the smallest that covers the request.
        let limit = [5, 10, 20, 50, 100, 500, 1000]
            .into_iter()
            .find(|l| *l >= depth)
            .unwrap_or(1000);
        let weight = if limit <= 50 { 2 } else { 10 };
        let v = self
            .client
            .public(
                "/fapi/v1/depth",
                &[sym(symbol), ("limit", limit.to_string())],
                weight,
            )
            .await?;
        let side = |name: &str| -> Result<Vec<BookLevel>, VenueError> {
            wire::array_in(&v, name)?
                .iter()
                .take(depth)
                .map(|l| {
                    Ok(BookLevel {
                        price: wire::dec_at(l, 0)?,
                        quantity: wire::dec_at(l, 1)?,
                    })
                })
                .collect()
        };
        Ok(OrderBook {
            symbol: symbol.clone(),
            bids: side("bids").map_err(wire::of_get("/fapi/v1/depth"))?,
            asks: side("asks").map_err(wire::of_get("/fapi/v1/depth"))?,
            time_ms: v["T"]
                .as_i64()
                .unwrap_or_else(|| self.client.clock().now_ms()),
        })
    }

    async fn klines(
        &self,
        symbol: &Symbol,
        interval: Interval,
        query: KlineQuery,
    ) -> Result<Vec<Candle>, VenueError> {
        query.validate()?;
        let mut params = vec![
            sym(symbol),
            ("interval", interval.to_string()),
            ("limit", query.limit.to_string()),
        ];
        if let Some(s) = query.start_ms {
            params.push(("startTime", s.to_string()));
        }
        if let Some(e) = query.end_ms {
            params.push(("endTime", e.to_string()));
        }
        let weight = match query.limit {
            0..100 => 1,
            100..500 => 2,
            _ => 5,
        };
        let v = self
            .client
            .public("/fapi/v1/klines", &params, weight)
            .await?;
        wire::array(&v)
            .and_then(|rows| rows.iter().map(wire::candle).collect())
            .map_err(wire::of_get("/fapi/v1/klines"))
    }

    async fn funding_rate(&self, symbol: &Symbol) -> Result<Option<FundingRate>, VenueError> {
        let v = self.client.public(PREMIUM, &[sym(symbol)], 1).await?;
        Ok(Some(FundingRate {
            symbol: symbol.clone(),
            rate: wire::dec(&v, "lastFundingRate").map_err(wire::of_get(PREMIUM))?,
            next_funding_time_ms: wire::int(&v, "nextFundingTime")
                .map_err(wire::of_get(PREMIUM))?,
        }))
    }
}
