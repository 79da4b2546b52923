//! A paper account on a venue's live prices: `exchange add --type paper --market binance`
//! follows the mock Binance's public market data (pointed at by `NOFXI_BINANCE_BASE_URL`),
//! fills on paper at its prices, and says so in the journal, the status and the balance.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use nofxi_testkit::binance::MockBinance;
use nofxi_testkit::bitget::MockBitget;
use nofxi_testkit::bybit::MockBybit;
use nofxi_testkit::llm::{MockLlm, Reply};
use rust_decimal::Decimal;
use rust_decimal_macros::dec;
use serde_json::Value;
use support::live;
use support::{add_deepseek_model, home, nofxi, output_async, text};

const MODEL_KEY: &str = "sk-paperlive0123456789abcdef";
const LABEL: &str = "binance live prices (paper fills)";

async fn run(home: &Path, url: &str, args: &[&str]) -> Output {
    let mut cmd = nofxi(home, args);
    cmd.env("NOFXI_BINANCE_BASE_URL", url);
    output_async(cmd).await
}

async fn ok(home: &Path, url: &str, args: &[&str]) -> String {
    let out = run(home, url, args).await;
    assert!(out.status.success(), "{args:?}: {}", text(&out));
    String::from_utf8(out.stdout).unwrap()
}

