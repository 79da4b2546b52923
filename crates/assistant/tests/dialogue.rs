#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The dialogue engine end to end on a fresh SQLite store: each test is a short conversation.

use std::sync::Arc;

use nofxi_assistant::{Assistant, AssistantOptions};
use nofxi_domain::{Actor, Channel, Credentials};
use nofxi_protocol::{Event, TaskStatus, TurnRequest, TurnResponse};
use nofxi_skills::Library;
use nofxi_store::test_support::{PaperBasics, TestStore, seed_paper_basics, sqlite_store};

struct Chat {
    assistant: Assistant,
    ts: TestStore,
    conversation: Option<String>,
    seen: Option<String>,
}

impl Chat {
    async fn new() -> Chat {
        let ts = sqlite_store().await.unwrap();
        let library = Arc::new(Library::builtin().unwrap());
        let assistant = Assistant::open(ts.store.clone(), library, AssistantOptions::default())
            .await
            .unwrap();
        Chat {
            assistant,
            ts,
            conversation: None,
            seen: None,
        }
    }

    async fn with_basics() -> Chat {
        let chat = Chat::new().await;
        let actor = Actor::new("default", Channel::Cli, true);
        let mut basics = PaperBasics::named("sim", "rules", "trend");
        basics.strategy.is_active = true;
        seed_paper_basics(&chat.ts, &actor, basics).await.unwrap();
        chat
    }

    async fn say(&mut self, message: &str) -> TurnResponse {
        let r = self
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
        self.conversation = Some(r.conversation_id.clone());
        if let Some(b) = r.confirmation_binding() {
            self.seen = Some(b.to_string());
        }
        r
    }
}

fn executed(r: &TurnResponse, tool: &str) -> bool {
    r.events
        .iter()
        .any(|e| matches!(e, Event::ToolExecuted { tool: t, ok: true, .. } if t == tool))
}

fn asked(r: &TurnResponse) -> Vec<String> {
    r.events
        .iter()
        .find_map(|e| match e {
            Event::Asked { slots, .. } => Some(slots.clone()),
            _ => None,
        })
        .unwrap_or_default()
}

#[tokio::test]
async fn create_trader_asks_all_missing_at_once_then_creates() {
    let mut chat = Chat::with_basics().await;
    let r = chat.say("帮我创建一个叫 btc-bot 的交易员").await;
    assert_eq!(
        asked(&r),
        vec!["exchange".to_string(), "model".to_string()],
        "{}",
        r.reply
    );
    assert!(!executed(&r, "trader.create"));
    let r = chat.say("用 sim 和 rules").await;
    assert!(executed(&r, "trader.create"), "{}", r.reply);
    assert!(r.stack.is_empty());
}

#[tokio::test]
async fn scan_interval_is_clamped_and_the_reply_says_so() {
    let mut chat = Chat::with_basics().await;
    let r = chat
        .say("create a trader called fast on sim with rules, every 1 minutes")
        .await;
    assert!(executed(&r, "trader.create"), "{}", r.reply);
    let adjusted = r.events.iter().any(|e| {
        matches!(
            e,
            Event::SlotSet {
                adjusted: Some(_),
                ..
            }
        )
    });
    assert!(adjusted, "{:?}", r.events);
    let t = chat.ts.store.get_trader("default", "fast").await.unwrap();
    assert_eq!(t.spec.scan_interval_minutes, 3);
}

#[tokio::test]
async fn delete_needs_a_confirmation_and_deny_keeps_it() {
    let mut chat = Chat::with_basics().await;
    chat.say("create a trader called eth-bot on sim with rules")
        .await;
    let r = chat.say("delete eth-bot").await;
    assert!(
        r.events
            .iter()
            .any(|e| matches!(e, Event::ConfirmationRequested { .. }))
    );
    assert!(!executed(&r, "trader.delete"));
    let r = chat.say("no").await;
    assert!(!executed(&r, "trader.delete"));
    assert!(chat.ts.store.get_trader("default", "eth-bot").await.is_ok());
    let r = chat.say("delete eth-bot").await;
    assert_eq!(
        r.active_task().unwrap().status,
        TaskStatus::AwaitingConfirmation
    );
    let r = chat.say("yes").await;
    assert!(executed(&r, "trader.delete"), "{}", r.reply);
    assert!(
        chat.ts
            .store
            .get_trader("default", "eth-bot")
            .await
            .is_err()
    );
}

#[tokio::test]
async fn a_confirm_with_nothing_pending_runs_nothing() {
    let mut chat = Chat::with_basics().await;
    let r = chat.say("确认").await;
    assert!(
        !r.events
            .iter()
            .any(|e| matches!(e, Event::ToolExecuted { .. }))
    );
}

