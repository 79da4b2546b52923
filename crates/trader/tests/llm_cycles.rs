//! A trader on a real model provider, end to end: a `deepseek` model config whose base URL is
//! the loopback mock LLM, loaded by preflight (key from the vault), prompted with the
//! strategy's sections, its answer guarded and sent to the paper exchange, the exchange with
//! the model journalled in the store — and the failures: a malformed answer, a refused key,
//! safe mode after three in a row, and the engine stopping a trader whose model keeps failing.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

use std::sync::Arc;
use std::time::Duration;

use nofxi_domain::market::Symbol;
use nofxi_domain::trading::{MarginMode, PositionMode};
use nofxi_domain::{Actor, Channel, ModelSpec, Secret, TraderSpec};
use nofxi_store::test_support::{PaperBasics, TestStore, seed_paper_basics, sqlite_store};
use nofxi_testkit::llm::{MockLlm, Reply};
use nofxi_trader::cycle::{CycleRecord, CycleWorld, ExecutionSettings, TraderCycle};
use nofxi_trader::runtime::engine::{Engine, EngineConfig};
use nofxi_trader::runtime::preflight::{Ready, preflight};
use nofxi_trader::runtime::status::{StopReason, load_status};
use nofxi_trader::runtime::store_journal::StoreJournal;
use nofxi_venues::{Clock, ManualClock};
use rust_decimal::Decimal;

const START_MS: i64 = 1_767_225_600_000;
const KEY: &str = "sk-mocktestkey0123456789abcdef";
const ROLE: &str = "You are Quentin, a patient swing trader (role marker 7391).";
const CUSTOM: &str = "Never trade DOGE.";

fn cli() -> Actor {
    Actor::new("u1", Channel::Cli, true)
}

/// A paper exchange, a strategy with its own prompt sections, a `deepseek` model pointed at
/// the mock, and a trader using them.
async fn llm_trader(ts: &TestStore, mock: &MockLlm) -> String {
    let mut basics = PaperBasics::named("paper", "ds", "llm");
    basics.model.provider = "deepseek".into();
    basics.model.base_url = Some(mock.base_url());
    basics.model_key = Some(Secret::new(KEY));
    let sections = &mut basics.strategy.config.prompt_sections;
    sections.role_definition = ROLE.into();
    sections.custom_prompt = CUSTOM.into();
    seed_paper_basics(ts, &cli(), basics).await.unwrap();
    let spec = TraderSpec::new("llm-bot", "ds", "paper", "llm", Decimal::from(1_000));
    let (trader, _) = ts.create_trader(&cli(), spec).await.unwrap();
    trader.id
}

/// REFERENCE §2's answer: reasoning, then a JSON array of decisions (one long on BTC).
fn long_btc_answer(price: Decimal) -> String {
    let sl = (price * Decimal::new(98, 2)).round_dp(1);
    let tp = (price * Decimal::new(107, 2)).round_dp(1);
    format!(
        "BTC holds above EMA20 on both timeframes; ETH is undecided.\n```json\n[{{\"symbol\":\"BTCUSDT\",\
         \"action\":\"open_long\",\"leverage\":5,\"position_size_usd\":300,\"stop_loss\":{sl},\
         \"take_profit\":{tp},\"confidence\":85,\"reasoning\":\"trend up\"}},\
         {{\"symbol\":\"ETHUSDT\",\"action\":\"wait\"}}]\n```"
    )
}

/// What OpenAI-style providers send for a refused key, echoing part of it.
fn bad_key_body() -> String {
    format!(
        "{{\"error\":{{\"message\":\"Incorrect API key provided: {}***{}\",\"type\":\"invalid_request_error\",\"code\":\"invalid_api_key\"}}}}",
        &KEY[..6],
        &KEY[KEY.len() - 4..]
    )
}

struct Rig {
    ts: TestStore,
    mock: MockLlm,
    clock: Arc<ManualClock>,
    ready: Ready,
    journal: StoreJournal,
    cycle: TraderCycle,
}

impl Rig {
    async fn new() -> Rig {
        let mock = MockLlm::start().await;
        let ts = sqlite_store().await.unwrap();
        let id = llm_trader(&ts, &mock).await;
        let clock = Arc::new(ManualClock::new(START_MS));
        let ready = preflight(ts.store.clone(), "u1", &id, clock.clone())
            .await
            .unwrap();
        let journal = StoreJournal {
            store: ts.store.clone(),
            user: "u1".into(),
            lease: None,
        };
        let settings = ExecutionSettings::new(&id, MarginMode::Cross, PositionMode::OneWay);
        let cycle = TraderCycle::new(&id, "llm-bot", settings);
        Rig {
            ts,
            mock,
            clock,
            ready,
            journal,
            cycle,
        }
    }

