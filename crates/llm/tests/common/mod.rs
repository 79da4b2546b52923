//! What the provider tests share: an endpoint on the mock, a key to look for, fast retries.
#![allow(dead_code)]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use nofxi_domain::{Secret, WireFormat};
use nofxi_llm::{
    ChatRequest, Endpoint, LlmError, Message, Provider, RetryPolicy, StreamDelta, ToolSpec, connect,
};
use nofxi_testkit::MockLlm;
use serde_json::json;

/// Shaped like a real key, so the redaction of key-like text is exercised too.
pub const KEY: &str = "sk-nofxiTEST0a1b2c3d4e5f6g7h8i9j0klmn";

pub const WIRES: [WireFormat; 3] = [
    WireFormat::OpenAi,
    WireFormat::Anthropic,
    WireFormat::Gemini,
];

/// Retries that take milliseconds, not seconds.
pub fn fast_retry(max_attempts: u32) -> RetryPolicy {
    RetryPolicy {
        max_attempts,
        base_delay: Duration::from_millis(10),
        max_delay: Duration::from_millis(200),
    }
}

/// The base URL each format is configured with in production, on the mock.
pub fn base_for(mock: &MockLlm, wire: WireFormat) -> String {
    match wire {
        WireFormat::OpenAi => format!("{}/v1", mock.base_url()),
        WireFormat::Anthropic => format!("{}/v1", mock.base_url()),
        WireFormat::Gemini => format!("{}/v1beta", mock.base_url()),
        WireFormat::Builtin => String::new(),
    }
}

pub fn endpoint(mock: &MockLlm, wire: WireFormat) -> Endpoint {
    Endpoint::new("test", wire, base_for(mock, wire), "test-model")
        .with_api_key(Secret::new(KEY))
        .with_timeout(Duration::from_secs(5))
        .with_retry(fast_retry(3))
}

pub fn provider(mock: &MockLlm, wire: WireFormat) -> Arc<dyn Provider> {
    connect(endpoint(mock, wire)).unwrap()
}

pub fn request() -> ChatRequest {
    ChatRequest {
        system: "You are nofxi's assistant.".into(),
        messages: vec![Message::user("BTC 现在多少钱？")],
        ..Default::default()
    }
}

pub fn tool_request() -> ChatRequest {
    ChatRequest {
        tools: vec![ToolSpec {
            name: "create_trader".into(),
            description: "Create a trader".into(),
            parameters: json!({
                "type": "object",
                "properties": {"name": {"type": "string"}, "scan_interval_minutes": {"type": "integer"}},
                "required": ["name"],
                "additionalProperties": false
            }),
        }],
        ..request()
    }
}

/// Collects what a stream hands out.
#[derive(Default)]
pub struct Deltas(pub Mutex<Vec<StreamDelta>>);

impl Deltas {
    pub fn push(&self, d: StreamDelta) {
        self.0.lock().unwrap().push(d);
    }

    pub fn text(&self) -> String {
        self.0
            .lock()
            .unwrap()
            .iter()
            .filter_map(|d| match d {
                StreamDelta::Text(t) => Some(t.as_str()),
                StreamDelta::ToolCall(_) => None,
            })
            .collect()
    }

    pub fn texts(&self) -> usize {
        self.0
            .lock()
            .unwrap()
            .iter()
            .filter(|d| matches!(d, StreamDelta::Text(_)))
            .count()
    }

    pub fn tool_calls(&self) -> Vec<nofxi_llm::ToolCall> {
        self.0
            .lock()
            .unwrap()
            .iter()
            .filter_map(|d| match d {
                StreamDelta::ToolCall(c) => Some(c.clone()),
                StreamDelta::Text(_) => None,
            })
            .collect()
    }
}

/// The key, or any 8-character piece of its secret part, must not be in the error anywhere.
pub fn assert_no_key(err: &LlmError) {
    let shown = format!("{err} {err:?} {}", err.message);
    let secret_part = &KEY[3..];
    for i in 0..=secret_part.len() - 8 {
        let piece = &secret_part[i..i + 8];
        assert!(
            !shown.contains(piece),
            "key piece {piece:?} leaked: {shown}"
        );
    }
}
