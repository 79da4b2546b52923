//! Where OKX lives and how patient to be with it. Base URLs are data: OKX's own, or any URL a
//! test (or a proxy) injects. Demo trading has no URL of its own: it is the production URL
//! with the `x-simulated-trading: 1` header (OKX API v5 docs, "Demo Trading Services",
//! https://www.okx.com/docs-v5/en/#overview-demo-trading-services), so the exchange config's
//! `testnet` flag becomes [`OkxOptions::demo`].

use std::fmt;
use std::time::Duration;

use zeroize::Zeroizing;

/// OKX's REST API, for live and demo trading alike ("Production Trading Services").
pub const OKX_REST: &str = "https://www.okx.com";

/// The base URL and where it came from, for error messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OkxEndpoints {
    pub rest: String,
    /// `nofxi's default`, `NOFXI_OKX_BASE_URL`: what a user changes to fix it.
    pub origin: String,
}

impl OkxEndpoints {
    pub fn official() -> Self {
        OkxEndpoints {
            rest: OKX_REST.into(),
            origin: "nofxi's default".into(),
        }
    }

    /// Another URL (a mock server, a proxy), said to come from `origin`.
    pub fn at(url: &str, origin: &str) -> Self {
        OkxEndpoints {
            rest: url.trim().trim_end_matches('/').to_string(),
            origin: origin.into(),
        }
    }
}

/// An API key, its secret and the passphrase set when the key was created. None is ever
/// printed: `Debug` shows the key's last four characters only, and all three are wiped from
/// memory when dropped.
#[derive(Clone)]
pub struct OkxCredentials {
    api_key: Zeroizing<String>,
    secret: Zeroizing<String>,
    passphrase: Zeroizing<String>,
}

impl OkxCredentials {
    pub fn new(api_key: &str, secret: &str, passphrase: &str) -> Self {
        OkxCredentials {
            api_key: Zeroizing::new(api_key.trim().to_string()),
            secret: Zeroizing::new(secret.trim().to_string()),
            // A passphrase may hold spaces inside; only a pasted line's ends are dropped.
            passphrase: Zeroizing::new(passphrase.trim_matches(['\r', '\n']).to_string()),
        }
    }

    pub(crate) fn api_key(&self) -> &str {
        &self.api_key
    }

    pub(crate) fn secret(&self) -> &str {
        &self.secret
    }

    pub(crate) fn passphrase(&self) -> &str {
        &self.passphrase
    }
}

impl fmt::Debug for OkxCredentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let chars: Vec<char> = self.api_key.chars().collect();
        let tail: String = chars[chars.len().saturating_sub(4)..].iter().collect();
        write!(
            f,
            "OkxCredentials {{ api_key: \"…{tail}\", secret: \"***\", passphrase: \"***\" }}"
        )
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct OkxOptions {
    /// Demo trading: every request carries `x-simulated-trading: 1`.
    pub demo: bool,
    /// Per-request timeout.
    pub timeout: Duration,
    /// Retries after the first attempt, for 429, 5xx, timeouts and network errors.
    pub max_retries: u32,
    pub backoff_base: Duration,
    pub backoff_max: Duration,
}

impl Default for OkxOptions {
    fn default() -> Self {
        OkxOptions {
            demo: false,
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
    fn credentials_never_print_the_secret_or_passphrase() {
        let c = OkxCredentials::new("AbCdEfGh1234", "topsecretvalue", "my pass phrase\n");
        let s = format!("{c:?}");
        assert!(
            s.contains("1234") && !s.contains("AbCd") && !s.contains("topsecret"),
            "{s}"
        );
        assert!(!s.contains("phrase\""), "{s}");
        assert_eq!(c.passphrase(), "my pass phrase");
        assert_eq!(OkxEndpoints::at("http://x/ ", "test").rest, "http://x");
    }
}
