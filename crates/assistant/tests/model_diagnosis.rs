#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion
//! Issue 26's model diagnosis in the chat: a model config whose provider (the loopback mock
//! LLM) fails one way, and the user asks why it does not work, in English and in Chinese. The
//! question runs the model's real probe, and the answer names the fault found — key, balance,
//! model name, a web page instead of the API, rate limit, an address nothing answers on — as
//! what happened / why / what to do now, never the key.

use std::sync::Arc;

use nofxi_assistant::{Assistant, AssistantOptions};
use nofxi_domain::{Actor, Channel, Secret};
use nofxi_protocol::TurnRequest;
use nofxi_skills::Library;
use nofxi_store::test_support::{PaperBasics, seed_paper_basics, sqlite_store};
use nofxi_testkit::llm::{MockLlm, Reply};

const KEY: &str = "sk-diagtestkey0123456789abcdef";

/// The reply to `question` about model `ds`, a `deepseek` config at `base_url`.
async fn ask(base_url: String, question: &str) -> String {
    let ts = sqlite_store().await.unwrap();
    let actor = Actor::new("default", Channel::Cli, true);
    let mut basics = PaperBasics::named("paper", "ds", "default");
    basics.model.provider = "deepseek".into();
    basics.model.base_url = Some(base_url);
    basics.model_key = Some(Secret::new(KEY));
    seed_paper_basics(&ts, &actor, basics).await.unwrap();
    let library = Arc::new(Library::builtin().unwrap());
    let assistant = Assistant::open(ts.store.clone(), library, AssistantOptions::default())
        .await
        .unwrap();
    let out = assistant
        .turn(TurnRequest {
            conversation_id: None,
            user: "default".into(),
            message: question.into(),
            channel: nofxi_protocol::Channel::Cli,
            seen_confirmation: None,
            received_bytes: None,
        })
        .await
        .unwrap();
    out.reply
}

/// The reply to each question while the mock answers every request with `fault`.
async fn diagnosed(fault: Reply, questions: [&str; 2]) -> [String; 2] {
    let mock = MockLlm::start().await;
    mock.set_default(fault);
    let en = ask(mock.base_url(), questions[0]).await;
    let zh = ask(mock.base_url(), questions[1]).await;
    for reply in [&en, &zh] {
        assert!(!reply.contains(KEY), "the key was shown: {reply}");
        assert!(!reply.contains(&KEY[3..15]), "part of the key: {reply}");
    }
    [en, zh]
}

fn has_all(reply: &str, said: &[&str]) {
    for s in said {
        assert!(reply.contains(s), "{s:?} missing from: {reply}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_key_is_named_as_the_key() {
    let body = r#"{"error":{"message":"Authentication Fails, Your api key is invalid","type":"authentication_error","code":"invalid_request_error"}}"#;
    let [en, zh] = diagnosed(
        Reply::Error {
            status: 401,
            body: body.into(),
        },
        ["why doesn't ds work?", "ds 为什么用不了"],
    )
    .await;
    has_all(&en, &["ds", "rejected the API key", "What to do now"]);
    has_all(&zh, &["ds", "API Key"]);
    // The fix is the config's update, offered to be said yes to.
    has_all(&en, &["Shall I change \"ds\" now"]);
    has_all(&zh, &["要现在修改「ds」吗"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_empty_balance_is_named_as_the_balance() {
    let body = r#"{"error":{"message":"Insufficient Balance","type":"unknown_error","code":"invalid_request_error"}}"#;
    let [en, zh] = diagnosed(
        Reply::Error {
            status: 402,
            body: body.into(),
        },
        ["ds is not working, why?", "ds 不能用了，帮我排查一下"],
    )
    .await;
    has_all(&en, &["ds", "out of balance", "Top up"]);
    has_all(&zh, &["ds", "余额"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_model_name_is_named_as_the_model_name() {
    let body = r#"{"error":{"message":"Model Not Exist","type":"invalid_request_error","code":"invalid_request_error"}}"#;
    let [en, zh] = diagnosed(
        Reply::Error {
            status: 400,
            body: body.into(),
        },
        ["diagnose ds", "诊断一下 ds"],
    )
    .await;
    has_all(&en, &["ds", "does not know the model name"]);
    has_all(&zh, &["ds", "模型名"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rate_limit_is_named_as_the_rate_limit_with_no_config_change_offered() {
    let body = r#"{"error":{"message":"Rate limit reached for requests","type":"rate_limit_error","code":"rate_limit_exceeded"}}"#;
    let [en, zh] = diagnosed(
        Reply::Error {
            status: 429,
            body: body.into(),
        },
        ["why doesn't ds work?", "ds 为什么用不了"],
    )
    .await;
    has_all(&en, &["ds", "throttling", "Retry-After"]);
    has_all(&zh, &["ds", "限流"]);
    assert!(!en.contains("Shall I change"), "{en}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_web_page_instead_of_the_api_names_the_base_url() {
    let [en, zh] = diagnosed(
        Reply::Html { status: 200 },
        ["why can't ds connect?", "ds 连不上，为什么"],
    )
    .await;
    has_all(&en, &["ds", "web page", "base URL"]);
    has_all(&zh, &["ds", "网页"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nothing_listening_is_named_as_the_address() {
    // A port nothing listens on: the probe cannot connect at all.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/v1", closed.local_addr().unwrap());
    drop(closed);
    let en = ask(url.clone(), "ds stopped working, diagnose it").await;
    let zh = ask(url, "ds 失效了，诊断一下").await;
    has_all(&en, &["ds", "could not be reached"]);
    has_all(&zh, &["ds", "无法连接"]);
}