fn dec_of(v: &Value) -> Decimal {
    v.as_str().unwrap().parse().unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_paper_trader_follows_binance_public_prices_and_says_so() {
    let (_dir, home) = home();
    let mock = MockBinance::start().await.unwrap();
    let url = mock.url();
    // A price no simulated market would happen to show.
    mock.set_price("BTCUSDT", dec!(61234.5));
    let llm = MockLlm::start().await;
    llm.set_default(Reply::Text(
        "Trend up.\n```json\n[{\"symbol\":\"BTCUSDT\",\"action\":\"open_long\",\"leverage\":3,\
         \"position_size_usd\":300,\"stop_loss\":60000,\"take_profit\":65000,\"confidence\":85,\
         \"reasoning\":\"trend up\"}]\n```"
            .into(),
    ));
    let added = ok(
        &home,
        &url,
        &[
            "exchange",
            "add",
            "--type",
            "paper",
            "--name",
            "live-paper",
            "--market",
            "binance",
        ],
    )
    .await;
    assert!(added.contains(&format!("prices: {LABEL}")), "{added}");
    let listed = ok(&home, &url, &["exchange", "list"]).await;
    assert!(listed.contains("paper (binance prices)"), "{listed}");
    let shown = ok(&home, &url, &["exchange", "show", "live-paper", "--json"]).await;
    assert_eq!(
        serde_json::from_str::<Value>(&shown).unwrap()["market"],
        "binance"
    );

    add_deepseek_model(&home, &format!("{}/v1", llm.base_url()), MODEL_KEY).await;
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
            "live-paper",
            "--strategy",
            "default",
            "--initial-balance",
            "10000",
        ],
    )
    .await;
    ok(&home, &url, &["trader", "start", "bot"]).await;

    let journal = one_cycle(&home, "NOFXI_BINANCE_BASE_URL", &url).await;
    let record = &journal[0];
    assert_eq!(record["market"], LABEL, "{record}");
    assert!(
        record["executions"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["ok"] == true),
        "{record}"
    );
    // The prices were Binance's public ones, read without a key; nothing was sent to trade.
    assert!(mock.request_count("GET", "/fapi/v1/ticker/bookTicker") > 0);
    assert!(mock.request_count("GET", "/fapi/v1/klines") > 0);
    assert_eq!(mock.request_count("POST", "/fapi/v1/order"), 0);

    // The fill is on paper at the mock's ask (mid + one 0.1 tick), with Binance's taker fee.
    let positions = ok(
        &home,
        &url,
        &["exchange", "positions", "live-paper", "--json"],
    )
    .await;
    let positions: Value = serde_json::from_str(&positions).unwrap();
    let position = &positions[0];
    assert_eq!(position["symbol"], "BTCUSDT", "{positions}");
    assert_eq!(
        dec_of(&position["entry_price"]),
        dec!(61234.6),
        "{positions}"
    );
    let balance = ok(
        &home,
        &url,
        &["exchange", "balance", "live-paper", "--json"],
    )
    .await;
    let balance: Value = serde_json::from_str(&balance).unwrap();
    let fee = dec!(10000) - dec_of(&balance[0]["wallet_balance"]);
    let notional = dec_of(&position["quantity"]) * dec!(61234.6);
    assert_eq!(fee, notional * dec!(0.0005), "{balance} {positions}");

    // Wherever the account's figures are shown, so is where its prices come from.
    let journal_text = ok(&home, &url, &["trader", "journal", "bot"]).await;
    assert!(
        journal_text.starts_with(&format!("prices: {LABEL}\n")),
        "{journal_text}"
    );
    let status = ok(&home, &url, &["trader", "status", "bot"]).await;
    assert!(status.contains(&format!("prices     {LABEL}")), "{status}");
    let status_json = ok(&home, &url, &["trader", "status", "bot", "--json"]).await;
    assert_eq!(
        serde_json::from_str::<Value>(&status_json).unwrap()["prices"],
        LABEL
    );
    let balance_text = ok(&home, &url, &["exchange", "balance", "live-paper"]).await;
    assert!(balance_text.contains(LABEL), "{balance_text}");
    let positions_text = ok(&home, &url, &["exchange", "positions", "live-paper"]).await;
    assert!(
        positions_text.starts_with(&format!("live-paper · paper · {LABEL}")),
        "{positions_text}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_market_source_is_a_paper_account_s_choice_and_bad_ones_are_named() {
    let (_dir, home) = home();
    let url = "http://127.0.0.1:9";
    let bad = run(
        &home,
        url,
        &[
            "exchange", "add", "--type", "paper", "--name", "p", "--market", "kraken",
        ],
    )
    .await;
    assert_eq!(bad.status.code(), Some(2), "{}", text(&bad));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(
        err.contains("--market \"kraken\" is not a market source: use simulated, binance, okx, bybit, hyperliquid, bitget"),
        "{err}"
    );
    let live = run(
        &home,
        url,
        &[
            "exchange",
            "add",
            "--type",
            "binance",
            "--name",
            "b",
            "--api-key",
            "k1234567890abcdef",
            "--secret-key",
            "s1234567890abcdef",
            "--market",
            "okx",
        ],
    )
    .await;
    assert!(!live.status.success());
    assert!(
        String::from_utf8_lossy(&live.stderr).contains("only a paper account takes its prices"),
        "{}",
        text(&live)
    );
    // A simulated paper account is the default; it can be moved to live prices and back.
    ok(
        &home,
        url,
        &["exchange", "add", "--type", "paper", "--name", "p"],
    )
    .await;
    let shown = ok(&home, url, &["exchange", "show", "p"]).await;
    assert!(
        shown.contains("prices      simulated market (offline)"),
        "{shown}"
    );
    let moved = ok(&home, url, &["exchange", "update", "p", "--market", "okx"]).await;
    assert!(
        moved.contains("prices: okx live prices (paper fills)"),
        "{moved}"
    );
    ok(
        &home,
        url,
        &["exchange", "update", "p", "--market", "simulated"],
    )
    .await;
    let shown = ok(&home, url, &["exchange", "show", "p", "--json"]).await;
    assert_eq!(
        serde_json::from_str::<Value>(&shown).unwrap()["market"],
        "simulated"
    );
    let audit = ok(&home, url, &["audit"]).await;
    assert!(audit.contains("market: okx -> simulated"), "{audit}");
}

/// Run the engine on `home` until the trader `bot` has a finished cycle; its journal.
async fn one_cycle(home: &Path, variable: &str, url: &str) -> Value {
    run_until_cycle(home, variable, url, 1).await
}

