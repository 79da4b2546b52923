//! The Binance adapter against the mock server: real signatures, real fills, every error typed.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

use std::sync::Arc;
use std::time::Duration;

use nofxi_domain::Interval;
use nofxi_domain::market::Symbol;
use nofxi_domain::trading::{OrderRequest, OrderStatus, PositionSide, Side};
use nofxi_testkit::binance::{Fault, MockBinance, Route};
use nofxi_venues::binance::{
    ApiCredentials, BinanceClient, BinanceEndpoints, BinanceFutures, BinanceMarket, BinanceOptions,
};
use nofxi_venues::{
    Clock, Exchange, KlineQuery, ManualClock, MarketData, RejectKind, SystemClock, VenueError,
};
use rust_decimal_macros::dec;

const KEY: &str = "mockKey123";
const SECRET: &str = "mockSecret456";

async fn mock() -> MockBinance {
    let m = MockBinance::start().await.unwrap();
    m.add_account(KEY, SECRET, dec!(10000));
    m
}

fn options() -> BinanceOptions {
    BinanceOptions {
        timeout: Duration::from_millis(400),
        ..BinanceOptions::default()
    }
}

fn futures_with(
    m: &MockBinance,
    key: &str,
    secret: &str,
    clock: Arc<dyn Clock>,
    opts: BinanceOptions,
) -> BinanceFutures {
    let client = BinanceClient::new(
        "binance",
        BinanceEndpoints::single(&m.url()),
        Some(ApiCredentials::new(key, secret)),
        opts,
        clock,
    )
    .unwrap();
    BinanceFutures::new(Arc::new(client))
}

fn futures(m: &MockBinance) -> BinanceFutures {
    futures_with(m, KEY, SECRET, Arc::new(SystemClock), options())
}

fn btc() -> Symbol {
    Symbol::parse("BTCUSDT").unwrap()
}

fn buy(qty: rust_decimal::Decimal, id: &str) -> OrderRequest {
    OrderRequest::market(btc(), Side::Buy, qty, id)
}

#[tokio::test]
async fn a_correct_key_places_an_order_that_really_fills() {
    let m = mock().await;
    let ex = futures(&m);
    // 3 BTC walks the mock's book: 2 at 60 000.1 and 1 at 60 000.2.
    let order = ex.place_order(&buy(dec!(3), "fill-1")).await.unwrap();
    assert_eq!(order.status, OrderStatus::Filled);
    assert_eq!(order.executed_quantity, dec!(3));
    assert_eq!(order.average_price.round_dp(4), dec!(60000.1333));
    let positions = ex.positions().await.unwrap();
    assert_eq!(
        (positions[0].side, positions[0].quantity),
        (PositionSide::Long, dec!(3))
    );
    let fills = ex.fills(&btc(), None).await.unwrap();
    assert_eq!(fills.len(), 2);
    let fees: rust_decimal::Decimal = fills.iter().map(|f| f.fee).sum();
    let account = ex.account().await.unwrap();
    assert_eq!(account.wallet_balance, dec!(10000) - fees);
    let rules = ex.symbol_rules(&btc()).await.unwrap();
    assert_eq!(
        (rules.tick_size, rules.step_size, rules.min_notional),
        (dec!(0.1), dec!(0.001), dec!(5))
    );
    assert_eq!(rules.round_quantity(dec!(0.12345)), dec!(0.123));
    assert!(
        ex.symbol_rules(&Symbol::parse("PEPE").unwrap())
            .await
            .is_err()
    );
    let status = ex.order_status(&btc(), "fill-1").await.unwrap().unwrap();
    assert_eq!(status.order_id, order.order_id);
    assert!(
        ex.order_status(&btc(), "never-sent")
            .await
            .unwrap()
            .is_none()
    );
}

