//! Building HTTP responses: JSON, server-sent events, error pages and a dropped connection.

use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::StatusCode;
use axum::response::Response;
use serde_json::Value;

fn status(code: u16) -> StatusCode {
    StatusCode::from_u16(code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
}

fn build(code: u16, content_type: &str, extra: &[(&str, String)], body: Body) -> Response {
    let mut b = Response::builder()
        .status(status(code))
        .header("content-type", content_type);
    for (k, v) in extra {
        b = b.header(*k, v);
    }
    b.body(body)
        .unwrap_or_else(|_| Response::new(Body::empty()))
}

pub(crate) fn json(code: u16, body: &Value, extra: &[(&str, String)]) -> Response {
    build(
        code,
        "application/json",
        extra,
        Body::from(body.to_string()),
    )
}

/// A body exactly as given, labelled JSON (scripted provider errors).
pub(crate) fn raw_json(code: u16, body: String) -> Response {
    build(code, "application/json", &[], Body::from(body))
}

/// The kind of page nginx or Cloudflare serves when the provider behind it is down.
pub(crate) fn html(code: u16) -> Response {
    let reason = status(code).canonical_reason().unwrap_or("Error");
    let page = format!(
        "<html>\r\n<head><title>{code} {reason}</title></head>\r\n<body>\r\n\
         <center><h1>{code} {reason}</h1></center>\r\n<hr><center>cloudflare</center>\r\n\
         </body>\r\n</html>\r\n"
    );
    build(
        code,
        "text/html",
        &[("server", "cloudflare".to_string())],
        Body::from(page),
    )
}

/// One server-sent event: an optional `event:` line, then `data:`, then a blank line.
/// `eol` is the line ending the provider uses (Gemini sends CRLF).
pub(crate) fn event(name: Option<&str>, data: &str, eol: &str) -> String {
    match name {
        Some(n) => format!("event: {n}{eol}data: {data}{eol}{eol}"),
        None => format!("data: {data}{eol}{eol}"),
    }
}

/// A `text/event-stream` response sending `events` one by one, a millisecond apart, so a
/// client reads them in separate pieces as it would from a real provider.
pub(crate) fn stream(events: Vec<String>, extra: &[(&str, String)]) -> Response {
    let s = futures::stream::unfold(events.into_iter(), |mut it| async move {
        let next = it.next()?;
        tokio::time::sleep(Duration::from_millis(1)).await;
        Some((Ok::<_, std::io::Error>(Bytes::from(next)), it))
    });
    let mut extra = extra.to_vec();
    extra.push(("cache-control", "no-cache".to_string()));
    build(
        200,
        "text/event-stream; charset=utf-8",
        &extra,
        Body::from_stream(s),
    )
}

/// A response whose body fails before its first byte: hyper then closes the connection without
/// flushing anything, so the client sees the connection drop with no response.
pub(crate) fn close_connection() -> Response {
    let s = futures::stream::once(async {
        Err::<Bytes, _>(std::io::Error::new(
            std::io::ErrorKind::ConnectionAborted,
            "mock LLM: scripted CloseConnection",
        ))
    });
    Response::new(Body::from_stream(s))
}
