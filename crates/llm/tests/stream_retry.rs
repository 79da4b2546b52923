#![allow(clippy::unwrap_used, clippy::expect_used)]
//! A stream is retried only before its first byte: once text has reached the caller, a second
//! attempt would show it twice, so a stream cut midway is an error, not a retry. (A bare
//! socket, since the mock LLM always finishes what it starts.)

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use common::{Deltas, KEY, fast_retry, request};
use nofxi_domain::{Secret, WireFormat};
use nofxi_llm::{Endpoint, LlmErrorKind, connect};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Starts an OpenAI-style stream, sends one chunk, then goes silent for `silence` and hangs up.
async fn cut_stream_server(silence: Duration) -> (String, Arc<AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let count = Arc::new(AtomicUsize::new(0));
    let seen = count.clone();
    tokio::spawn(async move {
        while let Ok((mut sock, _)) = listener.accept().await {
            seen.fetch_add(1, Ordering::SeqCst);
            tokio::spawn(async move {
                let mut buf = vec![0u8; 64 * 1024];
                let _ = sock.read(&mut buf).await;
                let chunk = "data: {\"choices\":[{\"delta\":{\"content\":\"Hel\"}}]}\n\n";
                let head = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n";
                let body = format!("{:x}\r\n{chunk}\r\n", chunk.len());
                let _ = sock.write_all(head.as_bytes()).await;
                let _ = sock.write_all(body.as_bytes()).await;
                let _ = sock.flush().await;
                tokio::time::sleep(silence).await;
                // Dropping the socket mid-body: no terminating chunk.
            });
        }
    });
    (base, count)
}

fn endpoint(base: &str, timeout: Duration) -> Endpoint {
    Endpoint::new("test", WireFormat::OpenAi, base, "m")
        .with_api_key(Secret::new(KEY))
        .with_timeout(timeout)
        .with_retry(fast_retry(3))
}

#[tokio::test]
async fn a_stream_cut_after_its_first_text_is_not_retried() {
    let (base, count) = cut_stream_server(Duration::from_millis(50)).await;
    let e = endpoint(&base, Duration::from_secs(5));
    let deltas = Deltas::default();
    let err = connect(e)
        .unwrap()
        .stream(&request(), &|d| deltas.push(d))
        .await
        .unwrap_err();
    assert_eq!(deltas.text(), "Hel", "the caller saw the first piece once");
    assert_eq!(count.load(Ordering::SeqCst), 1, "no second attempt");
    assert_eq!(err.kind, LlmErrorKind::Network, "{err}");
}

#[tokio::test]
async fn a_stream_silent_midway_times_out_without_a_retry() {
    let (base, count) = cut_stream_server(Duration::from_secs(3)).await;
    let deltas = Deltas::default();
    let started = std::time::Instant::now();
    let err = connect(endpoint(&base, Duration::from_millis(300)))
        .unwrap()
        .stream(&request(), &|d| deltas.push(d))
        .await
        .unwrap_err();
    assert_eq!(err.kind, LlmErrorKind::Timeout, "{err}");
    assert_eq!(deltas.text(), "Hel");
    assert_eq!(count.load(Ordering::SeqCst), 1);
    assert!(started.elapsed() < Duration::from_secs(2));
}
