//! The real `nofxi` binary for issue 4: offline klines, and `nofxi exchange test|balance|
//! positions` against the mock Binance server (pointed at by `NOFXI_BINANCE_BASE_URL`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::path::Path;
use std::process::Output;

use nofxi_testkit::binance::{Fault, MockBinance, Route};
use rust_decimal_macros::dec;
use support::{home, nofxi, output_async, text};

const KEY: &str = "cliMockKey42";
const SECRET: &str = "cliMockSecret42";

/// The binary, pointed at the mock Binance when `base_url` is given.
async fn run(home: &Path, base_url: Option<&str>, args: &[&str]) -> Output {
    let mut cmd = nofxi(home, args);
    if let Some(url) = base_url {
        cmd.env("NOFXI_BINANCE_BASE_URL", url);
    }
    output_async(cmd).await
}

#[tokio::test(flavor = "multi_thread")]
async fn klines_work_offline_and_the_same_query_gives_the_same_candles() {
    let (_dir, home) = home();
    let args = [
        "market",
        "klines",
        "比特币",
        "--interval",
        "1h",
        "--limit",
        "5",
    ];
    let first = run(&home, None, &args).await;
    assert!(first.status.success(), "{}", text(&first));
    let out = String::from_utf8(first.stdout.clone()).unwrap();
    assert!(out.starts_with("BTCUSDT 1h · sim"), "{out}");
    // The head, the table's head, five candles and what they add up to.
    assert_eq!(out.lines().count(), 2 + 5 + 1, "{out}");
    let second = run(&home, None, &args).await;
    assert_eq!(first.stdout, second.stdout);

    // Pinned to an end time, a query is the same forever, and the same through any alias.
    let pinned = [
        "market",
        "klines",
        "btc",
        "--interval",
        "4h",
        "--limit",
        "3",
        "--end",
        "2026-01-01T00:00:00Z",
        "--json",
    ];
    let a = run(&home, None, &pinned).await;
    let v: serde_json::Value = serde_json::from_slice(&a.stdout).unwrap();
    assert_eq!(v["symbol"], "BTCUSDT");
    assert_eq!(v["candles"].as_array().unwrap().len(), 3);
    assert_eq!(v["candles"][2]["open_time_ms"], 1_767_225_600_000i64);
    let mut again = pinned;
    again[2] = "BTC/USDT";
    assert_eq!(run(&home, None, &again).await.stdout, a.stdout);
}

async fn add_binance(home: &Path, name: &str, secret: &str) {
    let out = run(
        home,
        None,
        &[
            "exchange",
            "add",
            "--type",
            "binance",
            "--name",
            name,
            "--api-key",
            KEY,
            "--secret-key",
            secret,
        ],
    )
    .await;
    assert!(out.status.success(), "{}", text(&out));
}

#[tokio::test(flavor = "multi_thread")]
async fn exchange_test_names_clock_drift_bad_signature_and_missing_permission() {
    let (_dir, home) = home();
    let mock = MockBinance::start().await.unwrap();
    mock.add_account(KEY, SECRET, dec!(1234.5));
    let url = mock.url();
    add_binance(&home, "main", SECRET).await;
    add_binance(&home, "swapped", "wrong-secret").await;

    let healthy = run(&home, Some(&url), &["exchange", "test", "main"]).await;
    assert!(healthy.status.success(), "{}", text(&healthy));
    assert!(text(&healthy).contains("1234.5"), "{}", text(&healthy));

    mock.inject(Route::Signed, Fault::binance(-1021));
    mock.inject(Route::Signed, Fault::binance(-1021));
    let drift = run(&home, Some(&url), &["exchange", "test", "main"]).await;
    assert!(!drift.status.success());
    assert!(
        text(&drift).contains("clock drift (-1021)"),
        "{}",
        text(&drift)
    );

    let bad = run(&home, Some(&url), &["exchange", "test", "swapped"]).await;
    assert!(!bad.status.success());
    assert!(
        text(&bad).contains("bad signature (-1022)"),
        "{}",
        text(&bad)
    );
    assert!(
        !text(&bad).contains("wrong-secret"),
        "the secret is never printed"
    );

    mock.set_futures_enabled(KEY, false);
    let perm = run(&home, Some(&url), &["exchange", "test", "main", "--json"]).await;
    assert!(!perm.status.success());
    let v: serde_json::Value = serde_json::from_slice(&perm.stdout).unwrap();
    assert_eq!(v["permissions"]["status"], "failed");
    assert_eq!(
        v["permissions"]["problem"]["diagnosis"],
        "futures_permission_missing"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn balance_and_positions_read_binance_and_paper_accounts() {
    let (_dir, home) = home();
    let mock = MockBinance::start().await.unwrap();
    mock.add_account(KEY, SECRET, dec!(777));
    add_binance(&home, "live", SECRET).await;
    let out = run(
        &home,
        Some(&mock.url()),
        &["exchange", "balance", "live", "--json"],
    )
    .await;
    assert!(out.status.success(), "{}", text(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["wallet_balance"], "777");
    let out = run(&home, Some(&mock.url()), &["exchange", "positions", "live"]).await;
    assert!(out.status.success(), "{}", text(&out));

    let add = run(
        &home,
        None,
        &["exchange", "add", "--type", "paper", "--name", "sandbox"],
    )
    .await;
    assert!(add.status.success(), "{}", text(&add));
    let out = run(&home, None, &["exchange", "balance", "sandbox", "--json"]).await;
    assert!(out.status.success(), "{}", text(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["equity"], "10000");
    let test = run(&home, None, &["exchange", "test", "sandbox"]).await;
    assert!(test.status.success(), "{}", text(&test));
}

/// A base URL whose server answers `{}` everywhere but the clock passes no check: `exchange
/// test` marks each check UNREADABLE with the field and endpoint and exits non-zero, and
/// `exchange positions` names the endpoint whose answer it could not read.
#[tokio::test(flavor = "multi_thread")]
async fn a_server_answering_empty_objects_is_not_a_working_exchange() {
    let (_dir, home) = home();
    let mock = MockBinance::start().await.unwrap();
    mock.add_account(KEY, SECRET, dec!(10));
    mock.hollow_answers(Some(serde_json::json!({})));
    let url = mock.url();
    add_binance(&home, "main", SECRET).await;

    let out = run(&home, Some(&url), &["exchange", "test", "main"]).await;
    let said = text(&out);
    assert!(!out.status.success(), "{said}");
    for check in [
        "api key",
        "ip whitelist",
        "permissions",
        "position mode",
        "balance",
    ] {
        let row = said
            .lines()
            .find(|l| l.starts_with(check))
            .unwrap_or_else(|| panic!("no {check} row: {said}"));
        assert!(row.contains("UNREADABLE"), "{row}");
    }
    assert!(said.contains("GET /fapi/v1/positionSide/dual"), "{said}");
    assert!(said.contains("totalWalletBalance"), "{said}");

    let out = run(&home, Some(&url), &["exchange", "positions", "main"]).await;
    assert!(!out.status.success());
    assert!(
        text(&out).contains("GET /fapi/v2/positionRisk"),
        "{}",
        text(&out)
    );
}
