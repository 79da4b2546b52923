//! OpenAI chat completions, the format most providers speak (DeepSeek, Qwen, Kimi, Grok,
//! MiniMax, Gemini's compatible endpoint, Ollama, custom gateways).
//!
//! `POST {base}/chat/completions` with `Authorization: Bearer`. Tools go out as
//! `{"type":"function","function":{…}}` and come back as `tool_calls` whose arguments are a
//! JSON *string*. A stream is `data:` chunks ending in `[DONE]`; tool-call arguments arrive in
//! fragments keyed by `index`, assembled here and handed on whole. `stream_options.include_usage`
//! asks for a last chunk with usage (providers that ignore it get an estimate).

use std::collections::BTreeMap;

use nofxi_domain::Secret;
use reqwest::header::{AUTHORIZATION, HeaderName};
use serde_json::{Value, json};

use crate::classify;
use crate::connect::Endpoint;
use crate::draft::{Draft, arguments_from_text, temperature};
use crate::error::{LlmError, LlmErrorKind};
use crate::http::endpoint_url;
use crate::provider::{HttpProvider, OnDelta, StreamDecoder, Wire, unexpected_shape};
use crate::sse::{Flow, event_json};
use crate::types::{ChatRequest, Role, StreamDelta, ToolCall};

/// The OpenAI chat-completions wire format.
#[derive(Debug)]
pub struct OpenAi;

pub type OpenAiProvider = HttpProvider<OpenAi>;

impl Wire for OpenAi {
    const NAME: &'static str = "OpenAiProvider";
    type Stream = StreamState;

    fn auth_header(key: &str) -> (HeaderName, String) {
        (AUTHORIZATION, format!("Bearer {key}"))
    }

    fn urls(endpoint: &Endpoint) -> (String, String) {
        let url = endpoint_url(&endpoint.base_url, "chat/completions");
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
    let mut messages = Vec::with_capacity(request.messages.len() + 1);
    if !request.system.is_empty() {
        messages.push(json!({"role": "system", "content": request.system}));
    }
    for m in &request.messages {
        let role = match m.role {
            Role::User => "user",
            Role::Assistant => "assistant",
        };
        messages.push(json!({"role": role, "content": m.content}));
    }
    let mut body = json!({"model": model, "messages": messages});
    if !request.tools.is_empty() {
        body["tools"] = request
            .tools
            .iter()
            .map(|t| {
                json!({"type": "function", "function": {
                    "name": t.name, "description": t.description, "parameters": t.parameters,
                }})
            })
            .collect();
    }
    if request.json_output {
        body["response_format"] = json!({"type": "json_object"});
    }
    if let Some(n) = request.max_tokens {
        body["max_tokens"] = json!(n);
    }
    if let Some(t) = request.temperature {
        body["temperature"] = temperature(t);
    }
    if stream {
        body["stream"] = json!(true);
        body["stream_options"] = json!({"include_usage": true});
    }
    body
}

/// A whole (non-stream) answer.
pub(crate) fn parse_answer(answer: &Value) -> Result<Draft, String> {
    let choice = answer
        .get("choices")
        .and_then(|c| c.get(0))
        .ok_or("the answer has no choices")?;
    let message = choice.get("message").ok_or("the choice has no message")?;
    let mut draft = Draft {
        text: message
            .get("content")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string(),
        model: answer
            .get("model")
            .and_then(Value::as_str)
            .map(str::to_string),
        finish_reason: choice
            .get("finish_reason")
            .and_then(Value::as_str)
            .map(str::to_string),
        ..Draft::default()
    };
    for (i, call) in message
        .get("tool_calls")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        let function = call.get("function").ok_or("a tool call has no function")?;
        draft.tool_calls.push(ToolCall {
            id: call
                .get("id")
                .and_then(Value::as_str)
                .map(str::to_string)
                .unwrap_or_else(|| format!("call_{i}")),
            name: function
                .get("name")
                .and_then(Value::as_str)
                .ok_or("a tool call has no name")?
                .to_string(),
            arguments: match function.get("arguments") {
                Some(Value::String(s)) => arguments_from_text(s),
                Some(v @ Value::Object(_)) => v.clone(),
                _ => json!({}),
            },
        });
    }
    read_usage(answer, &mut draft);
    Ok(draft)
}

