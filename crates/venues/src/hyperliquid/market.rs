//! Public market data of Hyperliquid's perpetuals: ticker, order book, candles and funding,
//! all from `POST /info`.
//!
//! Requests and fields: `l2Book` (`{"coin", "time", "levels": [bids, asks]}`, each level
//! `{"px", "sz", "n"}`), `candleSnapshot` (`{"req": {"coin", "interval", "startTime",
//! "endTime"}}`, "only the most recent 5000 candles are available"), `metaAndAssetCtxs`
//! (`[meta, ctxs]`, a ctx per universe entry with `funding`, `markPx`, `midPx`, `dayBaseVlm`)
//! — the docs' "Info endpoint" → "Perpetuals" and the SDK's recorded answers. Funding is paid
//! every hour ("Funding": "Funding is paid every hour"), so the next one is at the top of the
//! next hour. Hyperliquid's REST has no last-trade price: the ticker's `last` is the mid.

use std::sync::Arc;

use async_trait::async_trait;
use nofxi_domain::Interval;
use nofxi_domain::market::{BookLevel, Candle, FundingRate, OrderBook, Symbol, Ticker};
use serde_json::{Value, json};

use super::assets::{Asset, Assets};
use super::client::HyperliquidClient;
use super::wire;
use crate::market_data::{unserved_depth, unserved_interval};
use crate::{KlineQuery, MarketData, VenueError};

const HOUR_MS: i64 = 3_600_000;

#[derive(Debug, Clone)]
pub struct HyperliquidMarket {
    client: Arc<HyperliquidClient>,
    assets: Arc<Assets>,
}

impl HyperliquidMarket {
    /// `assets`: the account adapter's ([`super::HyperliquidPerp::assets`]), or a new one.
    pub fn new(client: Arc<HyperliquidClient>, assets: Arc<Assets>) -> Self {
        HyperliquidMarket { client, assets }
    }

    /// The asset context of `asset` (`metaAndAssetCtxs`: the ctxs follow the universe).
    async fn context(&self, asset: &Asset) -> Result<Value, VenueError> {
        let both = self
            .client
            .info(&json!({"type": "metaAndAssetCtxs"}))
            .await?;
        let named = |e: VenueError| e.in_answer_to("POST /info metaAndAssetCtxs");
        // The ctx is found by the coin's name in the answer's own universe, not by the index
        // read earlier: a listing in between moves nothing then.
        let universe = both[0]["universe"]
            .as_array()
            .ok_or_else(|| named(wire::bad("[0].universe")))?;
        let index = universe
            .iter()
            .position(|u| u["name"].as_str() == Some(asset.coin.as_str()))
            .ok_or_else(|| named(wire::bad(&format!("[0].universe {}", asset.coin))))?;
        both[1]
            .get(index)
            .cloned()
            .ok_or_else(|| named(wire::bad(&format!("[1][{index}]"))))
    }

    async fn book(&self, asset: &Asset) -> Result<Value, VenueError> {
        self.client
            .info(&json!({"type": "l2Book", "coin": asset.coin}))
            .await
    }
}

/// The levels per side Hyperliquid's `l2Book` answers with, at most.
const BOOK_LEVELS: usize = 20;

/// Hyperliquid's candle interval; it has no 6-hour candles.
fn interval_name(interval: Interval) -> Option<&'static str> {
    Some(match interval {
        Interval::M1 => "1m",
        Interval::M3 => "3m",
        Interval::M5 => "5m",
        Interval::M15 => "15m",
        Interval::M30 => "30m",
        Interval::H1 => "1h",
        Interval::H2 => "2h",
        Interval::H4 => "4h",
        Interval::H6 => return None,
        Interval::H12 => "12h",
        Interval::D1 => "1d",
        Interval::W1 => "1w",
    })
}

/// One side of an `l2Book` answer, best first.
fn levels(book: &Value, side: usize, depth: usize) -> Result<Vec<BookLevel>, VenueError> {
    let field = format!("levels[{side}]");
    book["levels"][side]
        .as_array()
        .ok_or_else(|| wire::bad(&field))?
        .iter()
        .take(depth)
        .map(|l| {
            Ok(BookLevel {
                price: wire::dec(l, "px")?,
                quantity: wire::dec(l, "sz")?,
            })
        })
        .collect()
}

#[async_trait]
impl MarketData for HyperliquidMarket {
    fn source(&self) -> &str {
        self.client.venue()
    }