#[tokio::test]
async fn settings_round_trip() {
    let m = mock().await;
    let ex = futures(&m);
    ex.set_leverage(&btc(), 5).await.unwrap();
    ex.set_margin_mode(&btc(), nofxi_domain::trading::MarginMode::Isolated)
        .await
        .unwrap();
    ex.set_margin_mode(&btc(), nofxi_domain::trading::MarginMode::Isolated)
        .await
        .unwrap();
    assert_eq!(
        ex.position_mode().await.unwrap(),
        nofxi_domain::trading::PositionMode::OneWay
    );
    ex.set_position_mode(nofxi_domain::trading::PositionMode::Hedge)
        .await
        .unwrap();
    assert_eq!(
        ex.position_mode().await.unwrap(),
        nofxi_domain::trading::PositionMode::Hedge
    );
    let limit = OrderRequest::limit(btc(), Side::Buy, dec!(0.01), dec!(50000), "rest")
        .with_position_side(PositionSide::Long);
    assert_eq!(
        ex.place_order(&limit).await.unwrap().status,
        OrderStatus::New
    );
    assert_eq!(ex.open_orders(Some(&btc())).await.unwrap().len(), 1);
    assert_eq!(
        ex.cancel_order(&btc(), "rest").await.unwrap().status,
        OrderStatus::Canceled
    );
}

fn assert_typed(err: &VenueError, kind: RejectKind, code: i64) {
    assert_eq!(err.kind(), Some(kind), "{err}");
    assert_eq!(err.code(), Some(code), "{err}");
}

#[tokio::test]
async fn every_injected_error_comes_back_typed_with_the_exchange_code_and_message() {
    let m = mock().await;
    let ex = futures(&m);
    let cases = [
        (-1022, RejectKind::BadSignature),
        (-2014, RejectKind::BadKeyFormat),
        (-2015, RejectKind::KeyIpOrPermission),
        (-2019, RejectKind::InsufficientMargin),
        (-4061, RejectKind::PositionModeMismatch),
        (-4164, RejectKind::NotionalTooSmall),
        (-1111, RejectKind::Precision),
    ];
    for (i, (code, kind)) in cases.into_iter().enumerate() {
        let fault = Fault::binance(code);
        let Fault::Error { msg, .. } = &fault else {
            unreachable!()
        };
        let msg = msg.clone();
        m.inject(Route::PlaceOrder, fault);
        let err = ex
            .place_order(&buy(dec!(0.01), &format!("e{i}")))
            .await
            .unwrap_err();
        assert_typed(&err, kind, code);
        let VenueError::Rejected { message, .. } = &err else {
            unreachable!()
        };
        assert_eq!(message, &msg);
    }
    // Clock drift survives one resync, so it takes two in a row to surface.
    m.inject(Route::PlaceOrder, Fault::binance(-1021));
    m.inject(Route::PlaceOrder, Fault::binance(-1021));
    assert_typed(
        &ex.place_order(&buy(dec!(0.01), "drift")).await.unwrap_err(),
        RejectKind::ClockDrift,
        -1021,
    );
    m.inject(
        Route::Account,
        Fault::Banned {
            retry_after_secs: 60,
        },
    );
    let banned = ex.account().await.unwrap_err();
    assert_eq!(banned.kind(), Some(RejectKind::Banned));
    assert_eq!(
        m.request_count("GET", "/fapi/v2/account"),
        1,
        "a ban is not retried"
    );
    assert!(
        m.orders(KEY).is_empty(),
        "no injected error created an order"
    );
}

#[tokio::test]
async fn the_mock_produces_the_errors_itself_when_the_request_deserves_them() {
    let m = mock().await;
    let wrong_secret = futures_with(&m, KEY, "not-the-secret", Arc::new(SystemClock), options());
    assert_typed(
        &wrong_secret.account().await.unwrap_err(),
        RejectKind::BadSignature,
        -1022,
    );
    let unknown = futures_with(&m, "someoneElse", SECRET, Arc::new(SystemClock), options());
    assert_typed(
        &unknown.account().await.unwrap_err(),
        RejectKind::KeyIpOrPermission,
        -2015,
    );
    let malformed = futures_with(&m, "bad key!", SECRET, Arc::new(SystemClock), options());
    assert_typed(
        &malformed.account().await.unwrap_err(),
        RejectKind::BadKeyFormat,
        -2014,
    );

    let ex = futures(&m);
    assert_typed(
        &ex.place_order(&buy(dec!(1000), "big")).await.unwrap_err(),
        RejectKind::InsufficientMargin,
        -2019,
    );
    assert_typed(
        &ex.place_order(&buy(dec!(0.00005), "p")).await.unwrap_err(),
        RejectKind::Precision,
        -1111,
    );
    let doge = OrderRequest::market(Symbol::parse("DOGE").unwrap(), Side::Buy, dec!(1), "n");
    assert_typed(
        &ex.place_order(&doge).await.unwrap_err(),
        RejectKind::NotionalTooSmall,
        -4164,
    );
    let hedge = buy(dec!(0.01), "h").with_position_side(PositionSide::Long);
    assert_typed(
        &ex.place_order(&hedge).await.unwrap_err(),
        RejectKind::PositionModeMismatch,
        -4061,
    );
    m.set_futures_enabled(KEY, false);
    assert_typed(
        &ex.account().await.unwrap_err(),
        RejectKind::KeyIpOrPermission,
        -2015,
    );
    assert!(m.orders(KEY).is_empty());
}

