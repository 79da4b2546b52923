//! The mock's books: accounts, their positions (in the base coin, per holding side), orders,
//! take-profit/stop-loss plans and fills, and a per-symbol order book of resting liquidity
//! that market orders really consume.

use std::collections::HashMap;

use rust_decimal::Decimal;
use serde_json::{Value, json};

use super::fault::{Fault, Route};

/// The taker fee of a USDT-M perpetual (`takerFeeRate` "0.0006" in the contract config's
/// example).
pub(crate) const TAKER_FEE: Decimal = Decimal::from_parts(6, 0, 0, false, 4);
/// The largest leverage the mock's contracts take (`maxLever`).
pub(crate) const MAX_LEVER: u32 = 125;

/// One listed contract: the fields of `GET /api/v2/mix/market/contracts` the mock enforces.
#[derive(Debug, Clone)]
pub struct Contract {
    pub symbol: &'static str,
    pub base: &'static str,
    /// `pricePlace` and `priceEndStep`: the tick is `end_step × 10^-price_place`.
    pub price_place: u32,
    pub end_step: u32,
    /// `volumePlace`: a size's decimals.
    pub volume_place: u32,
    pub size_multiplier: Decimal,
    pub min_trade_num: Decimal,
    pub min_trade_usdt: Decimal,
    /// Coins resting at each of the book's levels.
    pub depth: Decimal,
    pub start: Decimal,
}

impl Contract {
    pub fn tick(&self) -> Decimal {
        Decimal::from(self.end_step) * Decimal::new(1, self.price_place)
    }
}

/// BTC in steps of 0.0001 BTC from 0.0001; ETH in 0.01 from 0.01; DOGE in whole coins, where
/// one coin is far below the 5 USDT minimum amount, so a quantity can fit the step and the
/// minimum quantity and still be refused for its value.
pub(crate) fn contracts() -> Vec<Contract> {
    let d = Decimal::new;
    vec![
        Contract {
            symbol: "BTCUSDT",
            base: "BTC",
            price_place: 1,
            end_step: 1,
            volume_place: 4,
            size_multiplier: d(1, 4),
            min_trade_num: d(1, 4),
            min_trade_usdt: d(5, 0),
            depth: d(2, 0),
            start: d(60_000, 0),
        },
        Contract {
            symbol: "ETHUSDT",
            base: "ETH",
            price_place: 2,
            end_step: 1,
            volume_place: 2,
            size_multiplier: d(1, 2),
            min_trade_num: d(1, 2),
            min_trade_usdt: d(5, 0),
            depth: d(30, 0),
            start: d(3_000, 0),
        },
        Contract {
            symbol: "DOGEUSDT",
            base: "DOGE",
            price_place: 5,
            end_step: 1,
            volume_place: 0,
            size_multiplier: d(1, 0),
            min_trade_num: d(1, 0),
            min_trade_usdt: d(5, 0),
            depth: d(100_000, 0),
            start: d(1, 1),
        },
    ]
}

#[derive(Debug, Clone)]
pub struct MockBitgetAccount {
    pub secret: String,
    pub passphrase: String,
    /// USDT wallet balance (equity less unrealized P&L).
    pub balance: Decimal,
    /// A demo-trading key: valid only with `paptrading: 1`.
    pub demo: bool,
    pub ip_whitelisted: bool,
    /// The key's futures-orders permission (`coow`); without it trading endpoints answer
    /// 40014.
    pub can_trade: bool,
    /// How far the clock of the machine using this key is off (ms, + ahead).
    pub client_clock_off_ms: i64,
    /// `hedge_mode` when true, `one_way_mode` otherwise.
    pub hedge: bool,
    /// symbol → `crossed` | `isolated` (crossed until set).
    pub margin_modes: HashMap<String, String>,
    /// (symbol, margin mode) → leverage.
    pub leverage: HashMap<(String, String), u32>,
    /// (symbol, `long` | `short`) → the position.
    pub positions: HashMap<(String, String), MockPosition>,
}

impl MockBitgetAccount {
    pub(crate) fn margin_mode(&self, symbol: &str) -> String {
        self.margin_modes
            .get(symbol)
            .cloned()
            .unwrap_or_else(|| "crossed".into())
    }

