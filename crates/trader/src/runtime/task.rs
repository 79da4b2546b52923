//! One running trader: preflight, finish any interrupted cycle, then a cycle every scan
//! interval until it is told to stop, loses its lease, or keeps failing.
//!
//! The trader and its strategy are re-read before every cycle, so an edit takes effect on the
//! next cycle without a restart (the original platform's users hit "config not taking effect"):
//! the strategy, the scan interval, the margin mode, and the model (its decider is built again
//! when the binding or the model's config changed, see [`super::bound_model`]). The account
//! cannot be changed on a running trader (the store refuses it: its open positions stay on the
//! old one); a trader stopped, moved and started again between two cycles is restarted.

use std::sync::Arc;

use nofxi_domain::trading::{MarginMode, PositionMode};
use nofxi_domain::{Model, Strategy, Trader};
use nofxi_store::Store;
use tokio::sync::watch;

use super::bound_model::BoundModel;
use super::connect::{Persistence, Venue, is_live};
use super::engine::renew_every;
use super::lease_guard::{FencedExchange, LeaseGuard, SEND_MARGIN};
use super::preflight::preflight_with;
use super::status::{StopReason, TraderStatus, save_status};
use super::store_journal::StoreJournal;
use crate::cycle::{
    CycleRecord, CycleWorld, ExecutionSettings, JournalError, ModelUsed, TraderCycle,
};
use nofxi_venues::Clock;

/// Cycles failing in a row (account unreadable, journal unwritable) before a trader stops.
pub const STOP_AFTER_FAILED_CYCLES: u32 = 10;
/// Model failures in a row, safe mode included, before a trader stops.
pub const STOP_AFTER_MODEL_FAILURES: u32 = 10;

pub struct TaskSpec {
    pub store: Arc<Store>,
    pub user: String,
    pub trader_id: String,
    pub owner: String,
    pub clock: Arc<dyn Clock>,
    /// Real time, when `clock` is a simulated timeline: what a live trader runs on.
    pub wall_clock: Option<Arc<dyn Clock>>,
    /// Replaces the trader's scan interval (benchmarks and tests run 1-second cycles).
    pub cycle_override_ms: Option<i64>,
    /// This process's holding of the trader's lease, kept fresh by the engine's heartbeat:
    /// every write and order of the task is made under it.
    pub lease: Arc<LeaseGuard>,
    /// How long the engine's leases last: a venue whose requests may take longer than a
    /// lease has left between renewals is refused at start.
    pub lease_ttl_ms: i64,
}

/// Why a trader task ended; the engine records it as the trader's stop reason.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskExit {
    pub reason: StopReason,
    pub detail: Option<String>,
}

/// Runs the trader until `stop` turns true (or it must stop by itself); a change of `close`
/// says a person asked for its positions to be closed (see [`super::close`]).
pub async fn run_trader(
    spec: TaskSpec,
    stop: watch::Receiver<bool>,
    close: watch::Receiver<u64>,
) -> TaskExit {
    let clock = trader_clock(&spec).await;
    let ready = match preflight_with(
        spec.store.clone(),
        &spec.user,
        &spec.trader_id,
        clock.clone(),
        Persistence::Fenced(spec.lease.clone()),
    )
    .await
    {
        Ok(ready) => ready,
        Err(_) if spec.lease.is_lost() => return exit(StopReason::LeaseLost, None),
        Err(e) => return exit(StopReason::Preflight, Some(e.to_string())),
    };
    let venue = &ready.venue;
    if let Some(problem) = lease_too_short(spec.lease_ttl_ms, venue.exchange.request_timeout()) {
        return exit(StopReason::Preflight, Some(problem));
    }
    let exchange = FencedExchange::new(venue.exchange.clone(), spec.lease.clone());
    let journal = StoreJournal {
        store: spec.store.clone(),
        user: spec.user.clone(),
        lease: Some(spec.lease.clone()),
    };
    let world = CycleWorld {
        exchange: &exchange,
        market: venue.market.as_ref(),
        clock: clock.as_ref(),
        journal: &journal,
    };
    let mut cycle = trader_cycle(&spec, &ready.trader, &ready.model, venue).await;
    if let Err(e) = cycle
        .resume(
            &world,
            spec.interval(ready.trader.spec.scan_interval_minutes),
        )
        .await
    {
        if spec.lease.is_lost() {
            return exit(StopReason::LeaseLost, None);
        }
        return exit(
            StopReason::Error,
            Some(format!("could not finish the interrupted cycle: {e}")),
        );
    }
    let mut status = TraderStatus::running(&spec.owner, clock.now_ms());
    status.simulated = clock.simulated();
    let _ = save_status(&spec.store, &spec.user, &status, &spec.lease).await;
    let running = Running {
        spec: &spec,
        world,
        exchange_id: ready.trader.spec.exchange_id.clone(),
        model: BoundModel::new(&ready.model, ready.decider),
        cycle,
        status,
        failed_cycles: 0,
    };
    running.run(stop, close).await
}

