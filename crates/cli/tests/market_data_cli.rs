//! `nofxi market book|klines` through the market-data skill's runtime, by the real binary:
//! OKX's public data from crates/testkit's MockOkx (`--source okx`, pointed at it by
//! `NOFXI_OKX_BASE_URL`), the simulated market labelled simulated, and the skill's refusals
//! (an index's order book, a 1.5h interval, 101 levels) as usage errors before any request.

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
            "\"1.5h\" is not allowed; choose one of: 1m, 3m, 5m, 15m, 30m, 1h, 2h, 4h, 6h, 12h, 1d, 1w",
        ),
        (
            &["market", "book", "btc", "--source", "okx", "--depth", "101"],
            "`depth` must be between 1 and 100, got 101",
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

/// Candles take every interval nofxi has (the domain's list, as `nofxi data download` does),
/// on the simulated market and on a venue in its own spelling (OKX's `2H`, `6Hutc`); a venue
/// without one (Hyperliquid has no 6h) refuses it naming those it serves. The book goes to
/// 100 levels; a venue whose book is shallower (Hyperliquid: 20) says so; past 100 the
/// skill refuses naming `depth`. `--help` says the same bounds.
#[tokio::test(flavor = "multi_thread")]
async fn every_interval_is_served_or_refused_by_name_and_the_book_goes_to_100() {
    let (_dir, home) = home();
    let okx = MockOkx::start().await.unwrap();
    let url = okx.url();
    for interval in nofxi_domain::Interval::NAMES {
        for source in ["sim", "okx"] {
            let args = [
                "market",
                "klines",
                "btc",
                "--source",
                source,
                "--interval",
                interval,
                "--limit",
                "3",
                "--json",
            ];
            let out = run(&home, &url, &args).await;
            assert!(out.status.success(), "{interval} {source}: {}", text(&out));
            let candles: Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(candles["interval"], interval, "{candles}");
        }
    }
    let hl = support::live::hyperliquid().await;
    let out = output_async(hl.at_mock(nofxi(
        &home,
        &[
            "market",
            "klines",
            "btc",
            "--source",
            "hyperliquid",
            "--interval",
            "6h",
        ],
    )))
    .await;
    let said = text(&out);
    assert!(!out.status.success(), "{said}");
    assert!(
        said.contains("6h candles: it serves 1m, 3m, 5m, 15m, 30m, 1h, 2h, 4h, 12h, 1d, 1w"),
        "{said}"
    );

    let book = |source: &str, depth: &str| {
        let args = [
            "market", "book", "btc", "--source", source, "--depth", depth, "--json",
        ];
        hl.at_mock(support::nofxi(&home, &args))
    };
    let out = output_async(book("sim", "100")).await;
    assert!(out.status.success(), "{}", text(&out));
    let levels: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(levels["bids"].as_array().unwrap().len(), 100, "{levels}");
    let mut at_okx = book("okx", "50");
    at_okx.env("NOFXI_OKX_BASE_URL", &url);
    let out = output_async(at_okx).await;
    assert!(out.status.success(), "{}", text(&out));
    let out = output_async(book("hyperliquid", "50")).await;
    let said = text(&out);
    assert!(
        !out.status.success() && said.contains("its book has at most 20; ask for 1 to 20"),
        "{said}"
    );
    let out = output_async(book("hyperliquid", "20")).await;
    assert!(out.status.success(), "{}", text(&out));
    let out = output_async(book("sim", "101")).await;
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("`depth` must be between 1 and 100, got 101"),
        "{}",
        text(&out)
    );

    let help = output_async(nofxi(&home, &["market", "book", "--help"])).await;
    assert!(text(&help).contains("1–100"), "{}", text(&help));
    let help = output_async(nofxi(&home, &["market", "klines", "--help"])).await;
    assert!(text(&help).contains("6h, 12h"), "{}", text(&help));
}
