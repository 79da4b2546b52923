//! Bitget v2 USDT-M perpetual futures (`productType=USDT-FUTURES`): the signed account adapter
//! ([`BitgetFutures`]) and public market data ([`BitgetMarket`]), both over one
//! [`BitgetClient`].
//!
//! The layout follows [`crate::okx`]: `config` (where Bitget is, credentials, options),
//! `sign` (the request signature), `client` (transport, envelope, retries), `codes` (Bitget's
//! error codes, typed), `contracts` (symbol rules), `orders` (request bodies, client ids),
//! `wire` (JSON → nofxi types), `futures` (the [`crate::Exchange`]), `market` (the
//! [`crate::MarketData`]). Tests point the base URL at `nofxi_testkit::bitget::MockBitget`.
//!
//! Each wire shape's source is Bitget's API documentation
//! (https://www.bitget.com/api-doc/), named at the module that reads it.

mod client;
mod codes;
mod config;
mod contracts;
mod futures;
mod market;
mod orders;
mod sign;
mod wire;

pub use client::{BitgetClient, Retry};
pub use codes::reject_kind;
pub use config::{BITGET_REST, BitgetCredentials, BitgetEndpoints, BitgetOptions};
pub use contracts::{Contract, Contracts, PRODUCT_TYPE, symbol_of};
pub use futures::BitgetFutures;
pub use market::BitgetMarket;
pub use orders::client_id;
pub use sign::sign;
