#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Every typed error of REFERENCE §3 ("Model APIs"), as each provider really words it, served
//! by the mock: the kind, the status, the provider's message kept, the key never shown; and
//! which failures are retried (rate limits, overload, dropped connections, timeouts) and which
//! are not (a bad key, an empty balance or quota).

mod common;

use std::time::Duration;

use common::*;
use nofxi_domain::WireFormat;
use nofxi_llm::{LlmError, LlmErrorKind, RetryPolicy, connect};
use nofxi_testkit::{MockLlm, Reply};

fn error(status: u16, body: &str) -> Reply {
    Reply::Error {
        status,
        body: body.into(),
    }
}

/// One call through `wire`, whole or streamed, with the replies scripted.
async fn fail(wire: WireFormat, stream: bool, replies: Vec<Reply>) -> (LlmError, usize) {
    let mock = MockLlm::start().await;
    mock.push_many(replies);
    let p = provider(&mock, wire);
    let err = if stream {
        p.stream(&request(), &|_| {}).await.unwrap_err()
    } else {
        p.complete(&request()).await.unwrap_err()
    };
    assert_no_key(&err);
    (err, mock.requests().len())
}

#[tokio::test]
async fn bad_key_in_each_providers_words_is_not_retried_and_never_echoed() {
    let cases = [
        (
            WireFormat::OpenAi,
            401,
            format!(
                r#"{{"error":{{"message":"Incorrect API key provided: {KEY}. Also sk-nof***klmn.","type":"invalid_request_error","code":"invalid_api_key"}}}}"#
            ),
        ),
        (
            WireFormat::Anthropic,
            401,
            r#"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}"#.to_string(),
        ),
        (
            WireFormat::Gemini,
            400,
            r#"{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[{"reason":"API_KEY_INVALID"}]}}"#.to_string(),
        ),
    ];
    for (wire, status, body) in cases {
        for stream in [false, true] {
            let (err, calls) = fail(wire, stream, vec![error(status, &body)]).await;
            assert_eq!(err.kind, LlmErrorKind::BadKey, "{wire:?}: {err}");
            assert_eq!(err.status, Some(status));
            assert_eq!(calls, 1, "a bad key is not retried");
            if wire == WireFormat::OpenAi {
                assert_eq!(
                    err.message,
                    "Incorrect API key provided: [redacted]. Also [redacted]."
                );
            }
        }
    }
}

#[tokio::test]
async fn insufficient_balance() {
    let body = r#"{"error":{"message":"Insufficient Balance","type":"unknown_error","param":null,"code":"invalid_request_error"}}"#;
    let (err, calls) = fail(WireFormat::OpenAi, false, vec![error(402, body)]).await;
    assert_eq!(err.kind, LlmErrorKind::InsufficientBalance);
    assert_eq!(err.message, "Insufficient Balance");
    assert_eq!(calls, 1);
}

#[tokio::test]
async fn wrong_model_name() {
    let cases = [
        (
            WireFormat::OpenAi,
            404,
            r#"{"error":{"message":"The model `gpt-9` does not exist or you do not have access to it.","type":"invalid_request_error","code":"model_not_found"}}"#,
        ),
        (
            WireFormat::OpenAi,
            400,
            r#"{"error":{"message":"Model Not Exist","type":"invalid_request_error"}}"#,
        ),
        (
            WireFormat::Anthropic,
            404,
            r#"{"type":"error","error":{"type":"not_found_error","message":"model: claude-9"}}"#,
        ),
        (
            WireFormat::Gemini,
            404,
            r#"{"error":{"code":404,"message":"models/gemini-9 is not found for API version v1beta","status":"NOT_FOUND"}}"#,
        ),
    ];
    for (wire, status, body) in cases {
        let (err, calls) = fail(wire, false, vec![error(status, body)]).await;
        assert_eq!(err.kind, LlmErrorKind::ModelNotFound, "{wire:?}: {err}");
        assert_eq!(calls, 1);
    }
}

