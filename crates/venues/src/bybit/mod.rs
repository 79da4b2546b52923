//! Bybit v5 USDT perpetuals (`category=linear`) on a Unified Trading Account: the signed
//! account adapter ([`BybitLinear`]) and public market data ([`BybitMarket`]), both over one
//! [`BybitClient`].
//!
//! The layout follows [`crate::okx`]: `config` (where Bybit is, credentials, options), `sign`
//! (the request signature), `client` (transport, envelope, retries), `codes` (Bybit's error
//! codes, typed), `instruments` (symbol rules), `orders` (request bodies, client ids, checks
//! before sending), `wire` (JSON → nofxi types), `linear` (the [`crate::Exchange`]), `market`
//! (the [`crate::MarketData`]). Tests point the base URL at `nofxi_testkit::bybit::MockBybit`.
//!
//! Each wire shape's source is the Bybit API v5 documentation
//! (https://bybit-exchange.github.io/docs/v5/intro, its sources in the GitHub repository
//! bybit-exchange/docs), named at the module that reads it.

mod client;
mod codes;
mod config;
mod instruments;
mod linear;
mod market;
mod orders;
mod sign;
mod wire;

pub use client::{BybitClient, Retry};
pub use codes::reject_kind;
pub use config::{BYBIT_REST, BYBIT_TESTNET_REST, BybitCredentials, BybitEndpoints, BybitOptions};
pub use instruments::Instruments;
pub use linear::BybitLinear;
pub use market::BybitMarket;
pub use orders::client_id;
pub use sign::{plain_text, sign};
