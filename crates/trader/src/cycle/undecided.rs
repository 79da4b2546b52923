//! A cycle without a decider: the model the trader is bound to cannot decide (disabled, its
//! endpoint cannot be built). The cycle is journaled as failed, with the reason, and counts
//! as a failure of the model (toward safe mode and the stop after too many), as a failed
//! answer does. Nothing is read or sent: no other model decides in its place.

use super::journal::JournalError;
use super::record::CycleRecord;
use super::run::{CycleWorld, SAFE_MODE_AFTER_FAILURES, TraderCycle};

/// What a cycle record's `decider` says when there was none.
pub const NO_DECIDER: &str = "none";

impl TraderCycle {
    pub async fn run_undecided(
        &mut self,
        world: &CycleWorld<'_>,
        error: String,
    ) -> Result<CycleRecord, JournalError> {
        self.cycle_number += 1;
        self.failures_in_a_row += 1;
        if self.failures_in_a_row >= SAFE_MODE_AFTER_FAILURES {
            self.safe_mode = true;
        }
        let now = world.clock.now_ms();
        let record = self.new_record(now, world.clock.simulated(), NO_DECIDER.into());
        self.give_up(record, error, world).await
    }
}