/// Run the engine on `home` until the trader `bot`'s newest cycle is number `cycle` or later
/// and finished, then stop it; the journal.
async fn run_until_cycle(home: &Path, variable: &str, url: &str, cycle: u64) -> Value {
    let mut engine = nofxi(home, &["run", "--cycle-seconds", "60"]);
    let child = engine
        .env(variable, url)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut journal = Value::Null;
    for _ in 0..600 {
        let out = output_async(nofxi(home, &["trader", "journal", "bot", "--json"])).await;
        journal = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
        if journal[0]["phase"] == "done"
            && journal[0]["cycle_number"]
                .as_u64()
                .is_some_and(|n| n >= cycle)
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    let log = tokio::task::spawn_blocking(move || child.wait_with_output().unwrap())
        .await
        .unwrap();
    assert_eq!(journal[0]["phase"], "done", "{journal}\n{}", text(&log));
    assert!(
        journal[0]["cycle_number"].as_u64() >= Some(cycle),
        "{journal}\n{}",
        text(&log)
    );
    journal
}

/// On Bybit's prices a paper fill pays Bybit's taker fee (0.055 %), not the default 0.05 %.
#[tokio::test(flavor = "multi_thread")]
async fn a_paper_account_on_bybit_prices_pays_bybit_s_fee() {
    let mock = MockBybit::start().await.unwrap();
    mock.set_price("BTCUSDT", dec!(61234.5));
    fills_at_the_venue_s_prices_with_its_fee(
        "bybit",
        "NOFXI_BYBIT_BASE_URL",
        &mock.url(),
        dec!(0.00055),
    )
    .await;
}

/// Bitget's public market data, which `nofxi market --source bitget` reads, is a paper
/// account's choice as the other venues' are: a trader on it fills on paper at the Bitget
/// mock's prices and pays Bitget's taker fee (0.06 %).
#[tokio::test(flavor = "multi_thread")]
async fn a_paper_account_on_bitget_prices_fills_there_and_pays_bitget_s_fee() {
    let mock = MockBitget::start().await.unwrap();
    mock.set_price("BTCUSDT", dec!(61234.5));
    fills_at_the_venue_s_prices_with_its_fee(
        "bitget",
        "NOFXI_BITGET_BASE_URL",
        &mock.url(),
        dec!(0.0006),
    )
    .await;
}

/// A paper account on `venue`'s prices (its mock at `url`, BTCUSDT at 61 234.5) and a trader
/// on it whose model opens a long: the cycle fills on paper near that price, journalled as
/// that venue's live prices, and the fill pays `taker_fee`.
async fn fills_at_the_venue_s_prices_with_its_fee(
    venue: &str,
    variable: &str,
    url: &str,
    taker_fee: Decimal,
) {
    let (_dir, home) = home();
    let llm = MockLlm::start().await;
    llm.set_default(Reply::Text(
        "Up.\n```json\n[{\"symbol\":\"BTCUSDT\",\"action\":\"open_long\",\"leverage\":3,\
         \"position_size_usd\":300,\"stop_loss\":60000,\"take_profit\":65000,\"confidence\":85,\
         \"reasoning\":\"up\"}]\n```"
            .into(),
    ));
    let at_venue = |args: &[&str]| {
        let mut cmd = nofxi(&home, args);
        cmd.env(variable, url);
        cmd
    };
    let added = output_async(at_venue(&[
        "exchange", "add", "--type", "paper", "--name", "vp", "--market", venue,
    ]))
    .await;
    let label = format!("{venue} live prices (paper fills)");
    assert!(
        text(&added).contains(&format!("prices: {label}")),
        "{}",
        text(&added)
    );
    add_deepseek_model(&home, &format!("{}/v1", llm.base_url()), MODEL_KEY).await;
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
            "vp",
            "--strategy",
            "default",
            "--initial-balance",
            "10000",
        ],
        &["trader", "start", "bot"],
    ] {
        let out = output_async(nofxi(&home, args)).await;
        assert!(out.status.success(), "{args:?}: {}", text(&out));
    }
    let journal = one_cycle(&home, variable, url).await;
    assert_eq!(journal[0]["market"], label.as_str());
    let positions = output_async(at_venue(&["exchange", "positions", "vp", "--json"])).await;
    let positions: Value = serde_json::from_slice(&positions.stdout).unwrap();
    let p = &positions[0];
    let entry = dec_of(&p["entry_price"]);
    assert!((entry - dec!(61234.5)).abs() < dec!(5), "{positions}");
    let balance = output_async(at_venue(&["exchange", "balance", "vp", "--json"])).await;
    let balance: Value = serde_json::from_slice(&balance.stdout).unwrap();
    let fee = dec!(10000) - dec_of(&balance[0]["wallet_balance"]);
    assert_eq!(
        fee,
        dec_of(&p["quantity"]) * entry * taker_fee,
        "{balance} {positions}"
    );
}

fn wall_ms() -> i64 {
    let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    i64::try_from(since.unwrap().as_millis()).unwrap()
}

