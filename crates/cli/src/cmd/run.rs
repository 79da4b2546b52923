//! `nofxi run`: the trading engine in the foreground. It runs every started trader this
//! process can lease, logs each cycle, and stops cleanly on Ctrl-C or SIGTERM (each trader
//! finishes its cycle, leases are released so another engine can take over at once).

use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args;
use nofxi_store::Store;
use nofxi_trader::runtime::engine::{Engine, EngineConfig, PollReport};
use nofxi_trader::runtime::pace::{
    ScaledClock, TIMELINE_KEY, TIMELINE_SCOPE, TIMELINE_USER, saved_timeline,
};
use nofxi_trader::runtime::status::StopReason;
use nofxi_venues::{Clock, SystemClock};
use tokio::sync::watch;

use super::common::open_store;
use crate::home::GlobalArgs;

#[derive(Debug, Args)]
pub struct RunArgs {
    /// Fast-forward: simulated time runs this many times faster than real time (paper
    /// trading only makes sense with it; 600 = ten minutes a second). The timeline is kept, so
    /// a restart continues it. 1 = real time.
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
    let clock = engine_clock(&store, args.sim_speed).await?;
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
    tracing::info!(engine = %owner, database = %store.database().describe(), "engine started");
    let mut said = Said::default();
    engine.run(stop_rx, |report| said.log(report)).await?;
    tracing::info!("engine stopped");
    Ok(())
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

/// The wall clock, or a fast-forward timeline whose anchor is kept in the store so a restart
/// continues it instead of jumping back to today.
async fn engine_clock(store: &Store, speed: f64) -> Result<Arc<dyn Clock>> {
    if speed <= 1.0 {
        return Ok(Arc::new(SystemClock));
    }
    let clock = match saved_timeline(store).await? {
        Some(saved) if (saved.speed - speed).abs() < f64::EPSILON => saved,
        Some(saved) => {
            // A new speed continues from where the old timeline is now.
            let now = saved.now_ms();
            ScaledClock {
                anchor_sim_ms: now,
                ..ScaledClock::starting_now(speed)
            }
        }
        None => ScaledClock::starting_now(speed),
    };
    store
        .put_state(
            TIMELINE_USER,
            TIMELINE_SCOPE,
            TIMELINE_KEY,
            &serde_json::to_value(clock)?,
        )
        .await?;
    Ok(Arc::new(clock))
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
