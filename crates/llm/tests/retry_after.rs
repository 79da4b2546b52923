#![allow(clippy::unwrap_used, clippy::expect_used)]
//! `Retry-After` from the provider decides the wait; one longer than the policy's longest wait
//! ends the retries at once, and the error carries it so the caller can schedule the next try.
//! (The mock LLM sends no `Retry-After`, so this uses a bare socket that does.)

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use common::{KEY, request};
use nofxi_domain::{Secret, WireFormat};
use nofxi_llm::{Endpoint, LlmErrorKind, RetryPolicy, connect};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const OK: &str = r#"{"model":"m","choices":[{"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1}}"#;
const LIMITED: &str =
    r#"{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}"#;

/// Answers the first `limited` requests with 429 and `Retry-After: {secs}`, then 200.
async fn server(limited: usize, secs: &'static str) -> (String, Arc<AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let count = Arc::new(AtomicUsize::new(0));
    let seen = count.clone();
    tokio::spawn(async move {
        while let Ok((mut sock, _)) = listener.accept().await {
            let n = seen.fetch_add(1, Ordering::SeqCst);
            tokio::spawn(async move {
                let mut buf = vec![0u8; 64 * 1024];
                let _ = sock.read(&mut buf).await;
                let (status, extra, body) = if n < limited {
                    (
                        "429 Too Many Requests",
                        format!("retry-after: {secs}\r\n"),
                        LIMITED,
                    )
                } else {
                    ("200 OK", String::new(), OK)
                };
                let resp = format!(
                    "HTTP/1.1 {status}\r\ncontent-type: application/json\r\n{extra}content-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = sock.write_all(resp.as_bytes()).await;
            });
        }
    });
    (base, count)
}

fn endpoint(base: &str) -> Endpoint {
    Endpoint::new("test", WireFormat::OpenAi, base, "m")
        .with_api_key(Secret::new(KEY))
        .with_timeout(Duration::from_secs(5))
        .with_retry(RetryPolicy {
            max_attempts: 3,
            base_delay: Duration::from_millis(10),
            max_delay: Duration::from_secs(2),
        })
}

#[tokio::test]
async fn a_short_retry_after_is_waited_for() {
    let (base, count) = server(1, "1").await;
    let started = Instant::now();
    let c = connect(endpoint(&base))
        .unwrap()
        .complete(&request())
        .await
        .unwrap();
    assert_eq!(c.text, "ok");
    assert_eq!(count.load(Ordering::SeqCst), 2);
    assert!(
        started.elapsed() >= Duration::from_millis(950),
        "waited {:?}",
        started.elapsed()
    );
    assert!(c.latency_ms >= 950, "latency includes the wait");
}

#[tokio::test]
async fn a_long_retry_after_ends_the_retries_and_is_reported() {
    let (base, count) = server(5, "120").await;
    let started = Instant::now();
    let err = connect(endpoint(&base))
        .unwrap()
        .complete(&request())
        .await
        .unwrap_err();
    assert_eq!(err.kind, LlmErrorKind::RateLimited);
    assert_eq!(err.retry_after_secs, Some(120));
    assert_eq!(count.load(Ordering::SeqCst), 1);
    assert!(started.elapsed() < Duration::from_secs(1));
}