fn exit(reason: StopReason, detail: Option<String>) -> TaskExit {
    TaskExit { reason, detail }
}

impl TaskSpec {
    /// A scan interval of `minutes` in milliseconds, unless the engine runs every trader
    /// faster.
    fn interval(&self, minutes: i64) -> i64 {
        self.cycle_override_ms.unwrap_or(minutes * 60_000)
    }
}

/// A trader's cycle state as its start found it: its margin mode, the account's position
/// mode, the lease's epoch in its order ids, and the model it decides with first.
async fn trader_cycle(
    spec: &TaskSpec,
    trader: &Trader,
    model: &Model,
    venue: &Venue,
) -> TraderCycle {
    let position_mode = venue
        .exchange
        .position_mode()
        .await
        .unwrap_or(PositionMode::OneWay);
    let epoch = u64::try_from(spec.lease.fence().epoch).ok();
    let settings =
        ExecutionSettings::new(&trader.id, margin_of(trader), position_mode).with_epoch(epoch);
    let mut cycle = TraderCycle::new(&trader.id, &trader.spec.name, settings);
    cycle.engine = spec.owner.clone();
    cycle.prices = venue.prices.clone();
    cycle.model = Some(ModelUsed {
        id: model.id.clone(),
        name: model.spec.name.clone(),
    });
    cycle
}

fn margin_of(trader: &Trader) -> MarginMode {
    if trader.spec.is_cross_margin {
        MarginMode::Cross
    } else {
        MarginMode::Isolated
    }
}

/// A started trader between its cycles: what its next cycle acts on and with.
struct Running<'a> {
    spec: &'a TaskSpec,
    world: CycleWorld<'a>,
    /// The account the world was connected to at the start.
    exchange_id: String,
    model: BoundModel,
    cycle: TraderCycle,
    status: TraderStatus,
    failed_cycles: u32,
}

