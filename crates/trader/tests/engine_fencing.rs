//! Fencing, end to end: an engine frozen mid-cycle (between decide and execute) for longer
//! than its lease wakes up after another engine took the trader over. It must send nothing and
//! write nothing — not the paper account, not the journal, not the status — while the engine
//! holding the lease trades on undisturbed. On SQLite and on PostgreSQL.
//!
//! The freeze is a model answer the mock LLM holds until the test opens its gate; the lease's
//! time passes on the store's manual clock (what the database judges leases by) and on each
//! engine's manual monotonic clock (what it judges its own lease by before an order).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use nofxi_domain::market::Symbol;
use nofxi_domain::trading::OrderRequest;
use nofxi_domain::{Actor, Channel, Secret, TraderSpec};
use nofxi_store::test_support::{
    PaperBasics, TestStore, postgres_store_with_clock, seed_paper_basics, sqlite_store_with_clock,
};
use nofxi_store::{Fence, StoreError};
use nofxi_testkit::llm::{Gate, MockLlm, Reply};
use nofxi_trader::runtime::connect::{PAPER_SCOPE, PaperAccount, Persistence, connect_with};
use nofxi_trader::runtime::engine::{Engine, EngineConfig};
use nofxi_trader::runtime::lease_guard::{LeaseGuard, Monotonic};
use nofxi_trader::runtime::status::{StopReason, load_status};
use nofxi_venues::{Clock, ManualClock, VenueError};
use rust_decimal::Decimal;
use serde_json::Value;

const START_MS: i64 = 1_767_225_600_000;
const TTL_MS: i64 = 30_000;
const KEY: &str = "sk-mocktestkey0123456789abcdef";

fn cli() -> Actor {
    Actor::new("u1", Channel::Cli, true)
}

/// A monotonic clock that moves only when the test says: an engine's own sense of time.
#[derive(Debug, Default)]
struct Frozen(AtomicI64);

impl Frozen {
    fn advance(&self, ms: i64) {
        self.0.fetch_add(ms, Ordering::AcqRel);
    }
}

impl Monotonic for Frozen {
    fn elapsed_ms(&self) -> i64 {
        self.0.load(Ordering::Acquire)
    }
}

struct Rig {
    ts: TestStore,
    mock: MockLlm,
    /// The wall clock leases are judged by in the database.
    wall: Arc<nofxi_store::ManualClock>,
    /// The paper traders' simulated timeline, shared by both engines.
    timeline: Arc<ManualClock>,
    trader_id: String,
    paper_key: String,
}

impl Rig {
    async fn new(postgres: bool) -> Rig {
        let wall = Arc::new(nofxi_store::ManualClock::new(START_MS));
        let ts = if postgres {
            postgres_store_with_clock(wall.clone()).await.unwrap()
        } else {
            sqlite_store_with_clock(wall.clone()).await.unwrap()
        };
        let mock = MockLlm::start().await;
        let mut basics = PaperBasics::named("paper", "ds", "llm");
        basics.model.provider = "deepseek".into();
        basics.model.base_url = Some(mock.base_url());
        basics.model_key = Some(Secret::new(KEY));
        seed_paper_basics(&ts, &cli(), basics).await.unwrap();
        let spec = TraderSpec::new("bot", "ds", "paper", "llm", Decimal::from(1_000));
        let (trader, _) = ts.create_trader(&cli(), spec).await.unwrap();
        ts.set_trader_running(&cli(), "bot", true).await.unwrap();
        let exchange = ts.get_exchange("u1", "paper").await.unwrap();
        Rig {
            paper_key: format!("{}:{}", exchange.id, trader.id),
            trader_id: trader.id,
            ts,
            mock,
            wall,
            timeline: Arc::new(ManualClock::new(START_MS)),
        }
    }

    fn engine(&self, owner: &str, monotonic: Arc<Frozen>) -> Engine {
        let mut config = EngineConfig::new(owner.into()).with_lease(TTL_MS);
        config.monotonic = monotonic;
        Engine::new(self.ts.store.clone(), self.timeline.clone(), config)
    }

    async fn paper_account(&self) -> Value {
        self.ts
            .get_state("u1", PAPER_SCOPE, &self.paper_key)
            .await
            .unwrap()
            .unwrap_or(Value::Null)
    }

    /// Every row of the journal, as stored.
    async fn journal(&self) -> Vec<Value> {
        self.ts
            .cycles("u1", &self.trader_id, 100_000, None)
            .await
            .unwrap()
            .into_iter()
            .map(|c| c.record)
            .collect()
    }

