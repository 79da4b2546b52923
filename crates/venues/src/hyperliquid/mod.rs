//! Hyperliquid USDC-margined perpetuals: the signed account adapter ([`HyperliquidPerp`])
//! and public market data ([`HyperliquidMarket`]), both over one [`HyperliquidClient`].
//!
//! The layout follows [`crate::okx`]: `config` (where Hyperliquid is, the agent wallet and the
//! main wallet, options), `sign` (the EIP-712 "L1 action" signature), `client` (transport,
//! answers, nonces, retries), `codes` (Hyperliquid's refusal texts, typed), `assets` (asset
//! ids, size decimals and the price rule), `orders` (actions and cloids), `wire` (JSON →
//! nofxi types), `perp` (the [`crate::Exchange`]), `market` (the [`crate::MarketData`]). Tests
//! point the base URL at `nofxi_testkit::hyperliquid::MockHyperliquid`.
//!
//! Each shape's source is named at the module that reads it: Hyperliquid's API docs
//! (https://hyperliquid.gitbook.io/hyperliquid-docs/for-developers/api) and its reference SDK
//! (hyperliquid-dex/hyperliquid-python-sdk), whose `signing.py` is the canonical description
//! of the signature.

mod assets;
mod client;
mod codes;
mod config;
mod market;
mod orders;
mod perp;
pub mod sign;
mod wire;

pub use assets::{Asset, Assets};
pub use client::{HyperliquidClient, Retry};
pub use codes::reject_kind;
pub use config::{
    HYPERLIQUID_MAINNET, HYPERLIQUID_TESTNET, HyperliquidCredentials, HyperliquidEndpoints,
    HyperliquidOptions,
};
pub use market::HyperliquidMarket;
pub use orders::{client_id_of, cloid};
pub use perp::{HyperliquidPerp, unknown_signer};