impl Running<'_> {
    async fn run(
        mut self,
        mut stop: watch::Receiver<bool>,
        mut close: watch::Receiver<u64>,
    ) -> TaskExit {
        let clock = self.world.clock;
        let mut next_ms = clock.now_ms();
        // The engine drops its end with the task: from then on only `stop` matters.
        let mut closes = true;
        loop {
            let mut close_asked = false;
            tokio::select! {
                _ = clock.sleep(wait(next_ms - clock.now_ms())) => {}
                _ = stop.changed() => {}
                changed = close.changed(), if closes => match changed {
                    Ok(()) => close_asked = true,
                    Err(_) => closes = false,
                },
            }
            if *stop.borrow() {
                return exit(StopReason::Shutdown, None);
            }
            if close_asked {
                if let Some(exit) = self.close_on_request().await {
                    return exit;
                }
                // Between two cycles, as it was: the next one comes when it was due.
                continue;
            }
            let now = clock.now_ms();
            if !self.spec.lease.valid_now() {
                // The heartbeat could not renew the lease (or this process was frozen past
                // it): another process may own the trader now.
                return exit(StopReason::LeaseLost, None);
            }
            // Edits take effect here, on the next cycle.
            let (trader, strategy) = match reload(self.spec).await {
                Ok(Some(pair)) => pair,
                Ok(None) => return exit(StopReason::User, None),
                Err(e) => {
                    self.failed_cycles += 1;
                    next_ms = now + self.spec.interval(5);
                    if self.failed_cycles >= STOP_AFTER_FAILED_CYCLES {
                        return exit(StopReason::Error, Some(e));
                    }
                    continue;
                }
            };
            if let Some(moved) = self.moved(&trader) {
                return moved;
            }
            let period = self.spec.interval(trader.spec.scan_interval_minutes);
            next_ms = next_ms.max(now - period) + period;
            if let Some(exit) = self.cycle(&trader, &strategy).await {
                return exit;
            }
        }
    }

    /// A trader stopped, moved to another account and started again between two of its
    /// cycles (a running trader's account cannot be changed): this task ends, and the
    /// engine starts the trader again there, through the start's preflight.
    fn moved(&self, trader: &Trader) -> Option<TaskExit> {
        (trader.spec.exchange_id != self.exchange_id).then(|| {
            exit(
                StopReason::User,
                Some(
                    "it was moved to another exchange account: the engine starts it again there"
                        .into(),
                ),
            )
        })
    }

    /// A close a person asked for, served between two cycles under the task's lease; `Some`
    /// when the task must end (its lease is gone).
    async fn close_on_request(&mut self) -> Option<TaskExit> {
        let spec = self.spec;
        if !spec.lease.valid_now() {
            return Some(exit(StopReason::LeaseLost, None));
        }
        let served = super::close::serve_request(
            &spec.store,
            &spec.user,
            &mut self.cycle,
            &self.world,
            &spec.lease,
        )
        .await;
        match served {
            Ok(Some(record)) => {
                log_cycle(&self.cycle.trader_name, &record);
                self.status.last_cycle = Some(record.cycle_number);
                self.status.last_cycle_ms = Some(record.started_ms);
            }
            Ok(None) => {}
            Err(e) => {
                tracing::warn!(trader = %self.cycle.trader_name, "a close request failed: {e}")
            }
        }
        spec.lease
            .is_lost()
            .then(|| exit(StopReason::LeaseLost, None))
    }

    /// One cycle with the trader and strategy as they are now; `Some` when the task ends.
    async fn cycle(&mut self, trader: &Trader, strategy: &Strategy) -> Option<TaskExit> {
        let seen = (self.status.safe_mode, self.status.detail.clone());
        self.cycle.settings.margin_mode = margin_of(trader);
        let ran = match self
            .model
            .refresh(&self.spec.store, &self.spec.user, trader)
            .await
        {
            Ok((used, decider)) => {
                self.cycle.model = Some(used.clone());
                self.cycle
                    .run(&strategy.spec.config, decider, &self.world)
                    .await
            }
            Err(e) => {
                let used = self.model.used();
                self.cycle.model = Some(used.clone());
                let why = format!("model \"{}\" cannot decide: {e}", used.name);
                self.cycle.run_undecided(&self.world, why).await
            }
        };
        self.count(trader, ran);
        let spec = self.spec;
        if spec.lease.is_lost() {
            // A write or an order of this cycle was refused for the lease: whatever else it
            // did not do, the engine holding the lease now does.
            return Some(exit(StopReason::LeaseLost, None));
        }
        // The journal already has every cycle; the status document changes only when what a
        // user would be told changes (safe mode, an error appearing or clearing).
        if (self.status.safe_mode, self.status.detail.clone()) != seen {
            let _ = save_status(&spec.store, &spec.user, &self.status, &spec.lease).await;
        }
        if self.cycle.failures_in_a_row >= STOP_AFTER_MODEL_FAILURES {
            return Some(exit(StopReason::SafeMode, self.status.detail.clone()));
        }
        if self.failed_cycles >= STOP_AFTER_FAILED_CYCLES {
            return Some(exit(StopReason::Error, self.status.detail.clone()));
        }
        None
    }

    /// What a cycle's outcome says of the trader's health.
    fn count(&mut self, trader: &Trader, ran: Result<CycleRecord, JournalError>) {
        match ran {
            Ok(record) => {
                log_cycle(&trader.spec.name, &record);
                self.failed_cycles = if record.error.is_some() && record.account_before.is_none() {
                    self.failed_cycles + 1
                } else {
                    0
                };
                self.status.last_cycle = Some(record.cycle_number);
                self.status.last_cycle_ms = Some(record.started_ms);
                self.status.safe_mode = record.safe_mode;
                self.status.detail = record.error;
            }
            Err(e) => {
                self.failed_cycles += 1;
                self.status.detail = Some(e.to_string());
            }
        }
    }
}

