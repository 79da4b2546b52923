//! Anthropic messages (`POST …/messages`): its authentication check, the message object and the
//! named streaming events.

use axum::response::Response;
use serde_json::{Value, json};

use super::reply::{Answer, Content, fragments};
use super::response;

/// Anthropic's error object: `{"type":"error","error":{"type":…,"message":…}}`.
pub(crate) fn error(status: u16, kind: &str, message: &str) -> Response {
    response::json(
        status,
        &json!({"type": "error", "error": {"type": kind, "message": message}}),
        &[],
    )
}

/// What Anthropic answers before looking at the body when the headers are wrong.
pub(crate) fn check_headers(api_key: Option<&str>, version: Option<&str>) -> Option<Response> {
    if api_key.is_none_or(str::is_empty) {
        return Some(error(
            401,
            "authentication_error",
            "x-api-key header is required",
        ));
    }
    if version.is_none_or(str::is_empty) {
        return Some(error(
            400,
            "invalid_request_error",
            "anthropic-version: header is required",
        ));
    }
    None
}

fn tool_id(answer: &Answer, i: usize) -> String {
    format!("toolu_mock{:04}x{i}", answer.id)
}

fn stop_reason(answer: &Answer) -> &'static str {
    match answer.content {
        Content::Text(_) => "end_turn",
        Content::ToolCalls(_) => "tool_use",
    }
}

pub(crate) fn respond(answer: &Answer, body: &Value) -> Response {
    let model = body
        .get("model")
        .and_then(Value::as_str)
        .unwrap_or("mock-model");
    let id = format!("msg_mock{:06}", answer.id);
    let headers = [("request-id", format!("req_mock{:06}", answer.id))];
    if body.get("stream").and_then(Value::as_bool) == Some(true) {
        response::stream(stream_events(answer, &id, model), &headers)
    } else {
        response::json(200, &message(answer, &id, model), &headers)
    }
}

fn blocks(answer: &Answer) -> Vec<Value> {
    match &answer.content {
        Content::Text(text) => vec![json!({"type": "text", "text": text})],
        Content::ToolCalls(calls) => calls
            .iter()
            .enumerate()
            .map(|(i, (name, input))| {
                json!({"type": "tool_use", "id": tool_id(answer, i), "name": name, "input": input})
            })
            .collect(),
    }
}

fn message(answer: &Answer, id: &str, model: &str) -> Value {
    json!({
        "id": id,
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": blocks(answer),
        "stop_reason": stop_reason(answer),
        "stop_sequence": null,
        "usage": {
            "input_tokens": answer.prompt_tokens,
            "output_tokens": answer.completion_tokens,
        },
    })
}

/// message_start, then per block start / deltas / stop (a ping after the first start), then message_delta with the stop
/// reason and output tokens, then message_stop — the order Anthropic sends them in.
fn stream_events(answer: &Answer, id: &str, model: &str) -> Vec<String> {
    let ev = |name: &str, data: Value| response::event(Some(name), &data.to_string(), "\n");
    let mut events = vec![ev(
        "message_start",
        json!({"type": "message_start", "message": {
            "id": id, "type": "message", "role": "assistant", "model": model,
            "content": [], "stop_reason": null, "stop_sequence": null,
            "usage": {"input_tokens": answer.prompt_tokens, "output_tokens": 1},
        }}),
    )];
    for (index, block) in blocks(answer).into_iter().enumerate() {
        let (start, parts, delta_type, field) = match block.get("type").and_then(Value::as_str) {
            Some("tool_use") => {
                let input = block.get("input").cloned().unwrap_or_default().to_string();
                let mut start = block.clone();
                start["input"] = json!({});
                // Anthropic opens every tool input with an empty fragment.
                let mut parts = vec![String::new()];
                parts.extend(fragments(&input));
                (start, parts, "input_json_delta", "partial_json")
            }
            _ => {
                let text = block.get("text").and_then(Value::as_str).unwrap_or("");
                (
                    json!({"type": "text", "text": ""}),
                    fragments(text),
                    "text_delta",
                    "text",
                )
            }
        };
        events.push(ev(
            "content_block_start",
            json!({"type": "content_block_start", "index": index, "content_block": start}),
        ));
        if index == 0 {
            events.push(ev("ping", json!({"type": "ping"})));
        }
        for part in parts {
            events.push(ev(
                "content_block_delta",
                json!({"type": "content_block_delta", "index": index,
                       "delta": {"type": delta_type, field: part}}),
            ));
        }
        events.push(ev(
            "content_block_stop",
            json!({"type": "content_block_stop", "index": index}),
        ));
    }
    events.push(ev(
        "message_delta",
        json!({"type": "message_delta",
               "delta": {"stop_reason": stop_reason(answer), "stop_sequence": null},
               "usage": {"output_tokens": answer.completion_tokens}}),
    ));
    events.push(ev("message_stop", json!({"type": "message_stop"})));
    events
}
