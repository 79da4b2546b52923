//! How many paper traders one engine process sustains at a one-second cycle with the builtin
//! decider (issue 5's target: 1,000 on 2 cores with cycle lag under 100 ms).
//!
//!     NOFXI_BENCH_TRADERS=1000 NOFXI_BENCH_SECONDS=30 cargo bench -p nofxi-trader --bench engine_load
//!
//! It creates the traders in a fresh SQLite store (or PostgreSQL with NOFXI_DATABASE_URL),
//! runs the engine in real time, then reads the journal back: cycles per second, and lag —
//! how late each cycle started against the one-second cadence (median, p99, max).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark, not shipped code

use std::sync::Arc;
use std::time::{Duration, Instant};

use nofxi_domain::{Actor, Channel, TraderSpec};
use nofxi_store::test_support::{PaperBasics, seed_paper_basics, sqlite_store};
use nofxi_trader::runtime::engine::{Engine, EngineConfig};
use nofxi_venues::SystemClock;
use rust_decimal::Decimal;

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let traders = env("NOFXI_BENCH_TRADERS", 1000) as usize;
    let seconds = env("NOFXI_BENCH_SECONDS", 30);
    let ts = sqlite_store().await.unwrap();
    let actor = Actor::new("bench", Channel::Cli, true);
    seed_paper_basics(&ts, &actor, PaperBasics::default())
        .await
        .unwrap();
    let setup = Instant::now();
    let mut ids = Vec::with_capacity(traders);
    for i in 0..traders {
        let name = format!("t{i:04}");
        let spec = TraderSpec::new(&name, "rules", "paper", "default", Decimal::from(1_000));
        ids.push(ts.create_trader(&actor, spec).await.unwrap().0.id);
        ts.set_trader_running(&actor, &name, true).await.unwrap();
    }
    eprintln!(
        "created {traders} traders in {:.1} s",
        setup.elapsed().as_secs_f64()
    );

    let mut config = EngineConfig::new("bench".into());
    config.cycle_override_ms = Some(1000);
    config.poll = Duration::from_millis(500);
    let mut engine = Engine::new(ts.store.clone(), Arc::new(SystemClock), config);
    let started = Instant::now();
    engine.poll().await.unwrap();
    eprintln!(
        "started {traders} traders in {:.2} s",
        started.elapsed().as_secs_f64()
    );
    let run_from = Instant::now();
    let window_start_ms = nofxi_venues::Clock::now_ms(&SystemClock);
    while run_from.elapsed() < Duration::from_secs(seconds) {
        tokio::time::sleep(Duration::from_millis(500)).await;
        engine.poll().await.unwrap();
    }
    let elapsed = run_from.elapsed().as_secs_f64();
    engine.shutdown().await;

    // Lag: each cycle's start against its predecessor's start plus the period. The first
    // cycles (start-up burst) are left out.
    let mut lags = Vec::new();
    let mut cycles = 0usize;
    for id in &ids {
        let rows = ts.cycles("bench", id, 100_000, None).await.unwrap();
        // Only cycles inside the measured window: the start-up burst is not throughput.
        let mut starts: Vec<i64> = rows
            .iter()
            .map(|r| r.started_at)
            .filter(|t| *t >= window_start_ms)
            .collect();
        cycles += starts.len();
        starts.sort_unstable();
        lags.extend(
            starts
                .windows(2)
                .skip(2)
                .map(|w| (w[1] - w[0] - 1000).max(0)),
        );
    }
    lags.sort_unstable();
    let pct = |p: f64| {
        lags.get(((lags.len() as f64 - 1.0) * p) as usize)
            .copied()
            .unwrap_or(0)
    };
    println!("engine_load: {traders} paper traders, builtin decider, 1 s cycle, SQLite");
    println!(
        "  cycles run        {cycles} in {elapsed:.1} s = {:.0} cycles/s (target {traders}/s)",
        cycles as f64 / elapsed
    );
    println!(
        "  cycle lag (ms)    median {}  p99 {}  max {}",
        pct(0.5),
        pct(0.99),
        lags.last().copied().unwrap_or(0)
    );
    println!(
        "  per trader        {:.2} cycles/s",
        cycles as f64 / elapsed / traders as f64
    );
}