#[tokio::test]
async fn a_drifted_clock_is_measured_and_compensated() {
    let m = mock().await;
    // The server runs 30 s ahead: the first signed call measures the offset.
    m.set_clock_skew_ms(30_000);
    let ex = futures(&m);
    ex.account().await.unwrap();
    assert!((ex.client().offset_ms() - 30_000).abs() < 1_000);
    // The server jumps again: -1021 comes back once, the client re-measures and succeeds.
    m.set_clock_skew_ms(-20_000);
    ex.account().await.unwrap();
    assert!((ex.client().offset_ms() + 20_000).abs() < 1_000);
}

#[tokio::test]
async fn rate_limits_are_retried_after_the_time_the_exchange_asks() {
    let m = mock().await;
    let clock = ManualClock::new(SystemClock.now_ms());
    let ex = futures_with(&m, KEY, SECRET, Arc::new(clock.clone()), options());
    m.inject(
        Route::Account,
        Fault::RateLimited {
            retry_after_secs: 3,
        },
    );
    ex.account().await.unwrap();
    assert!(
        clock.slept() >= Duration::from_secs(3),
        "slept {:?}",
        clock.slept()
    );
    // Past the retry budget the 429 surfaces, typed, with its Retry-After.
    for _ in 0..4 {
        m.inject(
            Route::Account,
            Fault::RateLimited {
                retry_after_secs: 1,
            },
        );
    }
    let err = ex.account().await.unwrap_err();
    assert_eq!(err.kind(), Some(RejectKind::RateLimited));
    let VenueError::Rejected {
        retry_after,
        http_status,
        ..
    } = err
    else {
        unreachable!()
    };
    assert_eq!(
        (retry_after, http_status),
        (Some(Duration::from_secs(1)), 429)
    );
    // 5xx is retried with backoff.
    m.inject(Route::Account, Fault::Unavailable);
    ex.account().await.unwrap();
}

/// Simulated time for both sides: sleeping on it moves the client's clock and the mock's.
#[derive(Debug, Clone)]
struct SharedTime {
    clock: ManualClock,
    mock: Arc<MockBinance>,
    skew: Arc<std::sync::atomic::AtomicI64>,
}

#[async_trait::async_trait]
impl Clock for SharedTime {
    fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }
    async fn sleep(&self, d: Duration) {
        let ms = d.as_millis() as i64;
        let skew = self.skew.fetch_add(ms, std::sync::atomic::Ordering::SeqCst) + ms;
        self.mock.set_clock_skew_ms(skew);
        self.clock.sleep(d).await;
    }
}

#[tokio::test]
async fn the_used_weight_header_paces_requests() {
    let m = Arc::new(mock().await);
    let clock = ManualClock::new(SystemClock.now_ms());
    let time = SharedTime {
        clock: clock.clone(),
        mock: m.clone(),
        skew: Arc::default(),
    };
    let opts = BinanceOptions {
        weight_limit: 8,
        ..options()
    };
    let ex = futures_with(&m, KEY, SECRET, Arc::new(time), opts);
    ex.account().await.unwrap(); // time (1) + account (5) = 6 used
    assert_eq!(clock.slept(), Duration::ZERO);
    ex.account().await.unwrap(); // 6 + 5 > 8: wait for the next minute
    assert!(clock.slept() > Duration::ZERO && clock.slept() <= Duration::from_secs(60));
    assert_eq!(
        m.request_count("GET", "/fapi/v2/account"),
        2,
        "paced, never refused"
    );
}

