//! The mock's books: accounts (one Unified Trading Account per key), their positions in
//! coins, orders (conditional ones included), executions, and a per-symbol order book of
//! resting liquidity that market orders really consume.

use std::collections::HashMap;

use rust_decimal::Decimal;
use serde_json::{Value, json};

use super::fault::{Fault, Route};

/// Bybit's base taker fee on perpetuals (0.055 %).
pub(crate) const TAKER_FEE: Decimal = Decimal::from_parts(55, 0, 0, false, 5);

/// One listed instrument: the fields of `GET /v5/market/instruments-info` the mock enforces.
#[derive(Debug, Clone)]
pub struct Instrument {
    pub symbol: &'static str,
    pub base: &'static str,
    pub settle: &'static str,
    pub tick: Decimal,
    pub step: Decimal,
    pub min_qty: Decimal,
    pub min_notional: Decimal,
    /// Coins resting at each of the book's levels.
    pub depth: Decimal,
    pub start: Decimal,
}

/// BTC and ETH as Bybit lists them; DOGE trades in whole coins from one coin, so ten DOGE at
/// 0.1 fit every size rule and are still under the 5 USDT minimum value; a USDC perpetual is
/// listed too, as Bybit lists it under `linear`, for a client to skip.
pub(crate) fn instruments() -> Vec<Instrument> {
    let d = Decimal::new;
    let usdt = |symbol, base, tick, step, depth, start| Instrument {
        symbol,
        base,
        settle: "USDT",
        tick,
        step,
        min_qty: step,
        min_notional: d(5, 0),
        depth,
        start,
    };
    vec![
        usdt("BTCUSDT", "BTC", d(1, 1), d(1, 3), d(2, 0), d(60_000, 0)),
        usdt("ETHUSDT", "ETH", d(1, 2), d(1, 2), d(30, 0), d(3_000, 0)),
        usdt("DOGEUSDT", "DOGE", d(1, 5), d(1, 0), d(100_000, 0), d(1, 1)),
        Instrument {
            settle: "USDC",
            ..usdt("BTCPERP", "BTC", d(5, 1), d(1, 3), d(2, 0), d(60_000, 0))
        },
    ]
}

#[derive(Debug, Clone)]
pub struct MockBybitAccount {
    pub secret: String,
    /// USDT wallet balance (`walletBalance`).
    pub balance: Decimal,
    /// Whether the caller's IP is among the key's bound IPs.
    pub ip_whitelisted: bool,
    /// Read-write key (`readOnly: 0`) with contract trade permission; without it trading
    /// endpoints answer 10005.
    pub can_trade: bool,
    /// How far the clock of the machine using this key is off (ms, + ahead).
    pub client_clock_off_ms: i64,
    /// Hedge mode ("Both Sides") for USDT perpetuals, one-way otherwise.
    pub hedge: bool,
    /// `REGULAR_MARGIN`, `ISOLATED_MARGIN` or `PORTFOLIO_MARGIN`.
    pub margin_mode: String,
    /// A Unified Trading Account (`unifiedMarginStatus` 5); a classic one (1) otherwise.
    pub unified: bool,
    /// symbol → leverage (buy and sell alike).
    pub leverage: HashMap<String, u32>,
    /// (symbol, positionIdx) → the position.
    pub positions: HashMap<(String, u8), MockPosition>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct MockPosition {
    /// Coins; signed in one-way mode (negative is short), positive on a hedge side.
    pub size: Decimal,
    pub avg_price: Decimal,
    pub leverage: u32,
}

/// An order as the mock keeps it; a conditional order keeps its id through its trigger.
#[derive(Debug, Clone, PartialEq)]
pub struct MockBybitOrder {
    pub order_id: String,
    pub api_key: String,
    pub order_link_id: String,
    pub symbol: String,
    /// `Buy`, `Sell`.
    pub side: String,
    /// `Market`, `Limit`.
    pub order_type: String,
    pub position_idx: u8,
    pub qty: Decimal,
    pub price: Option<Decimal>,
    pub time_in_force: String,
    /// `New`, `PartiallyFilled`, `Untriggered`, `Filled`, `Cancelled`, `Deactivated`.
    pub status: String,
    pub cum_exec_qty: Decimal,
    /// Σ price × qty filled, for the average price.
    pub cum_exec_value: Decimal,
    pub cum_exec_fee: Decimal,
    pub reduce_only: bool,
    pub close_on_trigger: bool,
    pub trigger_price: Option<Decimal>,
    /// 1 rise, 2 fall; 0 for a plain order.
    pub trigger_direction: u8,
    pub created_ms: i64,
    pub updated_ms: i64,
}

impl MockBybitOrder {
    pub(crate) fn is_open(&self) -> bool {
        matches!(
            self.status.as_str(),
            "New" | "PartiallyFilled" | "Untriggered"
        )
    }

