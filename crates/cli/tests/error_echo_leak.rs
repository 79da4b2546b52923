//! Secrets out of every error path of the real binary, with servers that echo the request in
//! their errors: a Binance (or a proxy) quoting the `X-MBX-APIKEY` header and the signed query
//! string, a model provider quoting the `Authorization` header. Whatever path the error takes
//! (`exchange test|balance|positions`, `trader start`, `model test`, the engine's cycles and
//! their journal, a chat turn and its trace, the logs), neither the key, the secret nor their
//! middles appear in any output, and no byte of the home outside the vault holds them.
//!
//! The keys are short and plain on purpose: the key-shape heuristics of the redactor do not
//! catch them, so only redacting the exact credentials where the error is made passes.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::path::Path;
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

use nofxi_testkit::binance::{EchoRequests, MockBinance, Route};
use nofxi_testkit::llm::{MockLlm, Reply};
use rust_decimal_macros::dec;
use support::{add_deepseek_model, assert_home_clean, home, nofxi, output_async, text};

const KEY: &str = "echoKeyQ7w2";
const SECRET: &str = "echoSecretZ9x4";
const MODEL_KEY: &str = "modelKeyR3t8";

/// Each secret and its middle (masks keep a few characters at the ends).
fn needles() -> Vec<String> {
    [KEY, SECRET, MODEL_KEY]
        .iter()
        .flat_map(|s| [s.to_string(), s[3..s.len() - 3].to_string()])
        .collect()
}

