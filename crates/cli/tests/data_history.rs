//! `nofxi data download|list` and `nofxi backtest --data` against the mock Binance over
//! loopback HTTP (pointed at by `NOFXI_BINANCE_BASE_URL`): pages, a hole, a killed run
//! resumed, and a backtest over what was downloaded.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use nofxi_testkit::binance::{Fault, MockBinance, Route};
use support::{home, nofxi, output_async, text};

/// 2025-01-01T00:00:00Z.
const JAN_1: i64 = 1_735_689_600_000;
const M: i64 = 60_000;

fn at(home: &Path, mock: &MockBinance, args: &[&str]) -> Command {
    let mut cmd = nofxi(home, args);
    cmd.env("NOFXI_BINANCE_BASE_URL", mock.url());
    cmd
}

async fn run(home: &Path, mock: &MockBinance, args: &[&str]) -> Output {
    output_async(at(home, mock, args)).await
}

const DOWNLOAD: [&str; 12] = [
    "data",
    "download",
    "--exchange",
    "binance",
    "--symbols",
    "btc,eth",
    "--interval",
    "1m",
    "--from",
    "2025-01-01",
    "--to",
    "2025-01-03",
];

#[tokio::test(flavor = "multi_thread")]
async fn download_pages_through_both_symbols_reports_a_hole_and_lists_them() {
    let mock = MockBinance::start().await.unwrap();
    let (_dir, home) = home();
    // ETH halted for an hour on the first afternoon.
    mock.set_kline_gap("ETHUSDT", JAN_1 + 14 * 60 * M, JAN_1 + 15 * 60 * M);
    let out = run(&home, &mock, &DOWNLOAD).await;
    assert!(out.status.success(), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // 2 days of 1m candles: 2880 a symbol, 3 pages of 1000.
    assert!(
        stdout.contains("binance BTCUSDT 1m") && stdout.contains("2880 candles in 3 pages"),
        "{stdout}"
    );
    assert!(stdout.contains("2820 candles in 3 pages"), "{stdout}");
    assert_eq!(mock.request_count("GET", "/fapi/v1/klines"), 6);
    assert!(
        stderr.contains("binance ETHUSDT 1m: hole of 60 1m candles from 2025-01-01 14:00")
            && stderr.contains("nothing was filled in"),
        "{stderr}"
    );
    assert!(!stderr.contains("BTCUSDT 1m: hole"), "{stderr}");
    assert!(
        home.join("history/binance/BTCUSDT/1m/2025-01.csv.zst")
            .is_file()
    );

    let list = run(&home, &mock, &["data", "list"]).await;
    let shown = String::from_utf8_lossy(&list.stdout);
    assert!(
        shown.starts_with("EXCHANGE  SYMBOL   INTERVAL  FROM"),
        "{shown}"
    );
    let btc = shown.lines().find(|l| l.contains("BTCUSDT")).unwrap();
    assert!(btc.contains("2880") && btc.ends_with("none"), "{btc}");
    let eth = shown.lines().find(|l| l.contains("ETHUSDT")).unwrap();
    assert!(
        eth.contains("2820") && eth.ends_with("1 (60 candles missing)"),
        "{eth}"
    );

    let json = run(&home, &mock, &["data", "list", "--json"]).await;
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v[1]["symbol"], "ETHUSDT");
    assert_eq!(v[1]["holes"][0]["missing"], 60);
    assert_eq!(v[1]["covered"][0]["from_ms"], JAN_1);

    // Again: everything is stored, nothing is asked.
    let again = run(&home, &mock, &DOWNLOAD).await;
    assert!(String::from_utf8_lossy(&again.stdout).contains("already stored, nothing asked"));
    assert_eq!(mock.request_count("GET", "/fapi/v1/klines"), 6);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_killed_download_resumes_where_it_stopped() {
    let mock = MockBinance::start().await.unwrap();
    let (_dir, home) = home();
    // The third page hangs; the process is killed while it waits.
    mock.inject_after(Route::Klines, 2, Fault::Delay(Duration::from_secs(60)));
    let mut child = at(&home, &mock, &DOWNLOAD)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while mock.request_count("GET", "/fapi/v1/klines") < 3 {
        assert!(started.elapsed() < Duration::from_secs(30), "no third page");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    child.kill().unwrap(); // SIGKILL: no chance to tidy up
    child.wait().unwrap();

    let out = run(&home, &mock, &DOWNLOAD).await;
    assert!(out.status.success(), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    // BTC had two pages stored: one is left; ETH is whole.
    assert!(
        stdout.contains("binance BTCUSDT 1m") && stdout.contains("880 candles in 1 page"),
        "{stdout}"
    );
    assert!(stdout.contains("(2880 stored)"), "{stdout}");
    assert_eq!(mock.request_count("GET", "/fapi/v1/klines"), 3 + 1 + 3);
    let list = run(&home, &mock, &["data", "list", "--json"]).await;
    let v: serde_json::Value = serde_json::from_slice(&list.stdout).unwrap();
    assert_eq!(v[0]["candles"], 2880);
    assert_eq!(v[0]["holes"].as_array().unwrap().len(), 0);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_backtest_runs_on_downloaded_history_and_says_so() {
    let mock = MockBinance::start().await.unwrap();
    let (_dir, home) = home();
    let download = [
        "data",
        "download",
        "--exchange",
        "binance",
        "--symbols",
        "btc",
        "--interval",
        "15m",
        "--from",
        "2025-01-01",
        "--to",
        "2025-01-11",
    ];
    let out = run(&home, &mock, &download).await;
    assert!(out.status.success(), "{}", text(&out));

    let bt = run(
        &home,
        &mock,
        &[
            "backtest",
            "--data",
            "binance",
            "--interval",
            "15m",
            "--quiet",
        ],
    )
    .await;
    assert!(bt.status.success(), "{}", text(&bt));
    let shown = String::from_utf8_lossy(&bt.stdout);
    assert!(
        shown.starts_with("data            binance history BTCUSDT 15m (nofxi data download) · replayed from recorded candles"),
        "{shown}"
    );
    let json = run(
        &home,
        &mock,
        &[
            "backtest",
            "--data",
            "binance",
            "--interval",
            "15m",
            "--json",
        ],
    )
    .await;
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["simulated"], false);
    assert_eq!(v["candles"], 960);

    // What was not downloaded is refused by its flag, with the command that fixes it.
    let missing = run(
        &home,
        &mock,
        &["backtest", "--data", "binance", "--interval", "1h"],
    )
    .await;
    assert_eq!(missing.status.code(), Some(2), "{}", text(&missing));
    let err = String::from_utf8_lossy(&missing.stderr);
    assert!(
        err.contains("--data binance has no 1h candles stored (stored: 15m; --interval picks one)")
            && err.contains("nofxi data download --exchange binance"),
        "{err}"
    );
    let eth = run(
        &home,
        &mock,
        &[
            "backtest",
            "--data",
            "binance",
            "--interval",
            "15m",
            "--symbols",
            "eth",
        ],
    )
    .await;
    assert_eq!(eth.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&eth.stderr).contains("--data binance has no ETHUSDT 15m candles"),
        "{}",
        text(&eth)
    );
    let both = run(
        &home,
        &mock,
        &["backtest", "--data", "binance", "--csv", "BTCUSDT=x.csv"],
    )
    .await;
    assert_eq!(both.status.code(), Some(2));
}

#[tokio::test(flavor = "multi_thread")]
async fn bad_download_flags_are_refused_by_name() {
    let mock = MockBinance::start().await.unwrap();
    let (_dir, home) = home();
    let cases: [(&[&str], &str); 4] = [
        (
            &[
                "data",
                "download",
                "--exchange",
                "kraken",
                "--symbols",
                "btc",
                "--from",
                "2025-01-01",
            ],
            "--exchange \"kraken\" is not a venue nofxi reads market data from: use binance, okx, bybit, hyperliquid or bitget",
        ),
        (
            &[
                "data",
                "download",
                "--exchange",
                "binance",
                "--symbols",
                "btc",
                "--from",
                "2025-02-01",
                "--to",
                "2025-01-01",
            ],
            "--from 2025-02-01",
        ),
        (
            &[
                "data",
                "download",
                "--exchange",
                "binance",
                "--symbols",
                "btc",
                "--from",
                "yesterday",
            ],
            "--from \"yesterday\" is not a time",
        ),
        (
            &[
                "data",
                "download",
                "--exchange",
                "binance",
                "--symbols",
                "btc",
                "--from",
                "2025-01-01",
                "--interval",
                "7m",
            ],
            "7m",
        ),
    ];
    for (args, said) in cases {
        let out = run(&home, &mock, args).await;
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(said), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    assert_eq!(mock.request_count("GET", "/fapi/v1/klines"), 0);
}

/// The other venues' klines go through their own adapters the same way: OKX, Bybit and
/// Hyperliquid, each against its mock, 2 days of 1h candles (and 1m from Bybit: 3 pages).
#[tokio::test(flavor = "multi_thread")]
async fn okx_bybit_and_hyperliquid_history_downloads_through_their_adapters() {
    use nofxi_testkit::bybit::MockBybit;
    use nofxi_testkit::hyperliquid::MockHyperliquid;
    use nofxi_testkit::okx::MockOkx;
    let (_dir, home) = home();
    let okx = MockOkx::start().await.unwrap();
    let bybit = MockBybit::start().await.unwrap();
    let hyperliquid = MockHyperliquid::start().await.unwrap();
    for (venue, variable, url, interval, expected) in [
        ("okx", "NOFXI_OKX_BASE_URL", okx.url(), "1h", 48),
        ("bybit", "NOFXI_BYBIT_BASE_URL", bybit.url(), "1h", 48),
        (
            "hyperliquid",
            "NOFXI_HYPERLIQUID_BASE_URL",
            hyperliquid.url(),
            "1h",
            48,
        ),
        ("bybit", "NOFXI_BYBIT_BASE_URL", bybit.url(), "1m", 2880),
    ] {
        let mut cmd = nofxi(
            &home,
            &[
                "data",
                "download",
                "--exchange",
                venue,
                "--symbols",
                "btc",
                "--interval",
                interval,
                "--from",
                "2025-01-01",
                "--to",
                "2025-01-03",
                "--json",
            ],
        );
        cmd.env(variable, &url);
        let out = output_async(cmd).await;
        assert!(out.status.success(), "{venue}: {}", text(&out));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let series = &v["series"][0];
        assert_eq!(series["stored"], expected, "{venue} {interval}: {v}");
        assert_eq!(series["holes"].as_array().unwrap().len(), 0, "{venue}: {v}");
        assert_eq!(v["complete"], true);
    }
    let list = output_async(nofxi(&home, &["data", "list"])).await;
    let shown = String::from_utf8_lossy(&list.stdout);
    for venue in ["okx", "bybit", "hyperliquid"] {
        assert!(
            shown
                .lines()
                .any(|l| l.starts_with(venue) && l.contains("BTCUSDT")),
            "{shown}"
        );
    }
}
