#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The mock LLM over real loopback HTTP: each provider's format streaming and not, tool calls,
//! scripted failures, and what it records.

use eventsource_stream::Eventsource;
use futures::StreamExt;
use serde_json::Value;

#[path = "mock_llm/openai.rs"]
mod openai;

#[path = "mock_llm/anthropic.rs"]
mod anthropic;

#[path = "mock_llm/gemini.rs"]
mod gemini;

#[path = "mock_llm/failures.rs"]
mod failures;

#[path = "mock_llm/recording.rs"]
mod recording;

const ANTHROPIC_HEADERS: &[(&str, &str)] = &[
    ("x-api-key", "sk-ant-test"),
    ("anthropic-version", "2023-06-01"),
];

async fn post(url: &str, body: &Value, headers: &[(&str, &str)]) -> reqwest::Response {
    let mut req = reqwest::Client::new().post(url).json(body);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    req.send().await.unwrap()
}

/// (event name, data) for every server-sent event, parsed by a real SSE parser.
async fn events(resp: reqwest::Response) -> Vec<(String, String)> {
    assert_eq!(resp.status(), 200);
    let ct = resp.headers()["content-type"].to_str().unwrap().to_string();
    assert!(ct.starts_with("text/event-stream"), "{ct}");
    resp.bytes_stream()
        .eventsource()
        .map(|e| {
            let e = e.unwrap();
            (e.event, e.data)
        })
        .collect()
        .await
}

fn data(events: &[(String, String)]) -> Vec<Value> {
    events
        .iter()
        .filter(|(_, d)| d != "[DONE]")
        .map(|(_, d)| serde_json::from_str(d).unwrap())
        .collect()
}
