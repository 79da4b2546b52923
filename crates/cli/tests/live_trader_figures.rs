//! Issue 23 item 11 for a live trader, on the mock Binance (`NOFXI_BINANCE_BASE_URL`): the
//! account's open position shows in `exchange positions` and in the chat, with side, size,
//! entry and unrealized P&L as exact decimals; the trader's P&L is measured from its own
//! start (12 400 USDT and no trade is P&L 0, not +24 % against a default balance); and when
//! the account cannot be read the chat says so and gives the last cycle's record, labelled.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::path::Path;
use std::process::Output;

use nofxi_domain::trading::AccountSnapshot;
use nofxi_store::{CycleRow, Store};
use nofxi_testkit::binance::MockBinance;
use nofxi_trader::cycle::{CyclePhase, CycleRecord};
use rust_decimal_macros::dec;
use support::{home, nofxi, output_async, text, with_input};

const KEY: &str = "liveFiguresKey42";
const SECRET: &str = "liveFiguresSecret42";

async fn run(home: &Path, url: &str, args: &[&str]) -> Output {
    let mut cmd = nofxi(home, args);
    cmd.env("NOFXI_BINANCE_BASE_URL", url);
    let out = output_async(cmd).await;
    assert!(out.status.success(), "{args:?}: {}", text(&out));
    out
}

/// One `nofxi chat --json` turn in a new conversation; its reply.
async fn chat(home: &Path, url: &str, message: &str) -> String {
    let mut cmd = nofxi(home, &["chat", "--json", "--new"]);
    cmd.env("NOFXI_BINANCE_BASE_URL", url);
    let line = format!("{message}\n");
    let out = tokio::task::spawn_blocking(move || with_input(&mut cmd, &line))
        .await
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let first = String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()
        .unwrap()
        .to_string();
    let v: serde_json::Value = serde_json::from_str(&first).unwrap();
    v["reply"].as_str().unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_live_traders_position_and_pnl_come_from_its_account_and_its_start() {
    let (_dir, home) = home();
    let mock = MockBinance::start().await.unwrap();
    let url = mock.url();
    // A short from 60 000 marked at 59 000.5: 14.9925 unrealized, on a wallet that makes the
    // equity 12 400.
    mock.add_account(KEY, SECRET, dec!(12385.0075));
    mock.set_position(KEY, "BTCUSDT", "BOTH", dec!(-0.015), dec!(60000));
    mock.set_price("BTCUSDT", dec!(59000.5));
    for args in [
        &[
            "exchange",
            "add",
            "--type",
            "binance",
            "--name",
            "main",
            "--api-key",
            KEY,
            "--secret-key",
            SECRET,
        ][..],
        &["model", "add", "--name", "rules", "--provider", "builtin"],
        &["strategy", "add", "--name", "default"],
        &[
            "trader",
            "add",
            "--name",
            "alpha",
            "--model",
            "rules",
            "--exchange",
            "main",
            "--strategy",
            "default",
        ],
        &["trader", "start", "alpha", "--confirm-live"],
    ] {
        run(&home, &url, args).await;
    }

    let out = run(&home, &url, &["exchange", "positions", "main", "--json"]).await;
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = v.as_array().unwrap();
    assert_eq!(
        rows.len(),
        1,
        "zero rows are skipped, the short is kept: {v}"
    );
    assert_eq!(rows[0]["symbol"], "BTCUSDT");
    assert_eq!(rows[0]["side"], "SHORT");
    assert_eq!(rows[0]["quantity"], "0.015");
    assert_eq!(rows[0]["entry_price"], "60000");
    assert_eq!(rows[0]["unrealized_pnl"], "14.9925");
    assert_eq!(rows[0]["mark_price"], "59000.5");
    let table = text(&run(&home, &url, &["exchange", "positions", "main"]).await);
    assert!(
        table.contains("BTCUSDT") && table.contains("SHORT"),
        "{table}"
    );

    let reply = chat(&home, &url, "how's alpha doing").await;
    assert!(reply.contains("from the binance account, now"), "{reply}");
    assert!(reply.contains("equity 12400"), "{reply}");
    assert!(reply.contains("unrealized 14.99 USDT"), "{reply}");
    assert!(
        reply.contains("P&L 0.00 USDT (0%) since its first start"),
        "{reply}"
    );
    assert!(
        reply.contains("position BTCUSDT short 0.015 at 60000"),
        "{reply}"
    );

    let stats = text(&run(&home, &url, &["trader", "stats", "alpha"]).await);
    assert!(stats.contains("(0% of 12400.00 at its start)"), "{stats}");
    assert!(!stats.contains("1140") && !stats.contains("24%"), "{stats}");

    // A cycle journalled, then the account stops answering (-2015: key, IP or permission).
    let store = Store::open(&home).await.unwrap();
    let trader = store.get_trader("local", "alpha").await.unwrap();
    let mut record = CycleRecord::new(&trader.id, 1, store.now_ms(), "builtin".into());
    record.phase = CyclePhase::Done;
    record.account_before = Some(AccountSnapshot {
        asset: "USDT".into(),
        wallet_balance: dec!(12400),
        unrealized_pnl: dec!(0),
        equity: dec!(12400),
        available: dec!(11500),
        margin_used: dec!(900),
    });
    ts_save(&store, &trader.id, record).await;
    mock.set_ip_whitelisted(KEY, false);
    let reply = chat(&home, &url, "how's alpha doing").await;
    assert!(reply.contains("cannot be read now"), "{reply}");
    assert!(reply.contains("[as of cycle #1"), "{reply}");
    assert!(
        reply.contains("equity 12400 USDT, P&L 0.00 USDT"),
        "{reply}"
    );
    assert!(!reply.contains("from the binance account, now"), "{reply}");
}

async fn ts_save(store: &Store, trader_id: &str, record: CycleRecord) {
    store
        .save_cycle(
            "local",
            &CycleRow {
                trader_id: trader_id.to_string(),
                cycle_number: record.cycle_number,
                phase: "done".into(),
                started_at: record.started_ms,
                equity: Some(dec!(12400)),
                record: serde_json::to_value(&record).unwrap(),
            },
        )
        .await
        .unwrap();
}
