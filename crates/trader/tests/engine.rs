//! The engine on a real store: a started paper trader trades in simulated time, stops when told,
//! resumes after its process is gone, and a second engine never runs a leased trader.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

use std::sync::Arc;
use std::time::Duration;

use nofxi_domain::{Actor, Channel, ModelSpec, TraderSpec};
use nofxi_store::test_support::{PaperBasics, TestStore, seed_paper_basics, sqlite_store};
use nofxi_trader::runtime::engine::{Engine, EngineConfig};
use nofxi_trader::runtime::status::{StopReason, load_status};
use nofxi_venues::{Clock, ManualClock};
use rust_decimal::Decimal;

const START_MS: i64 = 1_767_225_600_000;

fn cli() -> Actor {
    Actor::new("u1", Channel::Cli, true)
}

/// A paper exchange, the builtin model, a default strategy and a trader named `name`.
async fn paper_trader(ts: &TestStore, name: &str) -> String {
    if ts.get_exchange("u1", "paper").await.is_err() {
        seed_paper_basics(ts, &cli(), PaperBasics::default())
            .await
            .unwrap();
    }
    let spec = TraderSpec::new(name, "rules", "paper", "default", Decimal::from(1_000));
    let (trader, _) = ts.create_trader(&cli(), spec).await.unwrap();
    ts.set_trader_running(&cli(), name, true).await.unwrap();
    trader.id
}

fn engine(ts: &TestStore, owner: &str, clock: Arc<dyn Clock>) -> Engine {
    let mut config = EngineConfig::new(owner.into());
    config.poll = Duration::from_millis(50);
    Engine::new(ts.store.clone(), clock, config)
}

