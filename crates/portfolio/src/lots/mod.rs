//! Lots: what a holding cost, piece by piece, and what each sale realized.
//!
//! [`LotBook`] keeps one holding's open lots and books buys, sales, splits, dividends and
//! transfers by the portfolio's [`CostMethod`](crate::domain::CostMethod). [`Ledger`] replays
//! a portfolio's transactions into books, cash balances and the list of realized events.

pub mod book;
pub mod dividend_tax;
pub mod ledger;
mod order;
mod refusals;

pub use book::{Consumed, DividendBooking, Lot, LotBook, Sale};
pub use dividend_tax::{DividendTaxLine, DividendTaxRules};
pub use ledger::{Holding, HoldingKey, Ledger, Realized, RealizedKind, date_order};
pub use refusals::refusals;