/// Letters and digits only, lower-cased: how a disguised echo (spaced, cased, zero-width
/// joined) of a secret is seen through.
fn skeleton(text: &str) -> String {
    text.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

fn assert_clean(what: &str, out: &str) {
    for needle in needles() {
        assert!(!out.contains(&needle), "{what} holds {needle:?}:\n{out}");
    }
    let seen = skeleton(out);
    for secret in [KEY, SECRET, MODEL_KEY] {
        let forward = skeleton(secret);
        let reversed: String = forward.chars().rev().collect();
        assert!(
            !seen.contains(&forward) && !seen.contains(&reversed),
            "{what} holds {secret:?} in disguise:\n{out}"
        );
    }
}

async fn run(home: &Path, binance: &str, args: &[&str]) -> Output {
    let mut cmd = nofxi(home, args);
    cmd.env("NOFXI_BINANCE_BASE_URL", binance)
        .env("RUST_LOG", "trace");
    output_async(cmd).await
}

async fn ok(home: &Path, binance: &str, args: &[&str]) -> String {
    let out = run(home, binance, args).await;
    assert!(out.status.success(), "nofxi {args:?}: {}", text(&out));
    text(&out)
}

#[tokio::test(flavor = "multi_thread")]
async fn echoed_requests_leak_no_secret_on_any_path() {
    let (_dir, home) = home();
    let binance = MockBinance::start().await.unwrap();
    binance.add_account(KEY, SECRET, dec!(5000));
    let url = binance.url();
    let llm = MockLlm::start().await;
    add_deepseek_model(&home, &format!("{}/v1", llm.base_url()), MODEL_KEY).await;
    ok(
        &home,
        &url,
        &[
            "exchange",
            "add",
            "--type",
            "binance",
            "--name",
            "live",
            "--api-key",
            KEY,
            "--secret-key",
            SECRET,
        ],
    )
    .await;
    ok(&home, &url, &["strategy", "add", "--name", "default"]).await;
    ok(
        &home,
        &url,
        &[
            "trader",
            "add",
            "--name",
            "bot",
            "--model",
            "ds",
            "--exchange",
            "live",
            "--strategy",
            "default",
            "--initial-balance",
            "1000",
        ],
    )
    .await;
    // Healthy first: the trader starts, so the engine will cycle it later.
    ok(&home, &url, &["trader", "start", "bot", "--confirm-live"]).await;

    let mut shown = String::new();
    binance.echo_requests(Some(EchoRequests {
        route: Route::Signed,
        http_status: 401,
        code: -2015,
    }));
    llm.set_default(Reply::EchoKey { status: 401 });
    for args in [
        &["exchange", "test", "live"][..],
        &["exchange", "test", "live", "--json"],
        &["exchange", "balance", "live"],
        &["exchange", "balance", "live", "--json"],
        &["exchange", "positions", "live"],
        &["exchange", "positions", "live", "--json"],
        &["model", "test", "ds"],
        &["model", "test", "ds", "--json"],
    ] {
        let out = run(&home, &url, args).await;
        let all = text(&out);
        assert!(!out.status.success(), "nofxi {args:?} should fail: {all}");
        assert_clean(&format!("nofxi {args:?}"), &all);
        shown.push_str(&all);
    }
    // The refusals still say what the servers said: the checks were not vacuous.
    assert!(shown.contains("X-MBX-APIKEY: [redacted]"), "{shown}");
    assert!(
        shown.contains("authorization: Bearer [redacted]"),
        "{shown}"
    );

    // `trader start` runs the preflight against the echoing venue.
    ok(&home, &url, &["trader", "stop", "bot"]).await;
    let start = run(&home, &url, &["trader", "start", "bot", "--confirm-live"]).await;
    assert_clean("trader start", &text(&start));
    assert!(!start.status.success(), "{}", text(&start));

    // The engine: a started trader cycling against the echoing model, then (after its first
    // cycle, once past the preflight) against the echoing venue too.
    binance.echo_requests(None);
    ok(&home, &url, &["trader", "start", "bot", "--confirm-live"]).await;
    let mut engine = nofxi(&home, &["run", "--cycle-seconds", "1"]);
    engine
        .env("NOFXI_BINANCE_BASE_URL", &url)
        .env("RUST_LOG", "trace")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let child = engine.spawn().unwrap();
    let rows = async |at_least: usize| {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let j = ok(&home, &url, &["trader", "journal", "bot", "--json"]).await;
            let n = serde_json::from_str::<serde_json::Value>(&j)
                .ok()
                .and_then(|v| v.as_array().map(Vec::len))
                .unwrap_or(0);
            if n >= at_least || Instant::now() > deadline {
                return (n, j);
            }
            tokio::time::sleep(Duration::from_millis(300)).await;
        }
    };
    let (first, _) = rows(1).await;
    binance.echo_requests(Some(EchoRequests {
        route: Route::Signed,
        http_status: 500,
        code: -1000,
    }));
    let (_, journal) = rows(first + 2).await;
    std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    let logs = tokio::task::spawn_blocking(move || child.wait_with_output().unwrap())
        .await
        .unwrap();
    assert_clean("the engine's logs", &text(&logs));
    assert_clean("trader journal --json", &journal);
    assert!(
        journal.contains("[redacted]"),
        "no echoed error journalled: {journal}\n{}",
        text(&logs)
    );
    assert_clean(
        "trader journal",
        &ok(&home, &url, &["trader", "journal", "bot"]).await,
    );
    for args in [
        &["trader", "status", "bot"][..],
        &["trader", "status", "bot", "--json"],
    ] {
        assert_clean("trader status", &ok(&home, &url, args).await);
    }

    // A chat turn that reads the echoing account, and its trace.
    let mut chat = nofxi(&home, &["chat", "--json", "--new"]);
    chat.env("NOFXI_BINANCE_BASE_URL", &url)
        .env("RUST_LOG", "trace");
    let out = tokio::task::spawn_blocking(move || {
        support::with_input(&mut chat, "test exchange live\nhow much is in live\n")
    })
    .await
    .unwrap();
    assert_clean("chat --json", &text(&out));
    let traces = ok(&home, &url, &["trace", "list", "--json"]).await;
    assert_clean("trace list", &traces);

    assert_home_clean(&home, &[KEY, SECRET, MODEL_KEY]);
    let middles: Vec<String> = needles();
    let middles: Vec<&str> = middles.iter().map(String::as_str).collect();
    assert_home_clean(&home, &middles);
}
