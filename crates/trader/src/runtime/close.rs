//! Closing a trader's positions on a person's word (a position's Close in the web app, "stop
//! and close all"), whoever holds the trader.
//!
//! Orders for a trader are only ever sent under its lease, so there are two ways:
//! - Nobody holds it (a stopped trader, or one no engine runs yet): the close takes the lease
//!   itself for the moment it needs, sends the orders as a cycle of its own (see
//!   `cycle::user_close`) and gives the lease back.
//! - An engine runs it: the request waits in the store ([`CLOSE_REQUEST_SCOPE`]); the
//!   engine's next poll sees it beside the running traders and wakes the trader's task, which
//!   takes it between two cycles, closes under its own lease and leaves its answer. The caller
//!   waits for that answer a while; a trader in a long cycle answers after it, and the caller
//!   is told the close is on its way rather than made to wait.
//!
//! "Stop and close all" marks the trader stopped first: its engine lets it go after the cycle
//! in progress, opening nothing new, and the close then takes the lease as above.

use std::sync::Arc;
use std::time::Duration;

use nofxi_domain::trading::{MarginMode, PositionMode, PositionSide};
use nofxi_domain::{Actor, Trader};
use nofxi_store::{CLOSE_REQUEST_SCOPE, Fence, Store, StoreError};
use serde::{Deserialize, Serialize};
use tokio::time::Instant;

use super::connect::{ConnectError, PaperAccount, Persistence, connect_with, is_live};
use super::lease_guard::{FencedExchange, LeaseGuard, ProcessClock};
use super::store_journal::StoreJournal;
use super::view::{account_clock, has_paper_sub_account};
use crate::cycle::{CloseTarget, CycleRecord, CycleWorld, ExecutionSettings, TraderCycle};

/// Where a trader's task leaves its answer to the last close request, keyed by trader id.
const ANSWER_SCOPE: &str = "trader_close_answer";
/// How long a close here holds the trader's lease at most: a venue's orders and reads.
const HOLD_MS: i64 = 60_000;
/// A request older than this is not acted on by the engine: the person who asked has been
/// told it is on its way for so long that a close now would surprise them.
pub const REQUEST_TTL_MS: i64 = 5 * 60_000;
/// How often a waiting close looks again.
const LOOK_EVERY: Duration = Duration::from_millis(200);

/// A close as it waits for a running trader's engine.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CloseRequest {
    pub id: String,
    pub target: CloseTarget,
    /// When it was asked, on the store's clock.
    pub asked_ms: i64,
    /// What the journal says of it: who asked, through what.
    pub why: String,
}

/// One position a close closed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ClosedPosition {
    pub symbol: String,
    /// `LONG` or `SHORT`.
    pub side: String,
    pub quantity: rust_decimal::Decimal,
}

/// What a close did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct CloseReport {
    /// The journal's cycle that holds it; absent when nothing was journalled (a paper
    /// trader that never started has no account to close on).
    pub cycle: Option<u64>,
    pub closed: Vec<ClosedPosition>,
    /// What could not be closed, in the venue's words.
    pub failed: Vec<String>,
    /// Nothing was open to close (already closed, by a stop or by the trader).
    pub nothing_open: bool,
}

impl CloseReport {
    /// Nothing open: no order was sent and nothing journalled.
    fn nothing_open() -> CloseReport {
        CloseReport {
            cycle: None,
            closed: Vec::new(),
            failed: Vec::new(),
            nothing_open: true,
        }
    }

    /// A close that could not run at all, in words.
    fn failed(error: String) -> CloseReport {
        CloseReport {
            cycle: None,
            closed: Vec::new(),
            failed: vec![error],
            nothing_open: false,
        }
    }

