//! Positions, margin settings and the account summary a trading cycle starts from.

use std::fmt;

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::PositionSide;
use crate::market::Symbol;

/// Cross margin shares the wallet across positions; isolated margin ring-fences each one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MarginMode {
    Cross,
    Isolated,
}

impl fmt::Display for MarginMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MarginMode::Cross => "cross",
            MarginMode::Isolated => "isolated",
        })
    }
}

/// One-way keeps one net position per symbol; hedge keeps a long and a short. Sending an order
/// for the wrong mode is Binance's -4061, the most reported error on the original platform.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PositionMode {
    OneWay,
    Hedge,
}

impl fmt::Display for PositionMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PositionMode::OneWay => "one-way",
            PositionMode::Hedge => "hedge",
        })
    }
}

/// An open position. `quantity` is positive; `side` gives the direction.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Position {
    pub symbol: Symbol,
    pub side: PositionSide,
    pub quantity: Decimal,
    pub entry_price: Decimal,
    pub mark_price: Decimal,
    pub leverage: u32,
    pub margin_mode: MarginMode,
    /// Margin locked for this position (initial margin in cross, the isolated wallet otherwise).
    pub margin: Decimal,
    pub unrealized_pnl: Decimal,
    /// `None` when the position cannot be liquidated at any positive price.
    pub liquidation_price: Option<Decimal>,
}

impl Position {
    pub fn notional(&self) -> Decimal {
        self.quantity * self.mark_price
    }
}

/// The account line of a trading cycle, in the margin asset (USDT).
/// `equity = wallet_balance + unrealized_pnl`; `available = equity − margin_used` (never below 0).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccountSnapshot {
    pub asset: String,
    pub wallet_balance: Decimal,
    pub unrealized_pnl: Decimal,
    pub equity: Decimal,
    pub available: Decimal,
    pub margin_used: Decimal,
}
