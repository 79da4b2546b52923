//! A market whose prices a test (or a backtest driver) sets by hand.
//!
//! The paper account needs a price to fill against; tests of fees, P&L, stops and liquidation
//! need to put that price exactly where the hand computation says, and funding tests its rate
//! and time. Klines are not recorded.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use nofxi_domain::Interval;
use nofxi_domain::market::{BookLevel, Candle, FundingRate, OrderBook, Symbol, Ticker};
use rust_decimal::Decimal;

use crate::{Clock, KlineQuery, MarketData, VenueError};

#[derive(Debug, Clone)]
pub struct ManualMarket {
    prices: Arc<Mutex<HashMap<Symbol, Decimal>>>,
    /// Announced funding per symbol: (rate, next funding time).
    funding: Arc<Mutex<HashMap<Symbol, (Decimal, i64)>>>,
    clock: Arc<dyn Clock>,
}

impl ManualMarket {
    pub fn new(clock: Arc<dyn Clock>) -> ManualMarket {
        ManualMarket {
            prices: Arc::default(),
            funding: Arc::default(),
            clock,
        }
    }

    /// Set the last (= bid = ask = mark) price of a symbol.
    pub fn set_price(&self, symbol: &Symbol, price: Decimal) {
        if let Ok(mut p) = self.prices.lock() {
            p.insert(symbol.clone(), price);
        }
    }

    /// Announce `rate` for the funding at `next_funding_time_ms`; without one the market has
    /// no funding.
    pub fn set_funding(&self, symbol: &Symbol, rate: Decimal, next_funding_time_ms: i64) {
        if let Ok(mut f) = self.funding.lock() {
            f.insert(symbol.clone(), (rate, next_funding_time_ms));
        }
    }

    fn price(&self, symbol: &Symbol) -> Result<Decimal, VenueError> {
        self.prices
            .lock()
            .ok()
            .and_then(|p| p.get(symbol).copied())
            .ok_or_else(|| VenueError::NoData {
                venue: "manual".into(),
                what: symbol.to_string(),
            })
    }
}

#[async_trait]
impl MarketData for ManualMarket {
    fn source(&self) -> &str {
        "manual"
    }

    async fn ticker(&self, symbol: &Symbol) -> Result<Ticker, VenueError> {
        let p = self.price(symbol)?;
        Ok(Ticker {
            symbol: symbol.clone(),
            last: p,
            bid: p,
            ask: p,
            mark: p,
            volume_24h: Decimal::ZERO,
            time_ms: self.clock.now_ms(),
        })
    }

    async fn order_book(&self, symbol: &Symbol, _depth: usize) -> Result<OrderBook, VenueError> {
        let p = self.price(symbol)?;
        let level = BookLevel {
            price: p,
            quantity: Decimal::from(1_000_000),
        };
        Ok(OrderBook {
            symbol: symbol.clone(),
            bids: vec![level],
            asks: vec![level],
            time_ms: self.clock.now_ms(),
        })
    }

    async fn klines(
        &self,
        _symbol: &Symbol,
        _interval: Interval,
        _query: KlineQuery,
    ) -> Result<Vec<Candle>, VenueError> {
        Ok(Vec::new())
    }

    async fn funding_rate(&self, symbol: &Symbol) -> Result<Option<FundingRate>, VenueError> {
        let announced = self
            .funding
            .lock()
            .ok()
            .and_then(|f| f.get(symbol).copied());
        Ok(announced.map(|(rate, next_funding_time_ms)| FundingRate {
            symbol: symbol.clone(),
            rate,
            next_funding_time_ms,
        }))
    }
}
