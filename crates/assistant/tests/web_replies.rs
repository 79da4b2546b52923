#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The web app's chat is not a terminal (issue 51): asked about a portfolio when there is none,
//! a turn from the web app (its chat posts over HTTP, channel `api`) points at the Portfolio
//! page, where one is created, and names no command; the terminal's chat still gives the
//! command to type. The same in Chinese.

use std::sync::Arc;

use nofxi_assistant::{Assistant, AssistantOptions};
use nofxi_protocol::{Channel, TurnRequest};
use nofxi_skills::Library;
use nofxi_store::test_support::sqlite_store;

async fn reply(assistant: &Assistant, message: &str, channel: Channel) -> String {
    assistant
        .turn(TurnRequest {
            conversation_id: None,
            user: "default".into(),
            message: message.into(),
            channel,
            seen_confirmation: None,
            received_bytes: None,
        })
        .await
        .unwrap()
        .reply
}

#[tokio::test]
async fn with_no_portfolio_the_web_chat_points_at_the_page_not_a_terminal() {
    let ts = sqlite_store().await.unwrap();
    let library = Arc::new(Library::builtin().unwrap());
    let assistant = Assistant::open(ts.store.clone(), library, AssistantOptions::default())
        .await
        .unwrap();
    for (message, page) in [
        ("how is my portfolio doing", "Open Portfolio in the menu"),
        ("我的投资组合怎么样", "打开菜单里的“投资组合”页面"),
    ] {
        let web = reply(&assistant, message, Channel::Api).await;
        assert!(
            web.contains(page) && !web.contains("nofxi "),
            "{message}: the web chat said {web:?}"
        );
        let terminal = reply(&assistant, message, Channel::Cli).await;
        assert!(
            terminal.contains("nofxi portfolio add"),
            "{message}: the terminal's chat said {terminal:?}"
        );
    }
}
