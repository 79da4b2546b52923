//! The OKX adapter against the mock OKX server, beyond what the conformance suite asks of
//! every venue: each refusal typed with OKX's own code and message, the demo header, clock
//! drift, orders whose outcome was unknown, client ids OKX would not take, long/short mode,
//! market data in coins, and credentials kept out of every error.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

use std::sync::Arc;
use std::time::Duration;

use nofxi_domain::Interval;
use nofxi_domain::market::Symbol;
use nofxi_domain::trading::{
    MarginMode, OrderRequest, OrderStatus, PositionMode, PositionSide, Side,
};
use nofxi_testkit::okx::{Fault, MockOkx, Route};
use nofxi_venues::okx::{OkxClient, OkxCredentials, OkxEndpoints, OkxMarket, OkxOptions, OkxSwap};
use nofxi_venues::{Clock, Exchange, KlineQuery, MarketData, RejectKind, SystemClock, VenueError};
use rust_decimal::Decimal;
use rust_decimal_macros::dec;

const KEY: &str = "okxMockKey42";
const SECRET: &str = "okxMockSecret42";
const PASSPHRASE: &str = "okx Mock Pass 42";

async fn mock() -> MockOkx {
    let m = MockOkx::start().await.unwrap();
    m.add_account(KEY, SECRET, PASSPHRASE, dec!(10000));
    m
}

fn client_with(
    m: &MockOkx,
    key: &str,
    secret: &str,
    passphrase: &str,
    demo: bool,
) -> Arc<OkxClient> {
    Arc::new(
        OkxClient::new(
            if demo { "okx-demo" } else { "okx" },
            OkxEndpoints::at(&m.url(), "the test"),
            Some(OkxCredentials::new(key, secret, passphrase)),
            OkxOptions {
                demo,
                timeout: Duration::from_millis(400),
                ..OkxOptions::default()
            },
            Arc::new(SystemClock),
        )
        .unwrap(),
    )
}

fn swap_with(m: &MockOkx, key: &str, secret: &str, passphrase: &str) -> OkxSwap {
    OkxSwap::new(client_with(m, key, secret, passphrase, false))
}

fn swap(m: &MockOkx) -> OkxSwap {
    swap_with(m, KEY, SECRET, PASSPHRASE)
}

fn btc() -> Symbol {
    Symbol::parse("BTC").unwrap()
}

fn buy(qty: Decimal, id: &str) -> OrderRequest {
    OrderRequest::market(btc(), Side::Buy, qty, id)
}

fn assert_typed(err: &VenueError, kind: RejectKind, code: i64) {
    assert_eq!((err.kind(), err.code()), (Some(kind), Some(code)), "{err}");
}

#[tokio::test]
async fn every_credential_fault_comes_back_typed_with_okxs_code_and_message() {
    let m = mock().await;
    let cases = [
        (
            swap_with(&m, KEY, "not-the-secret", PASSPHRASE),
            RejectKind::BadSignature,
            50113,
        ),
        (
            swap_with(&m, KEY, SECRET, "not the passphrase"),
            RejectKind::BadPassphrase,
            50105,
        ),
        (
            swap_with(&m, "someoneElse1", SECRET, PASSPHRASE),
            RejectKind::KeyIpOrPermission,
            50111,
        ),
    ];
    for (ex, kind, code) in cases {
        let err = ex.account().await.unwrap_err();
        assert_typed(&err, kind, code);
        assert_eq!(
            match &err {
                VenueError::Rejected { http_status, .. } => *http_status,
                _ => 0,
            },
            401
        );
    }
    let ex = swap(&m);
    m.set_ip_whitelisted(KEY, false);
    let err = ex.positions().await.unwrap_err();
    assert_typed(&err, RejectKind::IpNotWhitelisted, 50110);
    assert!(err.to_string().contains("IP whitelist"), "{err}");
    m.set_ip_whitelisted(KEY, true);
    m.set_trade_permission(KEY, false);
    ex.account().await.unwrap();
    assert_typed(
        &ex.set_leverage(&btc(), 5).await.unwrap_err(),
        RejectKind::PermissionMissing,
        50120,
    );
    assert!(m.orders(KEY).is_empty());
}