#[tokio::test]
async fn rate_limit_is_retried_then_succeeds() {
    let limits = [
        (
            WireFormat::OpenAi,
            r#"{"error":{"message":"Rate limit reached for requests","type":"requests","code":"rate_limit_exceeded"}}"#,
        ),
        (
            WireFormat::Anthropic,
            r#"{"type":"error","error":{"type":"rate_limit_error","message":"Number of requests has exceeded your rate limit"}}"#,
        ),
        (
            WireFormat::Gemini,
            r#"{"error":{"code":429,"message":"Resource has been exhausted (e.g. check quota).","status":"RESOURCE_EXHAUSTED"}}"#,
        ),
    ];
    for (wire, body) in limits {
        for stream in [false, true] {
            let mock = MockLlm::start().await;
            mock.push(error(429, body));
            mock.push(Reply::Text("after the wait".into()));
            let p = provider(&mock, wire);
            let c = if stream {
                p.stream(&request(), &|_| {}).await.unwrap()
            } else {
                p.complete(&request()).await.unwrap()
            };
            assert_eq!(c.text, "after the wait", "{wire:?} stream={stream}");
            assert_eq!(mock.requests().len(), 2);
        }
        // Still limited after every attempt: the typed error, once the attempts are spent.
        let (err, calls) = fail(
            wire,
            false,
            vec![error(429, body), error(429, body), error(429, body)],
        )
        .await;
        assert_eq!(err.kind, LlmErrorKind::RateLimited, "{wire:?}: {err}");
        assert_eq!(calls, 3);
    }
}

#[tokio::test]
async fn exhausted_quota_is_not_a_rate_limit_and_is_not_retried() {
    let body = r#"{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}"#;
    let (err, calls) = fail(
        WireFormat::OpenAi,
        false,
        vec![error(429, body), Reply::Text("no".into())],
    )
    .await;
    assert_eq!(err.kind, LlmErrorKind::QuotaExhausted);
    assert_eq!(err.status, Some(429));
    assert_eq!(calls, 1);
    assert!(!err.kind.is_retryable());
}

#[tokio::test]
async fn context_too_long_in_each_providers_words() {
    let cases = [
        (
            WireFormat::OpenAi,
            r#"{"error":{"message":"This model's maximum context length is 65536 tokens. However, you requested 91234 tokens.","type":"invalid_request_error","code":"context_length_exceeded"}}"#,
        ),
        (
            WireFormat::Anthropic,
            r#"{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 215000 tokens > 200000 maximum"}}"#,
        ),
        (
            WireFormat::Gemini,
            r#"{"error":{"code":400,"message":"The input token count (1500000) exceeds the maximum number of tokens allowed (1048576).","status":"INVALID_ARGUMENT"}}"#,
        ),
    ];
    for (wire, body) in cases {
        let (err, calls) = fail(wire, false, vec![error(400, body)]).await;
        assert_eq!(err.kind, LlmErrorKind::ContextTooLong, "{wire:?}: {err}");
        assert_eq!(calls, 1);
    }
}

