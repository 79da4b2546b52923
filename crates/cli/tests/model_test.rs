//! `nofxi model test NAME` with the real binary against the loopback mock LLM: a model that
//! answers, a refused key (explained, never shown), a model name the provider does not know,
//! and the builtin rules, which need no endpoint.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::path::Path;

use nofxi_testkit::llm::{MockLlm, Reply};
use serde_json::Value;
use support::{add_deepseek_model, home, run_async, text};

const KEY: &str = "sk-clitestkey0123456789abcdef";

/// A `deepseek` model config named `ds` whose base URL is the mock.
async fn add_model(home: &Path, mock: &MockLlm) {
    add_deepseek_model(home, &mock.base_url(), KEY).await;
}

fn assert_no_key(out: &str) {
    assert!(!out.contains(KEY), "the key was shown: {out}");
    assert!(
        !out.contains(&KEY[3..15]),
        "part of the key was shown: {out}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_model_that_answers_is_ok_with_its_latency_and_name() {
    let (_dir, home) = home();
    let mock = MockLlm::start().await;
    add_model(&home, &mock).await;

    mock.push(Reply::Text("OK".into()));
    let out = run_async(&home, &["model", "test", "ds"]).await;
    let shown = text(&out);
    assert!(out.status.success(), "{shown}");
    assert!(
        shown.contains("OK") && shown.contains("answered in"),
        "{shown}"
    );
    assert!(shown.contains("deepseek-chat"), "{shown}");
    assert_no_key(&shown);

    mock.push(Reply::Text("OK".into()));
    let out = run_async(&home, &["model", "test", "ds", "--json"]).await;
    assert!(out.status.success(), "{}", text(&out));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["ok"], true);
    assert_eq!(report["model"], "ds");
    assert_eq!(report["answered_by"], "deepseek-chat");
    assert!(report["latency_ms"].is_u64());
    assert!(report.get("error").is_none());

    // A tiny probe: a few tokens, the key in the header only.
    let requests = mock.requests();
    assert_eq!(requests.len(), 2);
    assert!(requests[0].path.ends_with("/chat/completions"));
    assert_eq!(requests[0].body["max_tokens"], 5);
    assert!(!requests[0].body_text().contains(KEY));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_refused_key_is_explained_and_never_shown() {
    let (_dir, home) = home();
    let mock = MockLlm::start().await;
    add_model(&home, &mock).await;
    // OpenAI-style providers echo part of the key back.
    let body = format!(
        "{{\"error\":{{\"message\":\"Incorrect API key provided: {}***{}\",\"type\":\"invalid_request_error\",\"code\":\"invalid_api_key\"}}}}",
        &KEY[..8],
        &KEY[KEY.len() - 4..]
    );

    mock.push(Reply::Error {
        status: 401,
        body: body.clone(),
    });
    let out = run_async(&home, &["model", "test", "ds"]).await;
    let shown = text(&out);
    assert_eq!(out.status.code(), Some(1), "{shown}");
    assert!(
        shown.contains("FAILED") && shown.contains("HTTP 401"),
        "{shown}"
    );
    // The error-diagnosis skill's entry: what happened, why, what to do now.
    assert!(shown.contains("rejected the API key"), "{shown}");
    assert!(shown.contains("what to do now") && shown.contains("update the model config"));
    assert_no_key(&shown);

    mock.push(Reply::Error { status: 401, body });
    let out = run_async(&home, &["model", "test", "ds", "--json"]).await;
    assert_eq!(out.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["ok"], false);
    assert_eq!(report["error"]["kind"], "bad_key");
    assert_eq!(report["error"]["status"], 401);
    assert_eq!(report["error"]["diagnosis"], "model_auth");
    assert_no_key(&text(&out));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_model_name_the_provider_does_not_know_says_to_fix_the_name() {
    let (_dir, home) = home();
    let mock = MockLlm::start().await;
    add_model(&home, &mock).await;
    mock.push(Reply::Error {
        status: 404,
        body: "{\"error\":{\"message\":\"The model `deepseek-chat` does not exist\",\"type\":\"invalid_request_error\",\"code\":\"model_not_found\"}}".into(),
    });
    let out = run_async(&home, &["model", "test", "ds", "--json"]).await;
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["error"]["kind"], "model_not_found");
    assert_eq!(report["error"]["diagnosis"], "model_not_found");
    let fix = report["error"]["fix"].as_str().unwrap();
    assert!(fix.contains("model name"), "{fix}");
    assert!(
        report["error"]["provider_message"]
            .as_str()
            .unwrap()
            .contains("does not exist")
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("model_not_found"));
}

#[tokio::test(flavor = "multi_thread")]
async fn the_builtin_model_needs_no_endpoint() {
    let (_dir, home) = home();
    let out = run_async(
        &home,
        &["model", "add", "--name", "rules", "--provider", "builtin"],
    )
    .await;
    assert!(out.status.success(), "{}", text(&out));
    let out = run_async(&home, &["model", "test", "rules"]).await;
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("builtin rules need no endpoint"));
}

#[tokio::test(flavor = "multi_thread")]
async fn nothing_listening_is_a_connection_failure_with_what_to_check() {
    let (_dir, home) = home();
    let mock = MockLlm::start().await;
    add_model(&home, &mock).await;
    drop(mock); // the port closes: connection refused
    let out = run_async(&home, &["model", "test", "ds", "--json"]).await;
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["error"]["diagnosis"], "connection_failed");
    assert!(
        report["error"]["fix"]
            .as_str()
            .unwrap()
            .contains("base URL")
    );
}

/// An endpoint (or a proxy in front of it) that quotes the request's credentials back: neither
/// its refusal nor its answer reaches stdout with the key in it, in any disguise, in the text
/// form or the `--json` report.
#[tokio::test(flavor = "multi_thread")]
async fn an_endpoint_that_echoes_the_key_never_gets_it_printed() {
    let (_dir, home) = home();
    let mock = MockLlm::start().await;
    add_model(&home, &mock).await;
    let echoed = format!(
        "OK. Request credentials: authorization: Bearer {}",
        nofxi_testkit::disguise::disguises(KEY)
    );
    let scripts = [
        Reply::EchoKey { status: 200 },
        Reply::EchoKey { status: 401 },
        Reply::Text(echoed.clone()),
    ];
    for reply in scripts {
        for json in [false, true] {
            mock.push(reply.clone());
            let mut args = vec!["model", "test", "ds"];
            if json {
                args.push("--json");
            }
            let out = run_async(&home, &args).await;
            let shown = text(&out);
            assert_no_key(&shown);
            let reversed: String = KEY.chars().rev().collect();
            let squeezed: String = shown
                .chars()
                .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect::<String>()
                .to_lowercase();
            assert!(
                !squeezed.contains(&KEY.to_lowercase())
                    && !squeezed.contains(&reversed.to_lowercase()),
                "{reply:?} json={json}: the key was shown in disguise: {shown}"
            );
            if json {
                // Still the report: what was said is kept with the key taken out.
                let report: Value = serde_json::from_slice(&out.stdout).unwrap();
                assert_eq!(report["model"], "ds", "{shown}");
                if let Reply::Text(_) = reply {
                    let said = report["reply"].as_str().unwrap();
                    assert!(
                        said.starts_with("OK. Request credentials") && said.contains("[redacted]"),
                        "{said}"
                    );
                }
            }
        }
    }
    assert_eq!(mock.requests().len(), 6);
}
