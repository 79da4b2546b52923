//! The mock's books: accounts, their positions (in contracts), orders, algo orders and fills,
//! and a per-instrument order book of resting liquidity that market orders really consume.

use std::collections::HashMap;

use rust_decimal::Decimal;
use serde_json::{Value, json};

use super::fault::{Fault, Route};

/// The regular-tier taker fee of a USDT perpetual (0.05 %).
pub(crate) const TAKER_FEE: Decimal = Decimal::from_parts(5, 0, 0, false, 4);

/// One listed instrument: the fields of `GET /api/v5/public/instruments` the mock enforces.
#[derive(Debug, Clone)]
pub struct Instrument {
    pub inst_id: &'static str,
    pub settle: &'static str,
    pub ct_type: &'static str,
    /// Coins per contract (`ctVal`, with `ctMult` 1).
    pub ct_val: Decimal,
    pub lot: Decimal,
    pub min: Decimal,
    pub tick: Decimal,
    /// Contracts resting at each of the book's levels.
    pub depth: Decimal,
    pub start: Decimal,
}

/// BTC trades in lots of 0.01 contract of 0.01 BTC; ETH's minimum (1 contract) is ten lots,
/// so a quantity can fit the lot and still be under the minimum; an inverse BTC-USD swap is
/// listed too, as OKX lists it, for a client to skip.
pub(crate) fn instruments() -> Vec<Instrument> {
    let d = Decimal::new;
    vec![
        Instrument {
            inst_id: "BTC-USDT-SWAP",
            settle: "USDT",
            ct_type: "linear",
            ct_val: d(1, 2),
            lot: d(1, 2),
            min: d(1, 2),
            tick: d(1, 1),
            depth: d(200, 0),
            start: d(60_000, 0),
        },
        Instrument {
            inst_id: "ETH-USDT-SWAP",
            settle: "USDT",
            ct_type: "linear",
            ct_val: d(1, 1),
            lot: d(1, 1),
            min: d(1, 0),
            tick: d(1, 2),
            depth: d(300, 0),
            start: d(3_000, 0),
        },
        Instrument {
            inst_id: "DOGE-USDT-SWAP",
            settle: "USDT",
            ct_type: "linear",
            ct_val: d(1_000, 0),
            lot: d(1, 0),
            min: d(1, 0),
            tick: d(1, 5),
            depth: d(100, 0),
            start: d(1, 1),
        },
        Instrument {
            inst_id: "BTC-USD-SWAP",
            settle: "BTC",
            ct_type: "inverse",
            ct_val: d(100, 0),
            lot: d(1, 0),
            min: d(1, 0),
            tick: d(1, 1),
            depth: d(100, 0),
            start: d(60_000, 0),
        },
    ]
}

#[derive(Debug, Clone)]
pub struct MockOkxAccount {
    pub secret: String,
    pub passphrase: String,
    /// USDT cash balance (`cashBal`).
    pub balance: Decimal,
    /// A demo-trading key: valid only with `x-simulated-trading: 1`.
    pub demo: bool,
    pub ip_whitelisted: bool,
    /// The key's `trade` permission; without it trading endpoints answer 50120.
    pub can_trade: bool,
    /// How far the clock of the machine using this key is off (ms, + ahead).
    pub client_clock_off_ms: i64,
    /// `long_short_mode` when true, `net_mode` otherwise.
    pub long_short: bool,
    /// `acctLv`: 1 spot, 2 futures, 3 multi-currency, 4 portfolio margin.
    pub acct_lv: &'static str,
    /// (instId, mgnMode) → leverage.
    pub leverage: HashMap<(String, String), u32>,
    /// (instId, posSide "net"|"long"|"short") → the position.
    pub positions: HashMap<(String, String), MockPosition>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct MockPosition {
    /// Contracts; signed in net mode (negative is short).
    pub pos: Decimal,
    pub avg_px: Decimal,
    pub mgn_mode: String,
    pub lever: u32,
}

/// A regular order as the mock keeps it.
#[derive(Debug, Clone, PartialEq)]
pub struct MockOkxOrder {
    pub ord_id: String,
    pub api_key: String,
    pub cl_ord_id: String,
    pub inst_id: String,
    pub side: String,
    pub pos_side: String,
    pub ord_type: String,
    pub td_mode: String,
    /// `live`, `partially_filled`, `filled`, `canceled`.
    pub state: String,
    /// Contracts.
    pub sz: Decimal,
    pub px: Option<Decimal>,
    pub acc_fill_sz: Decimal,
    /// Σ price × contracts filled, for the average price.
    pub filled_value: Decimal,
    pub reduce_only: bool,
    pub time_ms: i64,
}

impl MockOkxOrder {
    pub(crate) fn is_live(&self) -> bool {
        self.state == "live" || self.state == "partially_filled"
    }