/// Funding on Binance's prices: the position held across Binance's funding time pays the
/// rate Binance announced for it (the mock's `lastFundingRate` and `nextFundingTime`) at the
/// mark, once, though the engine is stopped and started around it; the journal and the stats
/// show it beside the fees.
#[tokio::test(flavor = "multi_thread")]
async fn a_position_on_binance_prices_pays_binance_s_funding_once_across_restarts() {
    let (_dir, home) = home();
    let mock = MockBinance::start().await.unwrap();
    let url = mock.url();
    mock.set_price("BTCUSDT", dec!(61234.5));
    // The first cycle reads this announcement; the time passes before the second.
    let funding_time = wall_ms() + 20_000;
    mock.set_funding("BTCUSDT", dec!(0.0003), funding_time);
    let llm = MockLlm::start().await;
    // The engine asks the model more than once a cycle (a check before it starts): the
    // default answer is what every question gets until it is changed.
    llm.set_default(Reply::Text(
        "Up.\n```json\n[{\"symbol\":\"BTCUSDT\",\"action\":\"open_long\",\"leverage\":3,\
         \"position_size_usd\":300,\"stop_loss\":60000,\"take_profit\":65000,\"confidence\":85,\
         \"reasoning\":\"up\"}]\n```"
            .into(),
    ));
    add_deepseek_model(&home, &format!("{}/v1", llm.base_url()), MODEL_KEY).await;
    for args in [
        &[
            "exchange", "add", "--type", "paper", "--name", "lp", "--market", "binance",
        ][..],
        &["strategy", "add", "--name", "default"],
        &[
            "trader",
            "add",
            "--name",
            "bot",
            "--model",
            "ds",
            "--exchange",
            "lp",
            "--strategy",
            "default",
            "--initial-balance",
            "10000",
        ],
        &["trader", "start", "bot"],
    ] {
        ok(&home, &url, args).await;
    }
    let first = run_until_cycle(&home, "NOFXI_BINANCE_BASE_URL", &url, 1).await;
    assert!(
        first[0]["finished_ms"].as_i64().unwrap() < funding_time,
        "the first cycle ended after the funding time: {first}"
    );
    assert!(first[0].get("funding").is_none(), "{first}");
    let balance =
        |b: String| dec_of(&serde_json::from_str::<Value>(&b).unwrap()[0]["wallet_balance"]);
    let after_fee = balance(ok(&home, &url, &["exchange", "balance", "lp", "--json"]).await);
    let positions = ok(&home, &url, &["exchange", "positions", "lp", "--json"]).await;
    let quantity = dec_of(&serde_json::from_str::<Value>(&positions).unwrap()[0]["quantity"]);
    llm.set_default(Reply::Text(
        "Hold.\n```json\n[{\"symbol\":\"BTCUSDT\",\"action\":\"wait\"}]\n```".into(),
    ));

    // Past the funding time, at a mark of 62 000: the long pays q × 62 000 × 0.0003.
    let wait = funding_time + 1_000 - wall_ms();
    tokio::time::sleep(Duration::from_millis(u64::try_from(wait.max(0)).unwrap())).await;
    mock.set_price("BTCUSDT", dec!(62000));
    let owed = quantity * dec!(62000) * dec!(0.0003);
    let second = run_until_cycle(&home, "NOFXI_BINANCE_BASE_URL", &url, 2).await;
    let paid = second[0]["funding"].as_array().unwrap();
    assert_eq!(paid.len(), 1, "{second}");
    assert_eq!(dec_of(&paid[0]["amount"]), -owed, "{second}");
    assert_eq!(dec_of(&paid[0]["rate"]), dec!(0.0003));
    assert_eq!(paid[0]["funding_time_ms"], funding_time);
    assert_eq!(paid[0]["side"], "LONG");

    // Started again: the same funding time is not paid twice.
    let third = run_until_cycle(&home, "NOFXI_BINANCE_BASE_URL", &url, 3).await;
    assert!(third[0].get("funding").is_none(), "{third}");
    let now = balance(ok(&home, &url, &["exchange", "balance", "lp", "--json"]).await);
    assert_eq!(now, after_fee - owed);

    // Beside the fees: in the journal and the stats.
    let journal = ok(&home, &url, &["trader", "journal", "bot"]).await;
    let line = format!(
        "#2 funding: BTCUSDT long paid {} USDT (rate 0.0003",
        owed.round_dp(2)
    );
    assert!(journal.contains(&line), "{journal}");
    let stats = ok(&home, &url, &["trader", "stats", "bot"]).await;
    assert!(
        stats.contains(&format!(
            "funding         {} USDT paid, in the total P&L",
            owed.round_dp(2)
        )),
        "{stats}"
    );
    let stats = ok(&home, &url, &["trader", "stats", "bot", "--json"]).await;
    let stats: Value = serde_json::from_str(&stats).unwrap();
    assert_eq!(dec_of(&stats["total_funding"]), -owed, "{stats}");
}

