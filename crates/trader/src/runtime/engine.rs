//! The engine: runs every started trader of every user that this process holds the lease of.
//!
//! Several `nofxi run` processes may share one database (PostgreSQL for many users). Each
//! polls the running traders, takes the leases it can (free, expired or its own — one atomic
//! upsert in the store), and runs one task per leased trader. Renewing a lease is the same
//! call, made on every poll, so a process that dies stops renewing and its traders are taken
//! over by another process once the lease expires. A task checks its lease before every cycle
//! and before every order, and its writes are fenced by the lease's epoch (see
//! [`super::lease_guard`] and `nofxi_store::Fence`), so two processes never trade one trader,
//! not even one that was frozen past its lease mid-cycle.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use nofxi_domain::{Actor, Channel};
use nofxi_store::{Fence, Lease, RunningTrader, Store, StoreError};
use tokio::sync::watch;
use tokio::task::JoinHandle;

use super::lease_guard::{LeaseGuard, Monotonic, ProcessClock};
use super::status::{StopReason, TraderStatus, load_status, save_status};
use super::task::{TaskExit, TaskSpec, run_trader};
use nofxi_venues::Clock;

#[derive(Debug, Clone)]
pub struct EngineConfig {
    /// This process's name in lease rows: unique per process.
    pub owner: String,
    pub lease_ttl_ms: i64,
    /// How often running traders are polled and leases renewed (well under the TTL).
    pub poll: Duration,
    pub cycle_override_ms: Option<i64>,
    /// What a lease's remaining time is judged by (a frozen clock in tests).
    pub monotonic: Arc<dyn Monotonic>,
}

impl EngineConfig {
    pub fn new(owner: String) -> EngineConfig {
        EngineConfig {
            owner,
            lease_ttl_ms: 30_000,
            poll: Duration::from_secs(2),
            cycle_override_ms: None,
            monotonic: Arc::new(ProcessClock::default()),
        }
    }

    /// Leases of `ttl_ms`, renewed every [`renew_every`] of it.
    pub fn with_lease(mut self, ttl_ms: i64) -> EngineConfig {
        self.lease_ttl_ms = ttl_ms;
        self.poll = renew_every(ttl_ms);
        self
    }
}

/// How often an engine with leases of `ttl_ms` polls and renews them (the store's pace, which
/// readers judge a silent engine by).
pub fn renew_every(ttl_ms: i64) -> Duration {
    Duration::from_millis(u64::try_from(nofxi_store::renew_every_ms(ttl_ms)).unwrap_or(2_000))
}

struct Running {
    user: String,
    stop: watch::Sender<bool>,
    /// Bumped when a person asked for the trader's positions to be closed (see `close`).
    close: watch::Sender<u64>,
    lease: Arc<LeaseGuard>,
    handle: JoinHandle<TaskExit>,
}

pub struct Engine {
    store: Arc<Store>,
    clock: Arc<dyn Clock>,
    /// The wall clock, when `clock` is a simulated timeline: live traders run on it.
    wall_clock: Option<Arc<dyn Clock>>,
    config: EngineConfig,
    tasks: HashMap<String, Running>,
}

/// What one poll did; `nofxi run` logs it and tests assert on it.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct PollReport {
    pub started: Vec<String>,
    pub stopped: Vec<(String, StopReason)>,
    /// Traders waiting for the lease of an engine that stopped renewing it (killed): the
    /// trader id, that engine, and the milliseconds until its lease expires.
    pub waiting: Vec<LeaseWait>,
    pub running: usize,
    /// Started traders another engine is running now (its lease renewed).
    pub elsewhere: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub struct LeaseWait {
    pub trader_id: String,
    pub owner: String,
    pub remaining_ms: i64,
}

impl Engine {
    pub fn new(store: Arc<Store>, clock: Arc<dyn Clock>, config: EngineConfig) -> Engine {
        Engine {
            store,
            clock,
            wall_clock: None,
            config,
            tasks: HashMap::new(),
        }
    }

    /// Say that the engine's clock is a simulated timeline (`--sim-speed`) and `wall` is real
    /// time. Simulated time is for paper traders only: a trader on a live account runs on
    /// `wall`, since its venue, its candles and its money are in real time.
    pub fn with_wall_clock(mut self, wall: Arc<dyn Clock>) -> Engine {
        self.wall_clock = Some(wall);
        self
    }

    pub fn owner(&self) -> &str {
        &self.config.owner
    }

    /// Poll until `shutdown` turns true, then stop every task and give their leases back.
    pub async fn run(
        &mut self,
        mut shutdown: watch::Receiver<bool>,
        mut on_poll: impl FnMut(&PollReport),
    ) -> Result<(), StoreError> {
        loop {
            let report = self.poll().await?;
            on_poll(&report);
            tokio::select! {
                _ = tokio::time::sleep(self.config.poll) => {}
                _ = shutdown.changed() => {}
            }
            if *shutdown.borrow() {
                let report = self.shutdown().await;
                on_poll(&report);
                return Ok(());
            }
        }
    }

