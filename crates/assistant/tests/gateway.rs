#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The model-backed paths against the loopback mock LLM: the one-pass gateway, its fallbacks,
//! open answers over composed facts, streaming, and what the model is (not) shown.

use std::sync::{Arc, Mutex};

use nofxi_assistant::assistant_model::set_assistant_model;
use nofxi_assistant::{Assistant, AssistantOptions};
use nofxi_domain::{
    Actor, Channel, CredentialField, Credentials, ExchangeSpec, ModelSpec, Secret, StrategySpec,
    TraderSpec,
};
use nofxi_protocol::{Event, TurnRequest, TurnResponse};
use nofxi_skills::Library;
use nofxi_store::CycleRow;
use nofxi_store::test_support::{TestStore, sqlite_store};
use nofxi_testkit::{MockLlm, Reply};
use rust_decimal::Decimal;
use serde_json::json;

const MODEL_KEY: &str = "sk-gatewaysecret987654321";
const EXCHANGE_SECRET: &str = "livesecretABCDEFGH123456";

struct Chat {
    assistant: Assistant,
    ts: TestStore,
    mock: MockLlm,
    conversation: Option<String>,
    seen: Option<String>,
}

impl Chat {
    /// A live Binance account, the builtin model, a strategy, three running traders with
    /// different results, and a DeepSeek-shaped model pointing at the mock.
    async fn new(with_model: bool) -> Chat {
        let ts = sqlite_store().await.unwrap();
        let mock = MockLlm::start().await;
        let st = &ts.store;
        let actor = Actor::new("default", Channel::Cli, true);
        let creds = Credentials::new()
            .with(CredentialField::ApiKey, "liveapikey1234567890")
            .with(CredentialField::SecretKey, EXCHANGE_SECRET);
        let exchange = st
            .create_exchange(
                &actor,
                ExchangeSpec {
                    exchange_type: "binance".into(),
                    account_name: "main".into(),
                    enabled: true,
                    testnet: false,
                },
                creds,
            )
            .await
            .unwrap();
        let rules = st
            .create_model(
                &actor,
                ModelSpec {
                    name: "rules".into(),
                    provider: "builtin".into(),
                    enabled: true,
                    base_url: None,
                    model_name: None,
                },
                None,
            )
            .await
            .unwrap();
        st.create_model(
            &actor,
            ModelSpec {
                name: "helper".into(),
                provider: "deepseek".into(),
                enabled: true,
                base_url: Some(mock.base_url()),
                model_name: None,
            },
            Some(Secret::new(MODEL_KEY)),
        )
        .await
        .unwrap();
        let strategy = st
            .create_strategy(&actor, StrategySpec::new("trend"))
            .await
            .unwrap();
        for (name, equity) in [("eth-bot", 1050), ("btc-bot", 1010), ("sol-bot", 900)] {
            let spec = TraderSpec::new(
                name,
                rules.id.clone(),
                exchange.id.clone(),
                strategy.id.clone(),
                Decimal::from(1000),
            );
            let (trader, _) = st.create_trader(&actor, spec).await.unwrap();
            st.set_trader_running(&actor, &trader.id, true)
                .await
                .unwrap();
            for (n, e) in [(1u64, 1000), (2, equity)] {
                st.save_cycle(
                    "default",
                    &CycleRow {
                        trader_id: trader.id.clone(),
                        cycle_number: n,
                        phase: "done".into(),
                        started_at: 1_764_000_000_000 + n as i64 * 60_000,
                        equity: Some(Decimal::from(e)),
                        record: json!({}),
                    },
                )
                .await
                .unwrap();
            }
        }
        if with_model {
            set_assistant_model(
                st,
                &Actor::new("default", Channel::Cli, true),
                Some("helper"),
            )
            .await
            .unwrap();
        }
        let library = Arc::new(Library::builtin().unwrap());
        let assistant = Assistant::open(ts.store.clone(), library, AssistantOptions::default())
            .await
            .unwrap();
        Chat {
            assistant,
            ts,
            mock,
            conversation: None,
            seen: None,
        }
    }

