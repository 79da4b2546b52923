//! Where Bybit lives and how patient to be with it. Base URLs are data: Bybit's own, or any
//! URL a test (or a proxy) injects. Bybit's testnet has a URL of its own
//! (`https://api-testnet.bybit.com`, Bybit API v5 docs, "Integration Guidance" →
//! "Authentication", https://bybit-exchange.github.io/docs/v5/guide), so the exchange config's
//! `testnet` flag picks the URL.

use std::fmt;
use std::time::Duration;

use zeroize::Zeroizing;

/// Bybit's mainnet REST API.
pub const BYBIT_REST: &str = "https://api.bybit.com";
/// Bybit's testnet REST API.
pub const BYBIT_TESTNET_REST: &str = "https://api-testnet.bybit.com";

/// The base URL and where it came from, for error messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BybitEndpoints {
    pub rest: String,
    /// `nofxi's default`, `NOFXI_BYBIT_BASE_URL`: what a user changes to fix it.
    pub origin: String,
}

impl BybitEndpoints {
    /// Bybit's own URL, mainnet or testnet.
    pub fn official(testnet: bool) -> Self {
        BybitEndpoints {
            rest: if testnet {
                BYBIT_TESTNET_REST
            } else {
                BYBIT_REST
            }
            .into(),
            origin: "nofxi's default".into(),
        }
    }

    /// Another URL (a mock server, a proxy), said to come from `origin`.
    pub fn at(url: &str, origin: &str) -> Self {
        BybitEndpoints {
            rest: url.trim().trim_end_matches('/').to_string(),
            origin: origin.into(),
        }
    }
}

/// An API key and its secret. Neither is ever printed: `Debug` shows the key's last four
/// characters only, and both are wiped from memory when dropped.
#[derive(Clone)]
pub struct BybitCredentials {
    api_key: Zeroizing<String>,
    secret: Zeroizing<String>,
}

impl BybitCredentials {
    pub fn new(api_key: &str, secret: &str) -> Self {
        BybitCredentials {
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

impl fmt::Debug for BybitCredentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let chars: Vec<char> = self.api_key.chars().collect();
        let tail: String = chars[chars.len().saturating_sub(4)..].iter().collect();
        write!(
            f,
            "BybitCredentials {{ api_key: \"…{tail}\", secret: \"***\" }}"
        )
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct BybitOptions {
    /// `X-BAPI-RECV-WINDOW`: how long after its timestamp a request stays valid ("default
    /// value is 5,000"; the docs advise a small one, so nofxi keeps the default and
    /// compensates its clock's offset instead).
    pub recv_window_ms: u32,
    /// Per-request timeout.
    pub timeout: Duration,
    /// Retries after the first attempt, for rate limits, 5xx, timeouts and network errors.
    pub max_retries: u32,
    pub backoff_base: Duration,
    pub backoff_max: Duration,
}

impl Default for BybitOptions {
    fn default() -> Self {
        BybitOptions {
            recv_window_ms: 5_000,
            timeout: Duration::from_secs(10),
            max_retries: 3,
            backoff_base: Duration::from_millis(250),
            backoff_max: Duration::from_secs(8),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_never_print_the_secret() {
        let c = BybitCredentials::new(" AbCdEfGh1234 ", "topsecretvalue\n");
        let s = format!("{c:?}");
        assert!(
            s.contains("1234") && !s.contains("AbCd") && !s.contains("topsecret"),
            "{s}"
        );
        assert_eq!(
            (c.api_key(), c.secret()),
            ("AbCdEfGh1234", "topsecretvalue")
        );
        assert_eq!(BybitEndpoints::at("http://x/ ", "test").rest, "http://x");
        assert_eq!(BybitEndpoints::official(true).rest, BYBIT_TESTNET_REST);
        assert_eq!(BybitEndpoints::official(false).rest, BYBIT_REST);
    }
}