#[tokio::test]
async fn paper_start_needs_no_confirmation() {
    let mut chat = Chat::with_basics().await;
    chat.say("create a trader called p1 on sim with rules")
        .await;
    let r = chat.say("start p1").await;
    assert!(executed(&r, "trader.start"), "{}", r.reply);
    assert!(
        chat.ts
            .store
            .get_trader("default", "p1")
            .await
            .unwrap()
            .is_running
    );
}

/// The "yes" to a stop-all is for the traders its question named: one started from
/// elsewhere (the CLI) while the question waited keeps running.
#[tokio::test]
async fn stop_all_stops_the_traders_its_confirmation_named() {
    let mut chat = Chat::with_basics().await;
    for name in ["p1", "p2"] {
        chat.say(&format!("create a trader called {name} on sim with rules"))
            .await;
    }
    chat.say("start p1").await;
    let r = chat.say("stop all traders").await;
    assert!(
        r.reply.contains("p1") && !r.reply.contains("p2"),
        "{}",
        r.reply
    );
    let actor = Actor::new("default", Channel::Cli, true);
    let p2 = chat.ts.store.get_trader("default", "p2").await.unwrap();
    chat.ts
        .store
        .set_trader_running(&actor, &p2.id, true)
        .await
        .unwrap();
    let r = chat.say("yes").await;
    assert!(executed(&r, "trader.stop_all"), "{}", r.reply);
    let running = |name: &'static str| {
        let store = chat.ts.store.clone();
        async move { store.get_trader("default", name).await.unwrap().is_running }
    };
    assert!(!running("p1").await);
    assert!(running("p2").await, "{}", r.reply);
}

#[tokio::test]
async fn error_question_interrupts_and_the_task_resumes() {
    let mut chat = Chat::with_basics().await;
    chat.say("帮我创建一个叫 btc-bot 的交易员").await;
    let r = chat.say("为什么我的交易所 API 报 invalid signature").await;
    assert!(r.events.iter().any(|e| matches!(e, Event::Answered { .. })));
    assert!(
        r.events
            .iter()
            .any(|e| matches!(e, Event::TaskResumed { .. }))
    );
    assert_eq!(r.active_task().unwrap().action, "create");
    let r = chat.say("sim, rules").await;
    assert!(executed(&r, "trader.create"), "{}", r.reply);
}

#[tokio::test]
async fn disabled_exchange_is_offered_as_a_fix_and_creation_resumes() {
    let mut chat = Chat::with_basics().await;
    let actor = Actor::new("default", Channel::Cli, true);
    let patch = nofxi_domain::ExchangePatch {
        enabled: Some(false),
        ..Default::default()
    };
    chat.ts
        .store
        .update_exchange(&actor, "sim", patch, Credentials::new())
        .await
        .unwrap();
    let r = chat
        .say("create a trader called fixme on sim with rules")
        .await;
    assert!(!executed(&r, "trader.create"));
    assert!(r.reply.contains("enable"), "{}", r.reply);
    let r = chat.say("yes").await;
    assert!(executed(&r, "exchange.update"), "{}", r.reply);
    assert!(executed(&r, "trader.create"), "{}", r.reply);
    assert!(chat.ts.store.get_trader("default", "fixme").await.is_ok());
}

#[tokio::test]
async fn an_unknown_name_is_not_found_never_guessed() {
    let mut chat = Chat::with_basics().await;
    let r = chat.say("delete the trader nosuchbot").await;
    assert!(!executed(&r, "trader.delete"));
    assert!(
        !r.events
            .iter()
            .any(|e| matches!(e, Event::ConfirmationRequested { .. }))
    );
}

#[tokio::test]
async fn a_secret_appears_nowhere_but_the_vault() {
    let mut chat = Chat::with_basics().await;
    let secret = "sk-verysecretvalue123";
    let r = chat
        .say(&format!(
            "add a binance account called main with api key ak-123456789 secret {secret}"
        ))
        .await;
    let all = serde_json::to_string(&r).unwrap();
    assert!(!all.contains(secret), "{all}");
    let traces = chat
        .ts
        .store
        .list_traces("default", None, 10)
        .await
        .unwrap();
    for t in traces {
        assert!(!t.record.to_string().contains(secret));
        assert!(!t.message.contains(secret));
    }
    let conv = chat
        .ts
        .store
        .get_conversation("default", r.conversation_id.as_str())
        .await
        .unwrap()
        .unwrap();
    assert!(!conv.state.to_string().contains(secret));
}

