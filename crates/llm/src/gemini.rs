//! Gemini's native API.
//!
//! `POST {base}/models/{model}:generateContent`, or `:streamGenerateContent?alt=sse` for a
//! stream, with the key in `x-goog-api-key` (never in the query string, where it would land in
//! logs). The system prompt is `systemInstruction`; turns are `contents` with roles `user` and
//! `model`; tools are one `{functionDeclarations: […]}`; a call comes back as a `functionCall`
//! part with its arguments already an object. `generationConfig.responseMimeType` asks for
//! JSON. A stream is a series of whole `GenerateContentResponse`s, each with the next parts,
//! ending when the body ends.
//!
//! Gemini reads tool parameters as an OpenAPI subset: it refuses `additionalProperties` and
//! `$schema`, and an object schema with no properties, so those are dropped on the way out.
//! It also refuses JSON mode together with function calling, so JSON mode is only asked for
//! when there are no tools (the prompt still says to answer in JSON).

use nofxi_domain::Secret;
use reqwest::header::HeaderName;
use serde_json::{Map, Value, json};

use crate::classify;
use crate::connect::Endpoint;
use crate::draft::{Draft, temperature};
use crate::error::{LlmError, LlmErrorKind};
use crate::http::endpoint_url;
use crate::provider::{HttpProvider, OnDelta, StreamDecoder, Wire};
use crate::sse::{Flow, event_json};
use crate::types::{ChatRequest, Role, StreamDelta, ToolCall, ToolSpec};

/// Gemini's native wire format.
#[derive(Debug)]
pub struct Gemini;

pub type GeminiProvider = HttpProvider<Gemini>;

impl Wire for Gemini {
    const NAME: &'static str = "GeminiProvider";
    type Stream = StreamState;

    fn auth_header(key: &str) -> (HeaderName, String) {
        (HeaderName::from_static("x-goog-api-key"), key.to_string())
    }

    fn urls(endpoint: &Endpoint) -> (String, String) {
        urls(&endpoint.base_url, &endpoint.model)
    }

    /// The model is in the URL and streaming is the URL's choice, so the body needs neither.
    fn body(request: &ChatRequest, _model: &str, _stream: bool) -> Value {
        request_body(request)
    }

    /// A whole answer is one response of a stream, read the same way.
    fn parse_whole(answer: &Value, key: Option<&Secret>) -> Result<Draft, LlmError> {
        let mut state = StreamState::default();
        state.on_response(answer, &|_| {}, key)?;
        state.finish(answer, key)
    }
}

/// The whole-answer and stream URLs. Model names may come as `models/gemini-…`.
fn urls(base: &str, model: &str) -> (String, String) {
    let model = model.trim().trim_start_matches("models/");
    if base.trim().ends_with('#') {
        let exact = endpoint_url(base, "");
        let stream = exact.replace(":generateContent", ":streamGenerateContent?alt=sse");
        return (exact, stream);
    }
    (
        endpoint_url(base, &format!("models/{model}:generateContent")),
        endpoint_url(
            base,
            &format!("models/{model}:streamGenerateContent?alt=sse"),
        ),
    )
}

pub(crate) fn request_body(request: &ChatRequest) -> Value {
    let contents: Vec<Value> = request
        .messages
        .iter()
        .map(|m| {
            let role = match m.role {
                Role::User => "user",
                Role::Assistant => "model",
            };
            json!({"role": role, "parts": [{"text": m.content}]})
        })
        .collect();
    let mut body = json!({"contents": contents});
    if !request.system.is_empty() {
        body["systemInstruction"] = json!({"parts": [{"text": request.system}]});
    }
    if !request.tools.is_empty() {
        let declarations: Vec<Value> = request.tools.iter().map(declaration).collect();
        body["tools"] = json!([{"functionDeclarations": declarations}]);
    }
    let mut config = Map::new();
    if request.json_output && request.tools.is_empty() {
        config.insert("responseMimeType".into(), json!("application/json"));
    }
    if let Some(n) = request.max_tokens {
        config.insert("maxOutputTokens".into(), json!(n));
    }
    if let Some(t) = request.temperature {
        config.insert("temperature".into(), temperature(t));
    }
    if !config.is_empty() {
        body["generationConfig"] = Value::Object(config);
    }
    body
}

fn declaration(tool: &ToolSpec) -> Value {
    let mut d = json!({"name": tool.name, "description": tool.description});
    let params = openapi_subset(&tool.parameters);
    let empty_object = params.get("type").and_then(Value::as_str) == Some("object")
        && params
            .get("properties")
            .and_then(Value::as_object)
            .is_none_or(Map::is_empty);
    if !empty_object {
        d["parameters"] = params;
    }
    d
}

