//! The cycle journal in the store: what `nofxi trader journal` reads and what a restarted
//! engine resumes from.

use std::sync::Arc;

use async_trait::async_trait;
use nofxi_store::{CycleRow, Store};

use super::lease_guard::LeaseGuard;
use crate::cycle::{CyclePhase, CycleRecord, Journal, JournalError};

pub struct StoreJournal {
    pub store: Arc<Store>,
    pub user: String,
    /// The lease the engine journals under: a record is saved only while it holds.
    pub lease: Option<Arc<LeaseGuard>>,
}

#[async_trait]
impl Journal for StoreJournal {
    async fn save(&self, record: &CycleRecord) -> Result<(), JournalError> {
        let row = CycleRow {
            trader_id: record.trader_id.clone(),
            cycle_number: record.cycle_number,
            phase: match record.phase {
                CyclePhase::Planned => "planned".into(),
                CyclePhase::Done => "done".into(),
            },
            started_at: record.started_ms,
            equity: record.equity(),
            record: serde_json::to_value(record).map_err(|e| JournalError(e.to_string()))?,
        };
        let saved = match &self.lease {
            Some(guard) => self
                .store
                .save_cycle_fenced(guard.fence(), &self.user, &row)
                .await
                .map_err(|e| guard.seen(e)),
            None => self.store.save_cycle(&self.user, &row).await,
        };
        saved.map_err(|e| JournalError(e.to_string()))
    }

    async fn last(&self, trader_id: &str) -> Result<Option<CycleRecord>, JournalError> {
        let rows = self
            .store
            .cycles(&self.user, trader_id, 1, None)
            .await
            .map_err(|e| JournalError(e.to_string()))?;
        rows.into_iter()
            .next()
            .map(|row| {
                serde_json::from_value(row.record)
                    .map_err(|e| JournalError(format!("unreadable record: {e}")))
            })
            .transpose()
    }
}
