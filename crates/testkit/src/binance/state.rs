//! The mock exchange's books: accounts, positions, orders, fills and a per-symbol order book of
//! resting liquidity that market orders really consume.

use std::collections::HashMap;

use rust_decimal::Decimal;
use serde_json::{Value, json};

use super::fault::{EchoRequests, Fault, Route};

pub(crate) const TAKER_FEE: Decimal = Decimal::from_parts(4, 0, 0, false, 4); // 0.0004
pub(crate) const MIN_NOTIONAL: i64 = 5;

#[derive(Debug, Clone)]
pub struct MockAccount {
    pub secret: String,
    pub balance: Decimal,
    pub futures_enabled: bool,
    pub ip_whitelisted: bool,
    pub dual_side: bool,
    /// How far the clock of the machine using this key is off (ms, + ahead): its signed
    /// requests carry timestamps that far from the server's, as from a drifting host.
    pub client_clock_off_ms: i64,
    pub leverage: HashMap<String, u32>,
    pub isolated: HashMap<String, bool>,
    /// (symbol, positionSide "BOTH"|"LONG"|"SHORT") → (signed amount, entry price)
    pub positions: HashMap<(String, String), (Decimal, Decimal)>,
}

/// An order as the mock keeps it.
#[derive(Debug, Clone, PartialEq)]
pub struct MockOrder {
    pub order_id: i64,
    pub api_key: String,
    pub client_order_id: String,
    pub symbol: String,
    pub side: String,
    pub order_type: String,
    pub position_side: String,
    pub status: String,
    pub quantity: Decimal,
    pub price: Decimal,
    pub stop_price: Decimal,
    pub executed: Decimal,
    pub cum_quote: Decimal,
    pub reduce_only: bool,
    pub time_ms: i64,
}

impl MockOrder {
    pub(crate) fn to_json(&self) -> Value {
        let avg = if self.executed.is_zero() {
            Decimal::ZERO
        } else {
            (self.cum_quote / self.executed).round_dp(8)
        };
        json!({
            "orderId": self.order_id, "symbol": self.symbol, "status": self.status,
            "clientOrderId": self.client_order_id, "price": self.price.to_string(),
            "avgPrice": avg.to_string(), "origQty": self.quantity.to_string(),
            "executedQty": self.executed.to_string(), "cumQuote": self.cum_quote.to_string(),
            "timeInForce": "GTC", "type": self.order_type, "origType": self.order_type,
            "reduceOnly": self.reduce_only, "closePosition": false, "side": self.side,
            "positionSide": self.position_side, "stopPrice": self.stop_price.to_string(),
            "workingType": "CONTRACT_PRICE", "priceProtect": false,
            "updateTime": self.time_ms, "time": self.time_ms,
        })
    }
}

#[derive(Debug, Clone)]
pub struct MockFill {
    pub id: i64,
    pub api_key: String,
    pub order_id: i64,
    pub symbol: String,
    pub side: String,
    pub price: Decimal,
    pub qty: Decimal,
    pub commission: Decimal,
    pub realized_pnl: Decimal,
    pub position_side: String,
    pub time_ms: i64,
}

/// Resting liquidity: (price, quantity), best first.
#[derive(Debug, Clone, Default)]
pub struct Book {
    pub mid: Decimal,
    pub bids: Vec<(Decimal, Decimal)>,
    pub asks: Vec<(Decimal, Decimal)>,
}

/// Tick, step (decimal places) and the size of each resting level, per symbol.
pub(crate) fn symbol_rules(symbol: &str) -> (u32, u32, Decimal) {
    match symbol {
        "BTCUSDT" => (1, 3, Decimal::new(2, 0)),
        "ETHUSDT" => (2, 3, Decimal::new(30, 0)),
        _ => (4, 0, Decimal::new(100_000, 0)),
    }
}

impl Book {
    pub fn around(symbol: &str, mid: Decimal) -> Book {
        let (price_dp, _, size) = symbol_rules(symbol);
        let tick = Decimal::new(1, price_dp);
        let level = |i: i64| Decimal::from(i) * tick;
        Book {
            mid,
            bids: (1..=20).map(|i| (mid - level(i), size)).collect(),
            asks: (1..=20).map(|i| (mid + level(i), size)).collect(),
        }
    }
}

#[derive(Debug, Default)]
pub struct State {
    pub accounts: HashMap<String, MockAccount>,
    pub books: HashMap<String, Book>,
    pub orders: Vec<MockOrder>,
    pub fills: Vec<MockFill>,
    pub faults: Vec<(Route, Fault)>,
    /// Faults that wait: (route, matching requests still to let through, fault).
    pub later_faults: Vec<(Route, usize, Fault)>,
    /// Stretches with no candles, as when trading halted: (symbol, from open time, to open
    /// time exclusive).
    pub kline_gaps: Vec<(String, i64, i64)>,
    /// Funding announced per symbol: (rate, next funding time). Without it, 0.01 % at the
    /// next 8-hour boundary.
    pub funding: HashMap<String, (Decimal, i64)>,
    pub echo: Option<EchoRequests>,
    /// While set, every request but `/fapi/v1/time` is answered HTTP 200 with this body.
    pub hollow: Option<serde_json::Value>,
    pub clock_skew_ms: i64,
    pub weight_limit: u32,
    pub weight_used: u32,
    pub weight_minute: i64,
    pub requests: Vec<(String, String)>,
    pub next_id: i64,
}

impl State {
    pub(crate) fn book(&mut self, symbol: &str) -> &mut Book {
        self.books.entry(symbol.to_string()).or_insert_with(|| {
            let mid = match symbol {
                "BTCUSDT" => Decimal::new(60_000, 0),
                "ETHUSDT" => Decimal::new(3_000, 0),
                _ => Decimal::ONE,
            };
            Book::around(symbol, mid)
        })
    }

    /// Take the first queued fault that matches this request.
    pub(crate) fn take_fault(&mut self, method: &str, path: &str, signed: bool) -> Option<Fault> {
        let mut due = None;
        for (i, (route, wait, _)) in self.later_faults.iter_mut().enumerate() {
            if route.matches(method, path, signed) {
                if *wait == 0 && due.is_none() {
                    due = Some(i);
                } else {
                    *wait = wait.saturating_sub(1);
                }
            }
        }
        if let Some(i) = due {
            return Some(self.later_faults.remove(i).2);
        }
        let i = self
            .faults
            .iter()
            .position(|(r, _)| r.matches(method, path, signed))?;
        Some(self.faults.remove(i).1)
    }

    pub(crate) fn next_id(&mut self) -> i64 {
        self.next_id += 1;
        self.next_id
    }

    /// Walk the book for `qty` on `side`, no worse than `limit`. Returns the fills.
    pub(crate) fn take_liquidity(
        &mut self,
        symbol: &str,
        side: &str,
        qty: Decimal,
        limit: Option<Decimal>,
    ) -> Vec<(Decimal, Decimal)> {
        let book = self.book(symbol);
        let levels = if side == "BUY" {
            &mut book.asks
        } else {
            &mut book.bids
        };
        let mut left = qty;
        let mut fills = Vec::new();
        while left > Decimal::ZERO {
            let Some(level) = levels.first_mut() else {
                break;
            };
            let acceptable = match limit {
                Some(l) if side == "BUY" => level.0 <= l,
                Some(l) => level.0 >= l,
                None => true,
            };
            if !acceptable {
                break;
            }
            let take = left.min(level.1);
            fills.push((level.0, take));
            level.1 -= take;
            left -= take;
            if level.1.is_zero() {
                levels.remove(0);
            }
        }
        fills
    }
}
