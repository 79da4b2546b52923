//! Hosting the engine in a process: the simulated timeline, the engine's settings from the
//! command line, its log lines, and a clean stop. `nofxi run` and `nofxi serve` both host it
//! this way, so a trader started in the web page trades exactly as under `nofxi run`.

use std::sync::Arc;
use std::time::Duration;

use nofxi_store::{Store, StoreError};
use nofxi_venues::{Clock, SystemClock};
use tokio::sync::watch;

use super::engine::{Engine, EngineConfig, PollReport};
use super::pace::{BEAT_EVERY, TimelineKeeper, TimelineStart};
use super::status::StopReason;

/// How to host the engine; the fields are `nofxi run`'s flags.
#[derive(Debug, Clone)]
pub struct HostOptions {
    /// Simulated time runs this many times faster than real time (paper traders only).
    pub sim_speed: f64,
    /// Run every trader every N seconds of (simulated) time instead of its scan interval.
    pub cycle_seconds: Option<u64>,
    /// This engine's name in lease rows.
    pub owner: String,
    /// Seconds a lease lasts without a heartbeat.
    pub lease_seconds: u64,
    /// How a moment is written in log lines (the CLI's own time format).
    pub time_label: fn(i64, bool) -> String,
}

/// Runs the engine until `stop` turns true, then lets each trader finish its cycle, gives the
/// leases back and freezes the simulated timeline where it stands.
pub async fn host_engine(
    store: Arc<Store>,
    options: HostOptions,
    stop: watch::Receiver<bool>,
) -> Result<(), StoreError> {
    let timeline = TimelineKeeper::resume(store.clone(), options.sim_speed).await?;
    let clock: Arc<dyn Clock> = match &timeline {
        Some((keeper, start)) => {
            say_timeline(&options, *start, keeper.clock().now_ms());
            keeper.clock()
        }
        None => Arc::new(SystemClock),
    };
    let timeline = timeline.map(|(keeper, _)| Arc::new(keeper));
    let ttl_ms = i64::try_from(options.lease_seconds.max(3) * 1000).unwrap_or(30_000);
    let mut config = EngineConfig::new(options.owner.clone()).with_lease(ttl_ms);
    config.cycle_override_ms = options
        .cycle_seconds
        .map(|s| i64::try_from(s.max(1) * 1000).unwrap_or(1000));
    let mut engine = Engine::new(store.clone(), clock, config);
    if options.sim_speed > 1.0 {
        // Said once at start; each live trader says it again when it starts.
        tracing::info!(
            speed = options.sim_speed,
            "simulated time applies to paper traders only: live traders run on the wall clock"
        );
        engine = engine.with_wall_clock(Arc::new(SystemClock));
    }
    if let Some(keeper) = &timeline {
        tokio::spawn(beat(keeper.clone(), stop.clone()));
    }
    let presence = tokio::spawn(say_running(
        store.clone(),
        options.owner.clone(),
        stop.clone(),
    ));
    tracing::info!(engine = %options.owner, database = %store.database().describe(), "engine started");
    let mut said = Said::default();
    let ran = engine
        .run(stop, |report| {
            // Simulated time moves once a trader runs here, not while leases are waited for.
            if report.running > 0
                && let Some(keeper) = &timeline
            {
                keeper.release();
            }
            said.log(report)
        })
        .await;
    presence.abort();
    if let Err(e) = store.engine_gone(&options.owner).await {
        tracing::debug!(error = %e, "could not remove the engine's beat; it ages out");
    }
    ran?;
    if let Some(keeper) = &timeline {
        let at = keeper.freeze().await?;
        tracing::info!(
            "simulated time stopped at {}; the next `nofxi run` continues from there",
            (options.time_label)(at, true)
        );
    }
    tracing::info!("engine stopped");
    Ok(())
}

/// A lease owner name unique to this process: host, process id and a random suffix.
pub fn default_owner() -> String {
    let host = std::env::var("HOSTNAME").unwrap_or_else(|_| "host".into());
    let suffix: String = uuid::Uuid::now_v7()
        .simple()
        .to_string()
        .chars()
        .rev()
        .take(6)
        .collect();
    format!("{host}-{}-{suffix}", std::process::id())
}

/// Where the paper traders' time comes from, said once.
fn say_timeline(options: &HostOptions, start: TimelineStart, now_ms: i64) {
    match start {
        TimelineStart::New => {
            tracing::info!("a simulated timeline starts now, at the wall clock")
        }
        TimelineStart::Joined => tracing::info!(
            "continuing the simulated timeline another engine is running (now {})",
            (options.time_label)(now_ms, true)
        ),
        TimelineStart::Resumed { at_ms } => tracing::info!(
            "continuing the simulated timeline from where the last run stopped ({})",
            (options.time_label)(at_ms, true)
        ),
    }
}

/// Keeps saying the timeline moves, so a reader freezes it soon after this engine dies.
async fn beat(keeper: Arc<TimelineKeeper>, mut stop: watch::Receiver<bool>) {
    loop {
        tokio::select! {
            _ = tokio::time::sleep(BEAT_EVERY) => {}
            _ = stop.changed() => return,
        }
        if *stop.borrow() {
            return;
        }
        // A missed beat only makes readers freeze the timeline early; the next one undoes it.
        let _ = keeper.beat().await;
    }
}

/// What the engine's log already said, so a state that lasts is said once, not every poll.
#[derive(Default)]
struct Said {
    idle: bool,
    waiting: std::collections::BTreeSet<String>,
}

impl Said {
    fn log(&mut self, report: &PollReport) {
        for id in &report.started {
            self.waiting.remove(id);
            tracing::info!(trader = %id, "trader started in this engine");
        }
        for (id, reason) in &report.stopped {
            tracing::info!(trader = %id, ?reason, "trader stopped");
        }
        for wait in &report.waiting {
            if self.waiting.insert(wait.trader_id.clone()) {
                tracing::warn!(
                    trader = %wait.trader_id,
                    engine = %wait.owner,
                    "waiting for the lease of a stopped engine, {} s left",
                    (wait.remaining_ms + 999) / 1000
                );
            }
        }
        // A trader another engine runs, or one whose dead engine's lease is not yet known to
        // be dead, is started: "no trader is started" would tell the user to start it.
        let idle = report.running == 0 && report.waiting.is_empty() && report.elsewhere == 0;
        // Traders stopped by this engine's own shutdown are still started: saying "no trader
        // is started" on the way out would tell the user to start one that is.
        let shutting_down = report
            .stopped
            .iter()
            .any(|(_, reason)| *reason == StopReason::Shutdown);
        if idle && !self.idle && !shutting_down {
            tracing::info!(
                "no trader is started: start one with `nofxi trader start NAME` and this engine picks it up"
            );
        }
        self.idle = idle;
    }
}

/// How often a hosted engine says it runs, and how old a beat may be to count.
pub const ENGINE_BEAT: Duration = Duration::from_secs(5);
pub const ENGINE_BEAT_TTL_MS: i64 = 15_000;

/// Beats until `stop`, so a start said anywhere can tell the user whether it will trade now.
async fn say_running(store: Arc<Store>, owner: String, mut stop: watch::Receiver<bool>) {
    loop {
        if let Err(e) = store.engine_beat(&owner).await {
            tracing::debug!(error = %e, "could not record the engine's beat");
        }
        tokio::select! {
            _ = tokio::time::sleep(ENGINE_BEAT) => {}
            _ = stop.wait_for(|s| *s) => return,
        }
    }
}
