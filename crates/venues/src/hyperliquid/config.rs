//! Where Hyperliquid lives, who signs, and how patient to be with it.
//!
//! Mainnet and testnet are separate URLs (`https://api.hyperliquid.xyz`,
//! `https://api.hyperliquid-testnet.xyz`: the docs' "API" page and the SDK's
//! `utils/constants.py`), and they sign differently: the phantom agent's `source` is `"a"` on
//! mainnet and `"b"` on testnet ([`super::sign`]). So the exchange config's `testnet` flag
//! picks both, and a URL injected for a proxy or a mock keeps the network the account says.
//!
//! Credentials are the agent (API) wallet's private key, which only signs, and the main
//! wallet's address, which every `/info` query names: "API wallets are only used to sign. To
//! query the account data associated with a master or sub-account, you must pass in the
//! actual address of that account. A common pitfall is to use the agent wallet which leads to
//! an empty result." (docs, "Nonces and API wallets").

use std::fmt;
use std::time::Duration;

use k256::ecdsa::SigningKey;

use super::sign::{address_of, signing_key};
use crate::VenueError;

pub const HYPERLIQUID_MAINNET: &str = "https://api.hyperliquid.xyz";
pub const HYPERLIQUID_TESTNET: &str = "https://api.hyperliquid-testnet.xyz";

/// The base URL, where it came from, and which network it signs for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HyperliquidEndpoints {
    pub rest: String,
    /// `nofxi's default`, `NOFXI_HYPERLIQUID_BASE_URL`: what a user changes to fix it.
    pub origin: String,
    /// Mainnet signatures (`source: "a"`), or testnet's (`"b"`).
    pub mainnet: bool,
}

impl HyperliquidEndpoints {
    pub fn official(testnet: bool) -> Self {
        HyperliquidEndpoints {
            rest: if testnet {
                HYPERLIQUID_TESTNET
            } else {
                HYPERLIQUID_MAINNET
            }
            .into(),
            origin: "nofxi's default".into(),
            mainnet: !testnet,
        }
    }

    /// Another URL (a mock server, a proxy), said to come from `origin`, for the network the
    /// account is on.
    pub fn at(url: &str, origin: &str, testnet: bool) -> Self {
        HyperliquidEndpoints {
            rest: url.trim().trim_end_matches('/').to_string(),
            origin: origin.into(),
            mainnet: !testnet,
        }
    }
}

/// The agent wallet's key (wiped from memory when dropped, never printed) and the main
/// wallet's address it trades for.
#[derive(Clone)]
pub struct HyperliquidCredentials {
    key: SigningKey,
    /// The agent wallet's own address, derived from its key.
    agent: String,
    /// The main wallet's address, lower case.
    wallet: String,
}

impl HyperliquidCredentials {
    /// `agent_private_key`: 64 hex digits, `0x` optional; `wallet_address`: `0x` and 40.
    pub fn new(agent_private_key: &str, wallet_address: &str) -> Result<Self, VenueError> {
        let key = signing_key(agent_private_key)?;
        let wallet = wallet_address.trim().to_ascii_lowercase();
        let hex = wallet.strip_prefix("0x").unwrap_or_default();
        if hex.len() != 40 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
            return Err(VenueError::InvalidRequest(
                "wallet_addr is no wallet address: enter the main wallet's address, 0x and 40 hexadecimal characters".into(),
            ));
        }
        Ok(HyperliquidCredentials {
            agent: address_of(key.verifying_key()),
            key,
            wallet,
        })
    }

    pub(crate) fn key(&self) -> &SigningKey {
        &self.key
    }

    /// The address the agent key signs as.
    pub fn agent_address(&self) -> &str {
        &self.agent
    }

    /// The main wallet's address: the account every query reads.
    pub fn wallet_address(&self) -> &str {
        &self.wallet
    }
}

impl fmt::Debug for HyperliquidCredentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "HyperliquidCredentials {{ key: \"***\", agent: {:?}, wallet: {:?} }}",
            self.agent, self.wallet
        )
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct HyperliquidOptions {
    /// Per-request timeout.
    pub timeout: Duration,
    /// Retries after the first attempt, for 429, 5xx, timeouts and network errors.
    pub max_retries: u32,
    pub backoff_base: Duration,
    pub backoff_max: Duration,
    /// How far from the mid a market order's limit price is set (the SDK's
    /// `DEFAULT_SLIPPAGE`, 5 %): Hyperliquid has no market order, only an IOC limit.
    pub market_slippage_pct: u32,
    /// How far from its trigger a market stop or take-profit may fill: "market TP/SL orders
    /// have a 10% slippage tolerance" (docs, FAQ "My TP/SL did not execute correctly").
    pub trigger_slippage_pct: u32,
}

impl Default for HyperliquidOptions {
    fn default() -> Self {
        HyperliquidOptions {
            timeout: Duration::from_secs(10),
            max_retries: 3,
            backoff_base: Duration::from_millis(250),
            backoff_max: Duration::from_secs(8),
            market_slippage_pct: 5,
            trigger_slippage_pct: 10,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318";

    #[test]
    fn credentials_never_print_the_key_and_check_the_address() {
        let wallet = "0xABCDEF0123456789abcdef0123456789ABCDEF01";
        let c = HyperliquidCredentials::new(KEY, wallet).unwrap();
        let s = format!("{c:?}");
        assert!(!s.contains("4c0883a6") && !s.contains("3f362318"), "{s}");
        assert_eq!(c.wallet_address(), wallet.to_ascii_lowercase());
        assert_eq!(
            c.agent_address(),
            "0x2c7536e3605d9c16a7a3d7b1898e529396a65c23"
        );
        for bad in ["", "0x12", "abcdef0123456789abcdef0123456789abcdef01"] {
            let e = HyperliquidCredentials::new(KEY, bad)
                .unwrap_err()
                .to_string();
            assert!(e.contains("wallet_addr"), "{e}");
        }
        assert!(HyperliquidCredentials::new("0x1234", wallet).is_err());
        let moved = HyperliquidEndpoints::at("http://x/ ", "test", true);
        assert_eq!((moved.rest.as_str(), moved.mainnet), ("http://x", false));
        assert!(HyperliquidEndpoints::official(false).mainnet);
    }
}
