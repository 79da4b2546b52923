#![allow(clippy::unwrap_used, clippy::expect_used)]
//! A message over the 16 KB cap is refused whole, in the user's language: nothing of it is
//! understood, executed or stored (the database never holds the text past the cap), and the
//! task in progress stays as it was. A message at the cap is still read.

use std::sync::Arc;

use nofxi_assistant::message_limit::MAX_MESSAGE_BYTES;
use nofxi_assistant::{Assistant, AssistantOptions};
use nofxi_domain::{Actor, Channel};
use nofxi_protocol::TurnRequest;
use nofxi_skills::Library;
use nofxi_store::test_support::{PaperBasics, seed_paper_basics, sqlite_store};

#[tokio::test]
async fn a_message_over_the_cap_is_refused_and_not_stored() {
    let ts = sqlite_store().await.unwrap();
    let actor = Actor::new("default", Channel::Cli, true);
    let mut basics = PaperBasics::named("sim", "rules", "trend");
    basics.strategy.is_active = true;
    seed_paper_basics(&ts, &actor, basics).await.unwrap();
    let library = Arc::new(Library::builtin().unwrap());
    let assistant = Assistant::open(ts.store.clone(), library, AssistantOptions::default())
        .await
        .unwrap();
    let turn = |conversation: Option<String>, message: String| {
        let assistant = &assistant;
        async move {
            assistant
                .turn(TurnRequest {
                    conversation_id: conversation,
                    user: "default".into(),
                    message,
                    channel: nofxi_protocol::Channel::Cli,
                    seen_confirmation: None,
                    received_bytes: None,
                })
                .await
                .unwrap()
        }
    };
    let asked = turn(None, "delete strategy trend".into()).await;
    let id = Some(asked.conversation_id.clone());
    // A yes, then a long tail that marks every byte past the cap.
    let en = format!("yes {}", "zqxj ".repeat(64 * 1024 / 5));
    let r = turn(id.clone(), en).await;
    assert!(r.reply.contains("too long"), "{}", r.reply);
    assert!(r.events.is_empty(), "{:?}", r.events);
    assert_eq!(r.stack.len(), 1, "the delete still waits: {:?}", r.stack);
    assert!(ts.store.get_strategy("default", "trend").await.is_ok());
    let zh = format!("删除策略 trend {}", "确认".repeat(MAX_MESSAGE_BYTES));
    let r = turn(id.clone(), zh).await;
    assert!(r.reply.contains("太长"), "{}", r.reply);
    for trace in ts
        .store
        .list_traces("default", id.as_deref(), 10)
        .await
        .unwrap()
    {
        assert!(!trace.message.contains("zqxj"), "{}", trace.message);
        assert!(trace.message.len() < 1024);
    }
    // At the cap a message is read as usual.
    let at_cap = format!("list strategies{}", " ".repeat(MAX_MESSAGE_BYTES - 15));
    let r = turn(None, at_cap).await;
    assert!(r.reply.contains("trend"), "{}", r.reply);
    ts.store.close().await;
    let marks = "zqxj ".repeat(4);
    for entry in std::fs::read_dir(&ts.home).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            let bytes = std::fs::read(&path).unwrap();
            let hit = bytes.windows(marks.len()).any(|w| w == marks.as_bytes());
            assert!(!hit, "{} holds the text past the cap", path.display());
        }
    }
}
