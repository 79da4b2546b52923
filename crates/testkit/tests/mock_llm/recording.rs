//! What the mock records, and its lifetime.

use std::time::Duration;

use nofxi_testkit::{MockLlm, Reply};
use serde_json::json;

use crate::{ANTHROPIC_HEADERS, post};

#[tokio::test]
async fn every_request_is_recorded_in_order_with_headers_and_body() {
    let mock = MockLlm::start().await;
    mock.set_default(Reply::Text("ok".into()));
    let base = mock.base_url();
    assert!(base.starts_with("http://127.0.0.1:") && !base.ends_with('/'));
    let body = json!({"model": "deepseek-chat", "messages": [{"role": "user", "content": "帮我开多 BTC"}]});
    post(
        &format!("{base}/v1/chat/completions"),
        &body,
        &[("Authorization", "Bearer sk-1")],
    )
    .await;
    post(
        &format!("{base}/v1/messages"),
        &json!({"model": "c"}),
        ANTHROPIC_HEADERS,
    )
    .await;
    post(&format!("{base}/nowhere"), &json!({}), &[]).await; // 404, still recorded

    let reqs = mock.requests();
    let paths: Vec<&str> = reqs.iter().map(|r| r.path.as_str()).collect();
    assert_eq!(paths, ["/v1/chat/completions", "/v1/messages", "/nowhere"]);
    let first = &reqs[0];
    assert_eq!(first.header("authorization"), Some("Bearer sk-1"));
    assert_eq!(first.header("AUTHORIZATION"), Some("Bearer sk-1"));
    assert_eq!(first.header("x-api-key"), None);
    assert_eq!(first.body, body);
    assert!(first.body_text().contains("帮我开多 BTC"));
    assert!(first.body_text().contains(r#""model":"deepseek-chat""#));
    assert_eq!(reqs[1].header("anthropic-version"), Some("2023-06-01"));
}

#[tokio::test]
async fn dropping_the_mock_stops_the_server() {
    let mock = MockLlm::start().await;
    let url = format!("{}/v1/chat/completions", mock.base_url());
    drop(mock);
    tokio::time::sleep(Duration::from_millis(50)).await;
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(2))
        .build()
        .unwrap();
    assert!(client.post(&url).json(&json!({})).send().await.is_err());
}

#[tokio::test]
async fn unknown_paths_are_404_and_do_not_consume_the_script() {
    let mock = MockLlm::start().await;
    mock.push(Reply::Text("kept".into()));
    let base = mock.base_url();
    let resp = post(&format!("{base}/v1/completions"), &json!({}), &[]).await;
    assert_eq!(resp.status(), 404);
    let resp = post(
        &format!("{base}/v1beta/models/g:countTokens"),
        &json!({}),
        &[("x-goog-api-key", "k")],
    )
    .await;
    assert_eq!(resp.status(), 404);
    let resp = post(
        &format!("{base}/chat/completions"),
        &json!({"model": "m"}),
        &[],
    )
    .await;
    assert_eq!(resp.status(), 200, "no prefix at all works too");
    assert!(!mock.requests()[2].is_stream());
}

#[tokio::test]
async fn a_prompt_past_two_megabytes_is_accepted() {
    let mock = MockLlm::start().await;
    mock.push(Reply::Text("ok".into()));
    let history = "x".repeat(3 * 1024 * 1024);
    let body = json!({"model": "m", "messages": [{"role": "user", "content": history}]});
    let resp = post(
        &format!("{}/v1/chat/completions", mock.base_url()),
        &body,
        &[],
    )
    .await;
    assert_eq!(resp.status(), 200);
}
