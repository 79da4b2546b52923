//! Market series: what venues produce and traders, indicators and the assistant read.
//!
//! Prices and sizes are `Decimal` because they are compared with exchange filters and stored;
//! indicator maths converts them to `f64` at its own boundary (see `crate::indicators`).

mod book;
mod candle;
mod symbol;

pub use book::{BookLevel, FundingRate, OrderBook, Ticker};
pub use candle::{Candle, decimal_to_f64, exceeds};
pub use symbol::{Symbol, SymbolAlias, UnknownSymbol, is_known_coin, known_symbols};