async fn cycles(ts: &TestStore, trader_id: &str) -> usize {
    ts.cycles("u1", trader_id, 100_000, None)
        .await
        .unwrap()
        .len()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_started_paper_trader_trades_in_simulated_time_and_stops_when_told() {
    let ts = sqlite_store().await.unwrap();
    let id = paper_trader(&ts, "btc-bot").await;
    // A manual clock moves on whenever the trader waits: five-minute cycles at full speed.
    let clock = Arc::new(ManualClock::new(START_MS));
    let mut engine = engine(&ts, "proc-a", clock.clone());
    let report = engine.poll().await.unwrap();
    assert_eq!(report.started, vec![id.clone()]);

    let mut waited = 0;
    while cycles(&ts, &id).await < 400 && waited < 600 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        waited += 1;
    }
    let journal = ts.cycles("u1", &id, 100_000, None).await.unwrap();
    assert!(journal.len() >= 400, "only {} cycles ran", journal.len());
    let traded = journal
        .iter()
        .filter(|c| {
            c.record["executions"]
                .as_array()
                .is_some_and(|e| !e.is_empty())
        })
        .count();
    assert!(
        traded > 0,
        "no cycle placed an order in {} cycles",
        journal.len()
    );
    assert!(ts.equity_curve("u1", &id).await.unwrap().len() >= 400);
    let status = load_status(&ts, "u1", &id).await.unwrap().unwrap();
    // Running; the last cycle is the journal's to tell (the status changes only on news).
    assert!(status.running && status.stop_reason.is_none());

    // The user stops it; the next poll ends the task and frees the lease.
    ts.set_trader_running(&cli(), "btc-bot", false)
        .await
        .unwrap();
    let report = engine.poll().await.unwrap();
    assert_eq!(report.stopped, [(id.clone(), StopReason::User)]);
    assert!(ts.lease(&id).await.unwrap().is_none());
    let status = load_status(&ts, "u1", &id).await.unwrap().unwrap();
    assert_eq!(status.stop_reason, Some(StopReason::User));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trader_that_fails_preflight_is_stopped_with_the_reason() {
    let ts = sqlite_store().await.unwrap();
    let id = paper_trader(&ts, "bot").await;
    // A model that is switched off after the trader was started on it: the engine must not
    // start a trader on it. (A running trader cannot be bound to a disabled one.)
    let spec = ModelSpec {
        name: "ds".into(),
        provider: "deepseek".into(),
        enabled: true,
        base_url: None,
        model_name: None,
    };
    ts.create_model(
        &cli(),
        spec,
        Some(nofxi_domain::Secret::new("sk-test-1234")),
    )
    .await
    .unwrap();
    let patch = nofxi_domain::TraderPatch {
        ai_model_id: Some("ds".into()),
        ..Default::default()
    };
    ts.update_trader(&cli(), "bot", patch).await.unwrap();
    let off = nofxi_domain::ModelPatch {
        enabled: Some(false),
        ..Default::default()
    };
    ts.update_model(&cli(), "ds", off, None).await.unwrap();

    let mut engine = engine(&ts, "proc-a", Arc::new(ManualClock::new(START_MS)));
    engine.poll().await.unwrap();
    let mut stopped = Vec::new();
    for _ in 0..100 {
        tokio::time::sleep(Duration::from_millis(50)).await;
        stopped = engine.poll().await.unwrap().stopped;
        if !stopped.is_empty() {
            break;
        }
    }
    assert_eq!(stopped, [(id.clone(), StopReason::Preflight)]);
    assert!(!ts.get_trader("u1", "bot").await.unwrap().is_running);
    let status = load_status(&ts, "u1", &id).await.unwrap().unwrap();
    let detail = status.detail.unwrap();
    assert!(
        detail.contains("disabled") && detail.contains("ds"),
        "{detail}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_engine_waits_for_the_lease_then_resumes_the_journal() {
    let ts = sqlite_store().await.unwrap();
    let id = paper_trader(&ts, "bot").await;
    let clock = Arc::new(ManualClock::new(START_MS));
    let mut first = engine(&ts, "proc-a", clock.clone());
    let mut second = engine(&ts, "proc-b", clock.clone());
    assert_eq!(first.poll().await.unwrap().started.len(), 1);
    assert!(
        second.poll().await.unwrap().started.is_empty(),
        "two engines ran one trader"
    );
    while cycles(&ts, &id).await < 20 {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // proc-a dies without a word: its task is dropped, its lease left to expire.
    drop(first);
    let lease = ts.lease(&id).await.unwrap().unwrap();
    assert_eq!(lease.owner, "proc-a");
    // Before expiry proc-b keeps away; the test cannot wait 30 s, so it expires the lease by
    // rewriting it, exactly as time would.
    assert!(second.poll().await.unwrap().started.is_empty());
    sqlx::query("UPDATE trader_leases SET expires_at = 0")
        .execute(ts.raw_pool())
        .await
        .unwrap();
    let before = ts.cycles("u1", &id, 1, None).await.unwrap()[0].cycle_number;
    assert_eq!(second.poll().await.unwrap().started, vec![id.clone()]);
    while ts.cycles("u1", &id, 1, None).await.unwrap()[0].cycle_number < before + 5 {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // The journal continues where proc-a left it, with no gap or repeat in the numbering.
    let numbers: Vec<u64> = ts
        .cycles("u1", &id, 100_000, None)
        .await
        .unwrap()
        .iter()
        .map(|c| c.cycle_number)
        .collect();
    let expected: Vec<u64> = (1..=numbers[0]).rev().collect();
    assert_eq!(numbers, expected);
    second.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_poll_reports_the_ids_of_exactly_the_traders_it_started() {
    let ts = sqlite_store().await.unwrap();
    let mut ids = Vec::new();
    for i in 0..6 {
        ids.push(paper_trader(&ts, &format!("bot-{i}")).await);
    }
    let mut engine = engine(&ts, "proc-a", Arc::new(ManualClock::new(START_MS)));
    let mut started = engine.poll().await.unwrap().started;
    started.sort();
    ids.sort();
    assert_eq!(started, ids);
    engine.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trader_waiting_for_a_killed_engines_lease_is_reported_with_the_time_left() {
    let ts = sqlite_store().await.unwrap();
    let id = paper_trader(&ts, "bot").await;
    // proc-a took the lease and stopped renewing it 20 s ago (killed); 10 s of it are left.
    let now = ts.now_ms();
    sqlx::query(
        "INSERT INTO trader_leases (trader_id, user_id, owner, generation, heartbeat_at, expires_at) \
         VALUES ($1, 'u1', 'proc-a', 1, $2, $3)",
    )
    .bind(&id)
    .bind(now - 20_000)
    .bind(now + 10_000)
    .execute(ts.raw_pool())
    .await
    .unwrap();
    let mut engine = engine(&ts, "proc-b", Arc::new(ManualClock::new(START_MS)));
    let report = engine.poll().await.unwrap();
    assert!(report.started.is_empty());
    assert_eq!(report.waiting.len(), 1, "{report:?}");
    let wait = &report.waiting[0];
    assert_eq!(
        (wait.trader_id.as_str(), wait.owner.as_str()),
        (id.as_str(), "proc-a")
    );
    assert!((8_000..=10_000).contains(&wait.remaining_ms), "{wait:?}");

    // A lease its engine renews is another engine at work, not a wait.
    sqlx::query("UPDATE trader_leases SET heartbeat_at = $1, expires_at = $2")
        .bind(ts.now_ms())
        .bind(ts.now_ms() + 30_000)
        .execute(ts.raw_pool())
        .await
        .unwrap();
    assert!(engine.poll().await.unwrap().waiting.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_preflight_failure_seen_only_at_shutdown_still_stops_the_trader_with_its_reason() {
    let ts = sqlite_store().await.unwrap();
    let id = paper_trader(&ts, "bot").await;
    let patch = nofxi_domain::ExchangePatch {
        enabled: Some(false),
        ..Default::default()
    };
    ts.update_exchange(&cli(), "paper", patch, nofxi_domain::Credentials::new())
        .await
        .unwrap();
    let mut engine = engine(&ts, "proc-a", Arc::new(ManualClock::new(START_MS)));
    engine.poll().await.unwrap();
    // The task fails its preflight at once; the engine shuts down before polling again.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let report = engine.shutdown().await;
    assert_eq!(report.stopped, [(id.clone(), StopReason::Preflight)]);
    assert!(!ts.get_trader("u1", "bot").await.unwrap().is_running);
    let status = load_status(&ts, "u1", &id).await.unwrap().unwrap();
    assert_eq!(status.stop_reason, Some(StopReason::Preflight));
    assert!(status.detail.unwrap().contains("disabled"));
}

/// An engine frozen inside a transaction that holds one trader's lease row (SIGSTOP mid-write)
/// must not stall another engine's polls: on PostgreSQL a statement that meets the lock gives
/// up after a few seconds, the other leases are renewed, and the poll returns. Before, the
/// poll waited on the lock for as long as the freeze lasted and every lease of the healthy
/// engine expired (found by the outside probe).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lease_row_locked_by_a_frozen_engine_does_not_stall_the_others() {
    let ts = nofxi_store::test_support::postgres_store().await.unwrap();
    let stuck = paper_trader(&ts, "stuck").await;
    let other = paper_trader(&ts, "other").await;
    let mut engine = engine(&ts, "proc-a", Arc::new(ManualClock::new(START_MS)));
    assert_eq!(engine.poll().await.unwrap().started.len(), 2);
    let before = ts.lease(&other).await.unwrap().unwrap().expires_at;
    tokio::time::sleep(Duration::from_millis(20)).await;

    // Another session takes the stuck trader's lease row and never commits.
    let mut frozen = ts.raw_pool().begin().await.unwrap();
    sqlx::query("UPDATE trader_leases SET heartbeat_at = heartbeat_at WHERE trader_id = $1")
        .bind(&stuck)
        .execute(&mut *frozen)
        .await
        .unwrap();

    // A hang guard, not a speed target: without the session limits this never returns.
    let polled = tokio::time::timeout(Duration::from_secs(60), engine.poll()).await;
    assert!(polled.is_ok(), "the poll hung on the locked lease row");
    let after = ts.lease(&other).await.unwrap().unwrap().expires_at;
    assert!(after > before, "the other trader's lease was not renewed");
    frozen.rollback().await.unwrap();
    engine.shutdown().await;
}
