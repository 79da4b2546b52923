//! The portfolio's vocabulary: markets and instruments, accounts and portfolios, transactions,
//! FX rates. Exact decimals for every amount and quantity; validation says which field is wrong
//! and how to fix it. No IO: storage and import are other modules' jobs.

pub mod account;
pub mod currency_codes;
pub mod fx;
pub mod instrument;
pub mod mark;
pub mod money;
pub mod transaction;

pub use account::{Account, CostMethod, Portfolio};
pub use fx::FxTable;
pub use instrument::{Currency, Instrument, InstrumentClass, Market};
pub use mark::{FxMark, PriceMark};
pub use transaction::{LotPick, Transaction, TxKind};
