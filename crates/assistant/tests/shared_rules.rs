#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The chat applies the domain's rules as the CLI and the store do (issue 23 follow-up): one
//! name lookup (NFKC, case-insensitive), one bound for each number, one check of credential
//! values.

use std::sync::Arc;

use nofxi_assistant::{Assistant, AssistantOptions};
use nofxi_domain::{Actor, Channel, TraderSpec};
use nofxi_protocol::{TurnRequest, TurnResponse};
use nofxi_skills::Library;
use nofxi_store::test_support::{PaperBasics, TestStore, seed_paper_basics, sqlite_store};
use rust_decimal::Decimal;

async fn setup() -> (TestStore, Assistant) {
    let ts = sqlite_store().await.unwrap();
    let actor = Actor::new("default", Channel::Cli, true);
    let mut basics = PaperBasics::named("sim", "rules", "trend");
    basics.strategy.is_active = true;
    let seeded = seed_paper_basics(&ts, &actor, basics).await.unwrap();
    let spec = TraderSpec::new(
        "ｂｔｃ-bot",
        seeded.model.id.clone(),
        seeded.exchange.id.clone(),
        seeded.strategy.id.clone(),
        Decimal::from(1234),
    );
    ts.create_trader(&actor, spec).await.unwrap();
    let library = Arc::new(Library::builtin().unwrap());
    let assistant = Assistant::open(ts.store.clone(), library, AssistantOptions::default())
        .await
        .unwrap();
    (ts, assistant)
}

async fn say(
    assistant: &Assistant,
    conversation: &mut Option<String>,
    message: &str,
) -> TurnResponse {
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
    *conversation = Some(r.conversation_id.clone());
    r
}

#[tokio::test]
async fn a_full_width_name_is_found_by_its_plain_spelling_as_in_the_cli() {
    let (ts, assistant) = setup().await;
    // The store's lookup (what `nofxi trader show btc-bot` uses) finds it.
    assert!(ts.get_trader("default", "btc-bot").await.is_ok());
    let r = say(&assistant, &mut None, "show btc-bot").await;
    assert!(
        r.reply.contains("ｂｔｃ-bot: stopped") && !r.reply.contains("Nothing is called"),
        "{}",
        r.reply
    );
}

#[tokio::test]
async fn a_balance_beyond_the_domain_bounds_is_refused_in_chat() {
    let (ts, assistant) = setup().await;
    let mut conversation = None;
    let r = say(
        &assistant,
        &mut conversation,
        "create a trader called big on sim with rules, initial balance 70000000000000000000000000000",
    )
    .await;
    say(&assistant, &mut conversation, "yes").await;
    assert!(
        ts.get_trader("default", "big").await.is_err(),
        "created: {}",
        r.reply
    );
}

#[tokio::test]
async fn a_pasted_key_with_a_zero_width_space_is_refused_in_chat() {
    let (ts, assistant) = setup().await;
    let mut conversation = None;
    let r = say(
        &assistant,
        &mut conversation,
        "add a deepseek model called ds2 with api key sk-abcdefgh\u{200b}ijklmnopqrst",
    )
    .await;
    assert!(r.reply.contains("U+200B"), "{}", r.reply);
    say(&assistant, &mut conversation, "yes").await;
    if let Ok(model) = ts.get_model("default", "ds2").await {
        panic!("stored with the key as pasted: {model:?}");
    }
}
