//! Small JSON documents other components keep per user (the paper exchange's accounts, for
//! one), addressed by `(user, scope, key)`. An upsert, not a resource: no trash, and no audit —
//! these change every trading cycle and their owners journal what matters themselves — except
//! a user's settings ([`Store::put_setting`]): the user changes those, and the audit shows it.

use nofxi_domain::Actor;
use sqlx::{AnyConnection, Row};

use crate::Store;
use crate::audit::{AuditAction, SETTING_KIND, record_row};
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
        let mut conn = self.pool.acquire().await.ctx("saving state")?;
        upsert(&mut conn, user, scope, key, value, self.clock.now_ms()).await
    }

    /// A setting the user changed (`nofxi config set assistant.model ds`): stored as the
    /// state document under `(actor's user, scope, key)` and audited in the same
    /// transaction, as every other change is, with `detail` (secret-free) saying what it
    /// became.
    pub async fn put_setting(
        &self,
        actor: &Actor,
        scope: &str,
        key: &str,
        value: &serde_json::Value,
        detail: String,
    ) -> Result<(), StoreError> {
        let now = self.clock.now_ms();
        let mut tx = self.pool.begin().await.ctx("saving a setting")?;
        upsert(&mut tx, &actor.user, scope, key, value, now).await?;
        record_row(
            &mut tx,
            actor,
            SETTING_KIND,
            key,
            AuditAction::Update,
            now,
            Some(detail),
        )
        .await?;
        tx.commit().await.ctx("saving a setting")
    }

    /// Removes the value under `(user, scope, key)` and returns it: of two takers, one gets
    /// it (a request taken once).
    pub async fn take_state(
        &self,
        user: &str,
        scope: &str,
        key: &str,
    ) -> Result<Option<serde_json::Value>, StoreError> {
        let row = sqlx::query(
            "DELETE FROM states WHERE user_id = $1 AND scope = $2 AND key = $3 RETURNING value",
        )
        .bind(user)
        .bind(scope)
        .bind(key)
        .fetch_optional(&self.pool)
        .await
        .ctx("taking state")?;
        let Some(row) = row else {
            return Ok(None);
        };
        let text: String = row.try_get("value").ctx("taking state")?;
        serde_json::from_str(&text)
            .map(Some)
            .map_err(|e| StoreError::Corrupt {
                what: "state document",
                detail: e.to_string(),
            })
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

/// The upsert of one state document, on whatever connection or transaction holds it.
pub(crate) async fn upsert(
    conn: &mut AnyConnection,
    user: &str,
    scope: &str,
    key: &str,
    value: &serde_json::Value,
    now: i64,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO states (user_id, scope, key, value, updated_at) VALUES ($1, $2, $3, $4, $5) \
         ON CONFLICT (user_id, scope, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
    )
    .bind(user)
    .bind(scope)
    .bind(key)
    .bind(value.to_string())
    .bind(now)
    .execute(&mut *conn)
    .await
    .ctx("saving state")?;
    Ok(())
}