/// Why the engine's lease is too short for a venue whose requests may take `timeout`: a
/// renewed lease must outlast one request and the margin, or no order is ever sent.
fn lease_too_short(lease_ttl_ms: i64, timeout: std::time::Duration) -> Option<String> {
    let need = i64::try_from((timeout + SEND_MARGIN).as_millis()).unwrap_or(i64::MAX);
    let left = |ttl_ms: i64| ttl_ms - renew_every(ttl_ms).as_millis() as i64;
    if left(lease_ttl_ms) > need {
        return None;
    }
    let enough = (1..=3_600).find(|s| left(s * 1000) > need).unwrap_or(3_600);
    Some(format!(
        "this trader's exchange may take {} s to answer an order, longer than the engine's \
         lease has left between renewals ({} of {} s): run the engine with `--lease-seconds \
         {enough}` or more",
        timeout.as_secs_f64(),
        left(lease_ttl_ms).max(0) as f64 / 1000.0,
        lease_ttl_ms as f64 / 1000.0,
    ))
}

/// The clock a trader runs on: the engine's, unless that is a simulated timeline and the
/// trader's account is live (or cannot be looked up: a live account is never run fast).
async fn trader_clock(spec: &TaskSpec) -> Arc<dyn Clock> {
    let Some(wall) = &spec.wall_clock else {
        return spec.clock.clone();
    };
    let exchange = match spec.store.get_trader(&spec.user, &spec.trader_id).await {
        Ok(trader) => spec
            .store
            .get_exchange(&spec.user, &trader.spec.exchange_id)
            .await
            .ok()
            .map(|e| (trader.spec.name, e)),
        Err(_) => None,
    };
    match exchange {
        Some((_, exchange)) if !is_live(&exchange) => spec.clock.clone(),
        found => {
            let name = found.map(|(name, _)| name).unwrap_or_default();
            tracing::warn!(
                trader = %name,
                trader_id = %spec.trader_id,
                "a live trader runs on the wall clock: simulated time (--sim-speed) applies to paper traders only"
            );
            wall.clone()
        }
    }
}

/// One line per cycle for `nofxi run`'s log: what was decided, done and refused.
fn log_cycle(name: &str, record: &crate::cycle::CycleRecord) {
    let orders_ok = record.executions.iter().filter(|e| e.ok).count();
    let equity = record
        .equity()
        .map(|e| e.round_dp(2).to_string())
        .unwrap_or_else(|| "?".into());
    match &record.error {
        Some(error) => tracing::warn!(
            trader = name,
            cycle = record.cycle_number,
            "cycle failed: {error}"
        ),
        None => tracing::info!(
            trader = name,
            cycle = record.cycle_number,
            decisions = record.decisions.len(),
            approved = record.approved.len(),
            refused = record.refused.len(),
            orders = format!("{orders_ok}/{}", record.executions.len()),
            equity = %equity,
            safe_mode = record.safe_mode,
        ),
    }
}

fn wait(ms: i64) -> std::time::Duration {
    std::time::Duration::from_millis(u64::try_from(ms).unwrap_or(0))
}

/// The trader and its strategy as they are now; `None` once the trader is stopped or deleted.
async fn reload(spec: &TaskSpec) -> Result<Option<(Trader, Strategy)>, String> {
    let trader = match spec.store.get_trader(&spec.user, &spec.trader_id).await {
        Ok(t) if t.is_running => t,
        Ok(_) | Err(nofxi_store::StoreError::NotFound { .. }) => return Ok(None),
        Err(e) => return Err(e.to_string()),
    };
    let strategy = spec
        .store
        .get_strategy(&spec.user, &trader.spec.strategy_id)
        .await
        .map_err(|e| e.to_string())?;
    Ok(Some((trader, strategy)))
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::lease_too_short;

    #[test]
    fn a_lease_too_short_for_a_venues_orders_names_the_flag_and_the_length_that_works() {
        // Binance: 10 s a request; a 3 s lease never leaves enough between renewals.
        let problem = lease_too_short(3_000, Duration::from_secs(10)).unwrap_or_default();
        assert!(problem.contains("--lease-seconds 15"), "{problem}");
        assert!(lease_too_short(30_000, Duration::from_secs(10)).is_none());
        // Paper: half a second a write fits a 3 s lease.
        assert!(lease_too_short(3_000, Duration::from_millis(500)).is_none());
    }
}
