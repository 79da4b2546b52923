//! The mock's books: users (main wallets) with their USDC, leverage settings and positions,
//! the agent wallets approved for them, orders, fills, nonces per signer, and a book of
//! resting liquidity per coin that orders really consume.

use std::collections::{BTreeSet, HashMap};

use rust_decimal::Decimal;
use serde_json::{Value, json};

use super::fault::{Fault, Route};

/// The base-tier taker fee of a perpetual (0.045 %: docs, "Fees").
pub(crate) const TAKER_FEE: Decimal = Decimal::from_parts(45, 0, 0, false, 5);
/// "Order must have minimum value of $10."
pub(crate) const MIN_VALUE: Decimal = Decimal::from_parts(10, 0, 0, false, 0);
/// Nonces kept per signer ("the 100 highest nonces are stored per address").
pub(crate) const NONCES_KEPT: usize = 100;

/// One listed perpetual: its `meta` entry and where its book starts.
#[derive(Debug, Clone)]
pub struct Coin {
    pub name: &'static str,
    pub sz_decimals: u32,
    pub max_leverage: u32,
    /// Size resting at each of the book's levels.
    pub depth: Decimal,
    pub start: Decimal,
    pub funding: Decimal,
}

/// BTC, ETH, SOL and kPEPE (a coin whose name is not upper case), in the order of the real
/// universe's first entries; a delisted coin is listed too, as Hyperliquid lists them.
pub(crate) fn universe() -> Vec<Coin> {
    let d = Decimal::new;
    vec![
        Coin {
            name: "BTC",
            sz_decimals: 5,
            max_leverage: 40,
            depth: d(2, 0),
            start: d(60_000, 0),
            funding: d(125, 7),
        },
        Coin {
            name: "ETH",
            sz_decimals: 4,
            max_leverage: 25,
            depth: d(40, 0),
            start: d(3_000, 0),
            funding: d(100, 7),
        },
        Coin {
            name: "SOL",
            sz_decimals: 2,
            max_leverage: 20,
            depth: d(500, 0),
            start: d(150, 0),
            funding: d(-50, 7),
        },
        Coin {
            name: "FTT",
            sz_decimals: 1,
            max_leverage: 3,
            depth: d(100, 0),
            start: d(1, 0),
            funding: Decimal::ZERO,
        },
        Coin {
            name: "kPEPE",
            sz_decimals: 0,
            max_leverage: 10,
            depth: d(10_000_000, 0),
            start: d(12, 3),
            funding: d(10, 7),
        },
    ]
}

/// Delisted entries of [`universe`] (still listed in `meta`, `isDelisted: true`).
pub(crate) const DELISTED: &[&str] = &["FTT"];

#[derive(Debug, Clone, Default)]
pub struct MockHlUser {
    /// USDC (the perp account's raw balance).
    pub balance: Decimal,
    /// coin → (leverage, cross).
    pub leverage: HashMap<String, (u32, bool)>,
    /// coin → position.
    pub positions: HashMap<String, MockHlPosition>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct MockHlPosition {
    /// Signed size (negative is short).
    pub szi: Decimal,
    pub entry_px: Decimal,
    pub leverage: u32,
    pub cross: bool,
}

/// An order as the mock keeps it (a trigger waits as one too).
#[derive(Debug, Clone, PartialEq)]
pub struct MockHlOrder {
    pub oid: u64,
    /// The main wallet it belongs to.
    pub user: String,
    pub coin: String,
    /// `B` or `A`.
    pub side: String,
    pub limit_px: Decimal,
    pub orig_sz: Decimal,
    /// What is left.
    pub sz: Decimal,
    pub cloid: Option<String>,
    pub reduce_only: bool,
    /// `Limit`, `Stop Market`, `Take Profit Market`.
    pub order_type: String,
    /// `Gtc`, `Ioc`, `Alo`; none for a trigger.
    pub tif: Option<String>,
    pub trigger_px: Option<Decimal>,
    /// `sl` or `tp`.
    pub tpsl: Option<String>,
    /// `open`, `filled`, `canceled`, `reduceOnlyCanceled`, …
    pub status: String,
    pub timestamp: i64,
    pub status_timestamp: i64,
}

impl MockHlOrder {
    pub fn is_open(&self) -> bool {
        self.status == "open"
    }

