//! Anthropic messages.
//!
//! `POST {base}/messages` with `x-api-key` and `anthropic-version: 2023-06-01`. The system
//! prompt is a top-level field, `max_tokens` is required (1024 when the caller gives none),
//! tools are `{name, description, input_schema}`, and the answer is a list of content blocks
//! (`text`, `tool_use`). A stream is named events: `message_start` (model, input tokens),
//! `content_block_start` / `content_block_delta` (`text_delta`, `input_json_delta`) /
//! `content_block_stop`, `message_delta` (stop reason, output tokens), `message_stop`, with
//! `ping` to ignore and `error` to report. There is no JSON-output switch: the prompt says it.

use std::collections::BTreeMap;

use nofxi_domain::Secret;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use serde_json::{Value, json};

use crate::classify;
use crate::connect::Endpoint;
use crate::draft::{Draft, arguments_from_text, temperature};
use crate::error::{LlmError, LlmErrorKind};
use crate::http::endpoint_url;
use crate::provider::{HttpProvider, OnDelta, StreamDecoder, Wire, unexpected_shape};
use crate::sse::{Flow, event_json};
use crate::types::{ChatRequest, Role, StreamDelta, ToolCall};

pub const ANTHROPIC_VERSION: &str = "2023-06-01";
/// Anthropic refuses a request without `max_tokens`; this is enough for a decision or a reply.
pub const DEFAULT_MAX_TOKENS: u32 = 1024;

/// The Anthropic messages wire format.
#[derive(Debug)]
pub struct Anthropic;

pub type AnthropicProvider = HttpProvider<Anthropic>;

impl Wire for Anthropic {
    const NAME: &'static str = "AnthropicProvider";
    type Stream = StreamState;

    fn auth_header(key: &str) -> (HeaderName, String) {
        (HeaderName::from_static("x-api-key"), key.to_string())
    }

    fn fixed_headers() -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(
            HeaderName::from_static("anthropic-version"),
            HeaderValue::from_static(ANTHROPIC_VERSION),
        );
        headers
    }

    fn urls(endpoint: &Endpoint) -> (String, String) {
        let url = endpoint_url(&endpoint.base_url, "messages");
        (url.clone(), url)
    }

    fn body(request: &ChatRequest, model: &str, stream: bool) -> Value {
        request_body(request, model, stream)
    }

    fn parse_whole(answer: &Value, key: Option<&Secret>) -> Result<Draft, LlmError> {
        parse_answer(answer).map_err(|what| unexpected_shape(answer, &what, key))
    }
}

pub(crate) fn request_body(request: &ChatRequest, model: &str, stream: bool) -> Value {
    let messages: Vec<Value> = request
        .messages
        .iter()
        .map(|m| {
            let role = match m.role {
                Role::User => "user",
                Role::Assistant => "assistant",
            };
            json!({"role": role, "content": m.content})
        })
        .collect();
    let mut body = json!({
        "model": model,
        "max_tokens": request.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS),
        "messages": messages,
    });
    if !request.system.is_empty() {
        body["system"] = json!(request.system);
    }
    if !request.tools.is_empty() {
        body["tools"] = request
            .tools
            .iter()
            .map(|t| json!({"name": t.name, "description": t.description, "input_schema": t.parameters}))
            .collect();
    }
    if let Some(t) = request.temperature {
        body["temperature"] = temperature(t);
    }
    if stream {
        body["stream"] = json!(true);
    }
    body
}

pub(crate) fn parse_answer(answer: &Value) -> Result<Draft, String> {
    let blocks = answer
        .get("content")
        .and_then(Value::as_array)
        .ok_or("the answer has no content blocks")?;
    let mut draft = Draft {
        model: answer
            .get("model")
            .and_then(Value::as_str)
            .map(str::to_string),
        finish_reason: answer
            .get("stop_reason")
            .and_then(Value::as_str)
            .map(str::to_string),
        ..Draft::default()
    };
    for block in blocks {
        match block.get("type").and_then(Value::as_str) {
            Some("text") => {
                draft.text.push_str(
                    block
                        .get("text")
                        .and_then(Value::as_str)
                        .unwrap_or_default(),
                );
            }
            Some("tool_use") => draft.tool_calls.push(ToolCall {
                id: block
                    .get("id")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string(),
                name: block
                    .get("name")
                    .and_then(Value::as_str)
                    .ok_or("a tool_use block has no name")?
                    .to_string(),
                arguments: block.get("input").cloned().unwrap_or_else(|| json!({})),
            }),
            // Thinking and other blocks carry nothing the caller uses.
            _ => {}
        }
    }
    if let Some(usage) = answer.get("usage") {
        draft.prompt_tokens = usage.get("input_tokens").and_then(Value::as_u64);
        draft.completion_tokens = usage.get("output_tokens").and_then(Value::as_u64);
    }
    Ok(draft)
}

