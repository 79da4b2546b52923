#![allow(clippy::unwrap_used, clippy::expect_used)]
//! A create request for another name, while a create is still collecting, is a new task: the
//! open one waits below it, and no credential crosses from one account's task into another's.
//! For every resource kind a create exists for, not only exchanges.

use std::sync::Arc;

use nofxi_assistant::{Assistant, AssistantOptions};
use nofxi_domain::{Actor, Channel, CredentialField};
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
        let actor = Actor::new("default", Channel::Cli, true);
        let mut basics = PaperBasics::named("sim", "rules", "trend");
        basics.strategy.is_active = true;
        seed_paper_basics(&ts, &actor, basics).await.unwrap();
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
        println!("> {message}\n{}\n{:?}\n", r.reply, r.stack);
        r
    }
}

fn started(r: &TurnResponse) -> bool {
    r.events
        .iter()
        .any(|e| matches!(e, Event::TaskStarted { .. }))
}

const B1_KEY: &str = "AKIAB1KEY0000000001";
const B2_SECRET: &str = "SKB2SECRET00000000002";
const B2_KEY: &str = "AKIAB2KEY0000000002";

#[tokio::test]
async fn a_second_exchange_create_is_a_new_task_and_takes_no_credential_of_the_first() {
    let mut chat = Chat::new().await;
    let r = chat
        .say(&format!(
            "add binance account b1 api key {B1_KEY} secret p@ss w0rd"
        ))
        .await;
    assert_eq!(r.stack.len(), 1, "b1 is still collecting: {}", r.reply);
    let r = chat
        .say(&format!("add binance account b2 secret {B2_SECRET}"))
        .await;
    assert!(started(&r), "b2 is a task of its own: {:?}", r.events);
    let top = r.active_task().unwrap();
    assert_eq!(
        top.slots.get("account_name").and_then(|v| v.as_str()),
        Some("b2")
    );
    assert!(
        !top.slots.contains_key("api_key"),
        "b1's key was carried into b2: {:?}",
        top.slots
    );
    assert!(top.missing.contains(&"api_key".to_string()), "{top:?}");
    // b1 waits below, with its own values.
    let below = &r.stack[r.stack.len() - 2];
    assert_eq!(below.status, TaskStatus::Interrupted);
    assert_eq!(
        below.slots.get("account_name").and_then(|v| v.as_str()),
        Some("b1")
    );
    chat.say(&format!("api key {B2_KEY}")).await;
    let (_, creds) = chat
        .ts
        .store
        .credentials_for_signing("default", "b2")
        .await
        .expect("b2 was created");
    assert_eq!(
        creds.get(CredentialField::ApiKey).map(|s| s.expose()),
        Some(B2_KEY)
    );
    assert_eq!(
        creds.get(CredentialField::SecretKey).map(|s| s.expose()),
        Some(B2_SECRET),
        "the secret typed with b2's request is b2's"
    );
    assert!(
        chat.ts
            .store
            .credentials_for_signing("default", "b1")
            .await
            .is_err(),
        "b1 was never completed"
    );
}

/// The same for a model: a create of another name does not rename the open one.
#[tokio::test]
async fn a_second_model_create_is_a_new_task() {
    let mut chat = Chat::new().await;
    let r = chat.say("add a deepseek model called m1").await;
    assert_eq!(r.stack.len(), 1, "{}", r.reply);
    let r = chat.say("add a deepseek model called m2").await;
    assert!(started(&r), "m2 is a task of its own: {:?}", r.events);
    assert_eq!(r.stack.len(), 2, "{:?}", r.stack);
    assert_eq!(
        r.stack[0].slots.get("name").and_then(|v| v.as_str()),
        Some("m1"),
        "{:?}",
        r.stack
    );
}