/// `exchange test` of a paper account on a venue's prices probes that venue's public market
/// (one ticker read): a row says it answered, with what it read; pointed where nothing
/// listens, the row fails and is explained as the other checks are (what happened / why /
/// what now), and the command fails. The chat's "test" says the same. Every venue a paper
/// account can follow, on its mock.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn exchange_test_of_a_paper_account_probes_the_market_it_follows() {
    for live in [
        live::binance().await,
        live::okx().await,
        live::bybit().await,
        live::hyperliquid().await,
        live::bitget().await,
    ] {
        let venue = live.kind;
        let (_dir, home) = home();
        let add = [
            "exchange", "add", "--type", "paper", "--name", "lp", "--market", venue,
        ];
        let added = output_async(live.at_mock(nofxi(&home, &add))).await;
        assert!(added.status.success(), "{venue}: {}", text(&added));

        let tested = output_async(live.at_mock(nofxi(&home, &["exchange", "test", "lp"]))).await;
        let said = text(&tested);
        assert!(tested.status.success(), "{venue}: {said}");
        let row = market_row(&said);
        assert!(
            row.contains(" ok ")
                && row.contains(&format!(
                    "{venue}'s public market data answered: BTCUSDT last"
                )),
            "{venue}: {said}"
        );
        let json =
            output_async(live.at_mock(nofxi(&home, &["exchange", "test", "lp", "--json"]))).await;
        let report: Value = serde_json::from_slice(&json.stdout).unwrap();
        assert_eq!(report["market"]["status"], "passed", "{venue}: {report}");
        assert_eq!(report["market"]["value"]["source"], venue, "{report}");
        let reply = support::chat(&home, |c| live.at_mock(c), "test lp").await;
        assert!(
            reply.contains(&format!("{venue}'s public market data, which answered")),
            "{venue}: {reply}"
        );

        // Where nothing listens: the probe fails, explained, and so does the command.
        let closed = support::closed_port_url();
        let mut cmd = nofxi(&home, &["exchange", "test", "lp"]);
        cmd.env(live.url_env, &closed);
        let tested = output_async(cmd).await;
        let said = text(&tested);
        assert_eq!(tested.status.code(), Some(1), "{venue}: {said}");
        let row = market_row(&said);
        assert!(
            row.contains("FAILED") && row.contains(&closed),
            "{venue}: {said}"
        );
        for part in [
            "market data — exchange unreachable:",
            "What happened:",
            "Why:",
            "What to do now:",
        ] {
            assert!(said.contains(part), "{venue} lacks {part:?}: {said}");
        }
        let reply = support::chat(
            &home,
            |mut c| {
                c.env(live.url_env, &closed);
                c
            },
            "test lp",
        )
        .await;
        assert!(
            reply.contains("What happened:") && reply.contains(&closed),
            "{venue}: {reply}"
        );
    }
}

/// A paper account on the simulated market needs no network, and its test says so in the
/// market row; a venue that holds its answer back is given up on within the probe's short
/// timeout, and the row says how long it waited.
#[tokio::test(flavor = "multi_thread")]
async fn the_market_probe_is_skipped_offline_and_bounded_in_time() {
    let (_dir, home) = home();
    support::ok(
        &home,
        &["exchange", "add", "--type", "paper", "--name", "sim"],
    );
    let said = support::ok(&home, &["exchange", "test", "sim"]);
    let row = market_row(&said);
    assert!(
        row.contains("skipped") && row.contains("no network needed"),
        "{said}"
    );

    let mock = MockBinance::start().await.unwrap();
    let url = mock.url();
    ok(
        &home,
        &url,
        &[
            "exchange", "add", "--type", "paper", "--name", "lp", "--market", "binance",
        ],
    )
    .await;
    mock.inject(
        nofxi_testkit::binance::Route::Any,
        nofxi_testkit::binance::Fault::Delay(Duration::from_secs(60)),
    );
    let started = std::time::Instant::now();
    let out = run(&home, &url, &["exchange", "test", "lp"]).await;
    let said = text(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}: {said}",
        started.elapsed()
    );
    assert!(
        market_row(&said).contains("did not answer a BTCUSDT ticker read within 5 s"),
        "{said}"
    );
}

/// The `market data` row of `exchange test`'s table.
fn market_row(said: &str) -> String {
    said.lines()
        .find(|l| l.starts_with("market data "))
        .unwrap_or_default()
        .to_string()
}