    /// A row of `GET /v5/order/realtime` ("Get Open & Closed Orders" response example).
    pub(crate) fn to_json(&self) -> Value {
        let text = |d: Decimal| d.normalize().to_string();
        let avg = if self.cum_exec_qty.is_zero() {
            String::new()
        } else {
            (self.cum_exec_value / self.cum_exec_qty)
                .round_dp(8)
                .normalize()
                .to_string()
        };
        let conditional = self.trigger_price.is_some();
        // Two halves: one `json!` of every field is past the macro's recursion limit.
        let mut row = json!({
            "orderId": self.order_id, "orderLinkId": self.order_link_id, "blockTradeId": "",
            "symbol": self.symbol, "price": self.price.map_or("0".to_string(), text),
            "qty": text(self.qty), "side": self.side, "isLeverage": "",
            "positionIdx": self.position_idx, "orderStatus": self.status,
            "createType": if conditional { "CreateByStopOrder" } else { "CreateByUser" },
            "cancelType": "UNKNOWN", "rejectReason": "EC_NoError", "avgPrice": avg,
            "leavesQty": text(if self.is_open() { self.qty - self.cum_exec_qty } else { Decimal::ZERO }),
            "leavesValue": "0", "cumExecQty": text(self.cum_exec_qty),
            "cumExecValue": text(self.cum_exec_value), "cumExecFee": text(self.cum_exec_fee),
            "timeInForce": self.time_in_force, "orderType": self.order_type,
        });
        let rest = json!({
            "stopOrderType": if conditional { "Stop" } else { "" }, "orderIv": "",
            "triggerPrice": self.trigger_price.map_or("0".to_string(), text),
            "takeProfit": "0", "stopLoss": "0", "tpTriggerBy": "", "slTriggerBy": "",
            "triggerDirection": self.trigger_direction,
            "triggerBy": if conditional { "MarkPrice" } else { "" },
            "lastPriceOnCreated": "", "reduceOnly": self.reduce_only,
            "closeOnTrigger": self.close_on_trigger, "smpType": "None", "smpGroup": 0,
            "smpOrderId": "", "tpslMode": "", "tpLimitPrice": "", "slLimitPrice": "",
            "placeType": "", "createdTime": self.created_ms.to_string(),
            "updatedTime": self.updated_ms.to_string(),
            "cumFeeDetail": {"USDT": text(self.cum_exec_fee)},
        });
        if let (Some(row), Value::Object(rest)) = (row.as_object_mut(), rest) {
            row.extend(rest);
        }
        row
    }
}

/// One execution, with what the transaction log books for it.
#[derive(Debug, Clone)]
pub struct MockExecution {
    pub exec_id: String,
    pub api_key: String,
    pub order_id: String,
    pub order_link_id: String,
    pub symbol: String,
    pub side: String,
    pub order_type: String,
    pub price: Decimal,
    pub qty: Decimal,
    /// Positive when paid, as Bybit's `execFee`.
    pub fee: Decimal,
    /// Realized P&L of the closing part (`cashFlow` in the transaction log).
    pub pnl: Decimal,
    pub closed_size: Decimal,
    /// The position's signed size after the trade (the log's `size`).
    pub size_after: Decimal,
    pub cash_balance: Decimal,
    pub time_ms: i64,
}

/// Resting liquidity in coins: (price, size), best first.
#[derive(Debug, Clone, Default)]
pub struct Book {
    pub mid: Decimal,
    pub bids: Vec<(Decimal, Decimal)>,
    pub asks: Vec<(Decimal, Decimal)>,
}

impl Book {
    pub fn around(inst: &Instrument, mid: Decimal) -> Book {
        let level = |i: i64| Decimal::from(i) * inst.tick;
        Book {
            mid,
            bids: (1..=20).map(|i| (mid - level(i), inst.depth)).collect(),
            asks: (1..=20).map(|i| (mid + level(i), inst.depth)).collect(),
        }
    }
}

#[derive(Debug, Default)]
pub struct State {
    pub accounts: HashMap<String, MockBybitAccount>,
    pub instruments: Vec<Instrument>,
    pub books: HashMap<String, Book>,
    pub orders: Vec<MockBybitOrder>,
    pub executions: Vec<MockExecution>,
    pub faults: Vec<(Route, Fault)>,
    pub clock_skew_ms: i64,
    pub requests: Vec<(String, String)>,
    pub next_id: u64,
    /// Closed orders are gone from `GET /v5/order/realtime`, as after a Bybit restart.
    pub realtime_forgot_closed: bool,
}

impl State {
    pub(crate) fn instrument(&self, symbol: &str) -> Option<Instrument> {
        self.instruments
            .iter()
            .find(|i| i.symbol == symbol)
            .cloned()
    }

