#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Failures before any HTTP answer: nothing listening, a name that does not resolve, TLS
//! spoken to a plain-HTTP port. Each must come back as its own kind, so the user is told to
//! fix the URL or the network rather than the key.

use std::time::Duration;

use nofxi_domain::{Secret, WireFormat};
use nofxi_llm::{ChatRequest, Endpoint, LlmErrorKind, Message, RetryPolicy, connect};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const KEY: &str = "sk-transport0test0key0abcdef123456";

fn request() -> ChatRequest {
    ChatRequest {
        messages: vec![Message::user("hi")],
        ..Default::default()
    }
}

fn endpoint(wire: WireFormat, base: &str) -> Endpoint {
    Endpoint::new("test", wire, base, "m")
        .with_api_key(Secret::new(KEY))
        .with_timeout(Duration::from_secs(5))
        .with_retry(RetryPolicy::no_retry())
}

#[tokio::test]
async fn refused_port_is_connection_refused() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    for wire in [
        WireFormat::OpenAi,
        WireFormat::Anthropic,
        WireFormat::Gemini,
    ] {
        let p = connect(endpoint(wire, &format!("http://127.0.0.1:{port}"))).unwrap();
        let err = p.complete(&request()).await.unwrap_err();
        assert_eq!(err.kind, LlmErrorKind::ConnectionRefused, "{wire:?}: {err}");
        assert!(!format!("{err:?}").contains(KEY));
    }
}

#[tokio::test]
async fn unresolvable_host_is_dns() {
    let p = connect(endpoint(
        WireFormat::OpenAi,
        "http://nofxi-no-such-host.invalid",
    ))
    .unwrap();
    let err = p.complete(&request()).await.unwrap_err();
    assert_eq!(err.kind, LlmErrorKind::Dns, "{err}");
    eprintln!("{err}");
    let err = p.stream(&request(), &|_| {}).await.unwrap_err();
    assert_eq!(err.kind, LlmErrorKind::Dns, "{err}");
    eprintln!("{err}");
}

/// A port that answers every connection with a plain HTTP 400, like any HTTP server would
/// answer a TLS ClientHello.
async fn plain_http_port() -> u16 {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        while let Ok((mut sock, _)) = listener.accept().await {
            tokio::spawn(async move {
                let mut buf = [0u8; 1024];
                let _ = sock.read(&mut buf).await;
                let _ = sock
                    .write_all(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
                    .await;
            });
        }
    });
    port
}

#[tokio::test]
async fn https_to_a_plain_http_port_is_tls() {
    let port = plain_http_port().await;
    for wire in [
        WireFormat::OpenAi,
        WireFormat::Anthropic,
        WireFormat::Gemini,
    ] {
        let p = connect(endpoint(wire, &format!("https://127.0.0.1:{port}"))).unwrap();
        let err = p.complete(&request()).await.unwrap_err();
        assert_eq!(err.kind, LlmErrorKind::Tls, "{wire:?}: {err}");
        assert!(err.message.contains(&port.to_string()), "{err}");
    }
}
