//! From what came back (a status and a body, or a transport failure) to an [`LlmErrorKind`],
//! exactly as REFERENCE §3 ("Model APIs") lists them.
//!
//! The body's own words win over the status where they are more precise: OpenAI answers an
//! exhausted quota with 429 like a rate limit, but waiting will not help, so
//! `insufficient_quota` is its own kind; DeepSeek says "Insufficient Balance" with 402. A body
//! that is not JSON at all means the base URL reaches a web page or a gateway, not the API —
//! unless the status already says "rate limited" or "provider down", which gateways' own pages
//! (Cloudflare's 502, 503, 429) do truthfully.
//!
//! Every message is passed through [`crate::redact::redact`] on its way into the error.

use nofxi_domain::Secret;
use serde_json::Value;

use crate::error::{LlmError, LlmErrorKind};
use crate::redact::redact;

/// How much of a body that is not JSON goes into the message.
const BODY_EXCERPT_CHARS: usize = 300;

/// An HTTP answer that was not a success (or a success whose body says it failed).
pub(crate) fn from_response(
    status: u16,
    body: &str,
    retry_after_secs: Option<u64>,
    key: Option<&Secret>,
) -> LlmError {
    LlmError {
        kind: kind_of(Some(status), body),
        status: Some(status),
        message: redact(&message_of(Some(status), body), key),
        retry_after_secs,
    }
}

/// An error reported inside a stream (Anthropic's `error` event, an OpenAI chunk with
/// `error`): there is no status of its own, so the words decide.
pub(crate) fn from_stream_error(payload: &Value, key: Option<&Secret>) -> LlmError {
    let body = payload.to_string();
    let status = payload
        .get("error")
        .and_then(|e| e.get("code"))
        .and_then(Value::as_u64)
        .and_then(|c| u16::try_from(c).ok())
        .filter(|c| (400..600).contains(c));
    LlmError {
        kind: kind_of(status, &body),
        status,
        message: redact(&message_of(status, &body), key),
        retry_after_secs: None,
    }
}

/// A success status whose body is not the shape the wire format promises.
pub(crate) fn bad_response(status: u16, body: &str, what: &str, key: Option<&Secret>) -> LlmError {
    let kind = if serde_json::from_str::<Value>(body.trim()).is_ok() {
        LlmErrorKind::BadResponse
    } else {
        LlmErrorKind::NotJson
    };
    let message = match kind {
        LlmErrorKind::NotJson => message_of(Some(status), body),
        _ => format!("{what}: {}", excerpt(body)),
    };
    LlmError {
        kind,
        status: Some(status),
        message: redact(&message, key),
        retry_after_secs: None,
    }
}

/// A request that got no HTTP answer, classed by the one rule every client shares
/// (`nofxi_domain::transport`): reqwest reports DNS, TLS and refused connections all as "error
/// sending request", and a URL it cannot build as a "builder error" although nothing was sent.
pub(crate) fn from_transport(err: &reqwest::Error, key: Option<&Secret>) -> LlmError {
    use nofxi_domain::transport::{TransportCause, source_chain};
    let (chain, kinds) = source_chain(err);
    let kind = match TransportCause::classify(&chain, &kinds, err.is_timeout(), err.is_builder()) {
        TransportCause::InvalidUrl => LlmErrorKind::InvalidUrl,
        TransportCause::Timeout => LlmErrorKind::Timeout,
        TransportCause::Dns => LlmErrorKind::Dns,
        TransportCause::ConnectionRefused => LlmErrorKind::ConnectionRefused,
        TransportCause::Tls => LlmErrorKind::Tls,
        TransportCause::Other => LlmErrorKind::Network,
    };
    LlmError {
        kind,
        status: err.status().map(|s| s.as_u16()),
        message: redact(&chain, key),
        retry_after_secs: None,
    }
}

