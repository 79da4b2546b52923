//! Login rate limit: a few failed attempts per user from one client address, and per address,
//! within a window, then refusals until the window has passed. Guessing passwords online
//! becomes hopeless (5 guesses per 5 minutes) while a person who mistypes twice is not
//! bothered. A user name alone is held only to a much higher ceiling, against guessing spread
//! over many addresses: were it held to 5, anyone who knew a name could lock its owner out
//! from everywhere, over and over.
//!
//! The attempts are kept in the store ([`nofxi_store::Store::begin_login`]), so every `serve`
//! process on one database counts the same ones. The client address is the socket's peer, or
//! behind a proxy the address it forwards ([`crate::client_addr`]).

use std::time::Duration;

use nofxi_store::LoginBudget;

/// Failed attempts allowed per user and address, and per address, in a window.
pub const MAX_FAILURES: u32 = 5;
/// Failed attempts allowed per user name from all addresses together, in a window.
pub const MAX_FAILURES_PER_USER: u32 = 50;
pub const WINDOW: Duration = Duration::from_secs(300);

fn budget(attempts: u32) -> LoginBudget {
    LoginBudget {
        attempts: i64::from(attempts),
        window_ms: i64::try_from(WINDOW.as_millis()).unwrap_or(i64::MAX),
    }
}

/// The counts one login attempt is held to.
pub struct LoginKeys {
    /// The user from this address: cleared by a right password.
    pair: String,
    /// The address, whoever it tries (none when it is not known).
    address: Option<String>,
    /// The user name from anywhere: the ceiling.
    user: String,
}

impl LoginKeys {
    /// The keys of a login for `user` (trimmed, lower-cased) from `client` (an address, or a
    /// proxy's name for one).
    pub fn of(user: &str, client: Option<&str>) -> Self {
        LoginKeys {
            pair: format!("user:{user}\nip:{}", client.unwrap_or_default()),
            address: client.map(|c| format!("ip:{c}")),
            user: format!("user:{user}"),
        }
    }

    /// Each key with the budget it is held to.
    pub fn budgets(&self) -> Vec<(&str, LoginBudget)> {
        let mut keys = vec![(self.pair.as_str(), budget(MAX_FAILURES))];
        keys.extend(self.address.as_deref().map(|a| (a, budget(MAX_FAILURES))));
        keys.push((self.user.as_str(), budget(MAX_FAILURES_PER_USER)));
        keys
    }

    /// The key a right password clears.
    pub fn cleared(&self) -> &str {
        &self.pair
    }

    /// The keys a right password takes its attempt back from, without clearing them.
    pub fn taken_back(&self) -> Vec<&str> {
        self.address
            .iter()
            .map(String::as_str)
            .chain(std::iter::once(self.user.as_str()))
            .collect()
    }
}

/// Seconds to wait for `wait_ms`, at least 1 (a `Retry-After` of 0 invites a retry at once).
pub fn wait_seconds(wait_ms: i64) -> u64 {
    u64::try_from(wait_ms).unwrap_or(0).div_ceil(1000).max(1)
}