    fn request(&self, message: &str) -> TurnRequest {
        TurnRequest {
            conversation_id: self.conversation.clone(),
            user: "default".into(),
            message: message.into(),
            channel: nofxi_protocol::Channel::Cli,
            seen_confirmation: self.seen.clone(),
            received_bytes: None,
        }
    }

    async fn say(&mut self, message: &str) -> TurnResponse {
        let r = self.assistant.turn(self.request(message)).await.unwrap();
        self.conversation = Some(r.conversation_id.clone());
        if let Some(b) = r.confirmation_binding() {
            self.seen = Some(b.to_string());
        }
        assert!(!r.reply.contains(MODEL_KEY) && !r.reply.contains(EXCHANGE_SECRET));
        r
    }

    async fn trader_running(&self, name: &str) -> bool {
        self.ts
            .store
            .get_trader("default", name)
            .await
            .unwrap()
            .is_running
    }
}

fn commands(value: serde_json::Value) -> Reply {
    Reply::Text(value.to_string())
}

fn executed(r: &TurnResponse, tool: &str) -> bool {
    r.events
        .iter()
        .any(|e| matches!(e, Event::ToolExecuted { tool: t, ok: true, .. } if t == tool))
}

fn confirmation_requested(r: &TurnResponse) -> bool {
    r.events
        .iter()
        .any(|e| matches!(e, Event::ConfirmationRequested { .. }))
}

fn clarified(r: &TurnResponse) -> bool {
    r.events
        .iter()
        .any(|e| matches!(e, Event::Clarification { .. }))
}

#[tokio::test]
async fn a_description_the_rules_cannot_rank_takes_one_call_then_the_confirmation_path() {
    let mut chat = Chat::new(true).await;
    chat.mock.push(commands(json!({"commands": [
        {"command": "start_task", "skill": "trader_management", "action": "stop",
         "slots": {"target": "sol-bot"}}
    ], "confidence": 0.9})));
    let r = chat.say("把那个跑得最差的机器人停掉").await;
    assert_eq!(r.llm.calls, 1, "{r:?}");
    assert!(confirmation_requested(&r), "{}", r.reply);
    assert!(r.reply.contains("sol-bot"), "{}", r.reply);
    assert!(!executed(&r, "trader.stop"));
    assert!(chat.trader_running("sol-bot").await);

    // What the model saw: the traders with their P&L (the slot it had to fill), and nothing
    // else — no other resource list, no secret.
    let requests = chat.mock.requests();
    assert_eq!(requests.len(), 1);
    let body = requests[0].body_text();
    assert!(body.contains("sol-bot") && body.contains("-100"), "{body}");
    assert!(body.contains("trader_management.stop"), "{body}");
    assert!(!body.contains("## Your models") && !body.contains("## Your exchanges"));
    assert!(!body.contains("## Your strategies"));
    assert!(!body.contains(MODEL_KEY) && !body.contains(EXCHANGE_SECRET));
    assert!(!body.contains("liveapikey1234567890"));

    // The yes is the user's own, read by the rules: no model call.
    let r = chat.say("确认").await;
    assert_eq!(r.llm.calls, 0);
    assert!(executed(&r, "trader.stop"), "{r:?}");
    assert!(!chat.trader_running("sol-bot").await);
    assert!(chat.trader_running("eth-bot").await);
}

#[tokio::test]
async fn without_a_model_the_rules_ask_which_trader() {
    let mut chat = Chat::new(false).await;
    let r = chat.say("把那个跑得最差的机器人停掉").await;
    assert_eq!(r.llm.calls, 0);
    assert!(chat.mock.requests().is_empty());
    assert!(
        r.events.iter().any(
            |e| matches!(e, Event::Asked { slots, .. } if slots.contains(&"target".to_string()))
        ),
        "{r:?}"
    );
}

#[tokio::test]
async fn a_malformed_answer_becomes_a_clarifying_question() {
    let mut chat = Chat::new(true).await;
    chat.mock.push(Reply::Text(
        "You probably mean sol-bot, stopping it now.".into(),
    ));
    let r = chat.say("把那个跑得最差的机器人停掉").await;
    assert_eq!(r.llm.calls, 1);
    assert!(clarified(&r), "{r:?}");
    assert!(!confirmation_requested(&r));
    assert!(!executed(&r, "trader.stop"));
    assert!(chat.trader_running("sol-bot").await);
}

