//! Request handling: record, pick the wire format from the path, check the provider's auth
//! headers, take the next scripted reply, answer it in that format.

use std::time::Duration;

use crate::disguise::disguises;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, Method, Uri};
use axum::response::Response;
use serde_json::{Value, json};

use super::reply::{Answer, Content, Reply};
use super::{RecordedRequest, Shared, anthropic, gemini, openai, response, with};

/// Which provider's format a path asks for.
enum Wire {
    OpenAi,
    Anthropic,
    Gemini { model: String, stream: bool },
}

fn wire_of(path: &str) -> Option<Wire> {
    if path.ends_with("/chat/completions") {
        return Some(Wire::OpenAi);
    }
    if path.ends_with("/messages") {
        return Some(Wire::Anthropic);
    }
    // `…/models/{model}:{method}`; some clients percent-encode the colon.
    let (_, tail) = path.rsplit_once("/models/")?;
    let tail = tail.replace("%3A", ":").replace("%3a", ":");
    let (model, method) = tail.split_once(':')?;
    let stream = match method {
        "generateContent" => false,
        "streamGenerateContent" => true,
        _ => return None,
    };
    Some(Wire::Gemini {
        model: model.to_string(),
        stream,
    })
}

fn query_param<'a>(query: &'a str, name: &str) -> Option<&'a str> {
    query
        .split('&')
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

fn header<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

fn parse_body(raw: &[u8]) -> Value {
    if raw.is_empty() {
        return Value::Null;
    }
    serde_json::from_slice(raw)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(raw).into_owned()))
}

fn no_route(method: &Method, path: &str) -> Response {
    response::json(
        404,
        &json!({"error": {
            "message": format!("mock LLM: no route for {method} {path}; it serves POST …/chat/completions, …/messages and …/models/{{model}}:generateContent"),
            "type": "invalid_request_error",
        }}),
        &[],
    )
}

fn exhausted() -> Response {
    response::json(
        500,
        &json!({"error": {
            "message": "mock script exhausted: push a Reply (or set_default) for every request the test makes",
            "type": "server_error",
            "code": "mock_script_exhausted",
        }}),
        &[],
    )
}

/// An OpenAI-shaped error quoting every credential the request carried, in every disguise.
fn echo_key(status: u16, headers: &HeaderMap, query: &str) -> Response {
    let quoted: Vec<String> = ["authorization", "x-api-key", "x-goog-api-key"]
        .into_iter()
        .filter_map(|name| header(headers, name).map(|v| format!("{name}: {}", disguises(v))))
        .chain(query_param(query, "key").map(|k| format!("key={}", disguises(k))))
        .collect();
    response::json(
        status,
        &json!({"error": {
            "message": format!("Incorrect API key provided. Request credentials: {}", quoted.join("; ")),
            "type": "invalid_request_error",
            "code": "invalid_api_key",
        }}),
        &[],
    )
}

pub(crate) async fn handle(
    State(shared): State<Shared>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    raw: Bytes,
) -> Response {
    let path = uri.path().to_string();
    let query = uri.query().unwrap_or("").to_string();
    let body = parse_body(&raw);
    let recorded = RecordedRequest {
        path: path.clone(),
        headers: headers
            .iter()
            .map(|(k, v)| {
                (
                    k.as_str().to_string(),
                    String::from_utf8_lossy(v.as_bytes()).into_owned(),
                )
            })
            .collect(),
        body: body.clone(),
        query: query.clone(),
    };
    with(&shared, |s| s.requests.push(recorded));

    let wire = match wire_of(&path) {
        Some(w) if method == Method::POST => w,
        _ => return no_route(&method, &path),
    };
    let rejected = match &wire {
        Wire::OpenAi => None,
        Wire::Anthropic => anthropic::check_headers(
            header(&headers, "x-api-key"),
            header(&headers, "anthropic-version"),
        ),
        Wire::Gemini { .. } => {
            let key = header(&headers, "x-goog-api-key").or(query_param(&query, "key"));
            key.is_none_or(str::is_empty).then(gemini::missing_key)
        }
    };
    if let Some(r) = rejected {
        return r;
    }

    let next = with(&shared, |s| {
        let reply = s.queue.pop_front().or_else(|| s.default.clone());
        s.next_id += 1;
        reply.map(|r| (r, s.next_id))
    });
    let Some((mut reply, id)) = next else {
        return exhausted();
    };
    let (content, scripted) = loop {
        match reply {
            Reply::Delay { ms, then } => {
                tokio::time::sleep(Duration::from_millis(ms)).await;
                reply = *then;
            }
            Reply::Held { gate, then } => {
                gate.passed().await;
                reply = *then;
            }
            Reply::Error { status, body } => return response::raw_json(status, body),
            Reply::EchoKey { status } => return echo_key(status, &headers, &query),
            Reply::Html { status } => return response::html(status),
            Reply::CloseConnection => return response::close_connection(),
            Reply::Text(text) => break (Content::Text(text), None),
            Reply::ToolCalls(calls) => break (Content::ToolCalls(calls), None),
            Reply::TextWithUsage {
                text,
                prompt_tokens,
                completion_tokens,
            } => {
                break (
                    Content::Text(text),
                    Some((prompt_tokens, completion_tokens)),
                );
            }
        }
    };
    let chars = String::from_utf8_lossy(&raw).chars().count();
    let answer = Answer::new(content, scripted, chars, id);
    match wire {
        Wire::OpenAi => openai::respond(&answer, &body),
        Wire::Anthropic => anthropic::respond(&answer, &body),
        Wire::Gemini { model, stream } => {
            let sse_wanted = query_param(&query, "alt") == Some("sse");
            gemini::respond(&answer, &model, stream, sse_wanted)
        }
    }
}