    async fn wait_for_requests(&self, n: usize) {
        for _ in 0..500 {
            if self.mock.requests().len() >= n {
                return;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        panic!(
            "the model was asked {} times, not {n}",
            self.mock.requests().len()
        );
    }

    async fn btc_price(&self) -> Decimal {
        let market = nofxi_venues::sim::SimMarket::new(
            nofxi_trader::runtime::connect::sim_seed(),
            self.timeline.clone(),
        );
        let btc = Symbol::parse("BTCUSDT").unwrap();
        nofxi_venues::MarketData::ticker(&market, &btc)
            .await
            .unwrap()
            .mark
    }
}

/// REFERENCE §2's answer opening a BTC long at about `price`.
fn long_btc(price: Decimal) -> Reply {
    let sl = (price * Decimal::new(98, 2)).round_dp(1);
    let tp = (price * Decimal::new(108, 2)).round_dp(1);
    Reply::Text(format!(
        "Trend up.\n```json\n[{{\"symbol\":\"BTCUSDT\",\"action\":\"open_long\",\"leverage\":3,\
         \"position_size_usd\":300,\"stop_loss\":{sl},\"take_profit\":{tp},\"confidence\":85,\
         \"reasoning\":\"trend up\"}}]\n```"
    ))
}

fn wait_answer() -> Reply {
    Reply::Text(
        "Nothing to do.\n```json\n[{\"symbol\":\"BTCUSDT\",\"action\":\"wait\"}]\n```".into(),
    )
}

/// Client order ids of every order the paper account holds.
fn order_ids(account: &Value) -> Vec<String> {
    account["orders"]
        .as_array()
        .map(|orders| {
            orders
                .iter()
                .filter_map(|o| o["client_order_id"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Engine A freezes in its first cycle's model call; the lease lapses; engine B takes the
/// trader over and trades; A wakes with a plan to open a position. `a_clock_moves`: whether
/// A's own monotonic clock saw the freeze (a real pause) or not (the gate checked just before
/// it, so only the database's fence stands between A and the account).
async fn a_frozen_engine_wakes_after_a_takeover(postgres: bool, a_clock_moves: bool) {
    let rig = Rig::new(postgres).await;
    let price = rig.btc_price().await;
    let gate = Gate::new();
    rig.mock.push(Reply::Held {
        gate: gate.clone(),
        then: Box::new(long_btc(price)),
    });
    rig.mock.push(long_btc(price));
    rig.mock.set_default(wait_answer());

    let a_clock = Arc::new(Frozen::default());
    let mut a = rig.engine("engine-a", a_clock.clone());
    assert_eq!(a.poll().await.unwrap().started, vec![rig.trader_id.clone()]);
    rig.wait_for_requests(1).await;
    let a_epoch = rig
        .ts
        .lease(&rig.trader_id)
        .await
        .unwrap()
        .unwrap()
        .generation;

    // A is frozen for 35 s, past its 30 s lease.
    rig.wall.advance_ms(35_000);
    if a_clock_moves {
        a_clock.advance(35_000);
    }
    let mut b = rig.engine("engine-b", Arc::new(Frozen::default()));
    assert_eq!(b.poll().await.unwrap().started, vec![rig.trader_id.clone()]);
    let lease = rig.ts.lease(&rig.trader_id).await.unwrap().unwrap();
    assert_eq!(lease.owner, "engine-b");
    assert!(lease.generation > a_epoch, "a takeover is a new epoch");
    // B opens its position and trades on a few cycles.
    while rig.journal().await.len() < 4 {
        rig.wall.advance_ms(100);
        b.poll().await.unwrap();
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let b_orders = order_ids(&rig.paper_account().await);
    assert!(!b_orders.is_empty(), "engine B sent no order");
    let account_before_wake = rig.paper_account().await;
    let journal_before_wake = rig.journal().await;
    let status_before_wake = load_status(&rig.ts, "u1", &rig.trader_id).await.unwrap();

    // A wakes up with its plan, and finds out.
    gate.open();
    let mut ended = false;
    for _ in 0..250 {
        tokio::time::sleep(Duration::from_millis(20)).await;
        let report = a.poll().await.unwrap();
        if report.running == 0 {
            ended = true;
            assert!(
                report.stopped.is_empty()
                    || report.stopped == [(rig.trader_id.clone(), StopReason::LeaseLost)],
                "{:?}",
                report.stopped
            );
            break;
        }
    }
    assert!(ended, "engine A kept running a trader it lost");

    // Nothing A did after the takeover reached the database.
    let account = rig.paper_account().await;
    let after: Vec<String> = order_ids(&account);
    let stale: Vec<&String> = after
        .iter()
        .filter(|id| id.contains(&format!("e{a_epoch}c")))
        .collect();
    assert!(stale.is_empty(), "engine A sent orders {stale:?}");
    let journal: Vec<Value> = rig.journal().await;
    assert!(
        journal.iter().all(|r| r["engine"] != "engine-a"),
        "engine A journalled a cycle after the takeover"
    );
    // B, still polling, keeps the account and the journal as its own: nothing forked.
    b.poll().await.unwrap();
    assert_eq!(
        load_status(&rig.ts, "u1", &rig.trader_id).await.unwrap(),
        status_before_wake,
        "engine A rewrote the status of a trader it lost"
    );
    let now = rig.paper_account().await;
    assert!(
        order_ids(&now).starts_with(&order_ids(&account_before_wake)),
        "the account's order history was rewritten"
    );
    assert!(rig.journal().await.len() >= journal_before_wake.len());
    let lease = rig.ts.lease(&rig.trader_id).await.unwrap().unwrap();
    assert_eq!(lease.owner, "engine-b");
    b.shutdown().await;
    drop(a);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_an_engine_paused_past_its_lease_sends_and_writes_nothing() {
    a_frozen_engine_wakes_after_a_takeover(false, true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_the_database_fences_an_engine_whose_own_clock_missed_the_pause() {
    a_frozen_engine_wakes_after_a_takeover(false, false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_an_engine_paused_past_its_lease_sends_and_writes_nothing() {
    a_frozen_engine_wakes_after_a_takeover(true, true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_the_database_fences_an_engine_whose_own_clock_missed_the_pause() {
    a_frozen_engine_wakes_after_a_takeover(true, false).await;
}

/// No takeover, and the database would still take the writes (its clock did not move): the
/// engine's own clock says the lease is gone, so the orders of the plan are not sent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_whose_own_clock_says_the_lease_ran_out_sends_no_order() {
    let rig = Rig::new(false).await;
    let price = rig.btc_price().await;
    let gate = Gate::new();
    rig.mock.push(Reply::Held {
        gate: gate.clone(),
        then: Box::new(long_btc(price)),
    });
    rig.mock.set_default(wait_answer());
    let a_clock = Arc::new(Frozen::default());
    let mut a = rig.engine("engine-a", a_clock.clone());
    a.poll().await.unwrap();
    rig.wait_for_requests(1).await;
    a_clock.advance(35_000);
    gate.open();
    let mut sent = None;
    for _ in 0..250 {
        tokio::time::sleep(Duration::from_millis(20)).await;
        if let Some(first) = rig.journal().await.last().cloned()
            && first["phase"] == "done"
        {
            sent = Some(first);
            break;
        }
    }
    let record = sent.expect("the cycle was not journalled");
    let executions = record["executions"].as_array().cloned().unwrap_or_default();
    assert!(!executions.is_empty(), "{record}");
    assert!(
        executions
            .iter()
            .all(|e| e["ok"] == false && e["error"].as_str().unwrap_or("").contains("not sent")),
        "{executions:?}"
    );
    assert!(order_ids(&rig.paper_account().await).is_empty());
    a.shutdown().await;
}

/// The paper account saves only under a lease that holds: a stale holding's order is refused
/// by the store, and the account stays as it was.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paper_order_under_a_stale_lease_is_refused_by_the_store() {
    let rig = Rig::new(false).await;
    let ts = &rig.ts;
    let lease = ts
        .acquire_lease("u1", &rig.trader_id, "engine-a", TTL_MS)
        .await
        .unwrap()
        .unwrap();
    let stale = Fence {
        trader_id: rig.trader_id.clone(),
        owner: "engine-a".into(),
        epoch: lease.generation,
    };
    let guard = Arc::new(LeaseGuard::new(
        stale.clone(),
        Arc::new(Frozen::default()),
        0,
        TTL_MS,
    ));
    let clock: Arc<dyn Clock> = rig.timeline.clone();
    let venue = connect_with(
        ts.store.clone(),
        "u1",
        "paper",
        PaperAccount::Trader {
            trader_id: rig.trader_id.clone(),
            initial_balance: Decimal::from(1_000),
        },
        clock,
        Persistence::Fenced(guard.clone()),
    )
    .await
    .unwrap();
    let before = rig.paper_account().await;
    // The lease lapses and engine B takes it.
    rig.wall.advance_ms(31_000);
    ts.acquire_lease("u1", &rig.trader_id, "engine-b", TTL_MS)
        .await
        .unwrap()
        .unwrap();
    let request = OrderRequest::market(
        Symbol::parse("BTCUSDT").unwrap(),
        nofxi_domain::trading::Side::Buy,
        Decimal::new(1, 3),
        "nx-test-1",
    );
    let sent = venue.exchange.place_order(&request).await;
    assert!(matches!(sent, Err(VenueError::Fenced(_))), "{sent:?}");
    assert!(guard.is_lost());
    assert_eq!(rig.paper_account().await, before);
    // And the store says why, for every write made under that fence.
    let refused = ts
        .put_state_fenced(&stale, "u1", "x", "y", &Value::Null)
        .await;
    assert!(
        matches!(refused, Err(StoreError::Fenced { .. })),
        "{refused:?}"
    );
}
