//! What a trader is doing and, when it stopped, why: the answer to "is my bot running?" and
//! "why did it stop?". Kept as a state document per trader (scope `trader_status`), written by
//! the engine on every cycle and every stop.

use std::sync::Arc;

use nofxi_store::{Store, StoreError};
use serde::{Deserialize, Serialize};

pub const STATUS_SCOPE: &str = "trader_status";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// The user stopped it (CLI, chat, API).
    User,
    /// Preflight failed when the engine started it.
    Preflight,
    /// Cycles kept failing (venue unreachable, journal unwritable).
    Error,
    /// The model kept failing after safe mode began.
    SafeMode,
    /// Another engine process took the trader over.
    LeaseLost,
    /// The engine shut down; the trader resumes when an engine runs again.
    Shutdown,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TraderStatus {
    pub running: bool,
    /// The engine process running it.
    pub owner: Option<String>,
    pub since_ms: i64,
    pub stop_reason: Option<StopReason>,
    /// The error behind a stop or the newest failed cycle, in words a user can act on.
    pub detail: Option<String>,
    pub last_cycle: Option<u64>,
    pub last_cycle_ms: Option<i64>,
    pub safe_mode: bool,
    /// Its times are a simulated timeline's (`nofxi run --sim-speed`), not the wall clock's.
    #[serde(default)]
    pub simulated: bool,
}

impl TraderStatus {
    pub fn running(owner: &str, now: i64) -> TraderStatus {
        TraderStatus {
            running: true,
            owner: Some(owner.to_string()),
            since_ms: now,
            stop_reason: None,
            detail: None,
            last_cycle: None,
            last_cycle_ms: None,
            safe_mode: false,
            simulated: false,
        }
    }

    pub fn stopped(mut self, reason: StopReason, detail: Option<String>, now: i64) -> TraderStatus {
        self.running = false;
        self.owner = None;
        self.since_ms = now;
        self.stop_reason = Some(reason);
        self.detail = detail;
        self
    }
}

pub async fn load_status(
    store: &Store,
    user: &str,
    trader_id: &str,
) -> Result<Option<TraderStatus>, StoreError> {
    let doc = store.get_state(user, STATUS_SCOPE, trader_id).await?;
    Ok(doc.and_then(|v| serde_json::from_value(v).ok()))
}

pub async fn save_status(
    store: &Arc<Store>,
    user: &str,
    trader_id: &str,
    status: &TraderStatus,
) -> Result<(), StoreError> {
    let value = serde_json::to_value(status).map_err(|e| StoreError::Corrupt {
        what: "trader status",
        detail: e.to_string(),
    })?;
    store.put_state(user, STATUS_SCOPE, trader_id, &value).await
}
