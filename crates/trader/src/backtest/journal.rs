//! A backtest's journal: millions of cycles would not fit as full records, and most are idle.
//! It keeps the equity of every cycle (idle ones included, as an [`EquityCurve`]) and counts
//! refusals; records
//! themselves are dropped. A backtest runs start to end in one process and is never resumed,
//! so no record is kept for [`Journal::last`] either: copying every trading cycle's record
//! twice for a resume that cannot happen was a tenth of a trading cycle's cost.

use std::sync::Mutex;

use async_trait::async_trait;
use rust_decimal::Decimal;

use super::curve::EquityCurve;
use crate::cycle::{CyclePhase, CycleRecord, Journal, JournalError};

#[derive(Debug, Default)]
pub struct BacktestJournal {
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    equity: EquityCurve,
    refused: usize,
}

impl BacktestJournal {
    /// A journal with room for `points` equity points, so marking a bar never reallocates.
    pub fn with_capacity(points: usize) -> BacktestJournal {
        BacktestJournal {
            inner: Mutex::new(Inner {
                equity: EquityCurve::with_capacity(points),
                ..Inner::default()
            }),
        }
    }

    /// The equity curve, taken out of the journal (a million points need not be copied).
    pub fn take_equity(&self) -> EquityCurve {
        self.inner
            .lock()
            .map(|mut i| std::mem::take(&mut i.equity))
            .unwrap_or_default()
    }

    pub fn refused(&self) -> usize {
        self.inner.lock().map(|i| i.refused).unwrap_or_default()
    }
}

#[async_trait]
impl Journal for BacktestJournal {
    async fn save(&self, record: &CycleRecord) -> Result<(), JournalError> {
        let mut inner = self
            .inner
            .lock()
            .map_err(|_| JournalError("backtest journal poisoned".into()))?;
        if record.phase == CyclePhase::Done {
            if let Some(equity) = record.equity() {
                inner.equity.push(record.started_ms, equity);
            }
            inner.refused += record.refused.len();
        }
        Ok(())
    }

    fn mark_idle(
        &self,
        _trader_id: &str,
        _first_cycle: u64,
        first_ms: i64,
        step_ms: i64,
        equity: &[Decimal],
    ) -> Result<(), JournalError> {
        let mut inner = self
            .inner
            .lock()
            .map_err(|_| JournalError("backtest journal poisoned".into()))?;
        inner.equity.extend_regular(first_ms, step_ms, equity);
        Ok(())
    }

    /// None: see the module docs.
    async fn last(&self, _trader_id: &str) -> Result<Option<CycleRecord>, JournalError> {
        Ok(None)
    }
}