/// `schema` without the JSON Schema keywords Gemini refuses.
fn openapi_subset(schema: &Value) -> Value {
    match schema {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| !matches!(k.as_str(), "additionalProperties" | "$schema"))
                .map(|(k, v)| (k.clone(), openapi_subset(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(openapi_subset).collect()),
        other => other.clone(),
    }
}

#[derive(Debug, Default)]
pub(crate) struct StreamState {
    draft: Draft,
    responses: usize,
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
        let chunk = event_json(data, "chunk", key)?;
        self.on_response(&chunk, on_delta, key)?;
        Ok(Flow::Continue)
    }

    /// The inherent [`StreamState::finish`], which whole answers share. A stream has no whole
    /// answer to quote in an error, so there is no key to redact either.
    fn finish(self, _on_delta: OnDelta<'_>) -> Result<Draft, LlmError> {
        StreamState::finish(self, &Value::Null, None)
    }
}

impl StreamState {
    /// One `GenerateContentResponse`: the whole answer, or the next piece of a stream.
    pub(crate) fn on_response(
        &mut self,
        response: &Value,
        on_delta: OnDelta<'_>,
        key: Option<&Secret>,
    ) -> Result<(), LlmError> {
        if response.get("error").is_some_and(|e| !e.is_null()) {
            return Err(classify::from_stream_error(response, key));
        }
        self.responses += 1;
        if let Some(model) = response.get("modelVersion").and_then(Value::as_str) {
            self.draft.model = Some(model.to_string());
        }
        if let Some(usage) = response.get("usageMetadata") {
            if let Some(n) = usage.get("promptTokenCount").and_then(Value::as_u64) {
                self.draft.prompt_tokens = Some(n);
            }
            let answer = usage.get("candidatesTokenCount").and_then(Value::as_u64);
            let thoughts = usage.get("thoughtsTokenCount").and_then(Value::as_u64);
            if answer.is_some() || thoughts.is_some() {
                self.draft.completion_tokens =
                    Some(answer.unwrap_or_default() + thoughts.unwrap_or_default());
            }
        }
        let Some(candidate) = response.get("candidates").and_then(|c| c.get(0)) else {
            return Ok(());
        };
        if let Some(reason) = candidate.get("finishReason").and_then(Value::as_str) {
            self.draft.finish_reason = Some(reason.to_string());
        }
        let parts = candidate
            .get("content")
            .and_then(|c| c.get("parts"))
            .and_then(Value::as_array);
        for part in parts.into_iter().flatten() {
            // Thought summaries are the model's notes, not its answer.
            if part.get("thought").and_then(Value::as_bool) == Some(true) {
                continue;
            }
            if let Some(text) = part.get("text").and_then(Value::as_str)
                && !text.is_empty()
            {
                self.draft.text.push_str(text);
                on_delta(StreamDelta::Text(text.to_string()));
            }
            if let Some(call) = part.get("functionCall") {
                let index = self.draft.tool_calls.len();
                let call = ToolCall {
                    id: call
                        .get("id")
                        .and_then(Value::as_str)
                        .map(str::to_string)
                        .unwrap_or_else(|| format!("call_{index}")),
                    name: call
                        .get("name")
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_string(),
                    arguments: call.get("args").cloned().unwrap_or_else(|| json!({})),
                };
                on_delta(StreamDelta::ToolCall(call.clone()));
                self.draft.tool_calls.push(call);
            }
        }
        Ok(())
    }

