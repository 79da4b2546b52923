//! Where Binance lives and how patient to be with it. Base URLs are data: mainnet, testnet, or
//! any URL a test (or a proxy) injects.

use std::fmt;
use std::time::Duration;

use zeroize::Zeroizing;

pub const MAINNET_FUTURES: &str = "https://fapi.binance.com";
pub const MAINNET_SPOT: &str = "https://api.binance.com";
pub const TESTNET_FUTURES: &str = "https://testnet.binancefuture.com";
pub const TESTNET_SPOT: &str = "https://testnet.binance.vision";

/// Base URLs: the USDⓈ-M futures API, and the spot API (only used by the connectivity check to
/// read the key's permissions), and where they came from, for error messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BinanceEndpoints {
    pub futures: String,
    pub spot: String,
    /// `nofxi's default (mainnet)`, `NOFXI_BINANCE_BASE_URL`: what a user changes to fix them.
    pub origin: String,
}

impl BinanceEndpoints {
    pub fn mainnet() -> Self {
        BinanceEndpoints {
            futures: MAINNET_FUTURES.into(),
            spot: MAINNET_SPOT.into(),
            origin: "nofxi's default for mainnet".into(),
        }
    }

    pub fn testnet() -> Self {
        BinanceEndpoints {
            futures: TESTNET_FUTURES.into(),
            spot: TESTNET_SPOT.into(),
            origin: "nofxi's default for testnet".into(),
        }
    }

    /// The same URLs, said to come from `origin` (an environment variable's name).
    pub fn from_origin(mut self, origin: &str) -> Self {
        self.origin = origin.into();
        self
    }

    pub fn for_testnet(testnet: bool) -> Self {
        if testnet {
            Self::testnet()
        } else {
            Self::mainnet()
        }
    }

    /// One URL for both APIs: a mock server, or a gateway that routes both.
    pub fn single(url: &str) -> Self {
        let url = url.trim_end_matches('/').to_string();
        BinanceEndpoints {
            futures: url.clone(),
            spot: url,
            origin: "the URL given".into(),
        }
    }
}

/// An API key and its secret. Neither is ever printed: `Debug` shows only the key's last four
/// characters, and the secret is wiped from memory when dropped.
#[derive(Clone)]
pub struct ApiCredentials {
    api_key: Zeroizing<String>,
    secret: Zeroizing<String>,
}

impl ApiCredentials {
    pub fn new(api_key: &str, secret: &str) -> Self {
        ApiCredentials {
            api_key: Zeroizing::new(api_key.trim().to_string()),
            secret: Zeroizing::new(secret.trim().to_string()),
        }
    }

    pub(crate) fn api_key(&self) -> &str {
        &self.api_key
    }

    pub(crate) fn secret(&self) -> &str {
        &self.secret
    }
}

impl fmt::Debug for ApiCredentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tail: String = self
            .api_key
            .chars()
            .rev()
            .take(4)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        write!(
            f,
            "ApiCredentials {{ api_key: \"…{tail}\", secret: \"***\" }}"
        )
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct BinanceOptions {
    /// How long a signed request stays valid after its timestamp (Binance's default is 5 s).
    pub recv_window_ms: u64,
    /// Per-request timeout.
    pub timeout: Duration,
    /// Retries after the first attempt, for 429, 5xx, timeouts and network errors.
    pub max_retries: u32,
    pub backoff_base: Duration,
    pub backoff_max: Duration,
    /// Request weight per minute nofxi allows itself (Binance's limit is 2400).
    pub weight_limit: u32,
}

impl Default for BinanceOptions {
    fn default() -> Self {
        BinanceOptions {
            recv_window_ms: 5_000,
            timeout: Duration::from_secs(10),
            max_retries: 3,
            backoff_base: Duration::from_millis(250),
            backoff_max: Duration::from_secs(8),
            weight_limit: 2_400,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_never_print_the_secret() {
        let c = ApiCredentials::new("AbCdEfGh1234", "topsecretvalue");
        let s = format!("{c:?}");
        assert!(
            s.contains("1234") && !s.contains("AbCd") && !s.contains("topsecret"),
            "{s}"
        );
        assert_eq!(BinanceEndpoints::single("http://x/").futures, "http://x");
    }
}