#[tokio::test]
async fn overloaded_is_retried_then_succeeds() {
    let overloaded =
        r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#;
    for stream in [false, true] {
        let mock = MockLlm::start().await;
        mock.push(error(529, overloaded));
        mock.push(error(503, r#"{"error":{"message":"upstream busy"}}"#));
        mock.push(Reply::Text("finally".into()));
        let p = provider(&mock, WireFormat::Anthropic);
        let c = if stream {
            p.stream(&request(), &|_| {}).await.unwrap()
        } else {
            p.complete(&request()).await.unwrap()
        };
        assert_eq!(c.text, "finally");
        assert_eq!(mock.requests().len(), 3);
    }
    let (err, calls) = fail(
        WireFormat::Anthropic,
        false,
        vec![
            error(529, overloaded),
            error(529, overloaded),
            error(529, overloaded),
        ],
    )
    .await;
    assert_eq!(err.kind, LlmErrorKind::Overloaded);
    assert_eq!(err.status, Some(529));
    assert_eq!(err.message, "Overloaded");
    assert_eq!(calls, 3);
}

#[tokio::test]
async fn an_html_page_means_the_url_is_not_the_api() {
    for wire in WIRES {
        for status in [200, 404] {
            for stream in [false, true] {
                let (err, calls) = fail(wire, stream, vec![Reply::Html { status }]).await;
                assert_eq!(
                    err.kind,
                    LlmErrorKind::NotJson,
                    "{wire:?} {status} stream={stream}: {err}"
                );
                assert_eq!(calls, 1);
            }
        }
    }
    // A gateway relaying an HTML answer as a Go JSON decode error.
    let (err, _) = fail(
        WireFormat::OpenAi,
        false,
        vec![error(400, r#"{"error":{"message":"invalid character '<' looking for beginning of value","type":"new_api_error"}}"#)],
    )
    .await;
    assert_eq!(err.kind, LlmErrorKind::NotJson);
}

#[tokio::test]
async fn a_dropped_connection_is_retried() {
    for wire in WIRES {
        let mock = MockLlm::start().await;
        mock.push(Reply::CloseConnection);
        mock.push(Reply::Text("second try".into()));
        mock.push(Reply::CloseConnection);
        mock.push(Reply::Text("second try".into()));
        let p = provider(&mock, wire);
        let c = p.complete(&request()).await.unwrap();
        assert_eq!(c.text, "second try", "{wire:?}");
        let c = p.stream(&request(), &|_| {}).await.unwrap();
        assert_eq!(c.text, "second try", "{wire:?}");
        assert_eq!(mock.requests().len(), 4);
    }
}

#[tokio::test]
async fn a_slow_provider_times_out_per_attempt() {
    for wire in WIRES {
        for stream in [false, true] {
            let mock = MockLlm::start().await;
            let slow = || Reply::Delay {
                ms: 2_000,
                then: Box::new(Reply::Text("too late".into())),
            };
            mock.push_many([slow(), slow()]);
            let e = endpoint(&mock, wire)
                .with_timeout(Duration::from_millis(200))
                .with_retry(fast_retry(2));
            let p = connect(e).unwrap();
            let started = std::time::Instant::now();
            let err = if stream {
                p.stream(&request(), &|_| {}).await.unwrap_err()
            } else {
                p.complete(&request()).await.unwrap_err()
            };
            assert_eq!(
                err.kind,
                LlmErrorKind::Timeout,
                "{wire:?} stream={stream}: {err}"
            );
            assert_eq!(mock.requests().len(), 2, "a timeout is retried");
            assert!(started.elapsed() < Duration::from_millis(1_500));
            assert_no_key(&err);
        }
    }
}

#[tokio::test]
async fn a_timeout_then_an_answer_succeeds() {
    let mock = MockLlm::start().await;
    mock.push(Reply::Delay {
        ms: 2_000,
        then: Box::new(Reply::Text("too late".into())),
    });
    mock.push(Reply::Text("in time".into()));
    let e = endpoint(&mock, WireFormat::OpenAi).with_timeout(Duration::from_millis(200));
    let c = connect(e).unwrap().complete(&request()).await.unwrap();
    assert_eq!(c.text, "in time");
}

#[tokio::test]
async fn no_retry_policy_makes_one_attempt() {
    let mock = MockLlm::start().await;
    mock.push(error(503, r#"{"error":{"message":"busy"}}"#));
    mock.push(Reply::Text("unused".into()));
    let e = endpoint(&mock, WireFormat::OpenAi).with_retry(RetryPolicy::no_retry());
    let err = connect(e).unwrap().complete(&request()).await.unwrap_err();
    assert_eq!(err.kind, LlmErrorKind::Overloaded);
    assert_eq!(mock.requests().len(), 1);
}

#[tokio::test]
async fn the_key_is_sent_but_never_shown() {
    for wire in WIRES {
        let mock = MockLlm::start().await;
        // A provider that echoes the whole request, key included, in its error.
        let echo = format!(
            r#"{{"error":{{"message":"bad request from key {KEY} (prefix {}, header x-api-key: {KEY})","type":"invalid_request_error"}}}}"#,
            &KEY[..12]
        );
        mock.push(error(400, &echo));
        let p = provider(&mock, wire);
        let err = p.complete(&request()).await.unwrap_err();
        assert_no_key(&err);
        assert!(!format!("{:?}", endpoint(&mock, wire)).contains(KEY));
        let sent = &mock.requests()[0];
        let header = match wire {
            WireFormat::OpenAi => sent
                .header("authorization")
                .map(|h| h.trim_start_matches("Bearer ")),
            WireFormat::Anthropic => sent.header("x-api-key"),
            _ => sent.header("x-goog-api-key"),
        };
        assert_eq!(header, Some(KEY), "{wire:?}");
        assert!(
            !sent.body_text().contains(KEY),
            "{wire:?}: the key is not in the body"
        );
    }
}