    pub fn of(record: &CycleRecord) -> CloseReport {
        let mut closed = Vec::new();
        let mut failed = Vec::new();
        for approved in &record.approved {
            let crate::guard::Intent::Close {
                symbol,
                side,
                quantity,
                ..
            } = &approved.intent
            else {
                continue;
            };
            let sent = record
                .executions
                .iter()
                .find(|e| e.symbol == symbol.as_str() && e.what == "close");
            match sent {
                Some(e) if e.ok => closed.push(ClosedPosition {
                    symbol: symbol.to_string(),
                    side: side.to_string(),
                    quantity: *quantity,
                }),
                Some(e) => failed.push(format!(
                    "{symbol} {side}: {}",
                    e.error.as_deref().unwrap_or("refused")
                )),
                None => failed.push(format!("{symbol} {side}: not sent")),
            }
        }
        if let Some(error) = &record.error {
            failed.push(error.clone());
        }
        CloseReport {
            cycle: Some(record.cycle_number),
            nothing_open: record.approved.is_empty() && record.error.is_none(),
            closed,
            failed,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Answer {
    id: String,
    report: CloseReport,
}

/// How a close ended for the caller.
#[derive(Debug, Clone, PartialEq)]
pub enum Closing {
    Done(CloseReport),
    /// The engine running the trader has the request and acts after its current cycle.
    Waiting,
}

#[derive(Debug, thiserror::Error)]
pub enum CloseError {
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The trader's account could not be opened to close on.
    #[error(transparent)]
    Connect(#[from] ConnectError),
    #[error("the close could not be journalled: {0}")]
    Journal(String),
    /// Stopped, but the engine that ran it still holds it after `patience`.
    #[error(
        "the trader is stopped, but the engine that ran it has not let it go yet (it finishes \
         its cycle first); its positions are still open: close them again in a moment"
    )]
    StillHeld,
}

/// Closes what `target` names of `trader`'s positions at market, as the module says, waiting
/// at most `patience` for a running trader's engine. With `stop_first` the trader is marked
/// stopped before anything is closed.
pub async fn close_positions(
    store: &Arc<Store>,
    actor: &Actor,
    trader: &Trader,
    target: CloseTarget,
    stop_first: bool,
    patience: Duration,
) -> Result<Closing, CloseError> {
    let deadline = Instant::now() + patience;
    if stop_first && trader.is_running {
        store.set_trader_running(actor, &trader.id, false).await?;
    }
    let why = format!(
        "closed at market on {}'s request ({})",
        actor.user,
        actor.channel.as_str()
    );
    let mut asked: Option<String> = None;
    loop {
        if let Some(id) = &asked
            && let Some(report) = answer(store, &actor.user, &trader.id, id).await?
        {
            return Ok(Closing::Done(report));
        }
        if let Some(report) = close_here(store, &actor.user, trader, &target, &why).await? {
            // A request left for an engine that let the trader go before taking it is done
            // here: no engine acts on it later.
            if asked.is_some() {
                store
                    .take_state(&actor.user, CLOSE_REQUEST_SCOPE, &trader.id)
                    .await?;
            }
            return Ok(Closing::Done(report));
        }
        let running = store.get_trader(&actor.user, &trader.id).await?.is_running;
        if running && asked.is_none() {
            let request = CloseRequest {
                id: uuid::Uuid::now_v7().to_string(),
                target: target.clone(),
                asked_ms: store.now_ms(),
                why: why.clone(),
            };
            let value = serde_json::to_value(&request).map_err(|e| {
                CloseError::Store(StoreError::Corrupt {
                    what: "close request",
                    detail: e.to_string(),
                })
            })?;
            store
                .put_state(&actor.user, CLOSE_REQUEST_SCOPE, &trader.id, &value)
                .await?;
            asked = Some(request.id);
        }
        if Instant::now() >= deadline {
            return match asked {
                Some(_) if running => Ok(Closing::Waiting),
                _ => Err(CloseError::StillHeld),
            };
        }
        tokio::time::sleep(LOOK_EVERY).await;
    }
}

/// The engine's answer to request `id`, once it is there.
async fn answer(
    store: &Store,
    user: &str,
    trader_id: &str,
    id: &str,
) -> Result<Option<CloseReport>, StoreError> {
    let Some(value) = store.get_state(user, ANSWER_SCOPE, trader_id).await? else {
        return Ok(None);
    };
    Ok(serde_json::from_value::<Answer>(value)
        .ok()
        .filter(|a| a.id == id)
        .map(|a| a.report))
}

/// The close made here, under a lease of its own; `None` when another holds the trader.
async fn close_here(
    store: &Arc<Store>,
    user: &str,
    trader: &Trader,
    target: &CloseTarget,
    why: &str,
) -> Result<Option<CloseReport>, CloseError> {
    let owner = format!("close-{}", uuid::Uuid::now_v7());
    let Some(lease) = store
        .acquire_lease(user, &trader.id, &owner, HOLD_MS)
        .await?
    else {
        return Ok(None);
    };
    let fence = Fence {
        trader_id: trader.id.clone(),
        owner: owner.clone(),
        epoch: lease.generation,
    };
    let guard = Arc::new(LeaseGuard::new(
        fence,
        Arc::new(ProcessClock::default()),
        0,
        HOLD_MS,
    ));
    let closed = close_under(store, user, trader, target, why, guard).await;
    let released = store.release_lease(&trader.id, &owner).await;
    let report = closed?;
    released?;
    Ok(Some(report))
}

/// The close as a cycle of the trader's, under `guard`: its account opened as the engine
/// opens it, an interrupted cycle finished first, then the close.
async fn close_under(
    store: &Arc<Store>,
    user: &str,
    trader: &Trader,
    target: &CloseTarget,
    why: &str,
    guard: Arc<LeaseGuard>,
) -> Result<CloseReport, CloseError> {
    // As it is now: a stop may have come since the caller read it.
    let trader = store.get_trader(user, &trader.id).await?;
    let exchange = store.get_exchange(user, &trader.spec.exchange_id).await?;
    // A paper trader that never started has no account yet: opening one to close nothing
    // would invent its figures (see `view::trader_account`).
    if !is_live(&exchange) && !has_paper_sub_account(store, user, &exchange.id, &trader.id).await? {
        return Ok(CloseReport::nothing_open());
    }
    let clock = account_clock(store, &exchange).await;
    let account = PaperAccount::Trader {
        trader_id: trader.id.clone(),
        initial_balance: trader.spec.initial_balance,
    };
    let venue = connect_with(
        store.clone(),
        user,
        &exchange.id,
        account,
        clock.clone(),
        Persistence::Fenced(guard.clone()),
    )
    .await?;
    let fenced = FencedExchange::new(venue.exchange.clone(), guard.clone());
    let journal = StoreJournal {
        store: store.clone(),
        user: user.to_string(),
        lease: Some(guard.clone()),
    };
    let world = CycleWorld {
        exchange: &fenced,
        market: venue.market.as_ref(),
        clock: clock.as_ref(),
        journal: &journal,
    };
    let position_mode = venue
        .exchange
        .position_mode()
        .await
        .unwrap_or(PositionMode::OneWay);
    let margin = match trader.spec.is_cross_margin {
        true => MarginMode::Cross,
        false => MarginMode::Isolated,
    };
    let epoch = u64::try_from(guard.fence().epoch).ok();
    let settings = ExecutionSettings::new(&trader.id, margin, position_mode).with_epoch(epoch);
    let mut cycle = TraderCycle::new(&trader.id, &trader.spec.name, settings);
    cycle.engine = guard.fence().owner.clone();
    cycle.prices = venue.prices.clone();
    let scan_ms = trader.spec.scan_interval_minutes.max(1) * 60_000;
    cycle
        .resume(&world, scan_ms)
        .await
        .map_err(|e| CloseError::Journal(e.to_string()))?;
    let record = cycle
        .run_user_close(&world, target, why.to_string())
        .await
        .map_err(|e| CloseError::Journal(e.to_string()))?;
    Ok(CloseReport::of(&record))
}

/// A running trader's task, woken because a close waits for it: takes the request, if it is
/// still there and fresh, closes under the task's lease, and leaves the answer for the asker.
pub(super) async fn serve_request(
    store: &Store,
    user: &str,
    cycle: &mut TraderCycle,
    world: &CycleWorld<'_>,
    lease: &LeaseGuard,
) -> Result<Option<CycleRecord>, CloseError> {
    let Some(value) = store
        .take_state(user, CLOSE_REQUEST_SCOPE, &cycle.trader_id)
        .await?
    else {
        return Ok(None);
    };
    let Ok(request) = serde_json::from_value::<CloseRequest>(value) else {
        return Ok(None);
    };
    if store.now_ms() - request.asked_ms > REQUEST_TTL_MS {
        tracing::warn!(trader = %cycle.trader_name, "a close request older than 5 minutes was dropped");
        return Ok(None);
    }
    // The asker hears of a close that could not be journalled too, rather than waiting.
    let ran = cycle
        .run_user_close(world, &request.target, request.why.clone())
        .await;
    let report = match &ran {
        Ok(record) => CloseReport::of(record),
        Err(e) => CloseReport::failed(format!("the close could not be journalled: {e}")),
    };
    let answer = Answer {
        id: request.id,
        report,
    };
    if let Ok(value) = serde_json::to_value(&answer) {
        store
            .put_state_fenced(lease.fence(), user, ANSWER_SCOPE, &cycle.trader_id, &value)
            .await
            .map_err(|e| lease.seen(e))?;
    }
    ran.map(Some)
        .map_err(|e| CloseError::Journal(e.to_string()))
}

/// The target of a close of one position, by its symbol and side as the API names them.
pub fn one_position(symbol: &str, side: &str) -> Option<CloseTarget> {
    let symbol = nofxi_domain::market::Symbol::parse(symbol).ok()?;
    let side = match side.to_ascii_uppercase().as_str() {
        "LONG" => PositionSide::Long,
        "SHORT" => PositionSide::Short,
        _ => return None,
    };
    Some(CloseTarget::Position { symbol, side })
}
