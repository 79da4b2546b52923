//! Numbers a trader can trust, over HTTP as the web app reads them (issue 51 item 7): a
//! trader's P&L is given in two parts that add up to it — realized (in the wallet: closed
//! trades after fees and funding) and unrealized (on the open positions at the mark price) —
//! each with its basis, on the dashboard cards, in their sum across traders, and in the
//! trader's stats; and the ratios of a few trades carry the flag that they are too small a
//! sample (`sample_too_small`, below `sample_min_trades`), the Sharpe ratio none at all.
//! Real loopback HTTP, a real SQLite file; no engine, so nothing moves under the reads.

use std::sync::Arc;

use nofxi_domain::market::Symbol;
use nofxi_domain::trading::{
    AccountSnapshot, MarginMode, OrderRequest, Position, PositionSide, Side,
};
use nofxi_domain::{Actor, Channel, Trader, TraderSpec};
use nofxi_server::access::LOCAL_USER;
use nofxi_store::CycleRow;
use nofxi_store::test_support::{PaperBasics, TestStore, seed_paper_basics, sqlite_store};
use nofxi_trader::cycle::{CyclePhase, CycleRecord};
use nofxi_trader::runtime::connect::{PaperAccount, connect};
use nofxi_venues::SystemClock;
use rust_decimal::Decimal;
use serde_json::Value;

mod support;

use support::{TestResult, start_server};

fn dec(v: &Value) -> Decimal {
    v.as_str()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("not a decimal string: {v}"))
}

async fn get(base: &str, path: &str) -> TestResult<Value> {
    let resp = reqwest::get(format!("{base}{path}")).await?;
    let status = resp.status().as_u16();
    let body: Value = resp.json().await?;
    if status != 200 {
        return Err(format!("GET {path}: {status} {body}").into());
    }
    Ok(body)
}

/// A journalled cycle of `trader` whose account ends as `account`, holding `positions`.
async fn journal(
    ts: &TestStore,
    trader: &Trader,
    number: u64,
    account: AccountSnapshot,
    positions: Vec<Position>,
) -> TestResult {
    let mut record = CycleRecord::new(&trader.id, number, ts.store.now_ms(), "builtin".into());
    record.phase = CyclePhase::Done;
    let equity = account.equity;
    record.account_after = Some(account);
    record.positions_after = positions;
    let row = CycleRow {
        trader_id: trader.id.clone(),
        cycle_number: number,
        phase: "done".into(),
        started_at: record.started_ms,
        equity: Some(equity),
        record: serde_json::to_value(&record)?,
    };
    ts.save_cycle(LOCAL_USER, &row).await?;
    Ok(())
}

fn account(wallet: i64, unrealized: i64) -> AccountSnapshot {
    let (wallet, unrealized) = (Decimal::from(wallet), Decimal::from(unrealized));
    AccountSnapshot {
        asset: "USDT".into(),
        wallet_balance: wallet,
        unrealized_pnl: unrealized,
        equity: wallet + unrealized,
        available: wallet,
        margin_used: Decimal::ZERO,
    }
}

fn long_btc(unrealized: i64) -> TestResult<Position> {
    Ok(Position {
        symbol: Symbol::parse("BTCUSDT")?,
        side: PositionSide::Long,
        quantity: Decimal::new(1, 2),
        entry_price: Decimal::from(60_000),
        mark_price: Decimal::from(60_000 + unrealized * 100),
        leverage: 5,
        margin_mode: MarginMode::Cross,
        margin: Decimal::from(120),
        unrealized_pnl: Decimal::from(unrealized),
        liquidation_price: None,
    })
}

