//! Delete into the trash, restore out of it, purge it after 30 days.
//!
//! Nothing a user deletes is gone at once: the row gets `deleted_at` and keeps its encrypted
//! credentials, so a restore brings the resource back exactly as it was. Deleting something a
//! live trader depends on, or a running trader, is refused with what to do instead.

use nofxi_domain::{Actor, Channel, ResourceKind};
use serde::Serialize;
use sqlx::{AnyConnection, AssertSqlSafe, Row};

use crate::Store;
use crate::audit::{AuditAction, record};
use crate::clock::TRASH_KEEP_MS;
use crate::error::{DbContext, RestoreBlock, StoreError};
use crate::flag::read_flag;
use crate::resolve::{Where, name_taken, resolve, table};

/// What a delete or restore touched.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Removed {
    pub kind: ResourceKind,
    pub id: String,
    pub name: String,
}

/// Names of live traders of `user` that point at `id` through `column`.
async fn traders_using(
    conn: &mut AnyConnection,
    user: &str,
    column: &'static str,
    id: &str,
) -> Result<Vec<String>, StoreError> {
    let rows = sqlx::query(AssertSqlSafe(format!(
        "SELECT name FROM traders WHERE user_id = $1 AND {column} = $2 AND deleted_at IS NULL ORDER BY name_key"
    )))
    .bind(user)
    .bind(id)
    .fetch_all(&mut *conn)
    .await
    .ctx("checking which traders use it")?;
    rows.iter()
        .map(|r| r.try_get("name"))
        .collect::<Result<_, _>>()
        .ctx("checking which traders use it")
}

fn reference_column(kind: ResourceKind) -> Option<&'static str> {
    match kind {
        ResourceKind::Model => Some("ai_model_id"),
        ResourceKind::Exchange => Some("exchange_id"),
        ResourceKind::Strategy => Some("strategy_id"),
        ResourceKind::Trader => None,
    }
}

/// Why deleting the live resource `id` would be refused, if it would: live traders use it,
/// or it is a running trader.
async fn delete_refusal(
    conn: &mut AnyConnection,
    user: &str,
    kind: ResourceKind,
    id: &str,
    name: &str,
) -> Result<(), StoreError> {
    if let Some(column) = reference_column(kind) {
        let traders = traders_using(conn, user, column, id).await?;
        if !traders.is_empty() {
            return Err(StoreError::InUse {
                kind,
                name: name.to_string(),
                traders,
            });
        }
        return Ok(());
    }
    let running: bool =
        sqlx::query("SELECT is_running FROM traders WHERE user_id = $1 AND id = $2")
            .bind(user)
            .bind(id)
            .fetch_one(&mut *conn)
            .await
            .and_then(|r| read_flag(&r, "is_running"))
            .ctx("checking whether the trader runs")?;
    if running {
        return Err(StoreError::Running {
            name: name.to_string(),
        });
    }
    Ok(())
}

impl Store {
    /// Whether [`Store::delete`] would refuse, without deleting: the error it would return.
    /// Asked before a delete is put to the user for confirmation, so nobody confirms a
    /// delete that then cannot happen.
    pub async fn check_delete(
        &self,
        user: &str,
        kind: ResourceKind,
        reference: &str,
    ) -> Result<(), StoreError> {
        let mut conn = self.pool.acquire().await.ctx("getting a connection")?;
        let found = resolve(&mut conn, user, kind, reference, Where::Live).await?;
        delete_refusal(&mut conn, user, kind, &found.id, &found.name).await
    }

    /// Moves a live resource to the trash.
    pub async fn delete(
        &self,
        actor: &Actor,
        kind: ResourceKind,
        reference: &str,
    ) -> Result<Removed, StoreError> {
        let mut tx = self.begin_write().await?;
        let found = resolve(&mut tx, &actor.user, kind, reference, Where::Live).await?;
        delete_refusal(&mut tx, &actor.user, kind, &found.id, &found.name).await?;
        let now = self.clock.now_ms();
        sqlx::query(AssertSqlSafe(format!(
            "UPDATE {} SET deleted_at = $3, updated_at = $3 WHERE user_id = $1 AND id = $2",
            table(kind)
        )))
        .bind(&actor.user)
        .bind(&found.id)
        .bind(now)
        .execute(&mut *tx)
        .await
        .ctx("moving it to the trash")?;
        record(
            &mut tx,
            actor,
            kind,
            &found.id,
            AuditAction::Delete,
            now,
            Some(found.name.clone()),
        )
        .await?;
        tx.commit().await.ctx("saving the delete")?;
        Ok(Removed {
            kind,
            id: found.id,
            name: found.name,
        })
    }

