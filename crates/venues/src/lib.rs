//! Where traders trade and what they look at.
//!
//! Two traits are the whole surface the trader engine and the assistant see:
//! [`Exchange`] (account, positions, leverage and modes, orders, fills) and [`MarketData`]
//! (ticker, order book, klines, funding). Behind them:
//! - [`paper::PaperExchange`], the default: a USDT-margined futures account simulated against
//!   any market source, persisted through [`paper::PaperStateRepo`];
//! - [`sim::SimMarket`], an offline market derived from a seed, and [`csv_source::CsvMarket`],
//!   a replay of recorded candles;
//! - [`binance`], the USDⓈ-M futures REST adapter (signed, rate-limited, retried, idempotent
//!   orders) and its public market data;
//! - [`okx`], the OKX v5 USDT perpetual swaps adapter and its public market data, laid out as
//!   `binance` is, and [`bitget`], the Bitget v2 USDT-M futures adapter, laid out as `okx` is;
//! - [`bybit`], the Bybit v5 USDT perpetuals adapter and its public market data, laid out as
//!   `okx` is;
//! - [`hyperliquid`], the Hyperliquid perpetuals adapter (an agent wallet's EIP-712 signature
//!   for the main wallet) and its public market data, laid out as `okx` is;
//! - a [`connectivity`] check per exchange for diagnosis.
//!
//! `tests/conformance.rs` runs one suite of scenarios on every venue above.
//!
//! Time is always read through a [`Clock`] so tests run in simulated time.

pub mod binance;
pub mod bitget;
pub mod bybit;
pub mod clock;
pub mod connectivity;
pub mod csv_input;
pub mod csv_source;
pub mod error;
pub mod exchange;
pub mod gaps;
pub mod history;
pub mod hyperliquid;
pub mod manual;
pub mod market_data;
pub mod okx;
pub mod paper;
mod retry;
pub mod sim;
pub mod simulated;

pub use clock::{Clock, ManualClock, SystemClock};
pub use error::{RejectKind, VenueError};
pub use exchange::Exchange;
pub use market_data::{KlineQuery, MarketData, align_open_time};
pub use simulated::{BarRun, SimulatedVenue};