    /// One round: renew or take leases, start and stop tasks, record why tasks ended.
    pub async fn poll(&mut self) -> Result<PollReport, StoreError> {
        let mut report = PollReport::default();
        self.reap_finished(&mut report).await;
        let wanted = self.store.running_traders().await?;
        let wanted_ids: Vec<&str> = wanted.iter().map(|t| t.trader_id.as_str()).collect();
        // Stopped by the user (or deleted): end the task, free the lease.
        let gone: Vec<String> = self
            .tasks
            .keys()
            .filter(|id| !wanted_ids.contains(&id.as_str()))
            .cloned()
            .collect();
        for id in gone {
            self.stop_task(&id, StopReason::User, &mut report).await;
        }
        for trader in wanted {
            self.hold(trader, &mut report).await;
        }
        report.running = self.tasks.len();
        Ok(report)
    }

    async fn hold(&mut self, trader: RunningTrader, report: &mut PollReport) {
        let ttl = self.config.lease_ttl_ms;
        // Counted from before the request: a slow answer shortens the lease, never lengthens it.
        let asked = self.config.monotonic.elapsed_ms();
        let lease = self
            .store
            .acquire_lease(&trader.user_id, &trader.trader_id, &self.config.owner, ttl)
            .await;
        let id = trader.trader_id.clone();
        match (lease, self.tasks.get(&id)) {
            (Ok(Some(lease)), Some(task))
                if lease.generation == task.lease.fence().epoch && !task.lease.is_lost() =>
            {
                task.lease.renewed(asked, ttl);
                if trader.close_asked {
                    task.close.send_modify(|asked| *asked += 1);
                }
            }
            // Held again, but as a new holding (the old one lapsed, or the task found it
            // short): the task's writes are fenced under the old epoch, so it makes way for
            // one under the new.
            (Ok(Some(lease)), Some(_)) => {
                self.drop_task(&id, report);
                report.started.push(id);
                self.spawn(trader, &lease, asked);
            }
            (Ok(Some(lease)), None) => {
                report.started.push(id);
                self.spawn(trader, &lease, asked);
            }
            // Someone else holds it: if we thought we did, we lost it.
            (Ok(None), Some(_)) => self.drop_task(&id, report),
            (Ok(None), None) => self.check_wait(&id, report).await,
            // The database did not answer: keep running on the lease we have; the task stops
            // by itself if it expires before the database comes back.
            (Err(_), _) => {}
        }
    }

    /// Ends a task whose holding is over, without waiting for it: its writes and orders are
    /// refused from now on (it may be stuck in a long call), and what the trader does now is
    /// for the holder of the lease to record, not this engine.
    fn drop_task(&mut self, trader_id: &str, report: &mut PollReport) {
        let Some(task) = self.tasks.remove(trader_id) else {
            return;
        };
        task.lease.lose();
        let _ = task.stop.send(true);
        task.handle.abort();
        report
            .stopped
            .push((trader_id.to_string(), StopReason::LeaseLost));
    }

    /// Another engine holds the lease: said in the report when that engine stopped
    /// renewing it, so a restart after a kill does not wait in silence.
    async fn check_wait(&self, trader_id: &str, report: &mut PollReport) {
        let now = self.store.now_ms();
        match self.store.lease(trader_id).await {
            Ok(Some(lease)) if lease.unrenewed(now) => report.waiting.push(LeaseWait {
                trader_id: trader_id.to_string(),
                owner: lease.owner,
                remaining_ms: lease.expires_at - now,
            }),
            _ => report.elsewhere += 1,
        }
    }

    fn spawn(&mut self, trader: RunningTrader, lease: &Lease, asked_at_ms: i64) {
        let (stop, stop_rx) = watch::channel(false);
        let (close, mut close_rx) = watch::channel(0u64);
        // A close asked before the task starts is served as soon as it has started.
        if trader.close_asked {
            close_rx.mark_changed();
        }
        let fence = Fence {
            trader_id: lease.trader_id.clone(),
            owner: lease.owner.clone(),
            epoch: lease.generation,
        };
        let lease = Arc::new(LeaseGuard::new(
            fence,
            self.config.monotonic.clone(),
            asked_at_ms,
            self.config.lease_ttl_ms,
        ));
        let spec = TaskSpec {
            store: self.store.clone(),
            user: trader.user_id.clone(),
            trader_id: trader.trader_id.clone(),
            owner: self.config.owner.clone(),
            clock: self.clock.clone(),
            wall_clock: self.wall_clock.clone(),
            cycle_override_ms: self.config.cycle_override_ms,
            lease: lease.clone(),
            lease_ttl_ms: self.config.lease_ttl_ms,
        };
        let handle = tokio::spawn(run_trader(spec, stop_rx, close_rx));
        self.tasks.insert(
            trader.trader_id,
            Running {
                user: trader.user_id,
                stop,
                close,
                lease,
                handle,
            },
        );
    }