/// The kind for a status (when there is one) and a body.
pub(crate) fn kind_of(status: Option<u16>, body: &str) -> LlmErrorKind {
    use LlmErrorKind as K;
    let json = serde_json::from_str::<Value>(body.trim()).ok();
    let retryable_status = matches!(status, Some(s) if s == 429 || s >= 500);
    let Some(json) = json else {
        return match status {
            Some(429) => K::RateLimited,
            Some(s) if s >= 500 => K::Overloaded,
            _ if looks_html(body) => K::NotJson,
            Some(401) => K::BadKey,
            Some(402) => K::InsufficientBalance,
            _ => K::NotJson,
        };
    };
    let words = signal_text(&json);
    let has = |list: &[&str]| list.iter().any(|w| words.contains(w));
    if has(&["invalid character '<'", "<!doctype", "<html"]) {
        return K::NotJson;
    }
    if has(&["insufficient_quota"]) {
        return K::QuotaExhausted;
    }
    if status == Some(402) || has(&["insufficient balance", "insufficient_balance"]) {
        return K::InsufficientBalance;
    }
    if status == Some(401)
        || has(&[
            "invalid_api_key",
            "authentication_error",
            "api_key_invalid",
            "api key not valid",
            "incorrect api key",
            "invalid api key",
            "invalid x-api-key",
        ])
    {
        return K::BadKey;
    }
    if !retryable_status
        && (status == Some(413)
            || has(&[
                "context_length_exceeded",
                "prompt is too long",
                "exceeds the maximum",
                "maximum context length",
                "context window",
                "exceeded model token limit",
                "range of input length",
            ]))
    {
        return K::ContextTooLong;
    }
    if status == Some(404) || has(&["model_not_found", "model not exist", "model_not_exist"]) {
        return K::ModelNotFound;
    }
    if status == Some(429) || has(&["rate_limit", "resource_exhausted", "rate limit"]) {
        return K::RateLimited;
    }
    if matches!(status, Some(s) if s >= 500) || has(&["overloaded", "\"unavailable\""]) {
        return K::Overloaded;
    }
    if status.is_none() && has(&["api_error", "internal"]) {
        return K::Overloaded;
    }
    K::BadRequest
}

/// The lower-cased strings of the error object (type, code, status, message, reasons) between
/// quotes, so `"unavailable"` matches Gemini's status and not a word inside a message.
fn signal_text(json: &Value) -> String {
    let scope = json.get("error").unwrap_or(json);
    let mut out = String::new();
    collect_strings(scope, &mut out, 0);
    out.to_lowercase()
}

fn collect_strings(v: &Value, out: &mut String, depth: usize) {
    if depth > 6 {
        return;
    }
    match v {
        Value::String(s) => {
            out.push('"');
            out.push_str(s);
            out.push_str("\" ");
        }
        Value::Array(items) => items
            .iter()
            .for_each(|i| collect_strings(i, out, depth + 1)),
        Value::Object(map) => map
            .values()
            .for_each(|i| collect_strings(i, out, depth + 1)),
        _ => {}
    }
}

/// The provider's own words: `error.message` (OpenAI, Anthropic, Gemini), `message` or
/// `detail` (gateways, Ollama), an `error` string; else an excerpt of the body.
fn message_of(status: Option<u16>, body: &str) -> String {
    let status_text = status.map(|s| format!("HTTP {s}")).unwrap_or_default();
    let Ok(json) = serde_json::from_str::<Value>(body.trim()) else {
        if looks_html(body) {
            let title = html_title(body)
                .map(|t| format!(" (\"{t}\")"))
                .unwrap_or_default();
            return format!("{status_text} returned an HTML page{title} where JSON was expected")
                .trim_start()
                .to_string();
        }
        let text = excerpt(body);
        return match (status_text.is_empty(), text.is_empty()) {
            (_, true) => format!("{status_text} with an empty body")
                .trim()
                .to_string(),
            (true, false) => text,
            (false, false) => format!("{status_text}: {text}"),
        };
    };
    let error = json.get("error");
    let message = error
        .and_then(|e| e.get("message"))
        .and_then(Value::as_str)
        .or_else(|| error.and_then(Value::as_str))
        .or_else(|| json.get("message").and_then(Value::as_str))
        .or_else(|| json.get("detail").and_then(Value::as_str))
        .map(str::to_string)
        .unwrap_or_else(|| excerpt(body));
    message.trim().to_string()
}