    /// A frontend order (`frontendOpenOrders` rows, `orderStatus`'s `order.order`).
    pub(crate) fn to_json(&self) -> Value {
        let condition = match (&self.tpsl, self.trigger_px) {
            (Some(_), Some(px)) => {
                let above = (self.tpsl.as_deref() == Some("tp")) == (self.side == "A");
                format!("Price {} {px}", if above { "above" } else { "below" })
            }
            _ => "N/A".into(),
        };
        json!({
            "coin": self.coin, "side": self.side, "limitPx": self.limit_px.to_string(),
            "sz": self.sz.to_string(), "oid": self.oid, "timestamp": self.timestamp,
            "triggerCondition": condition, "isTrigger": self.trigger_px.is_some() && self.is_open(),
            "triggerPx": self.trigger_px.map(|p| p.to_string()).unwrap_or_else(|| "0.0".into()),
            "children": [], "isPositionTpsl": false, "reduceOnly": self.reduce_only,
            "orderType": self.order_type, "origSz": self.orig_sz.to_string(),
            "tif": self.tif, "cloid": self.cloid,
        })
    }
}

#[derive(Debug, Clone)]
pub struct MockHlFill {
    pub tid: u64,
    pub user: String,
    pub coin: String,
    pub oid: u64,
    pub cloid: Option<String>,
    pub side: String,
    pub px: Decimal,
    pub sz: Decimal,
    /// Paid, positive.
    pub fee: Decimal,
    pub closed_pnl: Decimal,
    pub start_position: Decimal,
    pub time: i64,
}

impl MockHlFill {
    /// A `userFills` row (the SDK's recorded answer, with `fee`, `tid`, `cloid`, `feeToken`).
    pub(crate) fn to_json(&self) -> Value {
        let held = self.start_position;
        let dir = match self.side.as_str() {
            "B" if held < Decimal::ZERO => "Close Short",
            "B" => "Open Long",
            _ if held > Decimal::ZERO => "Close Long",
            _ => "Open Short",
        };
        json!({
            "closedPnl": self.closed_pnl.to_string(), "coin": self.coin, "crossed": true,
            "dir": dir, "hash": format!("0x{:064x}", self.tid), "oid": self.oid,
            "px": self.px.to_string(), "side": self.side,
            "startPosition": self.start_position.to_string(), "sz": self.sz.to_string(),
            "time": self.time, "fee": self.fee.to_string(), "feeToken": "USDC",
            "tid": self.tid, "cloid": self.cloid,
        })
    }
}

/// Resting liquidity: (price, size), best first.
#[derive(Debug, Clone, Default)]
pub struct Book {
    pub mid: Decimal,
    pub bids: Vec<(Decimal, Decimal)>,
    pub asks: Vec<(Decimal, Decimal)>,
}

/// The price step at `mid` under the five-figure rule (1 at 60 000, 0.1 at 3 000).
pub(crate) fn step_at(coin: &Coin, mid: Decimal) -> Decimal {
    let whole = mid.abs().trunc();
    let digits = if whole.is_zero() {
        0
    } else {
        whole.to_string().len() as i64
    };
    let max_decimals = 6 - i64::from(coin.sz_decimals);
    let decimals = if digits == 0 {
        // Below 1: five figures after the leading zeros, as far as the decimals allow.
        max_decimals
    } else {
        (5 - digits).clamp(0, max_decimals)
    };
    Decimal::new(1, u32::try_from(decimals).unwrap_or(0))
}

impl Book {
    pub fn around(coin: &Coin, mid: Decimal) -> Book {
        let step = step_at(coin, mid);
        let level = |i: i64| Decimal::from(i) * step;
        Book {
            mid,
            bids: (1..=20).map(|i| (mid - level(i), coin.depth)).collect(),
            asks: (1..=20).map(|i| (mid + level(i), coin.depth)).collect(),
        }
    }
}

#[derive(Debug, Default)]
pub struct State {
    /// Main wallet (lower case) → user.
    pub users: HashMap<String, MockHlUser>,
    /// Agent wallet (lower case) → (main wallet, name).
    pub agents: HashMap<String, (String, String)>,
    pub coins: Vec<Coin>,
    pub books: HashMap<String, Book>,
    pub orders: Vec<MockHlOrder>,
    pub fills: Vec<MockHlFill>,
    /// Signer → the highest nonces seen.
    pub nonces: HashMap<String, BTreeSet<u64>>,
    pub faults: Vec<(Route, Fault)>,
    pub clock_skew_ms: i64,
    /// Signatures are for testnet (`source: "b"`) rather than mainnet (`"a"`).
    pub testnet: bool,
    /// (path, type) of every request.
    pub requests: Vec<(String, String)>,
    pub next_id: u64,
}

impl State {
    pub(crate) fn coin(&self, name: &str) -> Option<(u32, Coin)> {
        self.coins
            .iter()
            .position(|c| c.name == name)
            .and_then(|i| Some((u32::try_from(i).ok()?, self.coins[i].clone())))
    }