    /// The answer so far; `whole` is the non-stream answer, for a better error if it was not
    /// one.
    pub(crate) fn finish(self, whole: &Value, key: Option<&Secret>) -> Result<Draft, LlmError> {
        let nothing = self.draft.text.is_empty() && self.draft.tool_calls.is_empty();
        if nothing && self.draft.finish_reason.is_none() {
            if let Some(reason) = whole
                .get("promptFeedback")
                .and_then(|f| f.get("blockReason"))
                .and_then(Value::as_str)
            {
                return Err(LlmError::new(
                    LlmErrorKind::BadRequest,
                    format!("Gemini blocked the prompt: {reason}"),
                ));
            }
            return Err(if whole.is_null() {
                LlmError::new(
                    LlmErrorKind::BadResponse,
                    if self.responses == 0 {
                        "the stream ended before the model answered"
                    } else {
                        "the stream had no candidates"
                    },
                )
            } else {
                classify::bad_response(200, &whole.to_string(), "the answer has no candidates", key)
            });
        }
        Ok(self.draft)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;
    use crate::types::Message;

    fn tool(parameters: Value) -> ToolSpec {
        ToolSpec {
            name: "create_trader".into(),
            description: "Create".into(),
            parameters,
        }
    }

    #[test]
    fn urls_per_model_and_as_is() {
        let (u, s) = urls(
            "https://generativelanguage.googleapis.com/v1beta",
            "models/gemini-2.5-flash",
        );
        assert_eq!(
            u,
            "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent"
        );
        assert_eq!(
            s,
            "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"
        );
        let (u, s) = urls("https://gw.example.com/g/models/x:generateContent#", "y");
        assert_eq!(u, "https://gw.example.com/g/models/x:generateContent");
        assert_eq!(
            s,
            "https://gw.example.com/g/models/x:streamGenerateContent?alt=sse"
        );
    }

    #[test]
    fn body_shape() {
        let mut r = ChatRequest {
            system: "sys".into(),
            messages: vec![Message::user("hi"), Message::assistant("yo")],
            json_output: true,
            max_tokens: Some(50),
            ..Default::default()
        };
        let body = request_body(&r);
        assert_eq!(
            body["systemInstruction"],
            json!({"parts": [{"text": "sys"}]})
        );
        assert_eq!(body["contents"][1]["role"], "model");
        assert_eq!(
            body["generationConfig"],
            json!({"responseMimeType": "application/json", "maxOutputTokens": 50})
        );
        r.tools = vec![
            tool(json!({"type": "object", "additionalProperties": false,
                "properties": {"name": {"type": "string"}}})),
            tool(json!({"type": "object", "additionalProperties": false})),
        ];
        let body = request_body(&r);
        let decls = &body["tools"][0]["functionDeclarations"];
        assert_eq!(
            decls[0]["parameters"],
            json!({"type": "object", "properties": {"name": {"type": "string"}}})
        );
        assert!(decls[1].get("parameters").is_none());
        assert!(body["generationConfig"].get("responseMimeType").is_none());
    }

    #[test]
    fn answer_with_function_call_and_usage() {
        let answer = json!({
            "candidates": [{"content": {"role": "model", "parts": [
                {"text": "ok "},
                {"functionCall": {"name": "create_trader", "args": {"name": "b"}}}
            ]}, "finishReason": "STOP"}],
            "usageMetadata": {"promptTokenCount": 8, "candidatesTokenCount": 4},
            "modelVersion": "gemini-2.5-flash"
        });
        let mut s = StreamState::default();
        s.on_response(&answer, &|_| {}, None).unwrap();
        let d = s.finish(&answer, None).unwrap();
        assert_eq!(d.text, "ok ");
        assert_eq!(d.tool_calls[0].id, "call_0");
        assert_eq!(d.tool_calls[0].arguments, json!({"name": "b"}));
        assert_eq!((d.prompt_tokens, d.completion_tokens), (Some(8), Some(4)));
        assert_eq!(d.model.as_deref(), Some("gemini-2.5-flash"));
    }

    #[test]
    fn stream_chunks_accumulate() {
        let seen = Mutex::new(Vec::new());
        let on_delta = |d: StreamDelta| seen.lock().unwrap().push(d);
        let mut s = StreamState::default();
        for c in [
            r#"{"candidates":[{"content":{"role":"model","parts":[{"text":"Hel"}]}}]}"#,
            r#"{"candidates":[{"content":{"role":"model","parts":[{"text":"lo"}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":3,"candidatesTokenCount":2}}"#,
        ] {
            s.on_data(c, &on_delta, None).unwrap();
        }
        let d = s.finish(&Value::Null, None).unwrap();
        assert_eq!(d.text, "Hello");
        assert_eq!(d.completion_tokens, Some(2));
        assert_eq!(seen.lock().unwrap().len(), 2);
    }

    #[test]
    fn blocked_prompt_and_empty_answer_are_errors() {
        let blocked = json!({"promptFeedback": {"blockReason": "SAFETY"}});
        let mut s = StreamState::default();
        s.on_response(&blocked, &|_| {}, None).unwrap();
        assert_eq!(
            s.finish(&blocked, None).unwrap_err().kind,
            LlmErrorKind::BadRequest
        );
        let odd = json!({"foo": 1});
        let mut s = StreamState::default();
        s.on_response(&odd, &|_| {}, None).unwrap();
        assert_eq!(
            s.finish(&odd, None).unwrap_err().kind,
            LlmErrorKind::BadResponse
        );
    }
}
