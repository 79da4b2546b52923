//! One trading cycle (REFERENCE §2), the same code for a live trader and a backtest.

mod execute;
mod idle;
mod input;
mod journal;
mod orphans;
mod record;
mod run;
mod undecided;
mod user_close;

pub use execute::{ExecutionSettings, Mode, quantity_for};
pub use idle::{Bar, CycleOutcome};
pub use input::{CandidateData, CycleInput};
pub use journal::{Journal, JournalError, MemoryJournal};
pub use orphans::{CANCEL_ORPHANED, orphaned};
pub use record::{CyclePhase, CycleRecord, Execution, ModelUsed, RefusedDecision};
pub use run::{CycleWorld, SAFE_MODE_AFTER_FAILURES, TraderCycle};
pub use undecided::NO_DECIDER;
pub use user_close::{CloseTarget, USER_DECIDER};
