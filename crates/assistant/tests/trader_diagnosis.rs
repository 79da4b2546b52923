#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion
//! Issue 26's new user: a paper trader on a real model provider (the loopback mock LLM) whose
//! strategy asks for more confidence than the model ever gives. The real engine runs its
//! cycles; "why is my bot not trading?" is told the cause with its numbers (all opens refused,
//! confidence below 90, the model's best 70), and a yes to the offered fix lowers the
//! strategy's minimum through the normal update and its confirmation.

use std::sync::Arc;
use std::time::Duration;

use nofxi_assistant::{Assistant, AssistantOptions};
use nofxi_domain::{Actor, Channel, Secret, TraderSpec};
use nofxi_protocol::TurnRequest;
use nofxi_skills::Library;
use nofxi_store::test_support::{PaperBasics, TestStore, seed_paper_basics, sqlite_store};
use nofxi_testkit::llm::{MockLlm, Reply};
use nofxi_trader::runtime::engine::{Engine, EngineConfig};
use nofxi_venues::SystemClock;
use rust_decimal::Decimal;

const KEY: &str = "sk-mocktestkey0123456789abcdef";

/// A model that wants to open BTC long, but only 70 % sure.
const UNSURE_ANSWER: &str = "BTC looks heavy but could turn.\n```json\n[{\"symbol\":\"BTCUSDT\",\
    \"action\":\"open_long\",\"leverage\":3,\"position_size_usd\":200,\"stop_loss\":1,\
    \"take_profit\":1000000,\"confidence\":70,\"reasoning\":\"maybe up\"}]\n```";

/// One conversation, as a client holds it: its id and the confirmation it last showed.
struct Chat<'a> {
    assistant: &'a Assistant,
    conversation: Option<String>,
    seen: Option<String>,
}

impl Chat<'_> {
    async fn say(&mut self, message: &str) -> String {
        let out = self
            .assistant
            .turn(TurnRequest {
                conversation_id: self.conversation.clone(),
                user: "default".into(),
                message: message.into(),
                channel: nofxi_protocol::Channel::Cli,
                seen_confirmation: self.seen.clone(),
                received_bytes: None,
            })
            .await
            .unwrap();
        self.seen = out.confirmation_binding().map(str::to_string);
        self.conversation = Some(out.conversation_id);
        out.reply
    }
}

/// A paper account, a `deepseek` model at the mock, strategy `careful` (min confidence 90)
/// and trader `slow-bot`, marked running.
async fn unsure_trader(ts: &TestStore, mock: &MockLlm) -> String {
    let actor = Actor::new("default", Channel::Cli, true);
    let mut basics = PaperBasics::named("paper", "ds", "careful");
    basics.model.provider = "deepseek".into();
    basics.model.base_url = Some(mock.base_url());
    basics.model_key = Some(Secret::new(KEY));
    basics.strategy.config.risk_control.min_confidence = 90;
    let basics = seed_paper_basics(ts, &actor, basics).await.unwrap();
    let spec = TraderSpec::new(
        "slow-bot",
        &basics.model.id,
        &basics.exchange.id,
        &basics.strategy.id,
        Decimal::from(1_000),
    );
    let (trader, _) = ts.create_trader(&actor, spec).await.unwrap();
    ts.set_trader_running(&actor, "slow-bot", true)
        .await
        .unwrap();
    trader.id
}

/// The real engine, polled until trader `id` has journalled `cycles` cycles (or ten seconds).
async fn run_cycles(ts: &TestStore, id: &str, cycles: usize) -> Engine {
    let mut config = EngineConfig::new("proc-a".into());
    config.poll = Duration::from_millis(50);
    config.cycle_override_ms = Some(100);
    let mut engine = Engine::new(ts.store.clone(), Arc::new(SystemClock), config);
    engine.poll().await.unwrap();
    for _ in 0..200 {
        tokio::time::sleep(Duration::from_millis(50)).await;
        engine.poll().await.unwrap();
        if ts.cycles("default", id, 10, None).await.unwrap().len() >= cycles {
            break;
        }
    }
    engine
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_that_never_trades_is_told_its_confidence_floor_and_the_fix_runs_on_yes() {
    let mock = MockLlm::start().await;
    mock.set_default(Reply::Text(UNSURE_ANSWER.into()));
    let ts = sqlite_store().await.unwrap();
    let id = unsure_trader(&ts, &mock).await;

    let mut engine = run_cycles(&ts, &id, 3).await;

    let library = Arc::new(Library::builtin().unwrap());
    let assistant = Assistant::open(ts.store.clone(), library, AssistantOptions::default())
        .await
        .unwrap();
    let mut chat = Chat {
        assistant: &assistant,
        conversation: None,
        seen: None,
    };
    let reply = chat.say("why is my bot not trading?").await;
    for said in [
        "slow-bot",
        "refused",
        "minimum of 90",
        "highest was 70",
        "careful",
    ] {
        assert!(reply.contains(said), "{said:?} missing from: {reply}");
    }
    assert!(reply.contains("Say yes"), "no fix offered: {reply}");
    engine.shutdown().await;

    // The fix is the normal strategy update: shown, confirmed, then done.
    let confirm = chat.say("yes").await;
    assert!(confirm.contains("70"), "{confirm}");
    let strategy = ts.get_strategy("default", "careful").await.unwrap();
    assert_eq!(
        strategy.spec.config.risk_control.min_confidence, 90,
        "changed before a yes"
    );
    let done = chat.say("yes").await;
    let strategy = ts.get_strategy("default", "careful").await.unwrap();
    assert_eq!(
        strategy.spec.config.risk_control.min_confidence, 70,
        "{done}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_chinese_question_gets_the_same_cause() {
    let mock = MockLlm::start().await;
    mock.set_default(Reply::Text(UNSURE_ANSWER.into()));
    let ts = sqlite_store().await.unwrap();
    let id = unsure_trader(&ts, &mock).await;
    let mut engine = run_cycles(&ts, &id, 1).await;
    let library = Arc::new(Library::builtin().unwrap());
    let assistant = Assistant::open(ts.store.clone(), library, AssistantOptions::default())
        .await
        .unwrap();
    let mut chat = Chat {
        assistant: &assistant,
        conversation: None,
        seen: None,
    };
    let reply = chat.say("slow-bot 为什么一直不开仓").await;
    engine.shutdown().await;
    for said in ["被拒绝", "最低要求 90", "最高置信度是 70", "careful"] {
        assert!(reply.contains(said), "{said:?} missing from: {reply}");
    }
}
