//! Binance USDⓈ-M futures: the signed account adapter ([`BinanceFutures`]) and public market
//! data ([`BinanceMarket`]), both over one [`client::BinanceClient`].
//!
//! Base URLs are data ([`BinanceEndpoints`]): mainnet, testnet, or any URL (tests point it at
//! `nofxi_testkit::binance::MockBinance`).

mod client;
mod config;
mod futures;
mod market;
pub(crate) mod sign;
mod wire;

pub use client::{Base, BinanceClient, Retry};
pub use config::{
    ApiCredentials, BinanceEndpoints, BinanceOptions, MAINNET_FUTURES, MAINNET_SPOT,
    TESTNET_FUTURES, TESTNET_SPOT,
};
pub use futures::BinanceFutures;
pub use market::BinanceMarket;
pub use sign::sign;
