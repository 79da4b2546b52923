//! Where Bitget lives and how patient to be with it. Base URLs are data: Bitget's own, or any
//! URL a test (or a proxy) injects. Demo trading has no URL of its own: it is the production
//! URL with a demo API key and the `paptrading: 1` header (Bitget API docs, "Demo Trading" →
//! "RestAPI", https://www.bitget.com/api-doc/common/demotrading/restapi; the separate demo
//! symbols of v1 were delisted on 2025-08-04, "Changelog"), so the exchange config's `testnet`
//! flag becomes [`BitgetOptions::demo`] and the symbols stay the live ones.

use std::fmt;
use std::time::Duration;

use zeroize::Zeroizing;

/// Bitget's REST API, for live and demo trading alike.
pub const BITGET_REST: &str = "https://api.bitget.com";

/// The base URL and where it came from, for error messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BitgetEndpoints {
    pub rest: String,
    /// `nofxi's default`, `NOFXI_BITGET_BASE_URL`: what a user changes to fix it.
    pub origin: String,
}

impl BitgetEndpoints {
    pub fn official() -> Self {
        BitgetEndpoints {
            rest: BITGET_REST.into(),
            origin: "nofxi's default".into(),
        }
    }

    /// Another URL (a mock server, a proxy), said to come from `origin`.
    pub fn at(url: &str, origin: &str) -> Self {
        BitgetEndpoints {
            rest: url.trim().trim_end_matches('/').to_string(),
            origin: origin.into(),
        }
    }
}

/// An API key, its secret and the passphrase set when the key was created. None is ever
/// printed: `Debug` shows the key's last four characters only, and all three are wiped from
/// memory when dropped.
#[derive(Clone)]
pub struct BitgetCredentials {
    api_key: Zeroizing<String>,
    secret: Zeroizing<String>,
    passphrase: Zeroizing<String>,
}

impl BitgetCredentials {
    pub fn new(api_key: &str, secret: &str, passphrase: &str) -> Self {
        BitgetCredentials {
            api_key: Zeroizing::new(api_key.trim().to_string()),
            secret: Zeroizing::new(secret.trim().to_string()),
            // Only a pasted line's ends are dropped: what is inside was typed on purpose.
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

impl fmt::Debug for BitgetCredentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let chars: Vec<char> = self.api_key.chars().collect();
        let tail: String = chars[chars.len().saturating_sub(4)..].iter().collect();
        write!(
            f,
            "BitgetCredentials {{ api_key: \"…{tail}\", secret: \"***\", passphrase: \"***\" }}"
        )
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct BitgetOptions {
    /// Demo trading: every request carries `paptrading: 1`.
    pub demo: bool,
    /// Per-request timeout.
    pub timeout: Duration,
    /// Retries after the first attempt, for 429, 5xx, timeouts and network errors.
    pub max_retries: u32,
    pub backoff_base: Duration,
    pub backoff_max: Duration,
}

impl Default for BitgetOptions {
    fn default() -> Self {
        BitgetOptions {
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
        let c = BitgetCredentials::new("bg_AbCdEfGh1234", "topsecretvalue", "my pass phrase\n");
        let s = format!("{c:?}");
        assert!(
            s.contains("1234") && !s.contains("AbCd") && !s.contains("topsecret"),
            "{s}"
        );
        assert!(!s.contains("phrase\""), "{s}");
        assert_eq!(c.passphrase(), "my pass phrase");
        assert_eq!(BitgetEndpoints::at("http://x/ ", "test").rest, "http://x");
    }
}
