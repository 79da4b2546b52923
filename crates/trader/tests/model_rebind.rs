//! A running trader's model changed while it runs: the engine decides with the new one from
//! the next cycle (the decider is built again from the binding, not kept from the start), and
//! the journal names the model every cycle used. Two `deepseek` model configs point at two
//! loopback mock LLMs, so which one a cycle asked is seen from outside; the store is a real
//! SQLite file.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

use std::sync::Arc;
use std::time::Duration;

use nofxi_domain::{Actor, Channel, ModelPatch, ModelSpec, Secret, TraderPatch, TraderSpec};
use nofxi_store::test_support::{PaperBasics, TestStore, seed_paper_basics, sqlite_store};
use nofxi_testkit::llm::{MockLlm, Reply};
use nofxi_trader::runtime::engine::{Engine, EngineConfig};
use nofxi_venues::{Clock, ManualClock};
use rust_decimal::Decimal;
use serde_json::Value;

const START_MS: i64 = 1_767_225_600_000;
const KEY_A: &str = "sk-model-a-key-0123456789abcdef";
const KEY_B: &str = "sk-model-b-key-0123456789abcdef";

fn cli() -> Actor {
    Actor::new("u1", Channel::Cli, true)
}

/// A model that always answers "nothing to do".
async fn quiet_model() -> MockLlm {
    let mock = MockLlm::start().await;
    mock.set_default(Reply::Text("Nothing worth doing now.\n[]".into()));
    mock
}

/// A paper account, a strategy, `model-a` (on `a`) and `model-b` (on `b`, another model
/// name), and a running trader on `model-a`.
async fn running_trader(ts: &TestStore, a: &MockLlm, b: &MockLlm) -> String {
    let mut basics = PaperBasics::named("paper", "model-a", "s1");
    basics.model.provider = "deepseek".into();
    basics.model.base_url = Some(a.base_url());
    basics.model_key = Some(Secret::new(KEY_A));
    seed_paper_basics(ts, &cli(), basics).await.unwrap();
    let spec = ModelSpec {
        name: "model-b".into(),
        provider: "deepseek".into(),
        enabled: true,
        base_url: Some(b.base_url()),
        model_name: Some("deepseek-reasoner".into()),
    };
    ts.create_model(&cli(), spec, Some(Secret::new(KEY_B)))
        .await
        .unwrap();
    let spec = TraderSpec::new("bot", "model-a", "paper", "s1", Decimal::from(1_000));
    let (trader, _) = ts.create_trader(&cli(), spec).await.unwrap();
    ts.set_trader_running(&cli(), "bot", true).await.unwrap();
    trader.id
}

fn engine(ts: &TestStore) -> Engine {
    let clock: Arc<dyn Clock> = Arc::new(ManualClock::new(START_MS));
    let mut config = EngineConfig::new("proc-a".into());
    config.poll = Duration::from_millis(50);
    Engine::new(ts.store.clone(), clock, config)
}

/// The journal, oldest cycle first.
async fn journal(ts: &TestStore, id: &str) -> Vec<Value> {
    let mut rows = ts.cycles("u1", id, 100_000, None).await.unwrap();
    rows.reverse();
    rows.into_iter().map(|r| r.record).collect()
}

