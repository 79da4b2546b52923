//! The Bitget adapter against the mock Bitget server, beyond what the conformance suite asks
//! of every venue: each refusal typed with Bitget's own code and message, the demo header,
//! clock drift, orders whose outcome was unknown, client ids Bitget would not take, hedge
//! mode, an unchanged leverage, market data, and credentials kept out of every error.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

use std::sync::Arc;
use std::time::Duration;

use nofxi_domain::Interval;
use nofxi_domain::market::Symbol;
use nofxi_domain::trading::{
    MarginMode, OrderRequest, OrderStatus, OrderType, PositionMode, PositionSide, Side,
};
use nofxi_testkit::bitget::{Fault, MockBitget, Route};
use nofxi_venues::bitget::{
    BitgetClient, BitgetCredentials, BitgetEndpoints, BitgetFutures, BitgetMarket, BitgetOptions,
    Contracts,
};
use nofxi_venues::{Clock, Exchange, KlineQuery, MarketData, RejectKind, SystemClock, VenueError};
use rust_decimal::Decimal;
use rust_decimal_macros::dec;

const KEY: &str = "bg_mockKey42";
const SECRET: &str = "bitgetMockSecret42";
const PASSPHRASE: &str = "bitget Mock Pass 42";

async fn mock() -> MockBitget {
    let m = MockBitget::start().await.unwrap();
    m.add_account(KEY, SECRET, PASSPHRASE, dec!(10000));
    m
}

fn client_with(
    m: &MockBitget,
    key: &str,
    secret: &str,
    passphrase: &str,
    demo: bool,
) -> Arc<BitgetClient> {
    Arc::new(
        BitgetClient::new(
            if demo { "bitget-demo" } else { "bitget" },
            BitgetEndpoints::at(&m.url(), "the test"),
            Some(BitgetCredentials::new(key, secret, passphrase)),
            BitgetOptions {
                demo,
                timeout: Duration::from_millis(400),
                ..BitgetOptions::default()
            },
            Arc::new(SystemClock),
        )
        .unwrap(),
    )
}

fn futures_with(m: &MockBitget, key: &str, secret: &str, passphrase: &str) -> BitgetFutures {
    BitgetFutures::new(client_with(m, key, secret, passphrase, false))
}

