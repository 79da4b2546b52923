//! Small JSON documents other components keep per user (the paper exchange's accounts, for
//! one), addressed by `(user, scope, key)`. An upsert, not a resource: no trash, no audit —
//! these change every trading cycle and their owners journal what matters themselves.

use sqlx::Row;

use crate::Store;
use crate::error::{DbContext, StoreError};

impl Store {
    /// Stores `value` under `(user, scope, key)`, replacing what was there.
    pub async fn put_state(
        &self,
        user: &str,
        scope: &str,
        key: &str,
        value: &serde_json::Value,
    ) -> Result<(), StoreError> {
        let text = value.to_string();
        sqlx::query(
            "INSERT INTO states (user_id, scope, key, value, updated_at) VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (user_id, scope, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
        )
        .bind(user)
        .bind(scope)
        .bind(key)
        .bind(text)
        .bind(self.clock.now_ms())
        .execute(&self.pool)
        .await
        .ctx("saving state")?;
        Ok(())
    }

    /// The value under `(user, scope, key)`, if any.
    pub async fn get_state(
        &self,
        user: &str,
        scope: &str,
        key: &str,
    ) -> Result<Option<serde_json::Value>, StoreError> {
        let row =
            sqlx::query("SELECT value FROM states WHERE user_id = $1 AND scope = $2 AND key = $3")
                .bind(user)
                .bind(scope)
                .bind(key)
                .fetch_optional(&self.pool)
                .await
                .ctx("reading state")?;
        let Some(row) = row else {
            return Ok(None);
        };
        let text: String = row.try_get("value").ctx("reading state")?;
        serde_json::from_str(&text)
            .map(Some)
            .map_err(|e| StoreError::Corrupt {
                what: "state document",
                detail: e.to_string(),
            })
    }
}
