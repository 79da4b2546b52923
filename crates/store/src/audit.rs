//! The audit trail: one row per mutation, written in the mutation's own transaction so that a
//! change without its audit row (or the reverse) cannot exist.

use nofxi_domain::{Actor, ResourceKind};
use serde::{Deserialize, Serialize};
use sqlx::{AnyConnection, Row};

use crate::Store;
use crate::error::{DbContext, StoreError};
use crate::flag::{flag, read_flag};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AuditAction {
    Create,
    Update,
    Delete,
    Restore,
    /// Removed from the trash for good after 30 days.
    Purge,
    /// A trader was started or stopped.
    Start,
    Stop,
}

impl AuditAction {
    pub fn as_str(self) -> &'static str {
        match self {
            AuditAction::Create => "create",
            AuditAction::Update => "update",
            AuditAction::Delete => "delete",
            AuditAction::Restore => "restore",
            AuditAction::Purge => "purge",
            AuditAction::Start => "start",
            AuditAction::Stop => "stop",
        }
    }
}

/// One audit row as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct AuditEntry {
    pub id: i64,
    pub user_id: String,
    pub resource_kind: String,
    pub resource_id: String,
    pub action: String,
    pub channel: String,
    pub confirmed: bool,
    /// Epoch milliseconds.
    pub at: i64,
    /// A short, secret-free note (the fields that changed, the name).
    pub detail: Option<String>,
}

#[allow(clippy::too_many_arguments)]
pub(crate) async fn record(
    conn: &mut AnyConnection,
    actor: &Actor,
    kind: ResourceKind,
    resource_id: &str,
    action: AuditAction,
    at: i64,
    detail: Option<String>,
) -> Result<(), StoreError> {
    record_row(conn, actor, kind.as_str(), resource_id, action, at, detail).await
}

/// What a user's setting is audited as: it is no resource, but changing one is a change.
pub const SETTING_KIND: &str = "setting";

/// [`record`] for a row whose kind is not a [`ResourceKind`] (a setting).
pub(crate) async fn record_row(
    conn: &mut AnyConnection,
    actor: &Actor,
    kind: &str,
    resource_id: &str,
    action: AuditAction,
    at: i64,
    detail: Option<String>,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO audit (user_id, resource_kind, resource_id, action, channel, confirmed, at, detail) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(&actor.user)
    .bind(kind)
    .bind(resource_id)
    .bind(action.as_str())
    .bind(actor.channel.as_str())
    .bind(flag(actor.confirmed))
    .bind(at)
    .bind(detail)
    .execute(&mut *conn)
    .await
    .ctx("writing the audit row")?;
    Ok(())
}

impl Store {
    /// The user's audit trail, newest first, at most `limit` rows.
    pub async fn audit_log(&self, user: &str, limit: i64) -> Result<Vec<AuditEntry>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, user_id, resource_kind, resource_id, action, channel, confirmed, at, detail \
             FROM audit WHERE user_id = $1 ORDER BY at DESC, id DESC LIMIT $2",
        )
        .bind(user)
        .bind(limit)
        .fetch_all(&self.pool)
        .await
        .ctx("reading the audit trail")?;
        rows.iter()
            .map(|row| {
                Ok(AuditEntry {
                    id: row.try_get("id")?,
                    user_id: row.try_get("user_id")?,
                    resource_kind: row.try_get("resource_kind")?,
                    resource_id: row.try_get("resource_id")?,
                    action: row.try_get("action")?,
                    channel: row.try_get("channel")?,
                    confirmed: read_flag(row, "confirmed")?,
                    at: row.try_get("at")?,
                    detail: row.try_get("detail")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .ctx("reading the audit trail")
    }
}
