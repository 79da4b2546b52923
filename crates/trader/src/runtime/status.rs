//! What a trader is doing and, when it stopped, why: the answer to "is my bot running?" and
//! "why did it stop?". Kept as a state document per trader (scope `trader_status`), written by
//! the engine on every cycle and every stop.

use std::sync::Arc;

use nofxi_store::{Store, StoreError};

use super::lease_guard::LeaseGuard;
use crate::cycle::ModelUsed;
use serde::{Deserialize, Serialize};

pub const STATUS_SCOPE: &str = "trader_status";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
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

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
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

/// Saves a trader's status, made only while the engine's `lease` on it holds: an engine that
/// lost the trader must not overwrite what the engine running it now says.
pub async fn save_status(
    store: &Arc<Store>,
    user: &str,
    status: &TraderStatus,
    lease: &LeaseGuard,
) -> Result<(), StoreError> {
    let value = serde_json::to_value(status).map_err(|e| StoreError::Corrupt {
        what: "trader status",
        detail: e.to_string(),
    })?;
    let fence = lease.fence();
    store
        .put_state_fenced(fence, user, STATUS_SCOPE, &fence.trader_id, &value)
        .await
        .map_err(|e| lease.seen(e))
}

/// A trader's state as every surface reports it (`trader status`, the web dashboard): what it
/// is marked, what its engine last said, and whose lease holds it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct StatusView {
    pub name: String,
    pub id: String,
    pub marked_running: bool,
    pub engine: Option<TraderStatus>,
    pub lease_owner: Option<String>,
    /// Seconds until the lease of an engine that stopped renewing it expires.
    pub lease_wait_seconds: Option<i64>,
    /// Seconds since that engine last renewed the lease (only when it stopped renewing it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine_silent_seconds: Option<i64>,
    /// What the account's prices are, as the newest cycle recorded it (`binance live prices
    /// (paper fills)`): the equity and P&L the trader reports rest on them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prices: Option<String>,
    /// The model the newest cycle decided with, as the journal names it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_in_use: Option<ModelUsed>,
    /// The trader runs and is bound to another model than its newest cycle used: the engine
    /// decides with the new one from its next cycle, and until then with `model_in_use`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub model_pending: bool,
}

/// Reads a trader's [`StatusView`]: the status document, corrected by the journal's newest
/// cycle (the document only changes when something a user should hear about does), and the
/// live lease.
pub async fn status_view(
    store: &Store,
    user: &str,
    trader: &nofxi_domain::Trader,
) -> Result<StatusView, StoreError> {
    let last = store
        .cycles(user, &trader.id, 1, None)
        .await?
        .into_iter()
        .next();
    status_view_after(store, user, trader, last.as_ref()).await
}

/// [`status_view`] for a caller that has read the newest cycle already (`last`).
pub async fn status_view_after(
    store: &Store,
    user: &str,
    trader: &nofxi_domain::Trader,
    last: Option<&nofxi_store::CycleRow>,
) -> Result<StatusView, StoreError> {
    let mut engine = load_status(store, user, &trader.id).await?;
    if let (Some(status), Some(last)) = (engine.as_mut(), last) {
        status.last_cycle = Some(last.cycle_number);
        status.last_cycle_ms = Some(last.started_at);
    }
    let now = store.now_ms();
    let lease = store
        .lease(&trader.id)
        .await?
        .filter(|l| l.expires_at > now);
    // A lease its engine no longer renews (killed): the trader waits for it to expire.
    let silent = lease
        .as_ref()
        .filter(|l| trader.is_running && l.unrenewed(now));
    let waiting_ms = silent.map(|l| l.expires_at - now);
    let model_in_use: Option<ModelUsed> =
        last.and_then(|l| serde_json::from_value(l.record["model"].clone()).ok());
    let silent_ms = silent.map(|l| now - l.heartbeat_at);
    Ok(StatusView {
        name: trader.spec.name.clone(),
        id: trader.id.clone(),
        marked_running: trader.is_running,
        engine,
        lease_owner: lease.map(|l| l.owner),
        lease_wait_seconds: waiting_ms.map(|ms| (ms + 999) / 1000),
        engine_silent_seconds: silent_ms.map(|ms| ms / 1000),
        prices: last
            .and_then(|l| l.record["market"].as_str())
            .filter(|m| !m.is_empty())
            .map(str::to_string),
        model_pending: trader.is_running
            && model_in_use
                .as_ref()
                .is_some_and(|m| m.id != trader.spec.ai_model_id),
        model_in_use,
    })
}