    /// Brings a resource back from the trash, credentials and all.
    pub async fn restore(
        &self,
        actor: &Actor,
        kind: ResourceKind,
        reference: &str,
    ) -> Result<Removed, StoreError> {
        let mut tx = self.begin_write().await?;
        let found = resolve(&mut tx, &actor.user, kind, reference, Where::Trash).await?;
        let now = self.clock.now_ms();
        if found.deleted_at.is_some_and(|at| now - at > TRASH_KEEP_MS) {
            drop(tx);
            self.purge_expired_trash().await?;
            return Err(StoreError::Expired {
                kind,
                name: found.name,
            });
        }
        let mut reasons = Vec::new();
        if name_taken(&mut tx, &actor.user, kind, &found.name, &found.id)
            .await?
            .is_some()
        {
            reasons.push(RestoreBlock::NameTaken {
                kind,
                name: found.name.clone(),
            });
        }
        if kind == ResourceKind::Trader {
            reasons.extend(dead_references(&mut tx, &actor.user, &found.id).await?);
        }
        if !reasons.is_empty() {
            return Err(StoreError::RestoreBlocked {
                kind,
                name: found.name,
                reasons,
            });
        }
        sqlx::query(AssertSqlSafe(format!(
            "UPDATE {} SET deleted_at = NULL, updated_at = $3 WHERE user_id = $1 AND id = $2",
            table(kind)
        )))
        .bind(&actor.user)
        .bind(&found.id)
        .bind(now)
        .execute(&mut *tx)
        .await
        .ctx("restoring from the trash")?;
        record(
            &mut tx,
            actor,
            kind,
            &found.id,
            AuditAction::Restore,
            now,
            Some(found.name.clone()),
        )
        .await?;
        tx.commit().await.ctx("saving the restore")?;
        Ok(Removed {
            kind,
            id: found.id,
            name: found.name,
        })
    }

    /// Deletes for good everything trashed more than 30 days ago. Returns how many resources.
    pub async fn purge_expired_trash(&self) -> Result<u64, StoreError> {
        let now = self.clock.now_ms();
        let cutoff = now - TRASH_KEEP_MS;
        let mut purged = 0;
        let mut tx = self.begin_write().await?;
        for kind in ResourceKind::ALL {
            let rows = sqlx::query(AssertSqlSafe(format!(
                "SELECT id, user_id FROM {} WHERE deleted_at IS NOT NULL AND deleted_at < $1",
                table(kind)
            )))
            .bind(cutoff)
            .fetch_all(&mut *tx)
            .await
            .ctx("finding expired trash")?;
            for row in rows {
                let id: String = row.try_get("id").ctx("finding expired trash")?;
                let user: String = row.try_get("user_id").ctx("finding expired trash")?;
                sqlx::query("DELETE FROM secrets WHERE user_id = $1 AND resource_id = $2")
                    .bind(&user)
                    .bind(&id)
                    .execute(&mut *tx)
                    .await
                    .ctx("purging expired credentials")?;
                if kind == ResourceKind::Trader {
                    // The engine's journal and lease die with the trader.
                    for engine_table in ["trader_cycles", "trader_leases"] {
                        sqlx::query(AssertSqlSafe(format!(
                            "DELETE FROM {engine_table} WHERE user_id = $1 AND trader_id = $2"
                        )))
                        .bind(&user)
                        .bind(&id)
                        .execute(&mut *tx)
                        .await
                        .ctx("purging an expired trader's journal")?;
                    }
                }
                sqlx::query(AssertSqlSafe(format!(
                    "DELETE FROM {} WHERE user_id = $1 AND id = $2",
                    table(kind)
                )))
                .bind(&user)
                .bind(&id)
                .execute(&mut *tx)
                .await
                .ctx("purging expired trash")?;
                let system = Actor::new(user, Channel::System, false);
                record(&mut tx, &system, kind, &id, AuditAction::Purge, now, None).await?;
                purged += 1;
            }
        }
        tx.commit().await.ctx("saving the purge")?;
        Ok(purged)
    }
}

/// A trashed trader can come back only if its model, exchange and strategy are live: each
/// that is not is named, trashed (restore it first) or purged (gone for good).
async fn dead_references(
    conn: &mut AnyConnection,
    user: &str,
    trader_id: &str,
) -> Result<Vec<RestoreBlock>, StoreError> {
    let row = sqlx::query(
        "SELECT ai_model_id, exchange_id, strategy_id FROM traders WHERE user_id = $1 AND id = $2",
    )
    .bind(user)
    .bind(trader_id)
    .fetch_one(&mut *conn)
    .await
    .ctx("reading the trader's references")?;
    let mut problems = Vec::new();
    for (field, kind) in [
        ("ai_model_id", ResourceKind::Model),
        ("exchange_id", ResourceKind::Exchange),
        ("strategy_id", ResourceKind::Strategy),
    ] {
        let id: String = row.try_get(field).ctx("reading the trader's references")?;
        if let Err(StoreError::NotFound { .. }) = resolve(conn, user, kind, &id, Where::Live).await
        {
            problems.push(match resolve(conn, user, kind, &id, Where::Trash).await {
                Ok(trashed) => RestoreBlock::Trashed {
                    kind,
                    name: trashed.name,
                },
                Err(StoreError::NotFound { .. }) => RestoreBlock::Purged { kind, id },
                Err(other) => return Err(other),
            });
        }
    }
    Ok(problems)
}