    pub(crate) fn book(&mut self, inst: &Instrument) -> &mut Book {
        self.books
            .entry(inst.symbol.to_string())
            .or_insert_with(|| Book::around(inst, inst.start))
    }

    pub(crate) fn mark(&mut self, inst: &Instrument) -> Decimal {
        self.book(inst).mid
    }

    /// Take the first queued fault that matches this request.
    pub(crate) fn take_fault(&mut self, method: &str, path: &str) -> Option<Fault> {
        let i = self
            .faults
            .iter()
            .position(|(r, _)| r.matches(method, path))?;
        Some(self.faults.remove(i).1)
    }

    /// A fresh id in the shape of Bybit's (a UUID).
    pub(crate) fn uuid(&mut self) -> String {
        self.next_id += 1;
        let n = self.next_id;
        format!(
            "{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}",
            0x5a17_0000u64 + n,
            n & 0xffff,
            n & 0xfff,
            (n >> 12) & 0xfff,
            n
        )
    }

    /// Walk the book for `qty` coins on `side`, no worse than `limit`: the fills.
    pub(crate) fn take_liquidity(
        &mut self,
        inst: &Instrument,
        side: &str,
        qty: Decimal,
        limit: Option<Decimal>,
    ) -> Vec<(Decimal, Decimal)> {
        let book = self.book(inst);
        let levels = if side == "Buy" {
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
                Some(l) if side == "Buy" => level.0 <= l,
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

    /// Unrealized P&L and initial margin of an account's positions at the marks.
    pub(crate) fn exposure(&mut self, key: &str) -> (Decimal, Decimal) {
        let Some(positions) = self.accounts.get(key).map(|a| a.positions.clone()) else {
            return (Decimal::ZERO, Decimal::ZERO);
        };
        let (mut upl, mut margin) = (Decimal::ZERO, Decimal::ZERO);
        for ((symbol, idx), p) in positions {
            let Some(inst) = self.instrument(&symbol) else {
                continue;
            };
            let mark = self.mark(&inst);
            upl += (mark - p.avg_price) * signed(idx, p.size);
            margin += initial_margin(&p);
        }
        (upl, margin)
    }

    /// Margin held by an account's resting limit orders (`totalOrderIM`).
    pub(crate) fn order_margin(&self, key: &str) -> Decimal {
        let lever = |symbol: &str| {
            self.accounts
                .get(key)
                .and_then(|a| a.leverage.get(symbol).copied())
                .unwrap_or(10)
        };
        self.orders
            .iter()
            .filter(|o| o.api_key == key && o.is_open() && !o.reduce_only)
            .filter_map(|o| {
                let price = o.price?;
                Some((o.qty - o.cum_exec_qty) * price / Decimal::from(lever(&o.symbol).max(1)))
            })
            .sum()
    }
}

/// A position's size with its direction: a hedge short side (2) is negative.
pub(crate) fn signed(idx: u8, size: Decimal) -> Decimal {
    if idx == 2 { -size.abs() } else { size }
}

pub(crate) fn initial_margin(p: &MockPosition) -> Decimal {
    (p.size.abs() * p.avg_price / Decimal::from(p.leverage.max(1))).round_dp(8)
}
