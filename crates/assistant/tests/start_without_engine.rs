#![allow(clippy::unwrap_used, clippy::expect_used)]
//! "start p1" on a paper trader when no engine runs: the reply says the trader waits for
//! `nofxi run`, instead of "is running and will scan".

use std::sync::Arc;

use nofxi_assistant::{Assistant, AssistantOptions};
use nofxi_domain::{Actor, Channel};
use nofxi_protocol::TurnRequest;
use nofxi_skills::Library;
use nofxi_store::test_support::{PaperBasics, seed_paper_basics, sqlite_store};

#[tokio::test]
async fn a_start_with_no_engine_running_says_nofxi_run_must_run() {
    let ts = sqlite_store().await.unwrap();
    let actor = Actor::new("default", Channel::Cli, true);
    let mut basics = PaperBasics::named("sim", "rules", "trend");
    basics.strategy.is_active = true;
    seed_paper_basics(&ts, &actor, basics).await.unwrap();
    let library = Arc::new(Library::builtin().unwrap());
    let assistant = Assistant::open(ts.store.clone(), library, AssistantOptions::default())
        .await
        .unwrap();
    let mut conversation = None;
    let mut reply = String::new();
    for message in ["create a trader called p1 on sim with rules", "start p1"] {
        let r = assistant
            .turn(TurnRequest {
                conversation_id: conversation.clone(),
                user: "default".into(),
                message: message.into(),
                channel: nofxi_protocol::Channel::Cli,
                seen_confirmation: None,
                received_bytes: None,
            })
            .await
            .unwrap();
        conversation = Some(r.conversation_id.clone());
        reply = r.reply;
    }
    assert!(ts.get_trader("default", "p1").await.unwrap().is_running);
    assert!(reply.contains("`nofxi run`"), "{reply}");
    assert!(!reply.contains("is running and will scan"), "{reply}");
}
