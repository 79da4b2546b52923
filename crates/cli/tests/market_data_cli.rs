//! `nofxi market book|klines` through the market-data skill's runtime, by the real binary:
//! OKX's public data from crates/testkit's MockOkx (`--source okx`, pointed at it by
//! `NOFXI_OKX_BASE_URL`), the simulated market labelled simulated, and the skill's refusals
//! (an index's order book, a 1.5h interval, 11 levels) as usage errors before any request.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::path::Path;
use std::process::Output;

use nofxi_testkit::okx::MockOkx;
use serde_json::Value;
use support::{home, nofxi, output_async, text};

const BOOKS: &str = "/api/v5/market/books";
const CANDLES: &str = "/api/v5/market/candles";
const INSTRUMENTS: &str = "/api/v5/public/instruments";
const TICKER: &str = "/api/v5/market/ticker";

async fn run(home: &Path, okx: &str, args: &[&str]) -> Output {
    let mut cmd = nofxi(home, args);
    cmd.env("NOFXI_OKX_BASE_URL", okx);
    output_async(cmd).await
}

#[tokio::test(flavor = "multi_thread")]
async fn okx_books_and_candles_are_read_through_the_skill_and_labelled() {
    let (_dir, home) = home();
    let mock = MockOkx::start().await.unwrap();
    let url = mock.url();

    let out = run(
        &home,
        &url,
        &[
            "market", "book", "btc", "--source", "okx", "--depth", "5", "--json",
        ],
    )
    .await;
    assert!(out.status.success(), "{}", text(&out));
    let book: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(book["symbol"], "BTCUSDT");
    assert_eq!(book["source"]["name"], "okx");
    assert_eq!(book["source"]["simulated"], false);
    assert_eq!(book["bids"].as_array().unwrap().len(), 5);
    assert_eq!(book["asks"][0]["price"], "60000.1");
    assert_eq!(book["pressure_ratio"], "1");
    assert_eq!(mock.request_count("GET", BOOKS), 1);

    let out = run(
        &home,
        &url,
        &[
            "market",
            "klines",
            "eth",
            "--source",
            "okx",
            "--interval",
            "4h",
            "--limit",
            "6",
        ],
    )
    .await;
    assert!(out.status.success(), "{}", text(&out));
    let said = String::from_utf8(out.stdout).unwrap();
    assert!(
        said.starts_with("ETHUSDT 4h · okx · okx public market data (live)"),
        "{said}"
    );
    // The head, the table's head, six candles and what they add up to.
    assert_eq!(said.lines().count(), 1 + 1 + 6 + 1, "{said}");
    assert!(
        said.lines().last().unwrap().starts_with("6 candles: "),
        "{said}"
    );
    assert_eq!(mock.request_count("GET", CANDLES), 1);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_skills_refusals_are_usage_errors_and_nothing_is_sent() {
    let (_dir, home) = home();
    let mock = MockOkx::start().await.unwrap();
    let url = mock.url();
    for (args, said) in [
        (
            &["market", "book", "SPX.IX", "--source", "okx"][..],
            "no order book (depth)",
        ),
        (
            &[
                "market",
                "klines",
                "btc",
                "--source",
                "okx",
                "--interval",
                "1.5h",
            ],
            "\"1.5h\" is not allowed; choose one of: 1m, 5m, 15m, 30m, 1h, 4h, 1d, 1w",
        ),
        (
            &["market", "book", "btc", "--source", "okx", "--depth", "11"],
            "`depth` must be between 1 and 10, got 11",
        ),
    ] {
        let out = run(&home, &url, args).await;
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out));
        assert!(text(&out).contains(said), "{args:?}: {}", text(&out));
    }
    for path in [BOOKS, CANDLES, INSTRUMENTS] {
        assert_eq!(mock.request_count("GET", path), 0, "{path} was asked");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_simulated_market_is_the_default_and_says_so() {
    let (_dir, home) = home();
    let out = output_async(nofxi(&home, &["market", "book", "比特币", "--json"])).await;
    assert!(out.status.success(), "{}", text(&out));
    let book: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(book["source"]["name"], "simulated");
    assert_eq!(book["source"]["simulated"], true);
    assert!(
        book["source"]["label"]
            .as_str()
            .unwrap()
            .contains("simulated market"),
        "{book}"
    );
    assert_eq!(book["depth"], 5);
    let out = output_async(nofxi(
        &home,
        &["market", "book", "btc", "--source", "kraken"],
    ))
    .await;
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("unknown source \"kraken\""),
        "{}",
        text(&out)
    );
}

/// A venue's own spelling of the USDT perpetual is read as it, on a venue and on the simulated
/// market alike (OKX's BTC-USDT-SWAP, CCXT's BTC/USDT:USDT, BTC-PERP, btc_usdt, …); a spelling
/// of another contract (OKX's coin-margined BTC-USD-SWAP, a pair quoted in BTC) is refused
/// naming the forms read, before any request, instead of becoming a symbol no venue lists.
#[tokio::test(flavor = "multi_thread")]
async fn venue_spellings_of_the_perpetual_are_read_and_others_refused() {
    let (_dir, home) = home();
    let mock = MockOkx::start().await.unwrap();
    let url = mock.url();
    for typed in [
        "BTC-USDT-SWAP",
        "BTCUSDT",
        "BTC-PERP",
        "BTC/USDT:USDT",
        "btc_usdt",
        "BTCUSDT.P",
        "BTCUSDT_UMCBL",
    ] {
        for source in ["okx", "sim"] {
            let args = ["market", "price", typed, "--source", source, "--json"];
            let out = run(&home, &url, &args).await;
            assert!(out.status.success(), "{typed} {source}: {}", text(&out));
            let ticker: Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(ticker["symbol"], "BTCUSDT", "{typed} {source}: {ticker}");
        }
    }
    let asked = mock.request_count("GET", TICKER);
    for typed in ["BTC-USD-SWAP", "ETH/BTC", "BTC/USDC:USDC"] {
        let out = run(&home, &url, &["market", "price", typed, "--source", "okx"]).await;
        let said = text(&out);
        assert_eq!(out.status.code(), Some(2), "{typed}: {said}");
        assert!(
            said.contains("no USDT perpetual")
                && said.contains("BTC-USDT-SWAP, BTC/USDT:USDT, BTC-PERP"),
            "{typed}: {said}"
        );
    }
    assert_eq!(mock.request_count("GET", TICKER), asked);
}