#[tokio::test]
async fn a_name_the_user_does_not_have_is_not_guessed() {
    let mut chat = Chat::new(true).await;
    chat.mock.push(commands(json!({"commands": [
        {"command": "start_task", "skill": "trader_management", "action": "stop",
         "slots": {"target": "doge-bot"}}
    ]})));
    let r = chat.say("stop the worst performing bot").await;
    assert_eq!(r.llm.calls, 1, "{r:?}");
    assert!(clarified(&r), "{r:?}");
    assert!(!executed(&r, "trader.stop"));
}

/// A yes the rules do not read ("sure thing, go for it") is the model's to read, and code
/// applies it only to the confirmation this client was shown, as a rule's yes.
#[tokio::test]
async fn a_yes_only_the_model_reads_confirms_what_was_shown() {
    let mut chat = Chat::new(true).await;
    chat.mock.push(commands(json!({"commands": [
        {"command": "start_task", "skill": "trader_management", "action": "stop",
         "slots": {"target": "sol-bot"}}
    ]})));
    let r = chat.say("stop the worst performing bot").await;
    assert!(confirmation_requested(&r));
    assert!(chat.trader_running("sol-bot").await);
    chat.mock
        .push(commands(json!({"commands": [{"command": "confirm"}]})));
    let r = chat.say("yeah alright, knock yourself out").await;
    assert!(executed(&r, "trader.stop"), "{r:?}");
    assert!(!chat.trader_running("sol-bot").await);
}

/// With nothing waiting for a yes, a model's confirm approves nothing: the answer does not
/// validate and becomes a question.
#[tokio::test]
async fn the_model_cannot_confirm_what_was_never_asked() {
    let mut chat = Chat::new(true).await;
    chat.mock
        .push(commands(json!({"commands": [{"command": "confirm"}]})));
    let r = chat.say("yeah alright, knock yourself out").await;
    assert!(
        !r.events
            .iter()
            .any(|e| matches!(e, Event::Confirmed { .. })),
        "{r:?}"
    );
    assert!(!executed(&r, "trader.stop"), "{r:?}");
    assert!(chat.trader_running("sol-bot").await);
}

#[tokio::test]
async fn a_failing_model_falls_back_to_the_rules_and_never_shows_the_key() {
    let mut chat = Chat::new(true).await;
    chat.mock.push(Reply::Error {
        status: 401,
        body: json!({"error": {"message": format!("Incorrect API key provided: {MODEL_KEY}"),
                     "type": "invalid_request_error", "code": "invalid_api_key"}})
        .to_string(),
    });
    let r = chat.say("把那个跑得最差的机器人停掉").await;
    assert_eq!(r.llm.calls, 1);
    assert!(!executed(&r, "trader.stop"));
    assert!(
        r.events.iter().any(|e| matches!(e, Event::Asked { .. })),
        "{r:?}"
    );
    // Explained from the error-diagnosis skill, in the user's language.
    assert!(r.reply.contains("现在怎么做"), "{}", r.reply);
    let traces = chat.ts.store.list_traces("default", None, 5).await.unwrap();
    let trace: String = traces
        .iter()
        .map(|t| format!("{} {}", t.message, t.record))
        .collect();
    assert!(trace.contains("llm_calls"), "{trace}");
    assert!(!trace.contains(MODEL_KEY), "{trace}");
}

#[tokio::test]
async fn an_open_question_is_answered_over_composed_facts_and_streamed() {
    let chat = Chat::new(true).await;
    chat.mock.push(Reply::Text(
        "事实：sol-bot 亏损 100 USDT。判断：风险偏高。下一步：检查止损。".into(),
    ));
    let deltas = Arc::new(Mutex::new(String::new()));
    let sink = {
        let deltas = deltas.clone();
        move |t: &str| deltas.lock().unwrap().push_str(t)
    };
    let r = chat
        .assistant
        .turn_streaming(chat.request("我的持仓风险大吗？"), &sink)
        .await
        .unwrap();
    assert_eq!(r.llm.calls, 1, "{r:?}");
    assert!(r.reply.contains("风险偏高"), "{}", r.reply);
    assert!(r.events.iter().any(|e| matches!(e, Event::Answered { .. })));
    assert!(deltas.lock().unwrap().contains("风险偏高"));
    let body = chat.mock.requests()[0].body_text();
    // The running traders' facts, with their basis; no secrets.
    assert!(body.contains("sol-bot") && body.contains("basis"), "{body}");
    assert!(!body.contains(MODEL_KEY) && !body.contains(EXCHANGE_SECRET));
}