#[tokio::test]
async fn pnl_is_split_into_realized_and_unrealized_and_thin_ratios_are_flagged() -> TestResult {
    let ts = sqlite_store().await?;
    let actor = Actor::new(LOCAL_USER, Channel::Cli, true);
    let basics = seed_paper_basics(&ts, &actor, PaperBasics::named("sim", "rules", "s1")).await?;
    let spec = |name: &str, balance: i64| {
        TraderSpec::new(
            name,
            &basics.model.id,
            &basics.exchange.id,
            &basics.strategy.id,
            Decimal::from(balance),
        )
    };
    let (alpha, _) = ts.create_trader(&actor, spec("alpha", 1_000)).await?;
    let (beta, _) = ts.create_trader(&actor, spec("beta", 2_000)).await?;
    ts.create_trader(&actor, spec("gamma", 500)).await?;
    ts.set_trader_running(&actor, &beta.id, true).await?;
    // alpha: +10 in the wallet, +5 on one open long; beta: −30 in the wallet, −2 open (none
    // listed); gamma never ran, so it has no figures to add.
    journal(&ts, &alpha, 1, account(1_010, 5), vec![long_btc(5)?]).await?;
    journal(&ts, &beta, 1, account(1_970, -2), Vec::new()).await?;
    // alpha's next cycle failed (its model did not answer) and read no account: its card
    // keeps the newest figures it has, and the sum still counts it.
    let mut failed = CycleRecord::new(&alpha.id, 2, ts.store.now_ms() + 1, "builtin".into());
    failed.phase = CyclePhase::Done;
    failed.error = Some("the model did not answer".into());
    let row = CycleRow {
        trader_id: alpha.id.clone(),
        cycle_number: 2,
        phase: "done".into(),
        started_at: failed.started_ms,
        equity: None,
        record: serde_json::to_value(&failed)?,
    };
    ts.save_cycle(LOCAL_USER, &row).await?;

    let running = start_server(ts.store.clone(), None).await?;
    let base = running.base.clone();
    let dashboard = get(&base, "/api/dashboard").await?;
    let card = |name: &str| {
        dashboard["traders"]
            .as_array()
            .and_then(|cards| cards.iter().find(|c| c["name"] == name))
            .cloned()
            .unwrap_or_default()
    };
    let a = card("alpha");
    assert_eq!(dec(&a["pnl"]), Decimal::from(15), "{a}");
    assert_eq!(dec(&a["realized_pnl"]), Decimal::from(10), "{a}");
    assert_eq!(dec(&a["unrealized_pnl"]), Decimal::from(5), "{a}");
    assert_eq!(dec(&a["pnl_basis"]), Decimal::from(1_000), "{a}");
    assert_eq!(a["pnl_basis_kind"], "initial_balance", "{a}");
    assert_eq!(dec(&a["equity"]), Decimal::from(1_015), "{a}");
    assert_eq!(a["positions"].as_array().map(Vec::len), Some(1), "{a}");
    let b = card("beta");
    assert_eq!(dec(&b["pnl"]), Decimal::from(-32), "{b}");
    assert_eq!(dec(&b["realized_pnl"]), Decimal::from(-30), "{b}");
    assert_eq!(dec(&b["unrealized_pnl"]), Decimal::from(-2), "{b}");
    let g = card("gamma");
    assert!(g["pnl"].is_null() && g["realized_pnl"].is_null(), "{g}");

    // The summary row is the cards added up, over the traders with figures.
    let sum = &dashboard["summary"];
    assert_eq!(sum["traders"], 3, "{sum}");
    assert_eq!(sum["running"], 1, "{sum}");
    assert_eq!(sum["counted"], 2, "{sum}");
    assert_eq!(sum["open_positions"], 1, "{sum}");
    assert_eq!(dec(&sum["equity"]), Decimal::from(1_015 + 1_968), "{sum}");
    assert_eq!(dec(&sum["pnl"]), Decimal::from(15 - 32), "{sum}");
    assert_eq!(dec(&sum["realized_pnl"]), Decimal::from(10 - 30), "{sum}");
    assert_eq!(dec(&sum["unrealized_pnl"]), Decimal::from(5 - 2), "{sum}");

    // The stats read the account now: alpha's paper sub-account, where a long is opened
    // (its entry fee leaves the wallet; its mark moves with the simulated market).
    let sub = PaperAccount::Trader {
        trader_id: alpha.id.clone(),
        initial_balance: alpha.spec.initial_balance,
    };
    let venue = connect(
        ts.store.clone(),
        LOCAL_USER,
        &basics.exchange.id,
        sub,
        Arc::new(SystemClock),
    )
    .await?;
    let btc = Symbol::parse("BTCUSDT")?;
    let order = OrderRequest::market(btc, Side::Buy, Decimal::new(1, 2), "t-open-1");
    venue.exchange.place_order(&order).await?;
    let view = get(&base, &format!("/api/traders/{}/stats", alpha.id)).await?;
    let stats = &view["stats"];
    let (total, realized, unrealized) = (
        dec(&stats["total_pnl"]),
        dec(&stats["realized_pnl"]),
        dec(&stats["unrealized_pnl"]),
    );
    assert_eq!(realized + unrealized, total, "{view}");
    assert!(realized < Decimal::ZERO, "the entry fee is paid: {view}");
    assert_eq!(stats["open_positions"], 1, "{view}");
    assert_eq!(dec(&view["pnl_basis"]), Decimal::from(1_000), "{view}");
    assert_eq!(view["pnl_basis_kind"], "initial_balance", "{view}");
    // No closed trade: every ratio is flagged, the Sharpe ratio is not given, and says why.
    assert_eq!(stats["total_trades"], 0, "{view}");
    assert_eq!(stats["sample_too_small"], true, "{view}");
    assert_eq!(stats["sample_min_trades"], 20, "{view}");
    assert!(stats["sharpe_ratio"].is_null(), "{view}");
    assert!(stats["sharpe_na"].is_string(), "{view}");

    // The document describes the new fields.
    let doc = get(&base, "/api/openapi.json").await?.to_string();
    for field in [
        "realized_pnl",
        "sample_too_small",
        "pnl_basis_kind",
        "open_positions",
    ] {
        assert!(doc.contains(field), "the API document lacks {field}");
    }
    running.stop().await
}
