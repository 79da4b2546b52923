//! Login attempts of `nofxi serve`'s multi-user mode, counted in the database so every
//! `serve` process on it shares one budget per user name and per client address (held in
//! memory, each process allowed its own).
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
    /// Before a password is checked: [`LoginGate::Closed`] when any of `keys` (`user:NAME`,
    /// `ip:ADDRESS`) has used up `budget` in the window that began with its first attempt;
    /// otherwise the attempt is counted against each key.
    pub async fn begin_login(
        &self,
        keys: &[&str],
        budget: LoginBudget,
    ) -> Result<LoginGate, StoreError> {
        const CONTEXT: &str = "counting a login attempt";
        let now = self.now_ms();
        let mut tx = self.begin_write().await?;
        // Windows that have passed are forgotten: the table holds the last few minutes only.
        sqlx::query("DELETE FROM login_failures WHERE since_ms <= $1")
            .bind(now - budget.window_ms)
            .execute(&mut *tx)
            .await
            .ctx(CONTEXT)?;
        let digests: Vec<String> = keys.iter().map(|k| digest(k)).collect();
        let mut wait_ms = 0;
        for key in &digests {
            let row =
                sqlx::query("SELECT failures, since_ms FROM login_failures WHERE key_digest = $1")
                    .bind(key)
                    .fetch_optional(&mut *tx)
                    .await
                    .ctx(CONTEXT)?;
            if let Some(row) = row {
                let failures: i64 = row.try_get("failures").ctx(CONTEXT)?;
                let since: i64 = row.try_get("since_ms").ctx(CONTEXT)?;
                if failures >= budget.attempts {
                    wait_ms = wait_ms.max(since + budget.window_ms - now);
                }
            }
        }
        if wait_ms > 0 {
            tx.commit().await.ctx(CONTEXT)?;
            return Ok(LoginGate::Closed { wait_ms });
        }
        for key in &digests {
            sqlx::query(
                "INSERT INTO login_failures (key_digest, failures, since_ms) VALUES ($1, 1, $2) \
                 ON CONFLICT (key_digest) DO UPDATE SET failures = login_failures.failures + 1",
            )
            .bind(key)
            .bind(now)
            .execute(&mut *tx)
            .await
            .ctx(CONTEXT)?;
        }
        tx.commit().await.ctx(CONTEXT)?;
        Ok(LoginGate::Open)
    }

    /// The password was right: `user_key`'s count is cleared, and the attempt is taken back
    /// from `other_keys` (an address's count is not cleared: one right password must not
    /// reset the budget of an address guessing other accounts).
    pub async fn login_succeeded(
        &self,
        user_key: &str,
        other_keys: &[&str],
    ) -> Result<(), StoreError> {
        const CONTEXT: &str = "clearing login attempts";
        let mut tx = self.begin_write().await?;
        sqlx::query("DELETE FROM login_failures WHERE key_digest = $1")
            .bind(digest(user_key))
            .execute(&mut *tx)
            .await
            .ctx(CONTEXT)?;
        for key in other_keys {
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
