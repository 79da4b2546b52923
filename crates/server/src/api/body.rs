//! JSON bodies, one extractor for every route that takes one. A body is JSON by its media
//! type (`application/json`, else 415: a form or `text/plain` post is what a cross-site page
//! can send without asking), one whole JSON value with nothing after it (else 400: a body
//! that is only partly read must not be acted on), and within [`MAX_BODY_BYTES`] (else 413).
//! A value that is not this route's is told by [`super::body_error`], and an empty body reads
//! as `{}` so a confirmation's first call needs none.

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{FromRequest, Request};
use axum::http::{HeaderMap, StatusCode, header};
use serde::Deserialize;
use serde::de::{DeserializeOwned, IgnoredAny};

use super::body_error::parse;
use crate::error::{ApiError, Worded};

/// The largest body any route takes (the router's limit, see [`crate::serve::app`]).
pub const MAX_BODY_BYTES: usize = 2 * 1024 * 1024;

pub struct Body<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Body<T>, ApiError> {
        let declared = media_type(request.headers());
        if let Some(given) = declared.as_deref().filter(|m| !is_json(m)) {
            return Err(not_json(Some(given)));
        }
        let bytes = Bytes::from_request(request, state)
            .await
            .map_err(unreadable)?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return parse(b"{}").map(Body);
        }
        if declared.is_none() {
            return Err(not_json(None));
        }
        whole_value(&bytes)?;
        parse(&bytes).map(Body)
    }
}

/// The `Content-Type` without its parameters, lower-cased: `application/json`.
fn media_type(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(header::CONTENT_TYPE)?;
    let text = String::from_utf8_lossy(value.as_bytes());
    let essence = text.split(';').next().unwrap_or_default().trim();
    Some(essence.to_ascii_lowercase())
}

/// `application/json`, or a JSON-based type such as `application/merge-patch+json`.
fn is_json(media_type: &str) -> bool {
    media_type == "application/json"
        || (media_type.starts_with("application/") && media_type.ends_with("+json"))
}

fn not_json(given: Option<&str>) -> ApiError {
    let (en, zh) = match given {
        // Bounded: the header is the client's text.
        Some(given) => {
            let given: String = given.chars().take(64).collect();
            (
                format!(" (this one came as `{given}`)"),
                format!("（这次是 `{given}`）"),
            )
        }
        None => (
            " (this one came without a Content-Type)".to_string(),
            "（这次没有 Content-Type）".to_string(),
        ),
    };
    ApiError::new(
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "unsupported_media_type",
        Worded::new(
            format!(
                "This route takes a JSON body: send it with `Content-Type: application/json`{en}."
            ),
            format!("此接口只接受 JSON 请求体：请带上 `Content-Type: application/json` 发送{zh}。"),
        ),
    )
}

/// A body the server could not read: over the limit (413), or cut off.
fn unreadable(rejection: BytesRejection) -> ApiError {
    if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
        let mib = (MAX_BODY_BYTES / (1024 * 1024)).to_string();
        return ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "payload_too_large",
            Worded::new(
                format!(
                    "The request body is over this server's {mib} MiB limit: send a smaller one."
                ),
                format!("请求体超过了本服务器 {mib} MiB 的上限：请发送更小的请求体。"),
            ),
        );
    }
    ApiError::bad_request("http-bad-json", &[("detail", &rejection.body_text())])
}

/// One JSON value and nothing after it: `{"name":"x"} garbage` is refused whole, not acted
/// on as its first value.
fn whole_value(text: &[u8]) -> Result<(), ApiError> {
    let mut de = serde_json::Deserializer::from_slice(text);
    IgnoredAny::deserialize(&mut de).map_err(|e| syntax_error(&e))?;
    de.end().map_err(|e| {
        let (line, column) = (e.line().to_string(), e.column().to_string());
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "bad_request",
            Worded::new(
                format!(
                    "The request body goes on after the JSON value (line {line}, column {column}): send one JSON object and nothing after it."
                ),
                format!(
                    "请求体在 JSON 值之后还有内容（第 {line} 行第 {column} 列）：只发送一个 JSON 对象，其后不要有别的内容。"
                ),
            ),
        )
    })
}

/// Not JSON at all; serde_json's syntax errors say where, never what was there.
fn syntax_error(err: &serde_json::Error) -> ApiError {
    ApiError::bad_request("http-bad-json", &[("detail", &err.to_string())])
}