    async fn btc_price(&self) -> Decimal {
        let btc = Symbol::parse("BTCUSDT").unwrap();
        self.ready.venue.market.ticker(&btc).await.unwrap().mark
    }

    /// One cycle, five minutes after the last, as the engine would run it.
    async fn cycle(&mut self) -> CycleRecord {
        self.clock.advance(Duration::from_secs(300));
        self.cycle_now().await
    }

    async fn cycle_now(&mut self) -> CycleRecord {
        let world = CycleWorld {
            exchange: self.ready.venue.exchange.as_ref(),
            market: self.ready.venue.market.as_ref(),
            clock: self.clock.as_ref(),
            journal: &self.journal,
        };
        self.cycle
            .run(
                &self.ready.strategy.spec.config,
                self.ready.decider.as_mut(),
                &world,
            )
            .await
            .unwrap()
    }

    /// The record as the store keeps it (what `nofxi trader journal` shows).
    async fn stored(&self, cycle_number: u64) -> serde_json::Value {
        self.ts
            .cycles("u1", &self.ready.trader.id, 100, None)
            .await
            .unwrap()
            .into_iter()
            .find(|row| row.cycle_number == cycle_number)
            .unwrap()
            .record
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_model_answer_becomes_a_paper_order_and_the_exchange_is_journalled() {
    let mut rig = Rig::new().await;
    rig.clock.advance(Duration::from_secs(3600));
    let answer = long_btc_answer(rig.btc_price().await);
    rig.mock.push(Reply::TextWithUsage {
        text: answer.clone(),
        prompt_tokens: 1234,
        completion_tokens: 56,
    });
    let record = rig.cycle_now().await;

    assert_eq!(record.decider, "llm:deepseek:deepseek-chat");
    assert!(record.error.is_none(), "{:?}", record.error);
    assert_eq!(record.approved.len(), 1, "refused: {:?}", record.refused);
    let whats: Vec<&str> = record.executions.iter().map(|e| e.what.as_str()).collect();
    assert_eq!(whats, ["open", "stop_loss", "take_profit"]);
    assert!(
        record.executions.iter().all(|e| e.ok),
        "{:?}",
        record.executions
    );
    let positions = rig.ready.venue.exchange.positions().await.unwrap();
    assert_eq!(positions.len(), 1);
    assert_eq!(positions[0].symbol.to_string(), "BTCUSDT");

    // The journal in the store keeps the whole exchange with the model.
    let stored = rig.stored(record.cycle_number).await;
    assert_eq!(stored["raw_response"], answer.as_str());
    assert!(
        stored["reasoning"]
            .as_str()
            .unwrap()
            .contains("BTC holds above EMA20")
    );
    assert_eq!(stored["prompt_tokens"], 1234);
    assert_eq!(stored["completion_tokens"], 56);
    assert!(stored["model_latency_ms"].is_u64());
    assert!(stored["system_prompt"].as_str().unwrap().contains(ROLE));

    // What reached the provider: the strategy's sections and the market, the key only in
    // the Authorization header.
    let requests = rig.mock.requests();
    assert_eq!(requests.len(), 1);
    let request = &requests[0];
    assert!(
        request.path.ends_with("/chat/completions"),
        "{}",
        request.path
    );
    let body = request.body_text();
    assert!(body.contains(ROLE) && body.contains(CUSTOM), "{body}");
    assert!(body.contains("### BTCUSDT") && body.contains("### ETHUSDT"));
    assert_eq!(request.body["model"], "deepseek-chat");
    assert!(!body.contains(KEY), "the key is in the request body");
    assert_eq!(
        request.header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_malformed_answer_sends_nothing_and_three_failures_mean_safe_mode() {
    let mut rig = Rig::new().await;
    rig.clock.advance(Duration::from_secs(3600));
    let malformed = "I think BTC looks strong, I would go long around here.";
    rig.mock.push(Reply::Text(malformed.into()));
    rig.mock.push(Reply::Error {
        status: 401,
        body: bad_key_body(),
    });
    rig.mock
        .push(Reply::Text("[{\"symbol\": \"BTCUSDT\", \"action\":".into()));

    // 1: prose without decisions. Nothing is sent; the journal shows what the model said.
    let first = rig.cycle().await;
    assert!(
        first.error.as_deref().unwrap().contains("unusable"),
        "{:?}",
        first.error
    );
    assert!(first.executions.is_empty() && first.approved.is_empty());
    assert!(!first.safe_mode);
    let stored = rig.stored(1).await;
    assert_eq!(stored["raw_response"], malformed);
    assert!(
        stored["user_prompt"]
            .as_str()
            .unwrap()
            .contains("### BTCUSDT")
    );

    // 2: the key is refused. The journal says what to do, and never shows the key.
    let second = rig.cycle().await;
    let error = second.error.clone().unwrap();
    assert!(
        error.contains("HTTP 401") && error.contains("API key"),
        "{error}"
    );
    assert!(
        !error.contains(KEY) && !error.contains(&KEY[..10]),
        "{error}"
    );
    assert!(!second.safe_mode);
    let stored = rig.stored(2).await.to_string();
    assert!(!stored.contains(KEY), "the key reached the journal");

    // 3: a truncated answer — the third failure in a row: safe mode.
    let third = rig.cycle().await;
    assert!(third.error.is_some());
    assert!(third.safe_mode);
    assert_eq!(rig.stored(3).await["safe_mode"], true);

    // 4: the model answers with an open; in safe mode the guard refuses it.
    let answer = long_btc_answer(rig.btc_price().await);
    rig.mock.push(Reply::Text(answer));
    let fourth = rig.cycle().await;
    assert!(fourth.safe_mode);
    assert!(fourth.approved.is_empty());
    assert!(
        fourth
            .refused
            .iter()
            .any(|r| r.reason.contains("safe mode"))
    );
    assert!(
        rig.ready
            .venue
            .exchange
            .positions()
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(rig.mock.requests().len(), 4);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_engine_stops_a_trader_whose_model_keeps_refusing_the_key() {
    let mock = MockLlm::start().await;
    mock.set_default(Reply::Error {
        status: 401,
        body: bad_key_body(),
    });
    let ts = sqlite_store().await.unwrap();
    let id = llm_trader(&ts, &mock).await;
    ts.set_trader_running(&cli(), "llm-bot", true)
        .await
        .unwrap();
    let clock: Arc<dyn Clock> = Arc::new(ManualClock::new(START_MS));
    let mut config = EngineConfig::new("proc-a".into());
    config.poll = Duration::from_millis(50);
    let mut engine = Engine::new(ts.store.clone(), clock, config);
    assert_eq!(engine.poll().await.unwrap().started, vec![id.clone()]);

    let mut stopped = Vec::new();
    for _ in 0..200 {
        tokio::time::sleep(Duration::from_millis(50)).await;
        stopped = engine.poll().await.unwrap().stopped;
        if !stopped.is_empty() {
            break;
        }
    }
    assert_eq!(stopped, [(id.clone(), StopReason::SafeMode)]);
    assert!(!ts.get_trader("u1", "llm-bot").await.unwrap().is_running);
    let status = load_status(&ts, "u1", &id).await.unwrap().unwrap();
    let detail = status.detail.unwrap();
    assert!(
        detail.contains("API key") && !detail.contains(KEY),
        "{detail}"
    );

    let journal = ts.cycles("u1", &id, 100, None).await.unwrap();
    assert_eq!(journal.len(), 10);
    let safe: Vec<bool> = journal
        .iter()
        .rev()
        .map(|row| row.record["safe_mode"].as_bool().unwrap())
        .collect();
    assert_eq!(safe[..3], [false, false, true]);
    assert_eq!(mock.requests().len(), 10, "a refused key is not retried");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_claude_model_gets_room_for_a_whole_decision() {
    use nofxi_trader::decider::llm::ModelClient;
    use nofxi_trader::decider::provider_client::{ANTHROPIC_DECISION_MAX_TOKENS, ProviderClient};

    let mock = MockLlm::start().await;
    mock.push(Reply::Text("Nothing to do.\n[]".into()));
    let spec = ModelSpec {
        name: "claude".into(),
        provider: "claude".into(),
        enabled: true,
        base_url: Some(format!("{}/v1", mock.base_url())),
        model_name: Some("claude-sonnet-4-5".into()),
    };
    let client = ProviderClient::for_model(&spec, Some(Secret::new(KEY))).unwrap();
    let answer = client.complete("system part", "user part").await.unwrap();
    assert_eq!(answer.text, "Nothing to do.\n[]");
    let request = &mock.requests()[0];
    assert!(request.path.ends_with("/v1/messages"), "{}", request.path);
    assert_eq!(request.body["max_tokens"], ANTHROPIC_DECISION_MAX_TOKENS);
    assert_eq!(request.body["system"], "system part");
    assert_eq!(request.header("x-api-key"), Some(KEY));
    assert!(!request.body_text().contains(KEY));
}