#[tokio::test]
async fn an_open_question_without_a_model_says_how_to_set_one() {
    let mut chat = Chat::new(false).await;
    let r = chat.say("以太坊现在适合开多吗？").await;
    assert_eq!(r.llm.calls, 0);
    assert!(r.reply.contains("assistant.model"), "{}", r.reply);
}

#[tokio::test]
async fn testing_a_model_makes_one_real_call_and_explains_a_refusal() {
    let mut chat = Chat::new(false).await;
    chat.mock.push(Reply::Text("OK".into()));
    let r = chat.say("test the model helper").await;
    assert!(executed(&r, "model.test"), "{}", r.reply);
    assert!(
        r.reply.contains("helper") && r.reply.contains("works"),
        "{}",
        r.reply
    );
    assert_eq!(chat.mock.requests().len(), 1, "one probe, no retry");
    // The probe is the user's own call, not the assistant thinking: no assistant-model calls.
    assert_eq!(r.llm.calls, 0);

    chat.mock.push(Reply::Error {
        status: 401,
        body:
            json!({"error": {"message": "Authentication Fails, Your api key: ****4321 is invalid",
                               "type": "authentication_error"}})
            .to_string(),
    });
    let r = chat.say("测试一下模型 helper").await;
    assert!(!executed(&r, "model.test"), "{}", r.reply);
    for part in ["没有通过测试", "发生了什么", "原因", "现在怎么做", "401"] {
        assert!(r.reply.contains(part), "{part}: {}", r.reply);
    }
    assert_eq!(
        chat.mock.requests().len(),
        2,
        "a refused key is not retried"
    );
}

/// A stored passphrase has no secret shape; pasted back into a question, it must still
/// reach neither the model nor the reply, even from a model that repeats it.
#[tokio::test]
async fn a_stored_credential_pasted_into_a_question_is_masked_for_the_model_and_the_reply() {
    const PASSPHRASE: &str = "Pass1234word";
    let mut chat = Chat::new(true).await;
    let actor = Actor::new("default", Channel::Cli, true);
    let creds = Credentials::new()
        .with(CredentialField::ApiKey, "okxapikey1234567890")
        .with(CredentialField::SecretKey, "okxsecret0987654321")
        .with(CredentialField::Passphrase, PASSPHRASE);
    let spec = ExchangeSpec {
        exchange_type: "okx".into(),
        account_name: "okx1".into(),
        enabled: true,
        testnet: false,
    };
    chat.ts
        .store
        .create_exchange(&actor, spec, creds)
        .await
        .unwrap();
    chat.mock.push(Reply::Text(format!(
        "Your passphrase {PASSPHRASE} is the one set on OKX."
    )));
    let r = chat
        .say(&format!(
            "I typed {PASSPHRASE} into a website today, should I worry?"
        ))
        .await;
    assert_eq!(r.llm.calls, 1, "{r:?}");
    assert!(!r.reply.contains(PASSPHRASE), "{}", r.reply);
    for request in chat.mock.requests() {
        assert!(!request.body_text().contains(PASSPHRASE));
    }
    let saved = chat
        .assistant
        .turn(chat.request("list my exchanges"))
        .await
        .unwrap();
    assert!(!saved.reply.contains(PASSPHRASE), "{}", saved.reply);
}