    pub(crate) fn coin_at(&self, index: u32) -> Option<Coin> {
        self.coins.get(usize::try_from(index).ok()?).cloned()
    }

    pub(crate) fn book(&mut self, coin: &Coin) -> &mut Book {
        self.books
            .entry(coin.name.to_string())
            .or_insert_with(|| Book::around(coin, coin.start))
    }

    pub(crate) fn mark(&mut self, coin: &Coin) -> Decimal {
        self.book(coin).mid
    }

    pub(crate) fn take_fault(&mut self, path: &str, kind: &str) -> Option<Fault> {
        let i = self
            .faults
            .iter()
            .position(|(r, _)| r.matches(path, kind))?;
        Some(self.faults.remove(i).1)
    }

    pub(crate) fn next_id(&mut self) -> u64 {
        self.next_id += 1;
        // Hyperliquid's oids are large integers; the mock's are of the same kind.
        90_000_000_000 + self.next_id
    }

    /// The leverage and margin mode of `user` on `coin`: 20× cross (capped at the coin's
    /// maximum) until set.
    pub(crate) fn leverage(&self, user: &str, coin: &Coin) -> (u32, bool) {
        self.users
            .get(user)
            .and_then(|u| u.leverage.get(coin.name).copied())
            .unwrap_or((20.min(coin.max_leverage), true))
    }

    /// Walk the book for `sz` on `side` (`B` buys the asks), no worse than `limit`.
    pub(crate) fn take_liquidity(
        &mut self,
        coin: &Coin,
        side: &str,
        sz: Decimal,
        limit: Decimal,
    ) -> Vec<(Decimal, Decimal)> {
        let book = self.book(coin);
        let buy = side == "B";
        let levels = if buy { &mut book.asks } else { &mut book.bids };
        let mut left = sz;
        let mut fills = Vec::new();
        while left > Decimal::ZERO {
            let Some(level) = levels.first_mut() else {
                break;
            };
            if (buy && level.0 > limit) || (!buy && level.0 < limit) {
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

    /// Account value, margin used and position value of `user` at the marks.
    pub(crate) fn summary(&mut self, user: &str) -> (Decimal, Decimal, Decimal) {
        let Some(u) = self.users.get(user).cloned() else {
            return (Decimal::ZERO, Decimal::ZERO, Decimal::ZERO);
        };
        let (mut value, mut margin, mut notional) = (u.balance, Decimal::ZERO, Decimal::ZERO);
        for (name, p) in &u.positions {
            let Some((_, coin)) = self.coin(name) else {
                continue;
            };
            let mark = self.mark(&coin);
            value += (mark - p.entry_px) * p.szi;
            let position_value = p.szi.abs() * mark;
            notional += position_value;
            margin += position_value / Decimal::from(p.leverage.max(1));
        }
        (value, margin, notional)
    }
}
