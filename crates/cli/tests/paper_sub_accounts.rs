//! `exchange balance|positions` on a paper account its traders trade: the figures come from
//! each trader's own sub-account (funded with its initial balance, moved by its fills), not
//! from the account's untouched 10 000 USDT wallet.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use support::*;

#[test]
fn balance_and_positions_of_a_paper_account_show_each_traders_sub_account() {
    let (_dir, home) = home();
    ok(
        &home,
        &["exchange", "add", "--type", "paper", "--name", "paper"],
    );
    ok(
        &home,
        &["model", "add", "--name", "rules", "--provider", "builtin"],
    );
    ok(&home, &["strategy", "add", "--name", "default"]);
    for (name, balance) in [("alpha", "1234"), ("beta", "777")] {
        ok(
            &home,
            &[
                "trader",
                "add",
                "--name",
                name,
                "--model",
                "rules",
                "--exchange",
                "paper",
                "--strategy",
                "default",
                "--initial-balance",
                balance,
            ],
        );
        // Start's preflight opens the trader's sub-account.
        ok(&home, &["trader", "start", name]);
    }
    let v = json(&home, &["exchange", "balance", "paper"]);
    let rows = v.as_array().expect("one row per trader's sub-account");
    let mut seen: Vec<(String, String)> = rows
        .iter()
        .map(|r| {
            (
                r["trader"].as_str().unwrap().to_string(),
                r["equity"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    seen.sort();
    assert_eq!(
        seen,
        [
            ("alpha".into(), "1234".into()),
            ("beta".into(), "777".into())
        ]
    );
    let text = ok(&home, &["exchange", "balance", "paper"]);
    assert!(
        text.contains("alpha") && text.contains("sub-account"),
        "{text}"
    );
    assert!(!text.contains("10000"), "{text}");
    let positions = ok(&home, &["exchange", "positions", "paper"]);
    assert!(positions.contains("sub-account"), "{positions}");
}

/// A paper sub-account lives on the engine's timeline (`nofxi run --sim-speed` keeps it in the
/// store). Reading it at the wall clock marked it at another moment's prices and fired its stop
/// there: after a simulated run, `exchange positions paper` said "(none)" and had closed the
/// trader's position. Reads use the timeline and change nothing.
#[tokio::test(flavor = "multi_thread")]
async fn reading_a_sub_account_after_a_simulated_run_keeps_its_position() {
    use std::sync::Arc;

    use nofxi_domain::market::Symbol;
    use nofxi_domain::trading::{OrderRequest, OrderType, Side};
    use nofxi_store::Store;
    use nofxi_trader::runtime::connect::{PAPER_SCOPE, PaperAccount, connect};
    use nofxi_trader::runtime::pace::{ScaledClock, TIMELINE_KEY, TIMELINE_SCOPE, TIMELINE_USER};
    use nofxi_venues::sim::SimMarket;
    use nofxi_venues::{Clock, MarketData, SystemClock};
    use rust_decimal::Decimal;

    let (_dir, home) = home();
    ok(
        &home,
        &["exchange", "add", "--type", "paper", "--name", "paper"],
    );
    ok(
        &home,
        &["model", "add", "--name", "rules", "--provider", "builtin"],
    );
    ok(&home, &["strategy", "add", "--name", "default"]);
    ok(
        &home,
        &[
            "trader",
            "add",
            "--name",
            "alpha",
            "--model",
            "rules",
            "--exchange",
            "paper",
            "--strategy",
            "default",
        ],
    );
    let store = Arc::new(Store::open(&home).await.unwrap());
    // A simulated run left the timeline 40 days ahead of the wall clock.
    let wall = SystemClock.now_ms();
    let timeline = ScaledClock {
        anchor_real_ms: wall,
        anchor_sim_ms: wall + 40 * 86_400_000,
        speed: 1.0,
    };
    store
        .put_state(
            TIMELINE_USER,
            TIMELINE_SCOPE,
            TIMELINE_KEY,
            &serde_json::to_value(timeline).unwrap(),
        )
        .await
        .unwrap();
    let trader = store.get_trader("local", "alpha").await.unwrap();
    let exchange = store.get_exchange("local", "paper").await.unwrap();
    let btc = Symbol::parse("BTCUSDT").unwrap();
    let price_at = |clock: Arc<dyn Clock>| {
        let btc = btc.clone();
        async move {
            let market = SimMarket::new(nofxi_trader::runtime::connect::sim_seed(), clock);
            market.ticker(&btc).await.unwrap().mark
        }
    };
    let sim_price = price_at(Arc::new(timeline)).await;
    let wall_price = price_at(Arc::new(SystemClock)).await;
    assert_ne!(sim_price, wall_price);
    // The engine's fills: a position with its stop between the two prices, so the stop holds
    // at the timeline's price and fires at the wall clock's.
    let (side, stop_side) = if wall_price < sim_price {
        (Side::Buy, Side::Sell)
    } else {
        (Side::Sell, Side::Buy)
    };
    let stop = ((sim_price + wall_price) / Decimal::TWO).round_dp(1);
    let venue = connect(
        store.clone(),
        "local",
        &exchange.id,
        PaperAccount::Trader {
            trader_id: trader.id.clone(),
            initial_balance: trader.spec.initial_balance,
        },
        Arc::new(timeline),
    )
    .await
    .unwrap();
    let qty = Decimal::new(1, 3);
    venue
        .exchange
        .place_order(&OrderRequest::market(btc.clone(), side, qty, "t-open"))
        .await
        .unwrap();
    venue
        .exchange
        .place_order(&OrderRequest::trigger(
            btc.clone(),
            OrderType::StopMarket,
            stop_side,
            qty,
            stop,
            "t-stop",
        ))
        .await
        .unwrap();
    let key = format!("{}:{}", exchange.id, trader.id);
    let before = store.get_state("local", PAPER_SCOPE, &key).await.unwrap();
    drop(venue);

    let positions = run_async(&home, &["exchange", "positions", "paper", "--json"]).await;
    assert!(positions.status.success(), "{}", text(&positions));
    let v: serde_json::Value = serde_json::from_slice(&positions.stdout).unwrap();
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), 1, "{v}");
    assert_eq!(rows[0]["symbol"], "BTCUSDT", "{v}");
    assert_eq!(rows[0]["quantity"], qty.to_string(), "{v}");
    let balance = run_async(&home, &["exchange", "balance", "paper"]).await;
    assert!(balance.status.success(), "{}", text(&balance));
    let stats = run_async(&home, &["trader", "stats", "alpha"]).await;
    assert!(stats.status.success(), "{}", text(&stats));
    let after = store.get_state("local", PAPER_SCOPE, &key).await.unwrap();
    assert_eq!(before, after, "a read changed the sub-account");
}
