//! A personal investor's portfolio (issue 28's core): accounts and transactions across A-shares,
//! Hong Kong, US stocks, funds and crypto; lots booked by a chosen cost method; fees computed
//! from dated schedules kept as data; performance (P&L, TWR, XIRR, allocation) with the basis
//! of every figure; CSV import with duplicate detection, and export.
//!
//! Exact `Decimal` for every amount and quantity. No IO: callers hand in text and records and
//! store what comes back. The quotes, the agent and the CLI of issue 28 are other crates' jobs.

pub mod csv_io;
pub mod domain;
pub mod error;
pub mod fees;
pub mod lots;
pub mod names;
pub mod performance;

pub use error::{FieldError, PortfolioError};