#[tokio::test]
async fn order_refusals_keep_okxs_own_item_code_and_words() {
    let m = mock().await;
    let ex = swap(&m);
    m.inject(Route::PlaceOrder, Fault::okx(51008));
    let err = ex.place_order(&buy(dec!(0.01), "m1")).await.unwrap_err();
    assert_typed(&err, RejectKind::InsufficientMargin, 51008);
    let VenueError::Rejected { message, .. } = &err else {
        unreachable!()
    };
    assert_eq!(message, "Order failed. Insufficient USDT margin in account");
    assert_typed(
        &ex.place_order(&buy(dec!(0.0123456), "p1"))
            .await
            .unwrap_err(),
        RejectKind::Precision,
        51121,
    );
    let eth = OrderRequest::market(Symbol::parse("ETH").unwrap(), Side::Buy, dec!(0.05), "n1");
    assert_typed(
        &ex.place_order(&eth).await.unwrap_err(),
        RejectKind::NotionalTooSmall,
        51020,
    );
    let hedge_order = buy(dec!(0.01), "h1").with_position_side(PositionSide::Long);
    assert_typed(
        &ex.place_order(&hedge_order).await.unwrap_err(),
        RejectKind::PositionModeMismatch,
        51000,
    );
    let unlisted = ex
        .symbol_rules(&Symbol::parse("PEPE").unwrap())
        .await
        .unwrap_err();
    assert_eq!(unlisted.kind(), Some(RejectKind::UnknownSymbol));
    // The inverse BTC-USD swap the mock lists is not taken for BTCUSDT.
    let rules = ex.symbol_rules(&btc()).await.unwrap();
    assert_eq!(
        (rules.tick_size, rules.step_size, rules.min_quantity),
        (dec!(0.1), dec!(0.0001), dec!(0.0001))
    );
    assert!(m.orders(KEY).is_empty(), "no refused order exists");
}

#[tokio::test]
async fn a_demo_key_works_only_with_the_demo_header() {
    let m = mock().await;
    m.set_demo(KEY, true);
    let live = OkxSwap::new(client_with(&m, KEY, SECRET, PASSPHRASE, false));
    assert_typed(
        &live.account().await.unwrap_err(),
        RejectKind::KeyIpOrPermission,
        50101,
    );
    let demo = OkxSwap::new(client_with(&m, KEY, SECRET, PASSPHRASE, true));
    assert_eq!(demo.account().await.unwrap().equity, dec!(10000));
    assert_eq!(demo.venue(), "okx-demo");
}

#[tokio::test]
async fn a_skewed_server_clock_is_measured_and_a_drifting_machine_is_clock_drift() {
    let m = mock().await;
    m.set_clock_skew_ms(90_000);
    let ex = swap(&m);
    ex.account().await.unwrap();
    assert!((ex.client().offset_ms() - 90_000).abs() < 5_000);
    // The machine using the key drifts past OKX's 30 s window: resyncing cannot help.
    m.set_client_clock_off_ms(KEY, 40_000);
    assert_typed(
        &ex.account().await.unwrap_err(),
        RejectKind::ClockDrift,
        50102,
    );
}

#[tokio::test]
async fn an_order_whose_answer_was_lost_is_found_not_sent_twice() {
    let m = mock().await;
    let ex = swap(&m);
    m.inject(
        Route::PlaceOrder,
        Fault::AcceptThenDelay(Duration::from_millis(1500)),
    );
    let order = ex.place_order(&buy(dec!(0.01), "once")).await.unwrap();
    assert_eq!(order.status, OrderStatus::Filled);
    assert_eq!(m.orders(KEY).len(), 1);
    assert_eq!(m.request_count("POST", "/api/v5/trade/order"), 1);

    m.inject(Route::PlaceOrder, Fault::AcceptThenFail);
    ex.place_order(&buy(dec!(0.01), "twice")).await.unwrap();
    assert_eq!(m.orders(KEY).len(), 2);

    // Not accepted at all: the lookup finds nothing, so it is sent again, once.
    m.inject(Route::PlaceOrder, Fault::Delay(Duration::from_millis(1500)));
    ex.place_order(&buy(dec!(0.01), "thrice")).await.unwrap();
    assert_eq!(m.orders(KEY).len(), 3);
    assert_eq!(m.request_count("POST", "/api/v5/trade/order"), 4);
}

#[tokio::test]
async fn a_client_id_okx_would_refuse_is_digested_and_found_again() {
    let m = mock().await;
    let ex = swap(&m);
    // The trading cycle's widest ids are 36 characters; OKX takes 32.
    let long = "nx1d2e3f4a5be18446744073709551615i0o";
    let order = ex.place_order(&buy(dec!(0.01), long)).await.unwrap();
    assert_eq!(order.client_order_id, long);
    let kept = &m.orders(KEY)[0].cl_ord_id;
    assert_eq!(kept.len(), 32);
    let found = ex.order_status(&btc(), long).await.unwrap().unwrap();
    assert_eq!(found.order_id, order.order_id);
    assert_eq!(
        ex.place_order(&buy(dec!(0.01), long))
            .await
            .unwrap()
            .order_id,
        order.order_id
    );
    assert_eq!(m.orders(KEY).len(), 1);
}

