//! Performance: P&L, time-weighted and money-weighted returns, allocation, each figure with
//! its basis (口径).
//!
//! Returns are computed over a daily series of values and external flows ([`DayValue`]), built
//! for a whole portfolio or a single holding by [`series`]; TWR and XIRR read the same series,
//! so the two always describe the same money. P&L and allocation read the replayed
//! [`Ledger`](crate::lots::Ledger) at one valuation date.

pub mod allocation;
pub mod basis;
pub mod curve;
pub mod pnl;
pub mod returns;
pub mod series;
pub mod snapshot;
pub mod twr;
pub mod xirr;

pub use allocation::{AllocationBy, CASH, Slice, allocation};
pub use basis::{Basis, Figure, Period};
pub use curve::{CurvePoint, curve, portfolio_curve};
pub use pnl::{HoldingPnl, PortfolioPnl, pnl};
pub use returns::{Returns, returns};
pub use series::{DayValue, PriceBook, holding_days, portfolio_days};
pub use snapshot::{
    Allocations, CashBalance, PricedHolding, Snapshot, Warning, fx_table, per_currency, price_book,
    snapshot, with_fees,
};
pub use twr::time_weighted_return;
pub use xirr::{Flow, money_weighted_return, xirr};