#[tokio::test]
async fn a_restart_resumes_a_pending_confirmation() {
    let mut chat = Chat::with_basics().await;
    chat.say("create a trader called keep on sim with rules")
        .await;
    let r = chat.say("delete keep").await;
    assert_eq!(
        r.active_task().unwrap().status,
        TaskStatus::AwaitingConfirmation
    );
    // A new engine over the same store: nothing in memory survives.
    let library = Arc::new(Library::builtin().unwrap());
    chat.assistant = Assistant::open(chat.ts.store.clone(), library, AssistantOptions::default())
        .await
        .unwrap();
    let r = chat.say("yes").await;
    assert!(executed(&r, "trader.delete"), "{}", r.reply);
}

#[tokio::test]
async fn side_question_keeps_the_task() {
    let mut chat = Chat::with_basics().await;
    chat.say("帮我创建一个叫 btc-bot 的交易员").await;
    let r = chat.say("逐仓和全仓有什么区别？").await;
    assert!(r.events.iter().any(|e| matches!(e, Event::Answered { .. })));
    assert_eq!(r.active_task().unwrap().status, TaskStatus::Collecting);
}

#[tokio::test]
async fn correction_replaces_the_value() {
    let mut chat = Chat::with_basics().await;
    chat.say("帮我创建一个叫 btc-bot 的交易员").await;
    let r = chat.say("名字改成 btc-pro 吧").await;
    let task = r.active_task().unwrap();
    assert_eq!(
        task.slots.get("name").and_then(|v| v.as_str()),
        Some("btc-pro"),
        "{}",
        r.reply
    );
}

#[tokio::test]
async fn cancel_asks_about_the_waiting_parent() {
    let mut chat = Chat::with_basics().await;
    chat.say("帮我创建一个叫 btc-bot 的交易员").await;
    chat.say("添加一个交易所账户").await;
    let r = chat.say("算了").await;
    assert!(
        r.events
            .iter()
            .any(|e| matches!(e, Event::TaskCancelled { .. }))
    );
    assert_eq!(r.stack.len(), 1, "{}", r.reply);
    let r = chat.say("不").await;
    assert!(
        r.events
            .iter()
            .any(|e| matches!(e, Event::TaskResumed { .. })),
        "{}",
        r.reply
    );
}

#[tokio::test]
async fn a_deleted_trader_is_restored_by_name() {
    let mut chat = Chat::with_basics().await;
    chat.say("create a trader called back on sim with rules")
        .await;
    chat.say("delete back").await;
    chat.say("yes").await;
    assert!(chat.ts.store.get_trader("default", "back").await.is_err());
    let r = chat.say("restore back").await;
    assert!(executed(&r, "trader.restore"), "{}", r.reply);
    assert!(chat.ts.store.get_trader("default", "back").await.is_ok());
}

#[tokio::test]
async fn a_live_start_asks_for_confirmation_first() {
    let mut chat = Chat::with_basics().await;
    chat.say("add a binance account called real with api key ak-123456789 secret sk-abcdefghijkl")
        .await;
    let r = chat
        .say("create a trader called live-bot on real with rules")
        .await;
    assert!(executed(&r, "trader.create"), "{}", r.reply);
    let r = chat.say("start live-bot").await;
    assert!(
        r.events
            .iter()
            .any(|e| matches!(e, Event::ConfirmationRequested { .. })),
        "{}",
        r.reply
    );
    assert!(
        !r.events
            .iter()
            .any(|e| matches!(e, Event::ToolExecuted { .. }))
    );
}

#[tokio::test]
async fn a_changed_slot_voids_the_confirmation() {
    let mut chat = Chat::with_basics().await;
    chat.say("create a trader called a1 on sim with rules")
        .await;
    chat.say("create a trader called a2 on sim with rules")
        .await;
    let r = chat.say("delete a1").await;
    assert_eq!(
        r.active_task().unwrap().status,
        TaskStatus::AwaitingConfirmation
    );
    let r = chat.say("不对，我说的是 a2").await;
    assert!(!executed(&r, "trader.delete"), "{}", r.reply);
    assert!(
        r.events.iter().any(
            |e| matches!(e, Event::ConfirmationRequested { summary, .. } if summary.contains("a2"))
        ),
        "{}",
        r.reply
    );
    let r = chat.say("确认").await;
    assert!(executed(&r, "trader.delete"));
    assert!(chat.ts.store.get_trader("default", "a1").await.is_ok());
    assert!(chat.ts.store.get_trader("default", "a2").await.is_err());
}

#[test]
fn the_assistant_can_be_shared_across_tasks() {
    fn shared<T: Send + Sync>() {}
    shared::<Assistant>();
}
