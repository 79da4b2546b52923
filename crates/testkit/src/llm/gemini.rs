//! Gemini's native API (`POST …/models/{model}:generateContent` and `:streamGenerateContent`):
//! its key check, the candidates object, and the stream of such objects.

use axum::response::Response;
use serde_json::{Value, json};

use super::reply::{Answer, Content, fragments};
use super::response;

/// What Google answers when neither `x-goog-api-key` nor `?key=` is given.
pub(crate) fn missing_key() -> Response {
    response::json(
        403,
        &json!({"error": {
            "code": 403,
            "message": "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
            "status": "PERMISSION_DENIED",
        }}),
        &[],
    )
}

/// `stream` is the `:streamGenerateContent` method; `sse` is its `alt=sse` query, without which
/// Google sends the same objects as one JSON array.
pub(crate) fn respond(answer: &Answer, model: &str, stream: bool, sse_wanted: bool) -> Response {
    if !stream {
        return response::json(200, &whole(answer, model), &[]);
    }
    let chunks = chunks(answer, model);
    if sse_wanted {
        let events = chunks
            .iter()
            .map(|c| response::event(None, &c.to_string(), "\r\n"))
            .collect();
        response::stream(events, &[])
    } else {
        response::json(200, &Value::Array(chunks), &[])
    }
}

fn response_id(answer: &Answer) -> String {
    format!("mock{:08}", answer.id)
}

fn usage(answer: &Answer) -> Value {
    json!({
        "promptTokenCount": answer.prompt_tokens,
        "candidatesTokenCount": answer.completion_tokens,
        "totalTokenCount": answer.total_tokens(),
    })
}

fn parts(answer: &Answer) -> Vec<Value> {
    match &answer.content {
        Content::Text(text) => vec![json!({"text": text})],
        Content::ToolCalls(calls) => calls
            .iter()
            .map(|(name, args)| json!({"functionCall": {"name": name, "args": args}}))
            .collect(),
    }
}

fn object(answer: &Answer, model: &str, parts: Vec<Value>, last: bool) -> Value {
    let mut candidate = json!({"content": {"role": "model", "parts": parts}, "index": 0});
    let usage = if last {
        // Gemini reports STOP for function calls too.
        candidate["finishReason"] = json!("STOP");
        usage(answer)
    } else {
        json!({"promptTokenCount": answer.prompt_tokens, "totalTokenCount": answer.prompt_tokens})
    };
    json!({
        "candidates": [candidate],
        "usageMetadata": usage,
        "modelVersion": model,
        "responseId": response_id(answer),
    })
}

fn whole(answer: &Answer, model: &str) -> Value {
    object(answer, model, parts(answer), true)
}

/// Text split across several objects, the finish reason and full usage on the last; function
/// calls arrive whole in one object, as Gemini sends them.
fn chunks(answer: &Answer, model: &str) -> Vec<Value> {
    let pieces: Vec<Vec<Value>> = match &answer.content {
        Content::Text(text) => fragments(text)
            .into_iter()
            .map(|t| vec![json!({"text": t})])
            .collect(),
        Content::ToolCalls(_) => vec![parts(answer)],
    };
    let n = pieces.len();
    pieces
        .into_iter()
        .enumerate()
        .map(|(i, p)| object(answer, model, p, i + 1 == n))
        .collect()
}
