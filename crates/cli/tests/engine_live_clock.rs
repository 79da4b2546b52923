//! `nofxi run --sim-speed 600` with a live trader beside a paper one: simulated time is for
//! paper traders only. The live trader (on the testkit mock Binance, over loopback) runs on
//! the wall clock — one cycle, dated now, in a run where the paper trader cycles many times
//! on the fast timeline — and the engine says so in its log.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use nofxi_testkit::binance::MockBinance;
use rust_decimal_macros::dec;
use serde_json::Value;
use support::{home, nofxi, output_async, text};

const KEY: &str = "liveClockKey1";
const SECRET: &str = "liveClockSecret1";

async fn ok(home: &Path, url: &str, args: &[&str]) -> Vec<u8> {
    let mut cmd = nofxi(home, args);
    cmd.env("NOFXI_BINANCE_BASE_URL", url);
    let out = output_async(cmd).await;
    assert!(out.status.success(), "nofxi {args:?}: {}", text(&out));
    out.stdout
}

fn wall_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

async fn journal(home: &Path, url: &str, trader: &str) -> Vec<Value> {
    let out = ok(
        home,
        url,
        &["trader", "journal", trader, "--limit", "10000", "--json"],
    )
    .await;
    serde_json::from_slice(&out).unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_live_trader_runs_on_the_wall_clock_under_sim_speed() {
    let mock = MockBinance::start().await.unwrap();
    mock.add_account(KEY, SECRET, dec!(5000));
    let url = mock.url();
    let (_dir, home) = home();
    for args in [
        &["exchange", "add", "--type", "paper", "--name", "paper"][..],
        &[
            "exchange",
            "add",
            "--type",
            "binance",
            "--name",
            "b1",
            "--api-key",
            KEY,
            "--secret-key",
            SECRET,
        ],
        &["model", "add", "--name", "rules", "--provider", "builtin"],
        &["strategy", "add", "--name", "default"],
        &[
            "trader",
            "add",
            "--name",
            "live-bot",
            "--model",
            "rules",
            "--exchange",
            "b1",
            "--strategy",
            "default",
        ],
        &[
            "trader",
            "add",
            "--name",
            "paper-bot",
            "--model",
            "rules",
            "--exchange",
            "paper",
            "--strategy",
            "default",
        ],
        &["trader", "start", "live-bot", "--confirm-live"],
        &["trader", "start", "paper-bot"],
    ] {
        ok(&home, &url, args).await;
    }

    // 600× with one-minute cycles: on the simulated timeline, a cycle every 0.1 s.
    let before = wall_ms();
    let mut engine = nofxi(
        &home,
        &[
            "run",
            "--sim-speed",
            "600",
            "--cycle-seconds",
            "60",
            // A live trader's lease must outlast an order's timeout between renewals.
            "--lease-seconds",
            "15",
        ],
    );
    let child = engine
        .env("NOFXI_BINANCE_BASE_URL", &url)
        .env("RUST_LOG", "info")
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    tokio::time::sleep(Duration::from_secs(4)).await;
    Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    let out = tokio::task::spawn_blocking(move || child.wait_with_output().unwrap())
        .await
        .unwrap();
    let after = wall_ms();
    let log = text(&out);
    assert!(out.status.success(), "{log}");
    let live = journal(&home, &url, "live-bot").await;
    let paper = journal(&home, &url, "paper-bot").await;
    // The live trader ran its first cycle and waits a real minute for the next.
    assert_eq!(
        live.len(),
        1,
        "live trader cycled at simulated speed: {log}"
    );
    let started = live[0]["started_ms"].as_i64().unwrap();
    assert!(
        (before..=after).contains(&started),
        "live cycle dated {started}, outside the wall-clock run {before}..{after}"
    );
    assert!(live[0]["error"].is_null(), "live cycle failed: {}", live[0]);
    // The paper trader beside it runs fast, dated ahead on the simulated timeline.
    assert!(paper.len() >= 5, "paper ran {} cycles", paper.len());
    assert!(
        paper
            .iter()
            .any(|c| c["started_ms"].as_i64().unwrap() > after + 60_000)
    );
    // One cycle's Binance market data, not dozens.
    assert!(mock.request_count("GET", "/fapi/v1/klines") <= 4);
    assert!(
        log.contains("live trader runs on the wall clock"),
        "the engine did not say the live trader ignores --sim-speed: {log}"
    );
}
