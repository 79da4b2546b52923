//! OpenAI chat completions (`POST …/chat/completions`), as OpenAI and the compatible providers
//! (DeepSeek, Qwen's compatible mode, Ollama…) answer it.

use std::time::{SystemTime, UNIX_EPOCH};

use axum::response::Response;
use serde_json::{Value, json};

use super::reply::{Answer, Content, fragments};
use super::response;

fn created() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

fn call_id(answer: &Answer, i: usize) -> String {
    format!("call_mock{:04}x{i}", answer.id)
}

fn usage(answer: &Answer) -> Value {
    json!({
        "prompt_tokens": answer.prompt_tokens,
        "completion_tokens": answer.completion_tokens,
        "total_tokens": answer.total_tokens(),
    })
}

fn finish_reason(answer: &Answer) -> &'static str {
    match answer.content {
        Content::Text(_) => "stop",
        Content::ToolCalls(_) => "tool_calls",
    }
}

/// Answer a request; `body` is the request as sent (model, stream, stream_options).
pub(crate) fn respond(answer: &Answer, body: &Value) -> Response {
    let model = body
        .get("model")
        .and_then(Value::as_str)
        .unwrap_or("mock-model");
    let id = format!("chatcmpl-mock{:06}", answer.id);
    let headers = [("x-request-id", format!("req_mock{:06}", answer.id))];
    if body.get("stream").and_then(Value::as_bool) == Some(true) {
        let include_usage = body
            .pointer("/stream_options/include_usage")
            .and_then(Value::as_bool)
            == Some(true);
        response::stream(stream_events(answer, &id, model, include_usage), &headers)
    } else {
        response::json(200, &completion(answer, &id, model), &headers)
    }
}

fn completion(answer: &Answer, id: &str, model: &str) -> Value {
    let message = match &answer.content {
        Content::Text(text) => json!({"role": "assistant", "content": text, "refusal": null}),
        Content::ToolCalls(calls) => {
            let calls: Vec<Value> = calls
                .iter()
                .enumerate()
                .map(|(i, (name, args))| {
                    json!({
                        "id": call_id(answer, i),
                        "type": "function",
                        "function": {"name": name, "arguments": args.to_string()},
                    })
                })
                .collect();
            json!({"role": "assistant", "content": null, "tool_calls": calls, "refusal": null})
        }
    };
    json!({
        "id": id,
        "object": "chat.completion",
        "created": created(),
        "model": model,
        "choices": [{
            "index": 0,
            "message": message,
            "logprobs": null,
            "finish_reason": finish_reason(answer),
        }],
        "usage": usage(answer),
        "system_fingerprint": "fp_mock",
    })
}

/// The chunk sequence OpenAI sends: a first delta carrying the role, content (or tool-call
/// argument) fragments, a delta-less chunk with the finish reason, the usage chunk when asked
/// for, then `[DONE]`.
fn stream_events(answer: &Answer, id: &str, model: &str, include_usage: bool) -> Vec<String> {
    let created = created();
    let chunk = |choices: Value, usage: Option<Value>| -> String {
        let mut c = json!({
            "id": id,
            "object": "chat.completion.chunk",
            "created": created,
            "model": model,
            "system_fingerprint": "fp_mock",
            "choices": choices,
        });
        // With include_usage, OpenAI puts `"usage": null` on every chunk but the last.
        if include_usage {
            c["usage"] = usage.unwrap_or(Value::Null);
        }
        response::event(None, &c.to_string(), "\n")
    };
    let delta = |delta: Value, finish: Option<&str>| -> Value {
        json!([{"index": 0, "delta": delta, "logprobs": null, "finish_reason": finish}])
    };

    let mut events = Vec::new();
    match &answer.content {
        Content::Text(text) => {
            events.push(chunk(
                delta(
                    json!({"role": "assistant", "content": "", "refusal": null}),
                    None,
                ),
                None,
            ));
            for part in fragments(text) {
                if !part.is_empty() {
                    events.push(chunk(delta(json!({"content": part}), None), None));
                }
            }
        }
        Content::ToolCalls(calls) => {
            for (i, (name, args)) in calls.iter().enumerate() {
                let head = json!({
                    "index": i,
                    "id": call_id(answer, i),
                    "type": "function",
                    "function": {"name": name, "arguments": ""},
                });
                let d = if i == 0 {
                    json!({"role": "assistant", "content": null, "tool_calls": [head], "refusal": null})
                } else {
                    json!({"tool_calls": [head]})
                };
                events.push(chunk(delta(d, None), None));
                for part in fragments(&args.to_string()) {
                    let d = json!({"tool_calls": [{"index": i, "function": {"arguments": part}}]});
                    events.push(chunk(delta(d, None), None));
                }
            }
        }
    }
    events.push(chunk(delta(json!({}), Some(finish_reason(answer))), None));
    if include_usage {
        events.push(chunk(json!([]), Some(usage(answer))));
    }
    events.push(response::event(None, "[DONE]", "\n"));
    events
}