/// Waits (polling the engine, as `nofxi run` does) until the journal holds a record `found`
/// accepts, and returns the journal then.
async fn until(
    ts: &TestStore,
    engine: &mut Engine,
    id: &str,
    what: &str,
    found: impl Fn(&Value) -> bool,
) -> Vec<Value> {
    for _ in 0..400 {
        let records = journal(ts, id).await;
        if records.iter().any(&found) {
            return records;
        }
        let report = engine.poll().await.unwrap();
        assert!(report.stopped.is_empty(), "the trader stopped: {report:?}");
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("no cycle {what} within 10 s");
}

fn model_of(record: &Value) -> &str {
    record["model"]["name"].as_str().unwrap_or("(none)")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_model_changed_on_a_running_trader_decides_from_its_next_cycle() {
    let (a, b) = (quiet_model().await, quiet_model().await);
    let ts = sqlite_store().await.unwrap();
    let id = running_trader(&ts, &a, &b).await;
    let mut engine = engine(&ts);
    assert_eq!(engine.poll().await.unwrap().started, vec![id.clone()]);
    until(&ts, &mut engine, &id, "on model-a", |r| {
        model_of(r) == "model-a"
    })
    .await;

    let patch = TraderPatch {
        ai_model_id: Some("model-b".into()),
        ..Default::default()
    };
    ts.update_trader(&cli(), "bot", patch).await.unwrap();
    until(&ts, &mut engine, &id, "on model-b", |r| {
        model_of(r) == "model-b"
    })
    .await;
    let asked_a = a.requests().len();
    // A few more cycles: model-a is never asked again.
    let records = until(&ts, &mut engine, &id, "three after the switch", |r| {
        model_of(r) == "model-b" && b.requests().len() >= 3 && r["cycle_number"].is_u64()
    })
    .await;
    assert_eq!(
        a.requests().len(),
        asked_a,
        "model-a was asked after the switch"
    );

    // Every cycle names the model it asked: model-a until the switch, model-b from then on,
    // one question each, and the decider is the endpoint of that model.
    let named: Vec<&str> = records.iter().map(model_of).collect();
    let switch = named.iter().position(|m| *m == "model-b").unwrap();
    assert!(switch > 0, "{named:?}");
    assert!(named[..switch].iter().all(|m| *m == "model-a"), "{named:?}");
    assert!(named[switch..].iter().all(|m| *m == "model-b"), "{named:?}");
    assert_eq!(
        switch, asked_a,
        "one call to model-a per cycle before the switch"
    );
    for record in &records[switch..] {
        assert_eq!(record["decider"], "llm:deepseek:deepseek-reasoner");
        assert!(record["error"].is_null(), "{}", record["error"]);
    }
    assert_eq!(b.requests()[0].body["model"], "deepseek-reasoner");
    let model_b = ts.get_model("u1", "model-b").await.unwrap();
    assert_eq!(records[switch]["model"]["id"], model_b.id.as_str());
    let text = serde_json::to_string(&records).unwrap();
    assert!(
        !text.contains(KEY_A) && !text.contains(KEY_B),
        "a key in the journal"
    );

    // The model's own config changes (another model name): the next cycle asks for it.
    let patch = ModelPatch {
        model_name: Some("deepseek-chat".into()),
        ..Default::default()
    };
    ts.update_model(&cli(), "model-b", patch, None)
        .await
        .unwrap();
    until(&ts, &mut engine, &id, "with the new model name", |r| {
        model_of(r) == "model-b" && r["decider"] == "llm:deepseek:deepseek-chat"
    })
    .await;
    let last = b.requests().last().map(|r| r.body["model"].clone());
    assert_eq!(last, Some(Value::from("deepseek-chat")));
    engine.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_disabled_model_fails_the_cycle_and_the_old_one_is_not_asked_in_its_place() {
    let (a, b) = (quiet_model().await, quiet_model().await);
    let ts = sqlite_store().await.unwrap();
    let id = running_trader(&ts, &a, &b).await;
    let mut engine = engine(&ts);
    engine.poll().await.unwrap();
    until(&ts, &mut engine, &id, "on model-a", |r| {
        model_of(r) == "model-a"
    })
    .await;
    let patch = ModelPatch {
        enabled: Some(false),
        ..Default::default()
    };
    ts.update_model(&cli(), "model-a", patch, None)
        .await
        .unwrap();
    let records = until(
        &ts,
        &mut engine,
        &id,
        "failing on the disabled model",
        |r| r["error"].as_str().is_some_and(|e| e.contains("disabled")),
    )
    .await;
    let asked = a.requests().len();
    let failed = records
        .iter()
        .find(|r| r["error"].as_str().is_some_and(|e| e.contains("disabled")))
        .unwrap();
    let error = failed["error"].as_str().unwrap();
    assert!(
        error.contains("model-a") && error.contains("enable"),
        "{error}"
    );
    assert_eq!(model_of(failed), "model-a");
    assert_eq!(failed["decider"], "none");
    // Two more failed cycles, and model-a was not asked by any of them.
    until(&ts, &mut engine, &id, "three failed cycles", |r| {
        r["safe_mode"] == true
    })
    .await;
    assert_eq!(a.requests().len(), asked, "the disabled model was asked");
    assert!(b.requests().is_empty());
    engine.shutdown().await;
}