#[tokio::test]
async fn long_short_mode_opens_each_side_and_cancels_by_client_id() {
    let m = mock().await;
    let ex = swap(&m);
    assert_eq!(ex.position_mode().await.unwrap(), PositionMode::OneWay);
    ex.set_position_mode(PositionMode::Hedge).await.unwrap();
    assert_eq!(ex.position_mode().await.unwrap(), PositionMode::Hedge);
    ex.set_margin_mode(&btc(), MarginMode::Isolated)
        .await
        .unwrap();
    ex.set_leverage(&btc(), 5).await.unwrap();
    let long = buy(dec!(0.02), "l1").with_position_side(PositionSide::Long);
    let short = OrderRequest::market(btc(), Side::Sell, dec!(0.01), "s1")
        .with_position_side(PositionSide::Short);
    ex.place_order(&long).await.unwrap();
    ex.place_order(&short).await.unwrap();
    let mut held: Vec<_> = ex
        .positions()
        .await
        .unwrap()
        .into_iter()
        .map(|p| (p.side, p.quantity, p.leverage, p.margin_mode))
        .collect();
    held.sort_by_key(|h| h.0 == PositionSide::Short);
    assert_eq!(
        held,
        [
            (PositionSide::Long, dec!(0.02), 5, MarginMode::Isolated),
            (PositionSide::Short, dec!(0.01), 5, MarginMode::Isolated)
        ]
    );
    // A resting limit far from the market, then cancelled by its client id.
    let resting = OrderRequest::limit(btc(), Side::Buy, dec!(0.01), dec!(50000), "r1")
        .with_position_side(PositionSide::Long);
    assert_eq!(
        ex.place_order(&resting).await.unwrap().status,
        OrderStatus::New
    );
    assert_eq!(ex.open_orders(Some(&btc())).await.unwrap().len(), 1);
    let cancelled = ex.cancel_order(&btc(), "r1").await.unwrap();
    assert_eq!(cancelled.status, OrderStatus::Canceled);
    assert!(ex.open_orders(None).await.unwrap().is_empty());
    // A second cancel is refused in OKX's words.
    let again = ex.cancel_order(&btc(), "r1").await.unwrap_err();
    assert_eq!(again.code(), Some(51400), "{again}");
}

#[tokio::test]
async fn public_market_data_is_read_in_coins() {
    let m = mock().await;
    let client = Arc::new(
        OkxClient::new(
            "okx",
            OkxEndpoints::at(&m.url(), "the test"),
            None,
            OkxOptions::default(),
            Arc::new(SystemClock),
        )
        .unwrap(),
    );
    let market = OkxMarket::new(
        client.clone(),
        Arc::new(nofxi_venues::okx::Contracts::new(client)),
    );
    let t = market.ticker(&btc()).await.unwrap();
    assert_eq!(
        (t.bid, t.ask, t.mark, t.volume_24h),
        (dec!(59999.9), dec!(60000.1), dec!(60000), dec!(12345.678))
    );
    let book = market.order_book(&btc(), 3).await.unwrap();
    assert_eq!(book.asks.len(), 3);
    // 200 contracts of 0.01 BTC rest at each level.
    assert_eq!(book.asks[0].quantity, dec!(2));
    let candles = market
        .klines(&btc(), Interval::H1, KlineQuery::latest(5))
        .await
        .unwrap();
    assert_eq!(candles.len(), 5);
    assert!(
        candles
            .windows(2)
            .all(|w| w[1].open_time_ms - w[0].open_time_ms == 3_600_000)
    );
    assert!(candles.iter().all(|c| c.low <= c.open && c.high >= c.close));
    // More than one page (300) of minutes, older than the 1,440 `candles` serves.
    let end = SystemClock.now_ms() - 3 * 86_400_000;
    let old = market
        .klines(&btc(), Interval::M1, KlineQuery::ending_at(end, 700))
        .await
        .unwrap();
    assert_eq!(old.len(), 700);
    assert!(
        old.windows(2)
            .all(|w| w[1].open_time_ms - w[0].open_time_ms == 60_000)
    );
    assert!(m.request_count("GET", "/api/v5/market/history-candles") >= 3);
    let funding = market.funding_rate(&btc()).await.unwrap().unwrap();
    assert_eq!(funding.rate, dec!(0.0001));
}

/// A venue or a proxy may quote the request in its errors: neither the key nor the
/// passphrase (nor the secret) reaches the error nofxi makes of it.
#[tokio::test]
async fn an_error_quoting_the_credentials_never_carries_them() {
    let m = mock().await;
    let ex = swap(&m);
    for http_status in [401, 200, 500] {
        // A 5xx is retried: it must come back every time to surface.
        let times = if http_status >= 500 { 4 } else { 1 };
        for _ in 0..times {
            m.inject(
                Route::Private,
                Fault::Error {
                    http_status,
                    code: "50114".into(),
                    msg: format!(
                        "Invalid authorization. OK-ACCESS-KEY: {KEY} OK-ACCESS-PASSPHRASE: {PASSPHRASE} secret {SECRET}"
                    ),
                },
            );
        }
        let err = ex.account().await.unwrap_err();
        let shown = format!("{err} {err:?}");
        for secret in [KEY, PASSPHRASE, SECRET] {
            assert!(!shown.contains(secret), "{secret} leaked: {shown}");
        }
    }
}
