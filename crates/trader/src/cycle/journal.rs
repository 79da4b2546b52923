//! Where cycle records go. The engine writes through this trait; the store implements it for
//! live traders, and [`MemoryJournal`] keeps a backtest's records in memory.

use std::collections::BTreeMap;
use std::sync::Mutex;

use async_trait::async_trait;
use rust_decimal::Decimal;

use super::record::CycleRecord;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("journal: {0}")]
pub struct JournalError(pub String);

#[async_trait]
pub trait Journal: Send + Sync {
    /// Insert or replace the record of (trader, cycle number).
    async fn save(&self, record: &CycleRecord) -> Result<(), JournalError>;
    /// The trader's newest record, to continue its numbering and finish a crashed cycle.
    async fn last(&self, trader_id: &str) -> Result<Option<CycleRecord>, JournalError>;

    /// Idle cycles (see [`super::idle`]): no records, only the equity each ended with.
    /// Cycle `first_cycle + i` ran at `first_ms + i * step_ms` and ended at `equity[i]`.
    /// Only drivers that step through bars produce idle cycles; a journal that keeps full
    /// records keeps nothing of them by default.
    fn mark_idle(
        &self,
        _trader_id: &str,
        _first_cycle: u64,
        _first_ms: i64,
        _step_ms: i64,
        _equity: &[Decimal],
    ) -> Result<(), JournalError> {
        Ok(())
    }
}

#[derive(Debug, Default)]
pub struct MemoryJournal {
    records: Mutex<BTreeMap<(String, u64), CycleRecord>>,
}

impl MemoryJournal {
    pub fn records(&self, trader_id: &str) -> Vec<CycleRecord> {
        self.records
            .lock()
            .map(|r| {
                r.values()
                    .filter(|c| c.trader_id == trader_id)
                    .cloned()
                    .collect()
            })
            .unwrap_or_default()
    }
}

#[async_trait]
impl Journal for MemoryJournal {
    async fn save(&self, record: &CycleRecord) -> Result<(), JournalError> {
        let mut records = self
            .records
            .lock()
            .map_err(|_| JournalError("memory journal poisoned".into()))?;
        records.insert(
            (record.trader_id.clone(), record.cycle_number),
            record.clone(),
        );
        Ok(())
    }

    async fn last(&self, trader_id: &str) -> Result<Option<CycleRecord>, JournalError> {
        let records = self
            .records
            .lock()
            .map_err(|_| JournalError("memory journal poisoned".into()))?;
        Ok(records
            .values()
            .rev()
            .find(|c| c.trader_id == trader_id)
            .cloned())
    }
}
