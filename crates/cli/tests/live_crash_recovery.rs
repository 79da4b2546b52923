//! A live venue's order survives the engine's death, on every live venue nofxi trades on: the
//! engine is SIGKILLed while its entry order is accepted by the venue but not yet answered
//! (the mock holds the reply back), and the engine started again finishes that cycle by
//! looking the order up by its client id: the entry is on the venue once, its stop-loss and
//! take-profit are placed once each, and the journal records the cycle as resumed and done.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use nofxi_testkit::llm::{MockLlm, Reply};
use serde_json::Value;
use support::live::{self, Live};
use support::{add_deepseek_model, home, nofxi, output_async, text};

const MODEL_KEY: &str = "sk-crashtest0123456789abcdef";

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn binance_entry_in_flight_at_sigkill_is_placed_once() {
    crash_and_resume(live::binance().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn okx_entry_in_flight_at_sigkill_is_placed_once() {
    crash_and_resume(live::okx().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn bybit_entry_in_flight_at_sigkill_is_placed_once() {
    crash_and_resume(live::bybit().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn bitget_entry_in_flight_at_sigkill_is_placed_once() {
    crash_and_resume(live::bitget().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn hyperliquid_entry_in_flight_at_sigkill_is_placed_once() {
    crash_and_resume(live::hyperliquid().await).await;
}

/// Sets a trader up on `live`, kills its engine while the entry's answer is held back, starts
/// the engine again under the same owner (a restart on the same machine), and checks that the
/// interrupted cycle ended with one entry and its two protective orders.
async fn crash_and_resume(live: Live) {
    let (_dir, home) = home();
    let llm = MockLlm::start().await;
    // One entry, then nothing: any second entry on the venue would be the crash's duplicate.
    llm.push(Reply::Text(
        "Trend up.\n```json\n[{\"symbol\":\"BTCUSDT\",\"action\":\"open_long\",\"leverage\":3,\
         \"position_size_usd\":300,\"stop_loss\":58800,\"take_profit\":64800,\"confidence\":85,\
         \"reasoning\":\"trend up\"}]\n```"
            .into(),
    ));
    llm.set_default(Reply::Text(
        "Nothing to do.\n```json\n[{\"symbol\":\"BTCUSDT\",\"action\":\"wait\"}]\n```".into(),
    ));
    set_up(&home, &live, &llm.base_url()).await;
    (live.hold_back_entry)();

    let mut first = engine(&home, &live);
    wait_until(
        "the entry to reach the venue",
        Duration::from_secs(60),
        || (live.entries)() == 1,
    )
    .await;
    first.kill().unwrap(); // SIGKILL while the venue holds the entry's answer back
    first.wait().unwrap();
    assert_eq!(
        cycle_one(&home)["phase"],
        "planned",
        "the cycle was not cut off"
    );

    let mut second = engine(&home, &live);
    wait_until(
        "the restarted engine to finish the cycle",
        Duration::from_secs(60),
        || cycle_one(&home)["phase"] == "done" && (live.protections)() == 2,
    )
    .await;
    Command::new("kill")
        .args(["-TERM", &second.id().to_string()])
        .status()
        .unwrap();
    second.wait().unwrap();

    assert_eq!(
        (live.entries)(),
        1,
        "{}: the entry was sent twice",
        live.kind
    );
    assert_eq!((live.protections)(), 2, "{}: stop and target", live.kind);
    let cycle = cycle_one(&home);
    let notes = cycle["notes"].to_string();
    assert!(notes.contains("resumed"), "{}: {cycle}", live.kind);
    let sent_ok = cycle["executions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["ok"] == true)
        .count();
    assert!(
        sent_ok >= 1,
        "{}: no execution recorded: {cycle}",
        live.kind
    );
}

async fn set_up(home: &Path, live: &Live, llm_url: &str) {
    let mut add = vec!["exchange", "add", "--type", live.kind, "--name", "acct"];
    add.extend(live.credentials.iter().copied());
    ok(home, live, &add).await;
    add_deepseek_model(home, &format!("{llm_url}/v1"), MODEL_KEY).await;
    for args in [
        &["strategy", "add", "--name", "default"][..],
        &[
            "trader",
            "add",
            "--name",
            "bot",
            "--model",
            "ds",
            "--exchange",
            "acct",
            "--strategy",
            "default",
        ],
        &["trader", "start", "bot", "--confirm-live"],
    ] {
        ok(home, live, args).await;
    }
}

async fn ok(home: &Path, live: &Live, args: &[&str]) {
    let mut cmd = nofxi(home, args);
    cmd.env(live.url_env, &live.url);
    let out = output_async(cmd).await;
    assert!(out.status.success(), "nofxi {args:?}: {}", text(&out));
}

/// `nofxi run` under one owner name, so the restarted engine takes its lease back at once.
fn engine(home: &Path, live: &Live) -> Child {
    nofxi(home, &["run", "--owner", "box", "--cycle-seconds", "600"])
        .env(live.url_env, &live.url)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// The journal's first cycle (null before there is one).
fn cycle_one(home: &Path) -> Value {
    let out = nofxi(
        home,
        &["trader", "journal", "bot", "--limit", "100", "--json"],
    )
    .output()
    .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let records: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    records
        .into_iter()
        .find(|r| r["cycle_number"] == 1)
        .unwrap_or(Value::Null)
}

/// Polls `done` (the mocks run on this runtime, so it sleeps without blocking them).
async fn wait_until(what: &str, limit: Duration, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < limit, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}
