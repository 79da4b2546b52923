//! Fees as data: each market's schedule is a YAML file under `crates/portfolio/fees/`, with
//! dated versions of every rule, so a trade pays the rates of its own day.
//!
//! [`FeeSchedules`] loads and checks the embedded files; [`FeeSchedules::quote`] computes a
//! trade's fees line by line; [`fill_fees`] fills the fees a user did not give, leaving the
//! ones they gave untouched (a fee from a broker's statement is always right about that trade).

mod fill;
mod quote;
mod schedule;

pub use fill::{FeeSource, fill_fees};
pub use quote::{FeeBound, FeeLine, FeeQuote, TradeSide};
pub use schedule::{Basis, FeeRule, FeeSchedule, FeeSchedules, RateVersion, Rounding, Side};