#[tokio::test]
async fn a_timeout_after_acceptance_never_creates_a_second_order() {
    let m = mock().await;
    let ex = futures(&m);
    m.inject(
        Route::PlaceOrder,
        Fault::AcceptThenDelay(Duration::from_millis(1500)),
    );
    let order = ex.place_order(&buy(dec!(0.01), "once")).await.unwrap();
    assert_eq!(order.status, OrderStatus::Filled);
    assert_eq!(m.orders(KEY).len(), 1);
    assert_eq!(
        m.request_count("POST", "/fapi/v1/order"),
        1,
        "found by lookup, not resent"
    );

    m.inject(Route::PlaceOrder, Fault::AcceptThenFail);
    ex.place_order(&buy(dec!(0.01), "twice")).await.unwrap();
    assert_eq!(m.orders(KEY).len(), 2);

    // Not accepted at all: the lookup finds nothing, so it is sent again, once.
    m.inject(Route::PlaceOrder, Fault::Delay(Duration::from_millis(1500)));
    ex.place_order(&buy(dec!(0.01), "thrice")).await.unwrap();
    assert_eq!(m.orders(KEY).len(), 3);
    assert_eq!(m.request_count("POST", "/fapi/v1/order"), 4);
}

#[tokio::test]
async fn public_market_data_reads_the_mock_book() {
    let m = mock().await;
    let client = BinanceClient::new(
        "binance",
        BinanceEndpoints::single(&m.url()),
        None,
        options(),
        Arc::new(SystemClock),
    )
    .unwrap();
    let market = BinanceMarket::new(Arc::new(client));
    let t = market.ticker(&btc()).await.unwrap();
    assert_eq!(
        (t.bid, t.ask, t.mark),
        (dec!(59999.9), dec!(60000.1), dec!(60000))
    );
    let book = market.order_book(&btc(), 3).await.unwrap();
    assert_eq!(book.asks.len(), 3);
    let candles = market
        .klines(&btc(), Interval::H1, KlineQuery::latest(5))
        .await
        .unwrap();
    assert_eq!(candles.len(), 5);
    assert!(candles.iter().all(|c| c.low <= c.open && c.high >= c.close));
    assert!(market.funding_rate(&btc()).await.unwrap().is_some());
}

/// A venue (or a proxy) that quotes the request in its errors: the API key header and the
/// signed query string. Whatever status it answers with, the error the client makes carries
/// neither the key nor the signature, and still says what the venue said.
#[tokio::test]
async fn an_error_that_echoes_the_request_never_carries_the_key_or_signature() {
    use nofxi_testkit::binance::EchoRequests;
    let m = mock().await;
    let ex = futures(&m);
    for (http_status, code) in [(401, -2015), (500, -1000), (400, -1022)] {
        m.echo_requests(Some(EchoRequests {
            route: Route::Signed,
            http_status,
            code,
        }));
        let err = ex.account().await.unwrap_err();
        let shown = format!("{err} {err:?}");
        assert!(!shown.contains(KEY), "the API key leaked: {shown}");
        assert!(!shown.contains(SECRET), "the secret leaked: {shown}");
        assert!(
            !shown.contains("signature=") || shown.contains("signature=[redacted]"),
            "the signature leaked: {shown}"
        );
        assert!(shown.contains("X-MBX-APIKEY: [redacted]"), "{shown}");
    }
}

/// An answer without the field read says which field of which endpoint, for every read the
/// CLI shows (`exchange positions`, `balance`, open orders), and a missing position-mode flag
/// is unreadable, not "one-way".
#[tokio::test]
async fn an_unreadable_answer_names_the_endpoint_and_the_field() {
    let m = mock().await;
    m.hollow_answers(Some(serde_json::json!({})));
    let f = futures(&m);
    let said = |e: VenueError| e.to_string();
    let positions = said(f.positions().await.unwrap_err());
    assert!(
        positions.contains("GET /fapi/v2/positionRisk") && positions.contains("JSON array"),
        "{positions}"
    );
    let account = said(f.account().await.unwrap_err());
    assert!(
        account.contains("GET /fapi/v2/account") && account.contains("totalWalletBalance"),
        "{account}"
    );
    let orders = said(f.open_orders(None).await.unwrap_err());
    assert!(orders.contains("GET /fapi/v1/openOrders"), "{orders}");
    let mode = f.position_mode().await;
    assert!(
        mode.as_ref()
            .is_err_and(|e| e.to_string().contains("dualSidePosition")),
        "{mode:?}"
    );
}