/// A wallet seed phrase has no key shape at all (twelve plain words); typed into a question it
/// reaches neither the model nor the reply nor the trace.
#[tokio::test]
async fn a_seed_phrase_in_a_question_reaches_neither_the_model_nor_the_trace() {
    const WORDS: &str =
        "abandon ability able about above absent absorb abstract absurd abuse access accident";
    let mut chat = Chat::new(true).await;
    chat.mock
        .push(Reply::Text("Never share it with anyone.".into()));
    let r = chat
        .say(&format!(
            "my seed phrase is {WORDS}, is that safe to keep here?"
        ))
        .await;
    assert_eq!(r.llm.calls, 1, "{r:?}");
    let needles = ["abandon ability", "absurd abuse", "access accident"];
    for request in chat.mock.requests() {
        for needle in needles {
            assert!(
                !request.body_text().contains(needle),
                "{}",
                request.body_text()
            );
        }
    }
    let traces = chat
        .ts
        .store
        .list_traces("default", None, 10)
        .await
        .unwrap();
    let stored: String = traces
        .iter()
        .map(|t| format!("{} {}", t.message, t.record))
        .collect();
    for needle in needles {
        assert!(!stored.contains(needle), "{stored}");
        assert!(!r.reply.contains(needle), "{}", r.reply);
    }
}

/// A message the rules hold back ("I don't want to stop btc-bot": the negation governs the
/// verb) goes to the model when one is set, once; its reading (a look at btc-bot) is what
/// runs, and nothing stops.
#[tokio::test]
async fn a_held_back_reading_asks_the_model_once_and_its_reading_wins() {
    let mut chat = Chat::new(true).await;
    chat.mock.push(commands(json!({"commands": [
        {"command": "start_task", "skill": "trader_management", "action": "query",
         "slots": {"target": "btc-bot"}}
    ], "confidence": 0.9})));
    let r = chat.say("I don't want to stop btc-bot").await;
    assert_eq!(r.llm.calls, 1, "{r:?}");
    assert!(executed(&r, "trader.get"), "{r:?}");
    assert!(!executed(&r, "trader.stop") && !confirmation_requested(&r));
    assert!(chat.trader_running("btc-bot").await);
    let body = chat.mock.requests()[0].body_text();
    assert!(body.contains("I don't want to stop btc-bot"), "{body}");
}

/// Without a model the same message asks one question offering the readings, and no model
/// is called.
#[tokio::test]
async fn without_a_model_a_held_back_reading_asks_which_one_was_meant() {
    let mut chat = Chat::new(false).await;
    let r = chat.say("I don't want to stop btc-bot").await;
    assert_eq!(r.llm.calls, 0);
    assert!(clarified(&r), "{r:?}");
    assert!(r.reply.contains("Stop btc-bot, or leave it"), "{}", r.reply);
    assert!(!executed(&r, "trader.stop") && !confirmation_requested(&r));
    assert!(chat.trader_running("btc-bot").await);
}

/// A message the rules cannot place goes to the gateway with the facts it names, and the
/// gateway's own answer is said: one model call in the turn, never a second for the answer.
#[tokio::test]
async fn a_question_the_gateway_answers_takes_one_call_in_the_turn() {
    let mut chat = Chat::new(true).await;
    chat.mock.push(commands(json!({"commands": [],
        "answer": "btc-bot trades on paper: no real money moves."})));
    let r = chat.say("so btc-bot is just pretend money then").await;
    assert_eq!(r.llm.calls, 1, "{r:?}");
    assert!(r.reply.contains("no real money moves"), "{}", r.reply);
    let body = chat.mock.requests()[0].body_text();
    assert!(
        body.contains("## Facts") && body.contains("btc-bot"),
        "{body}"
    );
    assert!(chat.trader_running("btc-bot").await);
}

/// The gateway reads an open question but gives no answer: the turn says it could not answer
/// rather than make a second call.
#[tokio::test]
async fn an_open_question_without_the_gateways_answer_makes_no_second_call() {
    let mut chat = Chat::new(true).await;
    chat.mock.push(commands(json!({"commands": [
        {"command": "answer_question", "kind": "open", "topic": "pretend money"}
    ]})));
    chat.mock.push(Reply::Text("a second call's answer".into()));
    let r = chat.say("so btc-bot is just pretend money then").await;
    assert_eq!(r.llm.calls, 1, "{r:?}");
    assert!(!r.reply.contains("a second call's answer"), "{}", r.reply);
    assert_eq!(chat.mock.requests().len(), 1);
}