fn looks_html(body: &str) -> bool {
    let head: String = body.trim_start().chars().take(64).collect();
    let head = head.to_lowercase();
    head.starts_with("<!doctype") || head.starts_with("<html") || head.starts_with('<')
}

fn html_title(body: &str) -> Option<String> {
    let lower = body.to_lowercase();
    let start = lower.find("<title")?;
    let open_end = start + lower[start..].find('>')? + 1;
    let close = open_end + lower[open_end..].find("</title>")?;
    let title = body.get(open_end..close)?.trim();
    (!title.is_empty()).then(|| title.chars().take(120).collect())
}

fn excerpt(body: &str) -> String {
    let body = body.trim();
    let mut out: String = body.chars().take(BODY_EXCERPT_CHARS).collect();
    if body.chars().count() > BODY_EXCERPT_CHARS {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use LlmErrorKind as K;

    fn kind(status: u16, body: &str) -> LlmErrorKind {
        kind_of(Some(status), body)
    }

    #[test]
    fn bad_key_from_each_provider() {
        assert_eq!(
            kind(
                401,
                r#"{"error":{"message":"Incorrect API key provided: sk-abc***xyz.","type":"invalid_request_error","code":"invalid_api_key"}}"#
            ),
            K::BadKey
        );
        assert_eq!(
            kind(
                401,
                r#"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}"#
            ),
            K::BadKey
        );
        // Gemini says 400 INVALID_ARGUMENT with a reason.
        assert_eq!(
            kind(
                400,
                r#"{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[{"reason":"API_KEY_INVALID"}]}}"#
            ),
            K::BadKey
        );
        assert_eq!(kind(401, "Unauthorized"), K::BadKey);
        // DeepSeek, echoing the key's tail.
        let e = from_response(
            401,
            r#"{"error":{"message":"Authentication Fails, Your api key: ****a1b2 is invalid","type":"authentication_error"}}"#,
            None,
            None,
        );
        assert_eq!(e.kind, K::BadKey);
        assert_eq!(
            e.message,
            "Authentication Fails, Your api key: [redacted] is invalid"
        );
    }

    #[test]
    fn balance_quota_and_rate_limit_are_told_apart() {
        assert_eq!(
            kind(
                402,
                r#"{"error":{"message":"Insufficient Balance","type":"unknown_error"}}"#
            ),
            K::InsufficientBalance
        );
        assert_eq!(
            kind(
                400,
                r#"{"error":{"message":"Insufficient Balance","type":"unknown_error"}}"#
            ),
            K::InsufficientBalance
        );
        assert_eq!(
            kind(
                429,
                r#"{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}}"#
            ),
            K::QuotaExhausted
        );
        assert_eq!(
            kind(
                429,
                r#"{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}"#
            ),
            K::RateLimited
        );
        assert_eq!(
            kind(
                429,
                r#"{"error":{"code":429,"message":"Resource has been exhausted","status":"RESOURCE_EXHAUSTED"}}"#
            ),
            K::RateLimited
        );
    }

    #[test]
    fn wrong_model() {
        assert_eq!(
            kind(
                404,
                r#"{"error":{"message":"The model `gpt-5x` does not exist","type":"invalid_request_error","code":"model_not_found"}}"#
            ),
            K::ModelNotFound
        );
        assert_eq!(
            kind(
                400,
                r#"{"error":{"message":"Model Not Exist","type":"invalid_request_error"}}"#
            ),
            K::ModelNotFound
        );
        assert_eq!(
            kind(
                404,
                r#"{"error":{"code":404,"message":"models/gemini-9 is not found for API version v1beta","status":"NOT_FOUND"}}"#
            ),
            K::ModelNotFound
        );
    }

    #[test]
    fn context_too_long_in_three_dialects() {
        assert_eq!(
            kind(
                400,
                r#"{"error":{"message":"This model's maximum context length is 128000 tokens.","type":"invalid_request_error","code":"context_length_exceeded"}}"#
            ),
            K::ContextTooLong
        );
        assert_eq!(
            kind(
                400,
                r#"{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}"#
            ),
            K::ContextTooLong
        );
        assert_eq!(
            kind(
                400,
                r#"{"error":{"code":400,"message":"The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).","status":"INVALID_ARGUMENT"}}"#
            ),
            K::ContextTooLong
        );
        // Kimi and Qwen word it their own way.
        assert_eq!(
            kind(
                400,
                r#"{"error":{"message":"Invalid request: Your request exceeded model token limit: 8192","type":"invalid_request_error"}}"#
            ),
            K::ContextTooLong
        );
        assert_eq!(
            kind(
                400,
                r#"{"error":{"code":"InvalidParameter","message":"Range of input length should be [1, 30720]"}}"#
            ),
            K::ContextTooLong
        );
    }

    #[test]
    fn provider_side_failures() {
        assert_eq!(
            kind(
                529,
                r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#
            ),
            K::Overloaded
        );
        assert_eq!(kind(503, r#"{"error":{"message":"busy"}}"#), K::Overloaded);
        assert_eq!(
            kind(502, "<html><title>502 Bad Gateway</title></html>"),
            K::Overloaded
        );
        assert_eq!(kind(500, ""), K::Overloaded);
    }

    #[test]
    fn web_pages_and_gateways_are_not_json() {
        assert_eq!(kind(200, "<!DOCTYPE html><html></html>"), K::NotJson);
        assert_eq!(kind(404, "<html><body>Not Found</body></html>"), K::NotJson);
        assert_eq!(kind(401, "<html>login</html>"), K::NotJson);
        assert_eq!(kind(404, "404 page not found"), K::NotJson);
        assert_eq!(
            kind(
                500,
                r#"{"error":{"message":"invalid character '<' looking for beginning of value"}}"#
            ),
            K::NotJson
        );
        assert_eq!(
            kind(
                400,
                r#"{"error":{"message":"invalid character '<' looking for beginning of value"}}"#
            ),
            K::NotJson
        );
    }

    #[test]
    fn other_refusals_are_bad_requests() {
        assert_eq!(
            kind(
                400,
                r#"{"error":{"message":"temperature must be <= 2","type":"invalid_request_error"}}"#
            ),
            K::BadRequest
        );
    }

    #[test]
    fn stream_errors_are_classified_by_their_words() {
        let e = from_stream_error(
            &serde_json::json!({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}),
            None,
        );
        assert_eq!(e.kind, K::Overloaded);
        assert_eq!(e.message, "Overloaded");
    }

    #[test]
    fn messages_keep_the_providers_words_without_keys() {
        let key = Secret::new("sk-abcdefghijklmnopqrstuvwxyz123456");
        let e = from_response(
            401,
            r#"{"error":{"message":"Incorrect API key provided: sk-abcdefghijklmnopqrstuvwxyz123456 (sk-abc***456).","code":"invalid_api_key"}}"#,
            None,
            Some(&key),
        );
        assert_eq!(e.kind, K::BadKey);
        assert_eq!(
            e.message,
            "Incorrect API key provided: [redacted] ([redacted])."
        );
        let html = from_response(
            404,
            "<html><head><title>Welcome</title></head></html>",
            None,
            None,
        );
        assert_eq!(
            html.message,
            "HTTP 404 returned an HTML page (\"Welcome\") where JSON was expected"
        );
    }
}
