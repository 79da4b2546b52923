//! Login attempts of `nofxi serve`'s multi-user mode, counted in the database so every
//! `serve` process on it shares one budget per key (held in memory, each process allowed its
//! own). The caller says which keys an attempt counts against and the budget of each (a user
//! from one address, the address, the user name's ceiling).
//!
//! An attempt is counted before its password is checked, in the same transaction as the
//! check of the budget, so guesses sent in parallel cannot all pass the check before the
//! first is counted; a right password takes its attempt back ([`Store::login_succeeded`]).
//! Keys are stored as SHA-256 digests: a user name typed at the login form may be a
//! password typed in the wrong field.

use sha2::{Digest, Sha256};
use sqlx::Row;

use crate::Store;
use crate::error::{DbContext, StoreError};

/// How many attempts a key gets per window before it must wait.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoginBudget {
    pub attempts: i64,
    pub window_ms: i64,
}

/// Whether a login may go ahead.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoginGate {
    /// Yes; the attempt is counted against every key given.
    Open,
    /// A key has used up its attempts: it may try again in this many milliseconds.
    Closed { wait_ms: i64 },
}

impl Store {
    /// Before a password is checked: [`LoginGate::Closed`] when any of `keys` (a key such as
    /// `ip:ADDRESS`, with the budget it is held to) has used up its budget in the window that
    /// began with its first attempt; otherwise the attempt is counted against each key. A key
    /// whose window has passed counts afresh.
    pub async fn begin_login(&self, keys: &[(&str, LoginBudget)]) -> Result<LoginGate, StoreError> {
        const CONTEXT: &str = "counting a login attempt";
        let now = self.now_ms();
        let longest = keys.iter().map(|(_, b)| b.window_ms).max().unwrap_or(0);
        let mut tx = self.begin_write().await?;
        // Windows that have passed are forgotten: the table holds the last few minutes only.
        sqlx::query("DELETE FROM login_failures WHERE since_ms <= $1")
            .bind(now.saturating_sub(longest))
            .execute(&mut *tx)
            .await
            .ctx(CONTEXT)?;
        let keys: Vec<(String, LoginBudget)> = keys.iter().map(|(k, b)| (digest(k), *b)).collect();
        let mut wait_ms = 0;
        for (key, budget) in &keys {
            let row =
                sqlx::query("SELECT failures, since_ms FROM login_failures WHERE key_digest = $1")
                    .bind(key)
                    .fetch_optional(&mut *tx)
                    .await
                    .ctx(CONTEXT)?;
            if let Some(row) = row {
                let failures: i64 = row.try_get("failures").ctx(CONTEXT)?;
                let since: i64 = row.try_get("since_ms").ctx(CONTEXT)?;
                let ends = since.saturating_add(budget.window_ms);
                if failures >= budget.attempts && ends > now {
                    wait_ms = wait_ms.max(ends - now);
                }
            }
        }
        if wait_ms > 0 {
            tx.commit().await.ctx(CONTEXT)?;
            return Ok(LoginGate::Closed { wait_ms });
        }
        for (key, budget) in &keys {
            sqlx::query(
                "INSERT INTO login_failures (key_digest, failures, since_ms) VALUES ($1, 1, $2) \
                 ON CONFLICT (key_digest) DO UPDATE SET \
                 failures = CASE WHEN login_failures.since_ms <= $3 THEN 1 \
                            ELSE login_failures.failures + 1 END, \
                 since_ms = CASE WHEN login_failures.since_ms <= $3 THEN $2 \
                            ELSE login_failures.since_ms END",
            )
            .bind(key)
            .bind(now)
            .bind(now.saturating_sub(budget.window_ms))
            .execute(&mut *tx)
            .await
            .ctx(CONTEXT)?;
        }
        tx.commit().await.ctx(CONTEXT)?;
        Ok(LoginGate::Open)
    }

    /// The password was right: `cleared`'s count (the user from this address) is cleared,
    /// and the attempt is taken back from `taken_back` (the address, the user name's
    /// ceiling), whose counts are not cleared: one right password must not reset the budget
    /// of an address guessing other accounts, nor of guessers of this one elsewhere.
    pub async fn login_succeeded(
        &self,
        cleared: &str,
        taken_back: &[&str],
    ) -> Result<(), StoreError> {
        const CONTEXT: &str = "clearing login attempts";
        let mut tx = self.begin_write().await?;
        sqlx::query("DELETE FROM login_failures WHERE key_digest = $1")
            .bind(digest(cleared))
            .execute(&mut *tx)
            .await
            .ctx(CONTEXT)?;
        for key in taken_back {
            sqlx::query(
                "UPDATE login_failures SET failures = failures - 1 \
                 WHERE key_digest = $1 AND failures > 0",
            )
            .bind(digest(key))
            .execute(&mut *tx)
            .await
            .ctx(CONTEXT)?;
        }
        tx.commit().await.ctx(CONTEXT)
    }
}

fn digest(key: &str) -> String {
    hex::encode(Sha256::digest(key.as_bytes()))
}
