#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Failures before any HTTP answer: nothing listening, a name that does not resolve, TLS
//! spoken to a plain-HTTP port. Each must come back as its own kind, so the user is told to
//! fix the URL or the network rather than the key.

mod common;

use std::time::Duration;

use common::{KEY, WIRES, request};
use nofxi_domain::{Secret, WireFormat};
use nofxi_llm::{Endpoint, LlmErrorKind, RetryPolicy, connect};
use nofxi_testkit::MockLlm;

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
    for wire in WIRES {
        let p = connect(endpoint(wire, &format!("http://127.0.0.1:{port}"))).unwrap();
        let err = p.complete(&request()).await.unwrap_err();
        assert_eq!(err.kind, LlmErrorKind::ConnectionRefused, "{wire:?}: {err}");
        assert!(!format!("{err:?}").contains(KEY));
        let err = p.stream(&request(), &|_| {}).await.unwrap_err();
        assert_eq!(err.kind, LlmErrorKind::ConnectionRefused, "{wire:?}: {err}");
    }
}

#[tokio::test]
async fn a_refused_connection_is_not_retried() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    let e =
        endpoint(WireFormat::OpenAi, &format!("http://127.0.0.1:{port}")).with_retry(RetryPolicy {
            max_attempts: 5,
            base_delay: Duration::from_secs(1),
            max_delay: Duration::from_secs(1),
        });
    let started = std::time::Instant::now();
    let err = connect(e).unwrap().complete(&request()).await.unwrap_err();
    assert_eq!(err.kind, LlmErrorKind::ConnectionRefused);
    assert!(
        started.elapsed() < Duration::from_millis(900),
        "no backoff wait"
    );
}

#[tokio::test]
async fn unresolvable_host_is_dns() {
    for wire in WIRES {
        let p = connect(endpoint(wire, "http://nofxi-no-such-host.invalid")).unwrap();
        let err = p.complete(&request()).await.unwrap_err();
        assert_eq!(err.kind, LlmErrorKind::Dns, "{wire:?}: {err}");
        assert!(err.message.contains("nofxi-no-such-host.invalid"), "{err}");
        let err = p.stream(&request(), &|_| {}).await.unwrap_err();
        assert_eq!(err.kind, LlmErrorKind::Dns, "{wire:?}: {err}");
    }
}

#[tokio::test]
async fn https_to_the_plain_http_mock_port_is_tls() {
    let mock = MockLlm::start().await;
    let https = mock.base_url().replace("http://", "https://");
    let port = https.rsplit(':').next().unwrap().to_string();
    for wire in WIRES {
        let p = connect(endpoint(wire, &https)).unwrap();
        let err = p.complete(&request()).await.unwrap_err();
        assert_eq!(err.kind, LlmErrorKind::Tls, "{wire:?}: {err}");
        assert!(err.message.contains(&port), "the URL is kept: {err}");
        assert!(!format!("{err:?}").contains(KEY));
        let err = p.stream(&request(), &|_| {}).await.unwrap_err();
        assert_eq!(err.kind, LlmErrorKind::Tls, "{wire:?}: {err}");
    }
}

/// A base URL reqwest cannot build a request from (port 99999) sends nothing: it is an invalid
/// URL, never "the provider refused the request".
#[tokio::test]
async fn a_url_that_cannot_be_sent_is_an_invalid_url() {
    for wire in WIRES {
        let p = connect(endpoint(wire, "https://localhost:99999/v1")).unwrap();
        let err = p.complete(&request()).await.unwrap_err();
        // By name, so the test also runs (and fails) on a tree without the kind.
        assert_eq!(format!("{:?}", err.kind), "InvalidUrl", "{wire:?}: {err}");
        let advice = err.kind.advice();
        assert!(
            advice.contains("nothing was sent") && !advice.contains("refused"),
            "{advice}"
        );
    }
}
