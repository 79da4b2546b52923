//! OKX v5 USDT-margined perpetual swaps: the signed account adapter ([`OkxSwap`]) and public
//! market data ([`OkxMarket`]), both over one [`OkxClient`].
//!
//! The layout follows [`crate::binance`]: `config` (where OKX is, credentials, options),
//! `sign` (the request signature), `client` (transport, envelope, retries), `codes` (OKX's
//! error codes, typed), `contracts` (coins ↔ contracts), `orders` (request bodies, client
//! ids), `wire` (JSON → nofxi types), `swap` (the [`crate::Exchange`]), `market` (the
//! [`crate::MarketData`]). Tests point the base URL at `nofxi_testkit::okx::MockOkx`.
//!
//! Each wire shape's source is the OKX API v5 documentation
//! (https://www.okx.com/docs-v5/en/), named at the module that reads it.

mod client;
mod codes;
mod config;
mod contracts;
mod market;
mod orders;
mod sign;
mod swap;
mod wire;

pub use client::{OkxClient, Retry};
pub use codes::reject_kind;
pub use config::{OKX_REST, OkxCredentials, OkxEndpoints, OkxOptions};
pub use contracts::{Contract, Contracts, inst_id, symbol_of};
pub use market::OkxMarket;
pub use orders::client_id;
pub use sign::{sign, timestamp};
pub use swap::OkxSwap;
