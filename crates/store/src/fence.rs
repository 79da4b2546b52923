//! Fencing: the writes a trader's cycle makes are refused once its engine lost the lease.
//!
//! A lease alone does not stop an engine that was frozen (SIGSTOP, a VM pause, a long stall)
//! past its lease from finishing the cycle it was in after another engine took the trader over:
//! both would write the paper account and the journal, and their writes would interleave. So
//! each holding of a lease has an epoch (the lease's `generation`, bumped on every fresh take),
//! and every write under it names its [`Fence`]: the write runs in a transaction that first
//! locks the lease row as still held by that owner, at that epoch, unexpired. A takeover
//! changes the row, so a stale engine's write fails as [`StoreError::Fenced`] and changes
//! nothing (Kleppmann, "How to do distributed locking").
//!
//! The lock is an `UPDATE` of the lease row, not a read: on PostgreSQL it holds the row until
//! commit (a takeover waits for the write, or the write sees the takeover), and on SQLite it
//! takes the database's write lock before anything is read.

use sqlx::AnyConnection;

use crate::Store;
use crate::error::{DbContext, StoreError};

/// The lease a write is made under: whose it is and which holding of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fence {
    pub trader_id: String,
    pub owner: String,
    pub epoch: i64,
}

impl Store {
    /// `put_state`, made only while `fence` still holds its lease.
    pub async fn put_state_fenced(
        &self,
        fence: &Fence,
        user: &str,
        scope: &str,
        key: &str,
        value: &serde_json::Value,
    ) -> Result<(), StoreError> {
        let now = self.clock.now_ms();
        let mut tx = self.begin_write().await?;
        hold(&mut tx, fence, now).await?;
        crate::state::upsert(&mut tx, user, scope, key, value, now).await?;
        tx.commit().await.ctx("saving state")
    }

    /// `save_cycle`, made only while `fence` still holds its lease.
    pub async fn save_cycle_fenced(
        &self,
        fence: &Fence,
        user: &str,
        row: &crate::CycleRow,
    ) -> Result<(), StoreError> {
        let now = self.clock.now_ms();
        let mut tx = self.begin_write().await?;
        hold(&mut tx, fence, now).await?;
        crate::journal::insert_cycle(&mut tx, user, row).await?;
        tx.commit().await.ctx("saving a trader cycle")
    }

    /// Whether `fence` still holds its lease now (a read: for decisions that need no lock,
    /// such as whether to record a stop).
    pub async fn fence_holds(&self, fence: &Fence) -> Result<bool, StoreError> {
        Ok(self.lease(&fence.trader_id).await?.is_some_and(|lease| {
            lease.owner == fence.owner
                && lease.generation == fence.epoch
                && lease.expires_at > self.clock.now_ms()
        }))
    }
}

/// Locks the lease row as held by `fence` at `now`, or refuses.
async fn hold(conn: &mut AnyConnection, fence: &Fence, now: i64) -> Result<(), StoreError> {
    let locked = sqlx::query(
        "UPDATE trader_leases SET heartbeat_at = heartbeat_at \
         WHERE trader_id = $1 AND owner = $2 AND generation = $3 AND expires_at > $4",
    )
    .bind(&fence.trader_id)
    .bind(&fence.owner)
    .bind(fence.epoch)
    .bind(now)
    .execute(&mut *conn)
    .await
    .ctx("checking the trader's lease")?;
    if locked.rows_affected() == 1 {
        Ok(())
    } else {
        Err(StoreError::Fenced {
            trader_id: fence.trader_id.clone(),
            owner: fence.owner.clone(),
            epoch: fence.epoch,
        })
    }
}