fn futures(m: &MockBitget) -> BitgetFutures {
    futures_with(m, KEY, SECRET, PASSPHRASE)
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
async fn every_credential_fault_comes_back_typed_with_bitgets_code_and_message() {
    let m = mock().await;
    let cases = [
        (
            futures_with(&m, KEY, "not-the-secret", PASSPHRASE),
            RejectKind::BadSignature,
            40009,
        ),
        (
            futures_with(&m, KEY, SECRET, "not the passphrase"),
            RejectKind::BadPassphrase,
            40012,
        ),
        (
            futures_with(&m, "bg_someoneElse1", SECRET, PASSPHRASE),
            RejectKind::KeyIpOrPermission,
            40006,
        ),
    ];
    for (ex, kind, code) in cases {
        let err = ex.account().await.unwrap_err();
        assert_typed(&err, kind, code);
        assert!(
            matches!(
                err,
                VenueError::Rejected {
                    http_status: 400,
                    ..
                }
            ),
            "{err:?}"
        );
    }
    let ex = futures(&m);
    m.set_ip_whitelisted(KEY, false);
    let err = ex.positions().await.unwrap_err();
    assert_typed(&err, RejectKind::IpNotWhitelisted, 40018);
    assert!(err.to_string().contains("whitelist"), "{err}");
    m.set_ip_whitelisted(KEY, true);
    m.set_trade_permission(KEY, false);
    ex.account().await.unwrap();
    assert_typed(
        &ex.place_order(&buy(dec!(0.01), "p0")).await.unwrap_err(),
        RejectKind::PermissionMissing,
        40014,
    );
    assert!(m.orders(KEY).is_empty());
}

#[tokio::test]
async fn order_refusals_keep_bitgets_own_code_and_words() {
    let m = mock().await;
    let ex = futures(&m);
    m.inject(Route::PlaceOrder, Fault::bitget(43012));
    let err = ex.place_order(&buy(dec!(0.01), "m1")).await.unwrap_err();
    assert_typed(&err, RejectKind::InsufficientMargin, 43012);
    let VenueError::Rejected { message, .. } = &err else {
        unreachable!()
    };
    assert_eq!(message, "Insufficient balance");
    let precision = ex
        .place_order(&buy(dec!(0.0123456), "p1"))
        .await
        .unwrap_err();
    assert_typed(&precision, RejectKind::Precision, 40808);
    assert!(
        precision.to_string().contains("checkScale=4"),
        "{precision}"
    );
    let doge = OrderRequest::market(Symbol::parse("DOGE").unwrap(), Side::Buy, dec!(10), "n1");
    let small = ex.place_order(&doge).await.unwrap_err();
    assert_typed(&small, RejectKind::NotionalTooSmall, 45110);
    assert!(small.to_string().contains("5 USDT"), "{small}");
    // A hedge-mode order on a one-way account is not sent at all: Bitget would ignore its
    // position side and buy.
    let sent = m.request_count("POST", "/api/v2/mix/order/place-order");
    let hedge_close = OrderRequest::market(btc(), Side::Sell, dec!(0.01), "h1")
        .with_position_side(PositionSide::Long);
    let err = ex.place_order(&hedge_close).await.unwrap_err();
    assert_eq!(err.kind(), Some(RejectKind::PositionModeMismatch), "{err}");
    assert_eq!(
        m.request_count("POST", "/api/v2/mix/order/place-order"),
        sent
    );
    let unlisted = ex
        .symbol_rules(&Symbol::parse("PEPE").unwrap())
        .await
        .unwrap_err();
    assert_eq!(unlisted.kind(), Some(RejectKind::UnknownSymbol));
    let rules = ex.symbol_rules(&btc()).await.unwrap();
    assert_eq!(
        (
            rules.tick_size,
            rules.step_size,
            rules.min_quantity,
            rules.min_notional
        ),
        (dec!(0.1), dec!(0.0001), dec!(0.0001), dec!(5))
    );
    assert!(m.orders(KEY).is_empty(), "no refused order exists");
}

#[tokio::test]
async fn a_demo_key_works_only_with_the_demo_header() {
    let m = mock().await;
    m.set_demo(KEY, true);
    let live = BitgetFutures::new(client_with(&m, KEY, SECRET, PASSPHRASE, false));
    assert_typed(
        &live.account().await.unwrap_err(),
        RejectKind::KeyIpOrPermission,
        40006,
    );
    let demo = BitgetFutures::new(client_with(&m, KEY, SECRET, PASSPHRASE, true));
    assert_eq!(demo.account().await.unwrap().equity, dec!(10000));
    assert_eq!(demo.venue(), "bitget-demo");
}

#[tokio::test]
async fn a_skewed_server_clock_is_measured_and_a_drifting_machine_is_clock_drift() {
    let m = mock().await;
    m.set_clock_skew_ms(90_000);
    let ex = futures(&m);
    ex.account().await.unwrap();
    assert!((ex.client().offset_ms() - 90_000).abs() < 5_000);
    // The machine using the key drifts past Bitget's 30 s window: resyncing cannot help.
    m.set_client_clock_off_ms(KEY, 40_000);
    assert_typed(
        &ex.account().await.unwrap_err(),
        RejectKind::ClockDrift,
        40008,
    );
}

#[tokio::test]
async fn an_order_whose_answer_was_lost_is_found_not_sent_twice() {
    let m = mock().await;
    let ex = futures(&m);
    m.inject(
        Route::PlaceOrder,
        Fault::AcceptThenDelay(Duration::from_millis(1500)),
    );
    let order = ex.place_order(&buy(dec!(0.01), "once")).await.unwrap();
    assert_eq!(order.status, OrderStatus::Filled);
    assert_eq!(m.orders(KEY).len(), 1);
    assert_eq!(m.request_count("POST", "/api/v2/mix/order/place-order"), 1);

    m.inject(Route::PlaceOrder, Fault::AcceptThenFail);
    ex.place_order(&buy(dec!(0.01), "twice")).await.unwrap();
    assert_eq!(m.orders(KEY).len(), 2);

    // Not accepted at all: the lookup finds nothing, so it is sent again, once.
    m.inject(Route::PlaceOrder, Fault::Delay(Duration::from_millis(1500)));
    ex.place_order(&buy(dec!(0.01), "thrice")).await.unwrap();
    assert_eq!(m.orders(KEY).len(), 3);
    assert_eq!(m.request_count("POST", "/api/v2/mix/order/place-order"), 4);
}

#[tokio::test]
async fn a_client_id_bitget_would_refuse_is_digested_and_found_again() {
    let m = mock().await;
    let ex = futures(&m);
    let odd = "nx 1d2e#3f4a5be18446744073709551615i0o/this-is-longer-than-fifty";
    let order = ex.place_order(&buy(dec!(0.01), odd)).await.unwrap();
    assert_eq!(order.client_order_id, odd);
    let kept = &m.orders(KEY)[0].client_oid;
    assert_eq!(kept.len(), 50);
    let found = ex.order_status(&btc(), odd).await.unwrap().unwrap();
    assert_eq!(found.order_id, order.order_id);
    assert_eq!(
        ex.place_order(&buy(dec!(0.01), odd))
            .await
            .unwrap()
            .order_id,
        order.order_id
    );
    assert_eq!(m.orders(KEY).len(), 1);
}

#[tokio::test]
async fn hedge_mode_opens_each_side_closes_with_plans_and_cancels_by_client_id() {
    let m = mock().await;
    let ex = futures(&m);
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
    // The long's stop, read back as a sell that closes the long.
    let stop = OrderRequest::trigger(
        btc(),
        OrderType::StopMarket,
        Side::Sell,
        dec!(0.02),
        dec!(59000),
        "ls1",
    )
    .with_position_side(PositionSide::Long);
    let placed = ex.place_order(&stop).await.unwrap();
    assert_eq!(
        (placed.side, placed.position_side, placed.status),
        (Side::Sell, Some(PositionSide::Long), OrderStatus::New)
    );
    assert_eq!(m.plan_orders(KEY)[0].hold, "long");
    // A resting limit far from the market, then cancelled by its client id.
    let resting = OrderRequest::limit(btc(), Side::Buy, dec!(0.01), dec!(50000), "r1")
        .with_position_side(PositionSide::Long);
    assert_eq!(
        ex.place_order(&resting).await.unwrap().status,
        OrderStatus::New
    );
    assert_eq!(ex.open_orders(Some(&btc())).await.unwrap().len(), 2);
    let cancelled = ex.cancel_order(&btc(), "r1").await.unwrap();
    assert_eq!(cancelled.status, OrderStatus::Canceled);
    let cancelled = ex.cancel_order(&btc(), "ls1").await.unwrap();
    assert_eq!(
        (cancelled.status, cancelled.order_type),
        (OrderStatus::Canceled, OrderType::StopMarket)
    );
    assert!(ex.open_orders(None).await.unwrap().is_empty());
    // A second cancel is refused in Bitget's words.
    let again = ex.cancel_order(&btc(), "r1").await.unwrap_err();
    assert_eq!(again.code(), Some(22001), "{again}");
    // Closing the long (a sell that names it) leaves the short.
    let close = OrderRequest::market(btc(), Side::Sell, dec!(0.02), "c1")
        .with_position_side(PositionSide::Long);
    let closed = ex.place_order(&close).await.unwrap();
    assert_eq!(
        (closed.side, closed.executed_quantity),
        (Side::Sell, dec!(0.02))
    );
    let left = ex.positions().await.unwrap();
    assert_eq!(left.len(), 1);
    assert_eq!(left[0].side, PositionSide::Short);
}

#[tokio::test]
async fn an_unchanged_leverage_is_no_error_and_a_busy_margin_mode_is_bitgets_refusal() {
    let m = mock().await;
    let ex = futures(&m);
    m.inject(Route::SetLeverage, Fault::bitget(40814));
    ex.set_leverage(&btc(), 10).await.unwrap();
    ex.place_order(&buy(dec!(0.01), "b1")).await.unwrap();
    // The same mode needs no change; the other one cannot be set under a position.
    ex.set_margin_mode(&btc(), MarginMode::Cross).await.unwrap();
    let err = ex
        .set_margin_mode(&btc(), MarginMode::Isolated)
        .await
        .unwrap_err();
    assert_eq!(err.code(), Some(45117), "{err}");
    // A new adapter reads the symbol's mode back from the account.
    let again = futures(&m);
    let order = again.place_order(&buy(dec!(0.01), "b2")).await.unwrap();
    assert_eq!(order.status, OrderStatus::Filled);
    assert_eq!(m.orders(KEY)[1].margin_mode, "crossed");
}

#[tokio::test]
async fn public_market_data_is_read() {
    let m = mock().await;
    let client = Arc::new(
        BitgetClient::new(
            "bitget",
            BitgetEndpoints::at(&m.url(), "the test"),
            None,
            BitgetOptions::default(),
            Arc::new(SystemClock),
        )
        .unwrap(),
    );
    let market = BitgetMarket::new(client.clone(), Arc::new(Contracts::new(client)));
    let t = market.ticker(&btc()).await.unwrap();
    assert_eq!(
        (t.bid, t.ask, t.mark, t.volume_24h),
        (dec!(59999.9), dec!(60000.1), dec!(60000), dec!(12345.678))
    );
    let book = market.order_book(&btc(), 3).await.unwrap();
    assert_eq!(book.asks.len(), 3);
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
    // Older than `candles` serves minutes (a month), over more than one request.
    let end = SystemClock.now_ms() - 40 * 86_400_000;
    let old = market
        .klines(&btc(), Interval::M1, KlineQuery::ending_at(end, 700))
        .await
        .unwrap();
    assert_eq!(old.len(), 700);
    assert!(
        old.windows(2)
            .all(|w| w[1].open_time_ms - w[0].open_time_ms == 60_000)
    );
    assert!(m.request_count("GET", "/api/v2/mix/market/history-candles") >= 4);
    // A long weekly series is asked in 90-day pieces.
    let weeks = market
        .klines(&btc(), Interval::W1, KlineQuery::latest(30))
        .await
        .unwrap();
    assert_eq!(weeks.len(), 30);
    let funding = market.funding_rate(&btc()).await.unwrap().unwrap();
    assert_eq!(funding.rate, dec!(0.0001));
    assert!(funding.next_funding_time_ms > SystemClock.now_ms());
}

/// A venue or a proxy may quote the request in its errors: neither the key nor the
/// passphrase (nor the secret) reaches the error nofxi makes of it.
#[tokio::test]
async fn an_error_quoting_the_credentials_never_carries_them() {
    let m = mock().await;
    let ex = futures(&m);
    for http_status in [400, 200, 500] {
        // A 5xx is retried: it must come back every time to surface.
        let times = if http_status >= 500 { 4 } else { 1 };
        for _ in 0..times {
            m.inject(
                Route::Private,
                Fault::Error {
                    http_status,
                    code: "40006".into(),
                    msg: format!(
                        "Invalid ACCESS_KEY {KEY} ACCESS-PASSPHRASE: {PASSPHRASE} secret {SECRET}"
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
