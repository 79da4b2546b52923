//! Login rate limit: a few failed attempts per user name and per client address within a
//! window, then refusals until the window has passed. Guessing passwords online becomes
//! hopeless (5 guesses per 5 minutes) while a person who mistypes twice is not bothered.
//!
//! Kept in memory per process: several `serve` processes each allow their own attempts,
//! which multiplies the budget by the number of processes, not more. The table is bounded;
//! when it is full of live entries new keys are refused (fail closed) rather than let the
//! map grow without end.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Failed attempts allowed per key and window.
pub const MAX_FAILURES: u32 = 5;
pub const WINDOW: Duration = Duration::from_secs(300);
const MAX_KEYS: usize = 10_000;

#[derive(Debug, Default)]
pub struct LoginLimiter {
    failures: Mutex<HashMap<String, (u32, Instant)>>,
}

impl LoginLimiter {
    /// `Err(seconds to wait)` if any of `keys` has used up its attempts.
    pub fn check(&self, keys: &[String]) -> Result<(), u64> {
        let now = Instant::now();
        let mut map = self.lock();
        sweep_if_full(&mut map, now);
        if map.len() >= MAX_KEYS {
            return Err(WINDOW.as_secs());
        }
        let wait = keys
            .iter()
            .filter_map(|k| map.get(k))
            .filter(|(count, since)| *count >= MAX_FAILURES && now < *since + WINDOW)
            .map(|(_, since)| (*since + WINDOW - now).as_secs().max(1))
            .max();
        wait.map_or(Ok(()), Err)
    }

    /// Counts a failed attempt against each key.
    pub fn failed(&self, keys: &[String]) {
        let now = Instant::now();
        let mut map = self.lock();
        for key in keys {
            let entry = map.entry(key.clone()).or_insert((0, now));
            if now >= entry.1 + WINDOW {
                *entry = (0, now);
            }
            entry.0 += 1;
        }
    }

    /// A successful login clears the user name's count (not the address's: one right
    /// password must not reset the budget of an address guessing other accounts).
    pub fn succeeded(&self, user_key: &str) {
        self.lock().remove(user_key);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, (u32, Instant)>> {
        match self.failures.lock() {
            Ok(map) => map,
            Err(poisoned) => poisoned.into_inner(),
        }
    }
}

fn sweep_if_full(map: &mut HashMap<String, (u32, Instant)>, now: Instant) {
    if map.len() >= MAX_KEYS {
        map.retain(|_, (_, since)| now < *since + WINDOW);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sixth_failure_in_a_window_is_refused() {
        let limiter = LoginLimiter::default();
        let keys = vec!["user:alice".to_string(), "ip:127.0.0.1".to_string()];
        for _ in 0..MAX_FAILURES {
            assert!(limiter.check(&keys).is_ok());
            limiter.failed(&keys);
        }
        let wait = limiter.check(&keys);
        assert!(wait.is_err_and(|s| s > 0 && s <= WINDOW.as_secs()));
        // Another user from another address is not affected.
        assert!(
            limiter
                .check(&["user:bob".into(), "ip:10.0.0.2".into()])
                .is_ok()
        );
        // The address stays limited after the user's success.
        limiter.succeeded("user:alice");
        assert!(
            limiter
                .check(&["user:alice".into(), "ip:127.0.0.1".into()])
                .is_err()
        );
    }
}
