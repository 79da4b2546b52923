//! Scripted failures: provider errors, HTML pages, an empty script, delays, dropped connections.

use std::time::Duration;

use nofxi_testkit::{MockLlm, Reply};
use serde_json::{Value, json};

use crate::{ANTHROPIC_HEADERS, post};

#[tokio::test]
async fn scripted_errors_are_sent_as_given() {
    let mock = MockLlm::start().await;
    let body = r#"{"error":{"message":"Rate limit reached for gpt-4o","type":"requests","param":null,"code":"rate_limit_exceeded"}}"#;
    mock.push_many([
        Reply::Error {
            status: 429,
            body: body.into(),
        },
        Reply::Html { status: 502 },
    ]);
    let url = format!("{}/v1/chat/completions", mock.base_url());
    let resp = post(&url, &json!({"model": "m", "stream": true}), &[]).await;
    assert_eq!(resp.status(), 429);
    assert_eq!(resp.text().await.unwrap(), body);

    let resp = post(&url, &json!({"model": "m"}), &[]).await;
    assert_eq!(resp.status(), 502);
    assert!(
        resp.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
    assert!(resp.text().await.unwrap().contains("<html>"));
}

#[tokio::test]
async fn an_empty_script_answers_500_until_a_default_is_set() {
    let mock = MockLlm::start().await;
    let url = format!("{}/v1/chat/completions", mock.base_url());
    let resp = post(&url, &json!({"model": "m"}), &[]).await;
    assert_eq!(resp.status(), 500);
    let v: Value = resp.json().await.unwrap();
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("mock script exhausted")
    );

    mock.set_default(Reply::Text("default".into()));
    mock.push(Reply::Text("scripted".into()));
    for expected in ["scripted", "default", "default"] {
        let v: Value = post(&url, &json!({"model": "m"}), &[])
            .await
            .json()
            .await
            .unwrap();
        assert_eq!(v["choices"][0]["message"]["content"], expected);
    }
}

#[tokio::test]
async fn a_delay_makes_a_client_time_out() {
    let mock = MockLlm::start().await;
    mock.push_many([
        Reply::Delay {
            ms: 2_000,
            then: Box::new(Reply::Text("late".into())),
        },
        Reply::Delay {
            ms: 20,
            then: Box::new(Reply::Text("in time".into())),
        },
    ]);
    let url = format!("{}/v1/chat/completions", mock.base_url());
    let client = reqwest::Client::builder()
        .timeout(Duration::from_millis(200))
        .build()
        .unwrap();
    let err = client
        .post(&url)
        .json(&json!({"model": "m"}))
        .send()
        .await
        .unwrap_err();
    assert!(err.is_timeout(), "{err}");
    let v: Value = client
        .post(&url)
        .json(&json!({"model": "m"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(v["choices"][0]["message"]["content"], "in time");
}

#[tokio::test]
async fn close_connection_drops_without_a_response() {
    let mock = MockLlm::start().await;
    mock.push_many([Reply::CloseConnection, Reply::Text("after".into())]);
    let url = format!("{}/v1/messages", mock.base_url());
    let client = reqwest::Client::new();
    let sent = client
        .post(&url)
        .headers(anthropic_headers())
        .json(&json!({"model": "c"}))
        .send()
        .await;
    // No status line ever arrives: hyper reports the message as incomplete.
    let err = sent.map(|r| r.status()).unwrap_err();
    assert!(err.is_request() && !err.is_status(), "{err:?}");
    assert!(format!("{err:?}").contains("IncompleteMessage"), "{err:?}");
    let v: Value = post(&url, &json!({"model": "c"}), ANTHROPIC_HEADERS)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(v["content"][0]["text"], "after");
}

fn anthropic_headers() -> reqwest::header::HeaderMap {
    let mut h = reqwest::header::HeaderMap::new();
    for (k, v) in ANTHROPIC_HEADERS {
        h.insert(*k, v.parse().unwrap());
    }
    h
}
