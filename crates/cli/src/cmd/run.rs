//! `nofxi run`: the trading engine in the foreground. It runs every started trader this
//! process can lease, logs each cycle, and stops cleanly on Ctrl-C or SIGTERM (each trader
//! finishes its cycle, leases are released so another engine can take over at once).

use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args;
use nofxi_trader::runtime::engine::{Engine, EngineConfig, PollReport};
use nofxi_trader::runtime::pace::{BEAT_EVERY, TimelineKeeper, TimelineStart};
use nofxi_trader::runtime::status::StopReason;
use nofxi_venues::{Clock, SystemClock};
use tokio::sync::watch;

use super::common::{self, open_store};
use crate::home::GlobalArgs;

#[derive(Debug, Args)]
pub struct RunArgs {
    /// Fast-forward: simulated time runs this many times faster than real time (paper
    /// trading only makes sense with it; 600 = ten minutes a second). Simulated time moves only
    /// while an engine runs: a restart continues from where the last run stopped. 1 = real time.
    #[arg(long, default_value_t = 1.0)]
    pub sim_speed: f64,
    /// Run every trader every N seconds of (simulated) time instead of its scan interval.
    #[arg(long, value_name = "N")]
    pub cycle_seconds: Option<u64>,
    /// This engine's name in lease rows (default: host, process id and a random suffix).
    #[arg(long)]
    pub owner: Option<String>,
    /// Seconds a lease lasts without a heartbeat before another engine may take the trader.
    #[arg(long, default_value_t = 30)]
    pub lease_seconds: u64,
}

pub fn run(global: &GlobalArgs, args: RunArgs) -> Result<()> {
    let _ = tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        // Colours only on a terminal: a log file or a pipe gets plain text.
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .try_init();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(run_engine(global, args))
}

async fn run_engine(global: &GlobalArgs, args: RunArgs) -> Result<()> {
    let store = Arc::new(open_store(global).await?);
    let timeline = TimelineKeeper::resume(store.clone(), args.sim_speed).await?;
    let clock: Arc<dyn Clock> = match &timeline {
        Some((keeper, start)) => {
            say_timeline(*start, keeper.clock().now_ms());
            keeper.clock()
        }
        None => Arc::new(SystemClock),
    };
    let timeline = timeline.map(|(keeper, _)| Arc::new(keeper));
    let owner = args.owner.unwrap_or_else(default_owner);
    let mut config = EngineConfig::new(owner.clone());
    config.lease_ttl_ms = i64::try_from(args.lease_seconds.max(3) * 1000).unwrap_or(30_000);
    config.poll = Duration::from_millis(
        u64::try_from(config.lease_ttl_ms / 4)
            .unwrap_or(2_000)
            .clamp(200, 5_000),
    );
    config.cycle_override_ms = args
        .cycle_seconds
        .map(|s| i64::try_from(s.max(1) * 1000).unwrap_or(1000));
    let mut engine = Engine::new(store.clone(), clock, config);
    if args.sim_speed > 1.0 {
        // Said once at start; each live trader says it again when it starts.
        tracing::info!(
            speed = args.sim_speed,
            "simulated time applies to paper traders only: live traders run on the wall clock"
        );
        engine = engine.with_wall_clock(Arc::new(SystemClock));
    }

    let (stop, stop_rx) = watch::channel(false);
    tokio::spawn(async move {
        wait_for_signal().await;
        tracing::info!("stopping: each trader finishes its cycle");
        let _ = stop.send(true);
    });
    if let Some(keeper) = &timeline {
        tokio::spawn(beat(keeper.clone(), stop_rx.clone()));
    }
    tracing::info!(engine = %owner, database = %store.database().describe(), "engine started");
    let mut said = Said::default();
    engine.run(stop_rx, |report| said.log(report)).await?;
    if let Some(keeper) = &timeline {
        let at = keeper.freeze().await?;
        tracing::info!(
            "simulated time stopped at {}; the next `nofxi run` continues from there",
            common::time_on(at, true)
        );
    }
    tracing::info!("engine stopped");
    Ok(())
}

/// Where the paper traders' time comes from, said once.
fn say_timeline(start: TimelineStart, now_ms: i64) {
    match start {
        TimelineStart::New => {
            tracing::info!("a simulated timeline starts now, at the wall clock")
        }
        TimelineStart::Joined => tracing::info!(
            "continuing the simulated timeline another engine is running (now {})",
            common::time_on(now_ms, true)
        ),
        TimelineStart::Resumed { at_ms } => tracing::info!(
            "continuing the simulated timeline from where the last run stopped ({})",
            common::time_on(at_ms, true)
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
        let idle = report.running == 0 && report.waiting.is_empty();
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

fn default_owner() -> String {
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

async fn wait_for_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}
