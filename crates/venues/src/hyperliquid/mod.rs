//! Hyperliquid USDC-margined perpetuals.

pub mod sign;