    /// A row of `GET /api/v5/trade/order` ("Get order details" response example).
    pub(crate) fn to_json(&self, lever: u32) -> Value {
        let avg = if self.acc_fill_sz.is_zero() {
            String::new()
        } else {
            (self.filled_value / self.acc_fill_sz)
                .round_dp(8)
                .to_string()
        };
        json!({
            "instType": "SWAP", "instId": self.inst_id, "ordId": self.ord_id,
            "clOrdId": self.cl_ord_id, "tag": "", "px": self.px.map(|p| p.to_string()).unwrap_or_default(),
            "sz": self.sz.to_string(), "ordType": self.ord_type, "side": self.side,
            "posSide": self.pos_side, "tdMode": self.td_mode, "accFillSz": self.acc_fill_sz.to_string(),
            "fillPx": "", "fillSz": "", "avgPx": avg, "state": self.state, "lever": lever.to_string(),
            "reduceOnly": self.reduce_only.to_string(), "category": "normal", "feeCcy": "USDT",
            "cTime": self.time_ms.to_string(), "uTime": self.time_ms.to_string(),
        })
    }
}

/// A stop-loss or take-profit (`ordType: conditional`) as the mock keeps it.
#[derive(Debug, Clone, PartialEq)]
pub struct MockOkxAlgo {
    pub algo_id: String,
    pub api_key: String,
    pub algo_cl_ord_id: String,
    pub inst_id: String,
    pub side: String,
    pub pos_side: String,
    pub td_mode: String,
    pub sz: Decimal,
    pub sl_trigger: Option<Decimal>,
    pub tp_trigger: Option<Decimal>,
    pub reduce_only: bool,
    /// Cancelled when its position is fully closed.
    pub cxl_on_close_pos: bool,
    /// `live`, `effective`, `canceled`, `order_failed`.
    pub state: String,
    /// The market order it placed once triggered.
    pub ord_id: String,
    pub time_ms: i64,
}

impl MockOkxAlgo {
    /// A row of `GET /api/v5/trade/order-algo` ("Get algo order details" response example).
    pub(crate) fn to_json(&self) -> Value {
        let px = |p: Option<Decimal>| p.map(|p| p.to_string()).unwrap_or_default();
        let ord = |p: Option<Decimal>| if p.is_some() { "-1" } else { "" };
        let kind = |p: Option<Decimal>| if p.is_some() { "mark" } else { "" };
        json!({
            "instType": "SWAP", "instId": self.inst_id, "algoId": self.algo_id,
            "algoClOrdId": self.algo_cl_ord_id, "clOrdId": "", "ordType": "conditional",
            "side": self.side, "posSide": self.pos_side, "tdMode": self.td_mode,
            "sz": self.sz.to_string(), "state": self.state, "ordId": self.ord_id,
            "ordIdList": if self.ord_id.is_empty() { vec![] } else { vec![self.ord_id.clone()] },
            "slTriggerPx": px(self.sl_trigger), "slOrdPx": ord(self.sl_trigger),
            "slTriggerPxType": kind(self.sl_trigger), "tpTriggerPx": px(self.tp_trigger),
            "tpOrdPx": ord(self.tp_trigger), "tpTriggerPxType": kind(self.tp_trigger),
            "reduceOnly": self.reduce_only.to_string(), "actualSz": "", "actualPx": "",
            "failCode": "", "cTime": self.time_ms.to_string(), "uTime": self.time_ms.to_string(),
        })
    }
}

#[derive(Debug, Clone)]
pub struct MockFill {
    pub bill_id: i64,
    pub trade_id: i64,
    pub api_key: String,
    pub ord_id: String,
    pub cl_ord_id: String,
    pub inst_id: String,
    pub side: String,
    pub pos_side: String,
    pub px: Decimal,
    pub sz: Decimal,
    /// Negative when paid, as OKX reports it.
    pub fee: Decimal,
    pub pnl: Decimal,
    pub time_ms: i64,
}

/// Resting liquidity in contracts: (price, size), best first.
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
    pub accounts: HashMap<String, MockOkxAccount>,
    pub instruments: Vec<Instrument>,
    pub books: HashMap<String, Book>,
    pub orders: Vec<MockOkxOrder>,
    pub algos: Vec<MockOkxAlgo>,
    pub fills: Vec<MockFill>,
    pub faults: Vec<(Route, Fault)>,
    pub clock_skew_ms: i64,
    pub requests: Vec<(String, String)>,
    pub next_id: i64,
}

impl State {
    pub(crate) fn instrument(&self, inst_id: &str) -> Option<Instrument> {
        self.instruments
            .iter()
            .find(|i| i.inst_id == inst_id)
            .cloned()
    }

    pub(crate) fn book(&mut self, inst: &Instrument) -> &mut Book {
        self.books
            .entry(inst.inst_id.to_string())
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

    pub(crate) fn next_id(&mut self) -> i64 {
        self.next_id += 1;
        // OKX's ids are long decimal strings; the mock's are short ones of the same kind.
        700_000_000_000 + self.next_id
    }

    /// Walk the book for `sz` contracts on `side`, no worse than `limit`: the fills.
    pub(crate) fn take_liquidity(
        &mut self,
        inst: &Instrument,
        side: &str,
        sz: Decimal,
        limit: Option<Decimal>,
    ) -> Vec<(Decimal, Decimal)> {
        let book = self.book(inst);
        let levels = if side == "buy" {
            &mut book.asks
        } else {
            &mut book.bids
        };
        let mut left = sz;
        let mut fills = Vec::new();
        while left > Decimal::ZERO {
            let Some(level) = levels.first_mut() else {
                break;
            };
            let acceptable = match limit {
                Some(l) if side == "buy" => level.0 <= l,
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
        for ((inst_id, pos_side), p) in positions {
            let Some(inst) = self.instrument(&inst_id) else {
                continue;
            };
            let mark = self.mark(&inst);
            let coins = p.pos * inst.ct_val;
            let signed = if pos_side == "short" {
                -coins.abs()
            } else {
                coins
            };
            upl += (mark - p.avg_px) * signed;
            margin += coins.abs() * p.avg_px / Decimal::from(p.lever.max(1));
        }
        (upl, margin)
    }
}