    async fn ticker(&self, symbol: &Symbol) -> Result<Ticker, VenueError> {
        let asset = self.assets.get(symbol).await?;
        let book = self.book(&asset).await?;
        let of_book = |e: VenueError| e.in_answer_to("POST /info l2Book");
        let bid = levels(&book, 0, 1).map_err(of_book)?;
        let ask = levels(&book, 1, 1).map_err(of_book)?;
        let ctx = self.context(&asset).await?;
        let of_ctx = |e: VenueError| e.in_answer_to("POST /info metaAndAssetCtxs");
        let mark = wire::dec(&ctx, "markPx").map_err(of_ctx)?;
        let (bid, ask) = match (bid.first(), ask.first()) {
            (Some(b), Some(a)) => (b.price, a.price),
            _ => return Err(of_book(wire::bad("levels"))),
        };
        Ok(Ticker {
            symbol: symbol.clone(),
            last: wire::opt_dec(&ctx, "midPx").unwrap_or((bid + ask) / rust_decimal::Decimal::TWO),
            bid,
            ask,
            mark,
            volume_24h: wire::dec(&ctx, "dayBaseVlm").map_err(of_ctx)?,
            time_ms: wire::ms(&book, "time").unwrap_or_else(|_| self.client.clock().now_ms()),
        })
    }

    async fn order_book(&self, symbol: &Symbol, depth: usize) -> Result<OrderBook, VenueError> {
        if depth > BOOK_LEVELS {
            return Err(unserved_depth(self.client.venue(), depth, BOOK_LEVELS));
        }
        let asset = self.assets.get(symbol).await?;
        let book = self.book(&asset).await?;
        let named = |e: VenueError| e.in_answer_to("POST /info l2Book");
        let depth = depth.max(1);
        Ok(OrderBook {
            symbol: symbol.clone(),
            bids: levels(&book, 0, depth).map_err(named)?,
            asks: levels(&book, 1, depth).map_err(named)?,
            time_ms: wire::ms(&book, "time").unwrap_or_else(|_| self.client.clock().now_ms()),
        })
    }

    async fn klines(
        &self,
        symbol: &Symbol,
        interval: Interval,
        query: KlineQuery,
    ) -> Result<Vec<Candle>, VenueError> {
        query.validate()?;
        let name = interval_name(interval).ok_or_else(|| {
            unserved_interval(self.client.venue(), interval, |i| {
                interval_name(i).is_some()
            })
        })?;
        let asset = self.assets.get(symbol).await?;
        let now = self.client.clock().now_ms();
        let times = query.open_times(interval, now);
        let (Some(&first), Some(&last)) = (times.first(), times.last()) else {
            return Ok(Vec::new());
        };
        let named = |e: VenueError| e.in_answer_to("POST /info candleSnapshot");
        let rows = self
            .client
            .info(
                &json!({"type": "candleSnapshot", "req": {"coin": asset.coin,
                "interval": name, "startTime": first, "endTime": last + interval.millis() - 1}}),
            )
            .await?;
        let mut candles: Vec<Candle> = rows
            .as_array()
            .ok_or_else(|| named(wire::bad(crate::error::WHOLE_ANSWER)))?
            .iter()
            .map(wire::candle)
            .collect::<Result<_, _>>()
            .map_err(named)?;
        candles.retain(|c| (first..=last).contains(&c.open_time_ms));
        candles.sort_by_key(|c| c.open_time_ms);
        candles.dedup_by_key(|c| c.open_time_ms);
        Ok(candles)
    }

    async fn funding_rate(&self, symbol: &Symbol) -> Result<Option<FundingRate>, VenueError> {
        let asset = self.assets.get(symbol).await?;
        let ctx = self.context(&asset).await?;
        let now = self.client.clock().now_ms();
        Ok(Some(FundingRate {
            symbol: symbol.clone(),
            rate: wire::dec(&ctx, "funding")
                .map_err(|e| e.in_answer_to("POST /info metaAndAssetCtxs"))?,
            next_funding_time_ms: (now.div_euclid(HOUR_MS) + 1) * HOUR_MS,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_interval_but_six_hours_has_a_name() {
        for interval in Interval::ALL {
            assert_eq!(interval_name(interval).is_none(), interval == Interval::H6);
        }
        assert_eq!(interval_name(Interval::D1), Some("1d"));
        let refused =
            unserved_interval("hyperliquid", Interval::H6, |i| interval_name(i).is_some())
                .to_string();
        assert_eq!(
            refused,
            "hyperliquid does not support 6h candles: it serves 1m, 3m, 5m, 15m, 30m, 1h, 2h, 4h, 12h, 1d, 1w; ask for one of those"
        );
    }
}