    /// The leverage of a symbol in its margin mode; 10 until one is set.
    pub(crate) fn lever(&self, symbol: &str) -> u32 {
        self.leverage
            .get(&(symbol.to_string(), self.margin_mode(symbol)))
            .copied()
            .unwrap_or(10)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct MockPosition {
    /// Coins held, always positive; the side is the map key's.
    pub size: Decimal,
    pub avg_px: Decimal,
    pub margin_mode: String,
    pub lever: u32,
}

/// A regular order as the mock keeps it.
#[derive(Debug, Clone, PartialEq)]
pub struct MockBitgetOrder {
    pub order_id: String,
    pub api_key: String,
    pub client_oid: String,
    pub symbol: String,
    /// As sent: the trade in one-way mode, the position's direction in hedge mode.
    pub side: String,
    /// `open` | `close` in hedge mode, empty in one-way mode.
    pub trade_side: String,
    pub order_type: String,
    pub margin_mode: String,
    pub hedge: bool,
    /// `live`, `partially_filled`, `filled`, `canceled`.
    pub state: String,
    /// Coins.
    pub size: Decimal,
    pub price: Option<Decimal>,
    pub force: String,
    pub base_volume: Decimal,
    /// Σ price × size filled, for the average price.
    pub filled_value: Decimal,
    pub reduce_only: bool,
    pub profit: Decimal,
    pub fee: Decimal,
    pub time_ms: i64,
}

impl MockBitgetOrder {
    pub(crate) fn is_live(&self) -> bool {
        self.state == "live" || self.state == "partially_filled"
    }

    /// The position side it trades: hedge mode's `long`/`short`, or `net`.
    pub(crate) fn pos_side(&self) -> &str {
        match (self.hedge, self.side.as_str()) {
            (false, _) => "net",
            (true, "buy") => "long",
            (true, _) => "short",
        }
    }

    /// A "Get Order Detail" or "Get Pending Orders" row; `status_field` is `state` for the
    /// first (as its response example names it) and `status` for the second.
    pub(crate) fn to_json(&self, lever: u32, status_field: &str) -> Value {
        let avg = if self.base_volume.is_zero() {
            String::new()
        } else {
            (self.filled_value / self.base_volume)
                .round_dp(8)
                .to_string()
        };
        let mut row = json!({
            "symbol": self.symbol, "size": self.size.to_string(), "orderId": self.order_id,
            "clientOid": self.client_oid, "baseVolume": self.base_volume.to_string(),
            "fee": (-self.fee).to_string(), "price": self.price.map(|p| p.to_string()).unwrap_or_default(),
            "priceAvg": avg, "side": self.side, "force": self.force,
            "totalProfits": self.profit.to_string(), "posSide": self.pos_side(),
            "marginCoin": "USDT", "quoteVolume": self.filled_value.to_string(),
            "leverage": lever.to_string(), "marginMode": self.margin_mode,
            "reduceOnly": if self.reduce_only { "YES" } else { "NO" },
            "enterPointSource": "API", "tradeSide": self.trade_side,
            "posMode": if self.hedge { "hedge_mode" } else { "one_way_mode" },
            "orderType": self.order_type, "orderSource": "normal",
            "cTime": self.time_ms.to_string(), "uTime": self.time_ms.to_string(),
        });
        row[status_field] = json!(self.state);
        row
    }
}

/// A take-profit or stop-loss (`place-tpsl-order`) as the mock keeps it.
#[derive(Debug, Clone, PartialEq)]
pub struct MockBitgetPlan {
    pub order_id: String,
    pub api_key: String,
    pub client_oid: String,
    pub symbol: String,
    /// `loss_plan` | `profit_plan`.
    pub plan_type: String,
    pub trigger: Decimal,
    pub size: Decimal,
    /// The position it protects: `long` | `short`.
    pub hold: String,
    pub hedge: bool,
    /// `live`, `executed`, `cancelled`, `fail_execute`.
    pub status: String,
    /// The market order it placed once triggered.
    pub execute_order_id: String,
    pub time_ms: i64,
}

impl MockBitgetPlan {
    /// An `entrustedList` row of "Get Pending Trigger Order" / "Get History Trigger Order".
    /// The side is told as orders tell it: the closing trade in one-way mode, the position's
    /// direction with `tradeSide: close` in hedge mode.
    pub(crate) fn to_json(&self, st: &State) -> Value {
        let closing = if self.hold == "long" { "sell" } else { "buy" };
        let (side, trade_side, pos_side) = if self.hedge {
            let direction = if self.hold == "long" { "buy" } else { "sell" };
            (direction, "close", self.hold.as_str())
        } else {
            (closing, "", "net")
        };
        let child = st
            .orders
            .iter()
            .find(|o| !self.execute_order_id.is_empty() && o.order_id == self.execute_order_id);
        let trigger = self.trigger.to_string();
        let (sl, tp) = if self.plan_type == "loss_plan" {
            (trigger.as_str(), "")
        } else {
            ("", trigger.as_str())
        };
        json!({
            "planType": self.plan_type, "symbol": self.symbol, "size": self.size.to_string(),
            "orderId": self.order_id, "executeOrderId": self.execute_order_id,
            "clientOid": self.client_oid, "planStatus": self.status, "price": "0",
            "executePrice": "0", "priceAvg": child.map(|o| if o.base_volume.is_zero() {
                String::new() } else { (o.filled_value / o.base_volume).round_dp(8).to_string() })
                .unwrap_or_default(),
            "baseVolume": child.map(|o| o.base_volume.to_string()).unwrap_or_default(),
            "callbackRatio": "", "triggerPrice": trigger, "triggerType": "mark_price",
            "side": side, "posSide": pos_side, "marginCoin": "USDT", "marginMode": "crossed",
            "enterPointSource": "API", "tradeSide": trade_side,
            "posMode": if self.hedge { "hedge_mode" } else { "one_way_mode" },
            "orderType": "market", "cTime": self.time_ms.to_string(), "uTime": self.time_ms.to_string(),
            "stopLossTriggerPrice": sl, "stopSurplusTriggerPrice": tp,
        })
    }
}

#[derive(Debug, Clone)]
pub struct MockFill {
    pub trade_id: i64,
    pub api_key: String,
    pub order_id: String,
    pub symbol: String,
    pub side: String,
    pub trade_side: String,
    pub hedge: bool,
    pub price: Decimal,
    pub size: Decimal,
    /// Paid, positive; sent negative as Bitget reports it.
    pub fee: Decimal,
    pub profit: Decimal,
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
    pub fn around(c: &Contract, mid: Decimal) -> Book {
        let level = |i: i64| Decimal::from(i) * c.tick();
        Book {
            mid,
            bids: (1..=20).map(|i| (mid - level(i), c.depth)).collect(),
            asks: (1..=20).map(|i| (mid + level(i), c.depth)).collect(),
        }
    }
}

#[derive(Debug, Default)]
pub struct State {
    pub accounts: HashMap<String, MockBitgetAccount>,
    pub contracts: Vec<Contract>,
    pub books: HashMap<String, Book>,
    pub orders: Vec<MockBitgetOrder>,
    pub plans: Vec<MockBitgetPlan>,
    pub fills: Vec<MockFill>,
    pub faults: Vec<(Route, Fault)>,
    pub clock_skew_ms: i64,
    pub requests: Vec<(String, String)>,
    pub next_id: i64,
}

impl State {
    pub(crate) fn contract(&self, symbol: &str) -> Option<Contract> {
        self.contracts
            .iter()
            .find(|c| c.symbol.eq_ignore_ascii_case(symbol))
            .cloned()
    }

    pub(crate) fn book(&mut self, c: &Contract) -> &mut Book {
        self.books
            .entry(c.symbol.to_string())
            .or_insert_with(|| Book::around(c, c.start))
    }

    pub(crate) fn mark(&mut self, c: &Contract) -> Decimal {
        self.book(c).mid
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
        // Bitget's ids are long decimal strings; the mock's are short ones of the same kind.
        1_100_000_000_000 + self.next_id
    }

    /// Walk the book for `size` coins on `side` (the trade's direction), no worse than
    /// `limit`: the fills.
    pub(crate) fn take_liquidity(
        &mut self,
        c: &Contract,
        buy: bool,
        size: Decimal,
        limit: Option<Decimal>,
    ) -> Vec<(Decimal, Decimal)> {
        let book = self.book(c);
        let levels = if buy { &mut book.asks } else { &mut book.bids };
        let mut left = size;
        let mut fills = Vec::new();
        while left > Decimal::ZERO {
            let Some(level) = levels.first_mut() else {
                break;
            };
            let acceptable = match limit {
                Some(l) if buy => level.0 <= l,
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

    /// Unrealized P&L and the margin held, cross and isolated, of an account's positions.
    pub(crate) fn exposure(&mut self, key: &str) -> (Decimal, Decimal, Decimal) {
        let Some(positions) = self.accounts.get(key).map(|a| a.positions.clone()) else {
            return (Decimal::ZERO, Decimal::ZERO, Decimal::ZERO);
        };
        let (mut upl, mut cross, mut isolated) = (Decimal::ZERO, Decimal::ZERO, Decimal::ZERO);
        for ((symbol, hold), p) in positions {
            let Some(c) = self.contract(&symbol) else {
                continue;
            };
            let mark = self.mark(&c);
            let direction = if hold == "short" {
                -Decimal::ONE
            } else {
                Decimal::ONE
            };
            upl += (mark - p.avg_px) * p.size * direction;
            let margin = p.size * p.avg_px / Decimal::from(p.lever.max(1));
            if p.margin_mode == "isolated" {
                isolated += margin;
            } else {
                cross += margin;
            }
        }
        (upl, cross, isolated)
    }
}
