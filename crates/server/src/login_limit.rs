//! Login rate limit: a few failed attempts per user name and per client address within a
//! window, then refusals until the window has passed. Guessing passwords online becomes
//! hopeless (5 guesses per 5 minutes) while a person who mistypes twice is not bothered.
//!
//! The attempts are kept in the store ([`nofxi_store::Store::begin_login`]), so every `serve`
//! process on one database counts the same ones. The client address is the socket's peer, or
//! behind a proxy the address it forwards ([`crate::client_addr`]).

use std::time::Duration;

use nofxi_store::LoginBudget;

/// Failed attempts allowed per key and window.
pub const MAX_FAILURES: u32 = 5;
pub const WINDOW: Duration = Duration::from_secs(300);

pub fn budget() -> LoginBudget {
    LoginBudget {
        attempts: i64::from(MAX_FAILURES),
        window_ms: i64::try_from(WINDOW.as_millis()).unwrap_or(i64::MAX),
    }
}

/// The key a login for `user` (trimmed, lower-cased) counts against.
pub fn user_key(user: &str) -> String {
    format!("user:{user}")
}

/// The key a login from `client` (an address, or a proxy's name for one) counts against.
pub fn client_key(client: &str) -> String {
    format!("ip:{client}")
}

/// Seconds to wait for `wait_ms`, at least 1 (a `Retry-After` of 0 invites a retry at once).
pub fn wait_seconds(wait_ms: i64) -> u64 {
    u64::try_from(wait_ms).unwrap_or(0).div_ceil(1000).max(1)
}