    async fn stop_task(&mut self, trader_id: &str, reason: StopReason, report: &mut PollReport) {
        let Some(mut task) = self.tasks.remove(trader_id) else {
            return;
        };
        let _ = task.stop.send(true);
        let exit = match (&mut task.handle).await {
            Ok(exit) => exit,
            Err(e) if e.is_panic() => crashed(e),
            Err(_) => TaskExit {
                reason,
                detail: None,
            },
        };
        let reason = if exit.reason == StopReason::Shutdown {
            reason
        } else {
            exit.reason
        };
        self.finish(&task, reason, exit.detail).await;
        report.stopped.push((trader_id.to_string(), reason));
    }

    /// Tasks that ended on their own (preflight failed, kept failing, lost the lease).
    async fn reap_finished(&mut self, report: &mut PollReport) {
        let done: Vec<String> = self
            .tasks
            .iter()
            .filter(|(_, t)| t.handle.is_finished())
            .map(|(id, _)| id.clone())
            .collect();
        for id in done {
            let Some(mut task) = self.tasks.remove(&id) else {
                continue;
            };
            let exit = (&mut task.handle).await.unwrap_or_else(crashed);
            self.finish(&task, exit.reason, exit.detail).await;
            report.stopped.push((id, exit.reason));
        }
    }

    /// Records why a task ended and gives its lease back, while the task's holding of the
    /// lease still stands: an engine that lost the trader leaves both to the one that has it.
    async fn finish(&self, task: &Running, reason: StopReason, detail: Option<String>) {
        let (trader_id, user) = (task.lease.fence().trader_id.as_str(), task.user.as_str());
        if reason == StopReason::LeaseLost || task.lease.is_lost() {
            return;
        }
        if matches!(
            reason,
            StopReason::Preflight | StopReason::Error | StopReason::SafeMode
        ) && self
            .store
            .fence_holds(task.lease.fence())
            .await
            .unwrap_or(false)
        {
            // The trader cannot run: mark it stopped so no process keeps retrying it. Also
            // when the engine shuts down before its next poll saw the task end.
            let actor = Actor::new(user.to_string(), Channel::System, true);
            let _ = self
                .store
                .set_trader_running(&actor, trader_id, false)
                .await;
        }
        let now = self.clock.now_ms();
        let mut status = load_status(&self.store, user, trader_id)
            .await
            .ok()
            .flatten()
            .unwrap_or_else(|| TraderStatus::running(&self.config.owner, now));
        let last = self
            .store
            .cycles(user, trader_id, 1, None)
            .await
            .ok()
            .and_then(|r| r.into_iter().next());
        if let Some(last) = last {
            status.last_cycle = Some(last.cycle_number);
            status.last_cycle_ms = Some(last.started_at);
        }
        status.simulated = self.clock.simulated();
        let stopped = status.stopped(reason, detail, now);
        if save_status(&self.store, user, &stopped, &task.lease)
            .await
            .is_ok()
        {
            let _ = self
                .store
                .release_lease(trader_id, &self.config.owner)
                .await;
        }
    }

    /// Stop every task (each finishes the cycle it is in) and release the leases.
    /// What stopped, and why: a task that had already ended (its preflight failed) keeps its
    /// own reason.
    pub async fn shutdown(&mut self) -> PollReport {
        let ids: Vec<String> = self.tasks.keys().cloned().collect();
        let mut report = PollReport::default();
        for id in ids {
            self.stop_task(&id, StopReason::Shutdown, &mut report).await;
        }
        report
    }
}

impl Drop for Engine {
    /// An engine dropped without `shutdown` behaves like a killed process: its tasks end now
    /// and its leases are left to expire, for another process to take over.
    fn drop(&mut self) {
        for task in self.tasks.values() {
            task.handle.abort();
        }
    }
}

/// A trader task that ended without returning: its status says what failed (the panic's
/// message, e.g. "Multiplication overflowed") and what to do, not only that it panicked.
fn crashed(e: tokio::task::JoinError) -> TaskExit {
    let what = if e.is_panic() {
        let payload = e.into_panic();
        payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "an internal error with no message".to_string())
    } else {
        "it was cancelled".to_string()
    };
    TaskExit {
        reason: StopReason::Error,
        detail: Some(format!(
            "the trader stopped on an internal error in its cycle ({what}): this is a bug in \
             nofxi; the trader was stopped so it does not retry, please report it with \
             `nofxi trader status` and the log"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_panicked_task_says_what_failed() {
        let handle = tokio::spawn(async {
            if Duration::ZERO.is_zero() {
                panic!("Multiplication overflowed");
            }
        });
        let Err(e) = handle.await else {
            panic!("the task should have panicked")
        };
        let exit = crashed(e);
        assert_eq!(exit.reason, StopReason::Error);
        let said = exit.detail.unwrap_or_default();
        assert!(said.contains("Multiplication overflowed"), "{said}");
        assert!(!said.contains("panicked"), "{said}");
    }
}