/// A content block whose pieces are still arriving.
#[derive(Debug)]
enum OpenBlock {
    Text,
    ToolUse {
        id: String,
        name: String,
        json: String,
    },
    Other,
}

#[derive(Debug, Default)]
pub(crate) struct StreamState {
    draft: Draft,
    blocks: BTreeMap<u64, OpenBlock>,
    stopped: bool,
}

impl StreamDecoder for StreamState {
    fn on_data(
        &mut self,
        data: &str,
        on_delta: OnDelta<'_>,
        key: Option<&Secret>,
    ) -> Result<Flow, LlmError> {
        if data.trim().is_empty() {
            return Ok(Flow::Continue);
        }
        let event = event_json(data, "event", key)?;
        let index = event.get("index").and_then(Value::as_u64).unwrap_or(0);
        match event
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or_default()
        {
            "message_start" => {
                let message = event.get("message");
                if let Some(model) = message.and_then(|m| m.get("model")).and_then(Value::as_str) {
                    self.draft.model = Some(model.to_string());
                }
                let usage = message.and_then(|m| m.get("usage"));
                if let Some(n) = usage
                    .and_then(|u| u.get("input_tokens"))
                    .and_then(Value::as_u64)
                {
                    self.draft.prompt_tokens = Some(n);
                }
            }
            "content_block_start" => {
                let block = event.get("content_block");
                let open = match block.and_then(|b| b.get("type")).and_then(Value::as_str) {
                    Some("text") => {
                        let text = block
                            .and_then(|b| b.get("text"))
                            .and_then(Value::as_str)
                            .unwrap_or_default();
                        self.push_text(text, on_delta);
                        OpenBlock::Text
                    }
                    Some("tool_use") => OpenBlock::ToolUse {
                        id: str_at(block, "id"),
                        name: str_at(block, "name"),
                        json: String::new(),
                    },
                    _ => OpenBlock::Other,
                };
                self.blocks.insert(index, open);
            }
            "content_block_delta" => {
                let delta = event.get("delta");
                match delta.and_then(|d| d.get("type")).and_then(Value::as_str) {
                    Some("text_delta") => {
                        let text = str_at(delta, "text");
                        self.push_text(&text, on_delta);
                    }
                    Some("input_json_delta") => {
                        if let Some(OpenBlock::ToolUse { json, .. }) = self.blocks.get_mut(&index) {
                            json.push_str(&str_at(delta, "partial_json"));
                        }
                    }
                    _ => {}
                }
            }
            "content_block_stop" => {
                if let Some(OpenBlock::ToolUse { id, name, json }) = self.blocks.remove(&index) {
                    let call = ToolCall {
                        id,
                        name,
                        arguments: arguments_from_text(&json),
                    };
                    on_delta(StreamDelta::ToolCall(call.clone()));
                    self.draft.tool_calls.push(call);
                }
            }
            "message_delta" => {
                if let Some(reason) = event
                    .get("delta")
                    .and_then(|d| d.get("stop_reason"))
                    .and_then(Value::as_str)
                {
                    self.draft.finish_reason = Some(reason.to_string());
                }
                if let Some(n) = event
                    .get("usage")
                    .and_then(|u| u.get("output_tokens"))
                    .and_then(Value::as_u64)
                {
                    self.draft.completion_tokens = Some(n);
                }
            }
            "message_stop" => {
                self.stopped = true;
                return Ok(Flow::Done);
            }
            "error" => return Err(classify::from_stream_error(&event, key)),
            // `ping` and event types added later.
            _ => {}
        }
        Ok(Flow::Continue)
    }

    /// Tool calls were told as their blocks stopped, so there is nothing left to hand on:
    /// the inherent [`StreamState::finish`] only checks that an answer came.
    fn finish(self, _on_delta: OnDelta<'_>) -> Result<Draft, LlmError> {
        StreamState::finish(self)
    }
}

