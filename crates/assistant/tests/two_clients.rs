#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Two clients on one conversation (two `nofxi chat` processes, two browser tabs): a yes
//! confirms only the confirmation the same client was shown. A yes from the other client
//! shows the pending confirmation there instead of acting.

use std::sync::Arc;

use nofxi_assistant::{Assistant, AssistantOptions};
use nofxi_domain::{Actor, Channel};
use nofxi_protocol::{Event, TurnRequest, TurnResponse};
use nofxi_skills::Library;
use nofxi_store::test_support::{PaperBasics, seed_paper_basics, sqlite_store};

/// One client: the conversation it continues and the confirmation it was shown last.
#[derive(Default, Clone)]
struct Client {
    conversation: Option<String>,
    seen: Option<String>,
}

async fn say(assistant: &Assistant, client: &mut Client, message: &str) -> TurnResponse {
    let r = assistant
        .turn(TurnRequest {
            conversation_id: client.conversation.clone(),
            user: "default".into(),
            message: message.into(),
            channel: nofxi_protocol::Channel::Cli,
            seen_confirmation: client.seen.clone(),
            received_bytes: None,
        })
        .await
        .unwrap();
    client.conversation = Some(r.conversation_id.clone());
    if let Some(b) = r.confirmation_binding() {
        client.seen = Some(b.to_string());
    }
    r
}

fn executed(r: &TurnResponse) -> bool {
    r.events
        .iter()
        .any(|e| matches!(e, Event::ToolExecuted { .. } | Event::Confirmed { .. }))
}

#[tokio::test]
async fn a_yes_confirms_only_what_this_client_was_shown() {
    let ts = sqlite_store().await.unwrap();
    let actor = Actor::new("default", Channel::Cli, true);
    let mut basics = PaperBasics::named("sim", "rules", "trend");
    basics.strategy.is_active = true;
    seed_paper_basics(&ts, &actor, basics).await.unwrap();
    let library = Arc::new(Library::builtin().unwrap());
    let assistant = Assistant::open(ts.store.clone(), library, AssistantOptions::default())
        .await
        .unwrap();

    let mut a = Client::default();
    let asked = say(&assistant, &mut a, "delete strategy trend").await;
    let binding = asked
        .confirmation_binding()
        .expect("a delete confirms")
        .to_string();
    // The other client continues the same conversation; it was shown nothing.
    let mut b = Client {
        conversation: a.conversation.clone(),
        seen: None,
    };
    let r = say(&assistant, &mut b, "yes").await;
    assert!(!executed(&r), "b confirmed a's delete: {:?}", r.events);
    assert!(
        r.reply.contains("trend"),
        "the confirmation is shown again: {}",
        r.reply
    );
    assert_eq!(r.confirmation_binding(), Some(binding.as_str()));
    assert!(ts.store.get_strategy("default", "trend").await.is_ok());
    // A binding of an earlier confirmation is not this one either.
    let mut stale = Client {
        conversation: a.conversation.clone(),
        seen: Some("01a00000-0000-7000-8000-000000000000".into()),
    };
    let r = say(&assistant, &mut stale, "yes").await;
    assert!(!executed(&r), "{:?}", r.events);
    // The client that was shown it confirms it.
    let r = say(&assistant, &mut a, "yes").await;
    assert!(executed(&r), "{}: {:?}", r.reply, r.events);
    assert!(ts.store.get_strategy("default", "trend").await.is_err());
}

/// A request written before bindings existed still parses; it simply has none.
#[test]
fn a_request_without_a_binding_still_parses() {
    let r: TurnRequest = serde_json::from_str(
        r#"{"conversation_id":"c","user":"u","message":"yes","channel":"cli"}"#,
    )
    .unwrap();
    assert_eq!(r.seen_confirmation, None);
}