fn read_usage(answer: &Value, draft: &mut Draft) {
    if let Some(usage) = answer.get("usage").filter(|u| u.is_object()) {
        draft.prompt_tokens = usage.get("prompt_tokens").and_then(Value::as_u64);
        draft.completion_tokens = usage.get("completion_tokens").and_then(Value::as_u64);
    }
}

/// A tool call whose pieces are still arriving.
#[derive(Debug, Default)]
struct PartialCall {
    id: String,
    name: String,
    arguments: String,
}

/// What the chunks so far add up to.
#[derive(Debug, Default)]
pub(crate) struct StreamState {
    draft: Draft,
    calls: BTreeMap<u64, PartialCall>,
}

impl StreamDecoder for StreamState {
    fn on_data(
        &mut self,
        data: &str,
        on_delta: OnDelta<'_>,
        key: Option<&Secret>,
    ) -> Result<Flow, LlmError> {
        let data = data.trim();
        if data == "[DONE]" {
            return Ok(Flow::Done);
        }
        if data.is_empty() {
            return Ok(Flow::Continue);
        }
        let chunk = event_json(data, "chunk", key)?;
        if chunk.get("error").is_some_and(|e| !e.is_null()) {
            return Err(classify::from_stream_error(&chunk, key));
        }
        if let Some(model) = chunk.get("model").and_then(Value::as_str) {
            self.draft.model = Some(model.to_string());
        }
        read_usage(&chunk, &mut self.draft);
        let Some(choice) = chunk.get("choices").and_then(|c| c.get(0)) else {
            return Ok(Flow::Continue);
        };
        if let Some(reason) = choice.get("finish_reason").and_then(Value::as_str) {
            self.draft.finish_reason = Some(reason.to_string());
        }
        let Some(delta) = choice.get("delta") else {
            return Ok(Flow::Continue);
        };
        if let Some(text) = delta.get("content").and_then(Value::as_str)
            && !text.is_empty()
        {
            self.draft.text.push_str(text);
            on_delta(StreamDelta::Text(text.to_string()));
        }
        for piece in delta
            .get("tool_calls")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let index = piece
                .get("index")
                .and_then(Value::as_u64)
                .unwrap_or(self.calls.len() as u64);
            let call = self.calls.entry(index).or_default();
            if let Some(id) = piece.get("id").and_then(Value::as_str) {
                call.id = id.to_string();
            }
            let function = piece.get("function");
            if let Some(name) = function.and_then(|f| f.get("name")).and_then(Value::as_str) {
                call.name.push_str(name);
            }
            if let Some(args) = function
                .and_then(|f| f.get("arguments"))
                .and_then(Value::as_str)
            {
                call.arguments.push_str(args);
            }
        }
        Ok(Flow::Continue)
    }

    /// The calls are whole only when the stream has ended: `index` order is the model's order.
    fn finish(mut self, on_delta: OnDelta<'_>) -> Result<Draft, LlmError> {
        for (index, call) in std::mem::take(&mut self.calls) {
            if call.name.is_empty() {
                return Err(LlmError::new(
                    LlmErrorKind::BadResponse,
                    format!("streamed tool call {index} has no name"),
                ));
            }
            let call = ToolCall {
                id: if call.id.is_empty() {
                    format!("call_{index}")
                } else {
                    call.id
                },
                name: call.name,
                arguments: arguments_from_text(&call.arguments),
            };
            on_delta(StreamDelta::ToolCall(call.clone()));
            self.draft.tool_calls.push(call);
        }
        Ok(self.draft)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;
    use crate::types::{Message, ToolSpec};

    fn request() -> ChatRequest {
        ChatRequest {
            system: "be brief".into(),
            messages: vec![Message::user("hi")],
            tools: vec![ToolSpec {
                name: "create_trader".into(),
                description: "Create a trader".into(),
                parameters: json!({"type": "object", "properties": {"name": {"type": "string"}}}),
            }],
            json_output: true,
            max_tokens: Some(100),
            temperature: Some(0.2),
        }
    }

    #[test]
    fn body_has_system_tools_and_json_switch() {
        let body = request_body(&request(), "deepseek-chat", false);
        assert_eq!(body["model"], "deepseek-chat");
        assert_eq!(
            body["messages"][0],
            json!({"role": "system", "content": "be brief"})
        );
        assert_eq!(
            body["messages"][1],
            json!({"role": "user", "content": "hi"})
        );
        assert_eq!(body["tools"][0]["type"], "function");
        assert_eq!(body["tools"][0]["function"]["name"], "create_trader");
        assert_eq!(body["response_format"], json!({"type": "json_object"}));
        assert_eq!(body["max_tokens"], 100);
        assert!(body.get("stream").is_none());
        let streaming = request_body(&request(), "m", true);
        assert_eq!(streaming["stream"], true);
        assert_eq!(streaming["stream_options"], json!({"include_usage": true}));
    }

    #[test]
    fn answer_with_tool_calls_and_usage() {
        let answer = json!({
            "model": "deepseek-chat",
            "choices": [{"message": {"role": "assistant", "content": null, "tool_calls": [
                {"id": "call_1", "type": "function",
                 "function": {"name": "create_trader", "arguments": "{\"name\":\"btc-bot\"}"}}
            ]}, "finish_reason": "tool_calls"}],
            "usage": {"prompt_tokens": 12, "completion_tokens": 7}
        });
        let d = parse_answer(&answer).unwrap();
        assert_eq!(d.text, "");
        assert_eq!(d.tool_calls[0].arguments, json!({"name": "btc-bot"}));
        assert_eq!(d.prompt_tokens, Some(12));
        assert_eq!(d.finish_reason.as_deref(), Some("tool_calls"));
        assert!(parse_answer(&json!({"object": "list"})).is_err());
    }

    #[test]
    fn stream_assembles_text_and_fragmented_tool_calls() {
        let seen = Mutex::new(Vec::new());
        let on_delta = |d: StreamDelta| seen.lock().unwrap().push(d);
        let mut s = StreamState::default();
        let chunks = [
            r#"{"model":"m1","choices":[{"delta":{"role":"assistant","content":"Hel"}}]}"#,
            r#"{"choices":[{"delta":{"content":"lo"}}]}"#,
            r#"{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"c0","function":{"name":"create_trader","arguments":"{\"na"}}]}}]}"#,
            r#"{"choices":[{"delta":{"tool_calls":[{"index":1,"id":"c1","function":{"name":"start","arguments":""}}]}}]}"#,
            r#"{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"me\":\"x\"}"}}]}}]}"#,
            r#"{"choices":[{"delta":{},"finish_reason":"tool_calls"}]}"#,
            r#"{"choices":[],"usage":{"prompt_tokens":5,"completion_tokens":9}}"#,
        ];
        for c in chunks {
            assert_eq!(s.on_data(c, &on_delta, None).unwrap(), Flow::Continue);
        }
        assert_eq!(s.on_data("[DONE]", &on_delta, None).unwrap(), Flow::Done);
        let d = s.finish(&on_delta).unwrap();
        assert_eq!(d.text, "Hello");
        assert_eq!(d.model.as_deref(), Some("m1"));
        assert_eq!(d.tool_calls.len(), 2);
        assert_eq!(d.tool_calls[0].arguments, json!({"name": "x"}));
        assert_eq!(d.tool_calls[1].arguments, json!({}));
        assert_eq!((d.prompt_tokens, d.completion_tokens), (Some(5), Some(9)));
        let seen = seen.lock().unwrap();
        assert_eq!(seen[0], StreamDelta::Text("Hel".into()));
        assert!(matches!(&seen[2], StreamDelta::ToolCall(c) if c.id == "c0"));
    }

    #[test]
    fn stream_error_chunk_is_typed() {
        let mut s = StreamState::default();
        let err = s
            .on_data(
                r#"{"error":{"message":"Rate limit reached","type":"rate_limit_error"}}"#,
                &|_| {},
                None,
            )
            .unwrap_err();
        assert_eq!(err.kind, LlmErrorKind::RateLimited);
    }
}