impl StreamState {
    fn push_text(&mut self, text: &str, on_delta: OnDelta<'_>) {
        if !text.is_empty() {
            self.draft.text.push_str(text);
            on_delta(StreamDelta::Text(text.to_string()));
        }
    }

    pub(crate) fn finish(self) -> Result<Draft, LlmError> {
        if !self.stopped && self.draft.text.is_empty() && self.draft.tool_calls.is_empty() {
            return Err(LlmError::new(
                LlmErrorKind::BadResponse,
                "the stream ended before the model answered",
            ));
        }
        Ok(self.draft)
    }
}

fn str_at(v: Option<&Value>, field: &str) -> String {
    v.and_then(|v| v.get(field))
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;
    use crate::types::{Message, ToolSpec};

    #[test]
    fn body_puts_system_on_top_and_requires_max_tokens() {
        let r = ChatRequest {
            system: "be brief".into(),
            messages: vec![Message::user("hi")],
            tools: vec![ToolSpec {
                name: "t".into(),
                description: "d".into(),
                parameters: json!({"type": "object"}),
            }],
            json_output: true,
            ..Default::default()
        };
        let body = request_body(&r, "claude-sonnet-4", false);
        assert_eq!(body["system"], "be brief");
        assert_eq!(body["max_tokens"], 1024);
        assert_eq!(body["messages"], json!([{"role": "user", "content": "hi"}]));
        assert_eq!(
            body["tools"][0],
            json!({"name": "t", "description": "d", "input_schema": {"type": "object"}})
        );
        assert!(body.get("response_format").is_none());
        assert_eq!(request_body(&r, "m", true)["stream"], true);
    }

    #[test]
    fn answer_with_text_and_tool_use() {
        let d = parse_answer(&json!({
            "model": "claude-sonnet-4",
            "content": [
                {"type": "text", "text": "Creating it."},
                {"type": "tool_use", "id": "toolu_1", "name": "create_trader", "input": {"name": "x"}}
            ],
            "stop_reason": "tool_use",
            "usage": {"input_tokens": 20, "output_tokens": 10}
        }))
        .unwrap();
        assert_eq!(d.text, "Creating it.");
        assert_eq!(d.tool_calls[0].arguments, json!({"name": "x"}));
        assert_eq!((d.prompt_tokens, d.completion_tokens), (Some(20), Some(10)));
    }

    #[test]
    fn stream_events_assemble() {
        let seen = Mutex::new(Vec::new());
        let on_delta = |d: StreamDelta| seen.lock().unwrap().push(d);
        let mut s = StreamState::default();
        for e in [
            r#"{"type":"message_start","message":{"model":"claude-x","usage":{"input_tokens":11,"output_tokens":1}}}"#,
            r#"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#,
            r#"{"type":"ping"}"#,
            r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}"#,
            r#"{"type":"content_block_stop","index":0}"#,
            r#"{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"tu1","name":"start","input":{}}}"#,
            r#"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"name\":"}}"#,
            r#"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"\"bot\"}"}}"#,
            r#"{"type":"content_block_stop","index":1}"#,
            r#"{"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":15}}"#,
        ] {
            assert_eq!(s.on_data(e, &on_delta, None).unwrap(), Flow::Continue);
        }
        assert_eq!(
            s.on_data(r#"{"type":"message_stop"}"#, &on_delta, None)
                .unwrap(),
            Flow::Done
        );
        let d = s.finish().unwrap();
        assert_eq!(d.text, "Hi");
        assert_eq!(d.tool_calls[0].name, "start");
        assert_eq!(d.tool_calls[0].arguments, json!({"name": "bot"}));
        assert_eq!((d.prompt_tokens, d.completion_tokens), (Some(11), Some(15)));
        assert_eq!(d.finish_reason.as_deref(), Some("tool_use"));
        assert_eq!(seen.lock().unwrap().len(), 2);
    }

    #[test]
    fn stream_error_event_is_typed() {
        let mut s = StreamState::default();
        let err = s
            .on_data(
                r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#,
                &|_| {},
                None,
            )
            .unwrap_err();
        assert_eq!(err.kind, LlmErrorKind::Overloaded);
    }
}
