//! `nofxi run`: the trading engine in the foreground. It runs every started trader this
//! process can lease, logs each cycle, and stops cleanly on Ctrl-C or SIGTERM (each trader
//! finishes its cycle, leases are released so another engine can take over at once).

use std::sync::Arc;

use anyhow::{Context, Result};
use clap::Args;
use nofxi_trader::runtime::host::{HostOptions, default_owner, host_engine};
use tokio::sync::watch;

use super::common::{self, open_store};
use crate::home::GlobalArgs;

#[derive(Debug, Args)]
pub struct RunArgs {
    /// Fast-forward: simulated time runs this many times faster than real time (paper
    /// trading only makes sense with it; 600 = ten minutes a second). Simulated time moves only
    /// while an engine runs: a restart continues from where the last run stopped. 1 = real time.
    #[arg(long, default_value_t = 1.0, value_parser = speed_arg)]
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

/// `--sim-speed`: 1 (real time) or faster. The clock would take a slower or negative speed
/// as 1 without a word.
fn speed_arg(text: &str) -> std::result::Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(speed) if speed.is_finite() && speed >= 1.0 => Ok(speed),
        // Not repeated: clap's "invalid value '…' for '--sim-speed'" quotes it, escaped.
        _ => Err(
            "the speed must be at least 1 (1 = real time, 600 = ten minutes a second)".to_string(),
        ),
    }
}

pub fn run(global: &GlobalArgs, args: RunArgs) -> Result<()> {
    init_logging();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(run_engine(global, args))
}

/// Log lines to stderr, `RUST_LOG` or `info`; for the long-running commands (run, serve).
pub fn init_logging() {
    let _ = tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        // Colours only on a terminal: a log file or a pipe gets plain text.
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .try_init();
}

async fn run_engine(global: &GlobalArgs, args: RunArgs) -> Result<()> {
    let store = Arc::new(open_store(global).await?);
    let (stop, stop_rx) = watch::channel(false);
    tokio::spawn(async move {
        wait_for_signal().await;
        tracing::info!("stopping: each trader finishes its cycle");
        let _ = stop.send(true);
    });
    host_engine(store, args.host_options(), stop_rx).await?;
    Ok(())
}

impl RunArgs {
    pub fn host_options(&self) -> HostOptions {
        HostOptions {
            sim_speed: self.sim_speed,
            cycle_seconds: self.cycle_seconds,
            owner: self.owner.clone().unwrap_or_else(default_owner),
            lease_seconds: self.lease_seconds,
            time_label: common::time_on,
        }
    }
}

pub async fn wait_for_signal() {
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
