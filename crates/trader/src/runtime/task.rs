//! One running trader: preflight, finish any interrupted cycle, then a cycle every scan
//! interval until it is told to stop, loses its lease, or keeps failing.
//!
//! The trader and its strategy are re-read before every cycle, so an edit takes effect on the
//! next cycle without a restart (the original platform's users hit "config not taking effect").

use std::sync::Arc;

use nofxi_domain::trading::{MarginMode, PositionMode};
use nofxi_store::Store;
use tokio::sync::watch;

use super::connect::{Persistence, is_live};
use super::engine::renew_every;
use super::lease_guard::{FencedExchange, LeaseGuard, SEND_MARGIN};
use super::preflight::preflight_with;
use super::status::{StopReason, TraderStatus, save_status};
use super::store_journal::StoreJournal;
use crate::cycle::{CycleWorld, ExecutionSettings, TraderCycle};
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

pub async fn run_trader(spec: TaskSpec, mut stop: watch::Receiver<bool>) -> TaskExit {
    let exit = |reason, detail: Option<String>| TaskExit { reason, detail };
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
    let mut decider = ready.decider;
    let venue = ready.venue;
    if let Some(problem) = lease_too_short(spec.lease_ttl_ms, venue.exchange.request_timeout()) {
        return exit(StopReason::Preflight, Some(problem));
    }
    let exchange = FencedExchange::new(venue.exchange.clone(), spec.lease.clone());
    let margin = if ready.trader.spec.is_cross_margin {
        MarginMode::Cross
    } else {
        MarginMode::Isolated
    };
    let position_mode = venue
        .exchange
        .position_mode()
        .await
        .unwrap_or(PositionMode::OneWay);
    let epoch = u64::try_from(spec.lease.fence().epoch).ok();
    let settings =
        ExecutionSettings::new(&ready.trader.id, margin, position_mode).with_epoch(epoch);
    let mut cycle = TraderCycle::new(&ready.trader.id, &ready.trader.spec.name, settings);
    cycle.engine = spec.owner.clone();
    cycle.prices = venue.prices.clone();
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
    let interval = |minutes: i64| spec.cycle_override_ms.unwrap_or(minutes * 60_000);
    let mut status = TraderStatus::running(&spec.owner, clock.now_ms());
    status.simulated = clock.simulated();
    if let Err(e) = cycle
        .resume(&world, interval(ready.trader.spec.scan_interval_minutes))
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
    let _ = save_status(&spec.store, &spec.user, &status, &spec.lease).await;

    let mut failed_cycles = 0;
    let mut next_ms = clock.now_ms();
    loop {
        tokio::select! {
            _ = clock.sleep(wait(next_ms - clock.now_ms())) => {}
            _ = stop.changed() => {}
        }
        if *stop.borrow() {
            return exit(StopReason::Shutdown, None);
        }
        let now = clock.now_ms();
        if !spec.lease.valid_now() {
            // The heartbeat could not renew the lease (or this process was frozen past it):
            // another process may own the trader now.
            return exit(StopReason::LeaseLost, None);
        }
        // Edits take effect here, on the next cycle.
        let (trader, strategy) = match reload(&spec).await {
            Ok(Some(pair)) => pair,
            Ok(None) => return exit(StopReason::User, None),
            Err(e) => {
                failed_cycles += 1;
                next_ms = now + interval(5);
                if failed_cycles >= STOP_AFTER_FAILED_CYCLES {
                    return exit(StopReason::Error, Some(e));
                }
                continue;
            }
        };
        let period = interval(trader.spec.scan_interval_minutes);
        next_ms = next_ms.max(now - period) + period;
        let seen = (status.safe_mode, status.detail.clone());
        match cycle
            .run(&strategy.spec.config, decider.as_mut(), &world)
            .await
        {
            Ok(record) => {
                log_cycle(&trader.spec.name, &record);
                failed_cycles = if record.error.is_some() && record.account_before.is_none() {
                    failed_cycles + 1
                } else {
                    0
                };
                status.last_cycle = Some(record.cycle_number);
                status.last_cycle_ms = Some(record.started_ms);
                status.safe_mode = record.safe_mode;
                status.detail = record.error.clone();
            }
            Err(e) => {
                failed_cycles += 1;
                status.detail = Some(e.to_string());
            }
        }
        // The journal already has every cycle; the status document changes only when what a
        // user would be told changes (safe mode, an error appearing or clearing).
        if spec.lease.is_lost() {
            // A write or an order of this cycle was refused for the lease: whatever else it
            // did not do, the engine holding the lease now does.
            return exit(StopReason::LeaseLost, None);
        }
        if (status.safe_mode, status.detail.clone()) != seen {
            let _ = save_status(&spec.store, &spec.user, &status, &spec.lease).await;
        }
        if cycle.failures_in_a_row >= STOP_AFTER_MODEL_FAILURES {
            return exit(StopReason::SafeMode, status.detail.clone());
        }
        if failed_cycles >= STOP_AFTER_FAILED_CYCLES {
            return exit(StopReason::Error, status.detail.clone());
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
async fn reload(
    spec: &TaskSpec,
) -> Result<Option<(nofxi_domain::Trader, nofxi_domain::Strategy)>, String> {
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
