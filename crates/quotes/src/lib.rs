//! Quotes for the personal portfolio (issue 28): the latest price of an A-share, Hong Kong or
//! US listing, a fund or a crypto pair, from public feeds or from an offline simulated market.
//!
//! What it does: parses the Tencent, Sina, Eastmoney and Binance answers into one [`Quote`]
//! (exact decimals, the quote's own timestamp, GBK decoded), maps an instrument to each feed's
//! code, tries the feeds in a per-market fallback order kept as data (`data/sources.yaml`),
//! caches briefly, and marks a quote `stale` when it is older than the market's last session.
//! [`Quotes::offline`] prices every market, FUND included, without a network, and labels each
//! quote `simulated`.
//!
//! What it does not do: history or candles, order books, symbol search, FX conversion, trading
//! calendars with holidays, or storing quotes. No live source here quotes off-exchange funds.
//! Valuing holdings with these prices is the portfolio's job, showing them the CLI's.

mod body;
mod cache;
mod json;
mod record;
mod zones;

pub mod binance;
pub mod eastmoney;
pub mod error;
pub mod fallback;
pub mod http;
pub mod quote;
pub mod quotes;
pub mod simulated;
pub mod sina;
pub mod source;
pub mod stale;
pub mod tencent;

pub use error::QuoteError;
pub use fallback::{FallbackOrder, SourcesFileError};
pub use http::{Feed, HttpSource};
pub use quote::{Quote, SourceKind};
pub use quotes::{LiveConfig, Quotes};
pub use simulated::{DailyBar, SimulatedSource};
pub use source::QuoteSource;
