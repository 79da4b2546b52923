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

use std::time::Instant;

use nofxi_domain::Secret;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use serde_json::{Map, Value, json};

use crate::Provider;
use crate::classify;
use crate::connect::Endpoint;
use crate::draft::{Draft, temperature};
use crate::error::{LlmError, LlmErrorKind};
use crate::http::{StreamStart, Transport, endpoint_url};
use crate::openai::replay;
use crate::sse::{Flow, read_events};
use crate::types::{ChatRequest, Completion, Role, StreamDelta, ToolCall, ToolSpec};

pub struct GeminiProvider {
    label: String,
    url: String,
    stream_url: String,
    model: String,
    transport: Transport,
}

impl std::fmt::Debug for GeminiProvider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GeminiProvider")
            .field("label", &self.label)
            .field("url", &self.url)
            .finish_non_exhaustive()
    }
}

impl GeminiProvider {
    pub fn new(endpoint: &Endpoint) -> Result<GeminiProvider, reqwest::Error> {
        let mut headers = HeaderMap::new();
        if let Some(key) = endpoint.api_key.as_ref().filter(|k| !k.is_empty())
            && let Ok(mut value) = HeaderValue::from_str(key.expose())
        {
            value.set_sensitive(true);
            headers.insert(HeaderName::from_static("x-goog-api-key"), value);
        }
        let (url, stream_url) = urls(&endpoint.base_url, &endpoint.model);
        Ok(GeminiProvider {
            label: endpoint.label(),
            url,
            stream_url,
            model: endpoint.model.clone(),
            transport: Transport::new(
                headers,
                endpoint.timeout,
                endpoint.retry,
                endpoint.api_key.clone(),
            )?,
        })
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

#[async_trait::async_trait]
impl Provider for GeminiProvider {
    fn label(&self) -> String {
        self.label.clone()
    }

    async fn complete(&self, request: &ChatRequest) -> Result<Completion, LlmError> {
        let started = Instant::now();
        let answer = self
            .transport
            .post_json(&self.url, &request_body(request))
            .await?;
        let mut state = StreamState::default();
        state.on_response(&answer, &|_| {}, self.transport.key())?;
        let draft = state.finish(&answer, self.transport.key())?;
        Ok(draft.finish(request, &self.model, started))
    }

    async fn stream(
        &self,
        request: &ChatRequest,
        on_delta: &(dyn Fn(StreamDelta) + Send + Sync),
    ) -> Result<Completion, LlmError> {
        let started = Instant::now();
        let key = self.transport.key();
        let draft = match self
            .transport
            .post_stream(&self.stream_url, &request_body(request))
            .await?
        {
            StreamStart::Whole(answer) => {
                let mut state = StreamState::default();
                state.on_response(&answer, &|_| {}, key)?;
                let draft = state.finish(&answer, key)?;
                replay(&draft, on_delta);
                draft
            }
            StreamStart::Events(resp) => {
                let mut state = StreamState::default();
                read_events(resp, self.transport.timeout(), key, |_, data| {
                    state.on_data(data, on_delta, key)
                })
                .await?;
                state.finish(&Value::Null, key)?
            }
        };
        Ok(draft.finish(request, &self.model, started))
    }
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

impl StreamState {
    pub(crate) fn on_data(
        &mut self,
        data: &str,
        on_delta: &(dyn Fn(StreamDelta) + Send + Sync),
        key: Option<&Secret>,
    ) -> Result<Flow, LlmError> {
        if data.trim().is_empty() {
            return Ok(Flow::Continue);
        }
        let chunk: Value = serde_json::from_str(data).map_err(|_| {
            LlmError::new(
                LlmErrorKind::BadResponse,
                crate::redact::redact(&format!("a stream chunk is not JSON: {data}"), key),
            )
        })?;
        self.on_response(&chunk, on_delta, key)?;
        Ok(Flow::Continue)
    }

    /// One `GenerateContentResponse`: the whole answer, or the next piece of a stream.
    pub(crate) fn on_response(
        &mut self,
        response: &Value,
        on_delta: &(dyn Fn(StreamDelta) + Send + Sync),
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
