//! Quotes: the last trade and best prices, the order book, and funding.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::Symbol;

/// Best bid/ask and the last trade price at `time_ms`. `mark` is the price futures venues use
/// for unrealized P&L and liquidation; sources without one report the last price.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ticker {
    pub symbol: Symbol,
    pub last: Decimal,
    pub bid: Decimal,
    pub ask: Decimal,
    pub mark: Decimal,
    pub volume_24h: Decimal,
    pub time_ms: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BookLevel {
    pub price: Decimal,
    pub quantity: Decimal,
}

/// Bids best (highest) first, asks best (lowest) first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderBook {
    pub symbol: Symbol,
    pub bids: Vec<BookLevel>,
    pub asks: Vec<BookLevel>,
    pub time_ms: i64,
}

impl OrderBook {
    /// REFERENCE §5's order-book pressure: Σ bid size / Σ ask size over the first `levels`
    /// levels. `None` when the ask side is empty, because "infinite pressure" helps nobody.
    pub fn pressure_ratio(&self, levels: usize) -> Option<Decimal> {
        let bids: Decimal = self.bids.iter().take(levels).map(|l| l.quantity).sum();
        let asks: Decimal = self.asks.iter().take(levels).map(|l| l.quantity).sum();
        if asks.is_zero() {
            None
        } else {
            Some(bids / asks)
        }
    }

    pub fn best_bid(&self) -> Option<Decimal> {
        self.bids.first().map(|l| l.price)
    }

    pub fn best_ask(&self) -> Option<Decimal> {
        self.asks.first().map(|l| l.price)
    }
}

/// A perpetual's funding rate (a fraction per funding period, 0.0001 = 0.01%) and when the
/// next payment happens.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FundingRate {
    pub symbol: Symbol,
    pub rate: Decimal,
    pub next_funding_time_ms: i64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal_macros::dec;

    #[test]
    fn pressure_ratio_sums_the_first_levels() {
        let lvl = |p, q| BookLevel {
            price: p,
            quantity: q,
        };
        let book = OrderBook {
            symbol: Symbol::parse("BTCUSDT").unwrap(),
            bids: vec![
                lvl(dec!(99), dec!(3)),
                lvl(dec!(98), dec!(1)),
                lvl(dec!(97), dec!(50)),
            ],
            asks: vec![lvl(dec!(101), dec!(1)), lvl(dec!(102), dec!(1))],
            time_ms: 0,
        };
        assert_eq!(book.pressure_ratio(2), Some(dec!(2)));
        assert_eq!(book.best_bid(), Some(dec!(99)));
    }
}
