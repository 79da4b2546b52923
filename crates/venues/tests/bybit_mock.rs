//! The Bybit adapter against the mock Bybit server, beyond what the conformance suite asks of
//! every venue: each refusal typed with Bybit's own code and message, clock drift, orders
//! whose outcome was unknown, a repeated client id after Bybit dropped it from its real-time
//! list, hedge mode, the account-wide margin mode, settings that already hold, Bybit's rate
//! limit reset, market data, and credentials kept out of every error.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

use std::sync::Arc;
use std::time::Duration;

use nofxi_domain::Interval;
use nofxi_domain::market::Symbol;
use nofxi_domain::trading::{
    MarginMode, OrderRequest, OrderStatus, PositionMode, PositionSide, Side,
};
use nofxi_testkit::bybit::{Fault, MockBybit, Route};
use nofxi_venues::bybit::{
    BybitClient, BybitCredentials, BybitEndpoints, BybitLinear, BybitMarket, BybitOptions,
    Instruments,
};
use nofxi_venues::{Clock, Exchange, KlineQuery, MarketData, RejectKind, SystemClock, VenueError};
use rust_decimal::Decimal;
use rust_decimal_macros::dec;

const KEY: &str = "bybitMockKey42";
const SECRET: &str = "bybitMockSecret42";

async fn mock() -> MockBybit {
    let m = MockBybit::start().await.unwrap();
    m.add_account(KEY, SECRET, dec!(10000));
    m
}

fn client_with(m: &MockBybit, key: &str, secret: &str, max_retries: u32) -> Arc<BybitClient> {
    Arc::new(
        BybitClient::new(
            "bybit",
            BybitEndpoints::at(&m.url(), "the test"),
            Some(BybitCredentials::new(key, secret)),
            BybitOptions {
                timeout: Duration::from_millis(400),
                max_retries,
                ..BybitOptions::default()
            },
            Arc::new(SystemClock),
        )
        .unwrap(),
    )
}

fn linear_with(m: &MockBybit, key: &str, secret: &str) -> BybitLinear {
    BybitLinear::new(client_with(m, key, secret, 3))
}

fn linear(m: &MockBybit) -> BybitLinear {
    linear_with(m, KEY, SECRET)
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
async fn every_credential_fault_comes_back_typed_with_bybits_code_and_message() {
    let m = mock().await;
    let err = linear_with(&m, KEY, "not-the-secret")
        .account()
        .await
        .unwrap_err();
    assert_typed(&err, RejectKind::BadSignature, 10004);
    // Bybit's own words quote the signed text, key included; nofxi's error keeps the words
    // and not the key.
    let shown = format!("{err} {err:?}");
    assert!(shown.contains("error sign! origin_string["), "{shown}");
    assert!(!shown.contains(KEY), "{shown}");
    assert_typed(
        &linear_with(&m, "someoneElse1", SECRET)
            .account()
            .await
            .unwrap_err(),
        RejectKind::KeyIpOrPermission,
        10003,
    );
    let ex = linear(&m);
    m.set_ip_whitelisted(KEY, false);
    let err = ex.positions().await.unwrap_err();
    assert_typed(&err, RejectKind::IpNotWhitelisted, 10010);
    assert!(err.to_string().contains("bound IP"), "{err}");
    m.set_ip_whitelisted(KEY, true);
    m.set_trade_permission(KEY, false);
    ex.account().await.unwrap();
    assert_typed(
        &ex.set_leverage(&btc(), 5).await.unwrap_err(),
        RejectKind::PermissionMissing,
        10005,
    );
    assert_typed(
        &ex.place_order(&buy(dec!(0.01), "denied"))
            .await
            .unwrap_err(),
        RejectKind::PermissionMissing,
        10005,
    );
    assert!(m.orders(KEY).is_empty());
    m.set_trade_permission(KEY, true);
    // The machine's clock drifts past the receive window after the offset was measured; a
    // new measurement does not help, so Bybit's 10002 stands.
    m.set_client_clock_off_ms(KEY, -30_000);
    assert_typed(
        &ex.account().await.unwrap_err(),
        RejectKind::ClockDrift,
        10002,
    );
}

#[tokio::test]
async fn order_refusals_keep_bybits_own_code_and_words() {
    let m = MockBybit::start().await.unwrap();
    m.add_account(KEY, SECRET, dec!(50));
    let ex = linear(&m);
    // 0.1 BTC at 10× is 600 USDT of margin; the wallet holds 50.
    let err = ex.place_order(&buy(dec!(0.1), "big")).await.unwrap_err();
    assert_typed(&err, RejectKind::InsufficientMargin, 110007);
    assert!(
        err.to_string()
            .contains("Available balance is insufficient"),
        "{err}"
    );
    let doge = OrderRequest::market(Symbol::parse("DOGE").unwrap(), Side::Buy, dec!(10), "tiny");
    assert_typed(
        &ex.place_order(&doge).await.unwrap_err(),
        RejectKind::NotionalTooSmall,
        110094,
    );
    // Closing what is not held.
    let close = OrderRequest::market(btc(), Side::Sell, dec!(0.001), "nothing").reduce_only();
    assert_eq!(
        ex.place_order(&close).await.unwrap_err().code(),
        Some(110017)
    );
    // A mode mismatch: a hedge-mode order on a one-way account.
    let hedged = buy(dec!(0.001), "hedged").with_position_side(PositionSide::Long);
    assert_typed(
        &ex.place_order(&hedged).await.unwrap_err(),
        RejectKind::PositionModeMismatch,
        10001,
    );
    m.inject(Route::PlaceOrder, Fault::bybit(110007));
    assert_typed(
        &ex.place_order(&buy(dec!(0.001), "small"))
            .await
            .unwrap_err(),
        RejectKind::InsufficientMargin,
        110007,
    );
    assert!(m.orders(KEY).is_empty(), "{:?}", m.orders(KEY));
    // An unknown coin is refused before any order is sent.
    let nope = OrderRequest::market(Symbol::parse("NOPE").unwrap(), Side::Buy, dec!(1), "n");
    assert_eq!(
        ex.place_order(&nope).await.unwrap_err().kind(),
        Some(RejectKind::UnknownSymbol)
    );
    assert_eq!(m.request_count("POST", "/v5/order/create"), 5);
}

#[tokio::test]
async fn an_order_whose_answer_was_lost_is_found_not_sent_twice() {
    let m = mock().await;
    let ex = linear(&m);
    m.inject(
        Route::PlaceOrder,
        Fault::AcceptThenDelay(Duration::from_millis(1500)),
    );
    let order = ex.place_order(&buy(dec!(0.01), "once")).await.unwrap();
    assert_eq!(order.status, OrderStatus::Filled);
    assert_eq!(m.orders(KEY).len(), 1);
    assert_eq!(m.request_count("POST", "/v5/order/create"), 1);

    m.inject(Route::PlaceOrder, Fault::AcceptThenFail);
    ex.place_order(&buy(dec!(0.01), "twice")).await.unwrap();
    assert_eq!(m.orders(KEY).len(), 2);

    // Not accepted at all: the lookup finds nothing, so it is sent again, once.
    m.inject(Route::PlaceOrder, Fault::Delay(Duration::from_millis(1500)));
    ex.place_order(&buy(dec!(0.01), "thrice")).await.unwrap();
    assert_eq!(m.orders(KEY).len(), 3);
    assert_eq!(m.request_count("POST", "/v5/order/create"), 4);
}

#[tokio::test]
async fn a_repeated_client_id_is_found_in_the_history_after_bybit_dropped_it() {
    let m = mock().await;
    let ex = linear(&m);
    let first = ex
        .place_order(&buy(dec!(0.01), "nxRestart1"))
        .await
        .unwrap();
    // After a restart Bybit's real-time list no longer shows closed orders.
    m.forget_closed_realtime();
    let found = ex
        .order_status(&btc(), "nxRestart1")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (found.order_id.as_str(), found.status),
        (first.order_id.as_str(), OrderStatus::Filled)
    );
    // Sent again (a cycle that crashed before it saw the answer): 110072, then found.
    let again = ex
        .place_order(&buy(dec!(0.01), "nxRestart1"))
        .await
        .unwrap();
    assert_eq!(again.order_id, first.order_id);
    assert_eq!(m.orders(KEY).len(), 1);
    assert!(m.request_count("GET", "/v5/order/history") >= 2);
    assert!(ex.order_status(&btc(), "nxNever1").await.unwrap().is_none());
}

#[tokio::test]
async fn a_client_id_bybit_would_refuse_is_digested_and_found_again() {
    let m = mock().await;
    let ex = linear(&m);
    let odd = "nx.cycle:42/entry";
    let order = ex.place_order(&buy(dec!(0.01), odd)).await.unwrap();
    assert_eq!(order.client_order_id, odd);
    let kept = &m.orders(KEY)[0].order_link_id;
    assert!(kept.len() <= 36 && kept.starts_with('h'), "{kept}");
    let found = ex.order_status(&btc(), odd).await.unwrap().unwrap();
    assert_eq!(found.order_id, order.order_id);
    assert_eq!(m.orders(KEY).len(), 1);
}

#[tokio::test]
async fn hedge_mode_opens_each_side_and_cancels_by_client_id() {
    let m = mock().await;
    let ex = linear(&m);
    assert_eq!(ex.position_mode().await.unwrap(), PositionMode::OneWay);
    // Already one-way: Bybit's 110025 means there is nothing to do.
    ex.set_position_mode(PositionMode::OneWay).await.unwrap();
    ex.set_position_mode(PositionMode::Hedge).await.unwrap();
    assert_eq!(ex.position_mode().await.unwrap(), PositionMode::Hedge);
    ex.set_leverage(&btc(), 5).await.unwrap();
    // Already 5×: 110043, nothing to do.
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
        .map(|p| (p.side, p.quantity, p.leverage))
        .collect();
    held.sort_by_key(|h| h.1);
    assert_eq!(
        held,
        vec![
            (PositionSide::Short, dec!(0.01), 5),
            (PositionSide::Long, dec!(0.02), 5)
        ]
    );
    // Closing the long side: a sell on the long slot, reduce-only.
    let close = OrderRequest::market(btc(), Side::Sell, dec!(0.02), "c1")
        .with_position_side(PositionSide::Long);
    ex.place_order(&close).await.unwrap();
    assert!(
        m.orders(KEY)
            .iter()
            .any(|o| o.order_link_id == "c1" && o.reduce_only)
    );
    assert_eq!(ex.positions().await.unwrap().len(), 1);

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
    // Cancelling again (a retry whose first attempt landed) finds it cancelled.
    let again = ex.cancel_order(&btc(), "r1").await.unwrap();
    assert_eq!(again.order_id, cancelled.order_id);
    // A filled order cannot be cancelled: Bybit's refusal, in its words.
    let filled = ex.cancel_order(&btc(), "l1").await.unwrap_err();
    assert_eq!(filled.code(), Some(110001), "{filled}");
}

#[tokio::test]
async fn the_margin_mode_is_the_accounts_and_set_once() {
    let m = mock().await;
    let ex = linear(&m);
    // Already cross: no request to change it.
    ex.set_margin_mode(&btc(), MarginMode::Cross).await.unwrap();
    assert_eq!(m.request_count("POST", "/v5/account/set-margin-mode"), 0);
    ex.set_margin_mode(&btc(), MarginMode::Isolated)
        .await
        .unwrap();
    assert_eq!(m.request_count("POST", "/v5/account/set-margin-mode"), 1);
    ex.place_order(&buy(dec!(0.01), "iso1")).await.unwrap();
    let p = ex.positions().await.unwrap();
    assert_eq!(p[0].margin_mode, MarginMode::Isolated);
    // Switching back with a position open is refused with the reason Bybit lists.
    let err = ex
        .set_margin_mode(&btc(), MarginMode::Cross)
        .await
        .unwrap_err();
    assert_eq!(err.code(), Some(3400045), "{err}");
    assert!(
        err.to_string().contains("close the open positions"),
        "{err}"
    );
    // A portfolio-margin account is cross for nofxi: nothing is switched.
    m.set_margin_mode(KEY, "PORTFOLIO_MARGIN");
    ex.set_margin_mode(&btc(), MarginMode::Cross).await.unwrap();
    assert_eq!(m.request_count("POST", "/v5/account/set-margin-mode"), 2);
}

#[tokio::test]
async fn bybits_rate_limit_is_waited_out_by_its_reset_time() {
    let m = mock().await;
    let ex = linear(&m);
    m.inject(Route::Wallet, Fault::RateLimited);
    ex.account().await.unwrap();
    assert_eq!(m.request_count("GET", "/v5/account/wallet-balance"), 2);
    // Without retries the refusal carries Bybit's reset time as the wait.
    let once = BybitLinear::new(client_with(&m, KEY, SECRET, 0));
    m.inject(Route::Wallet, Fault::RateLimited);
    match once.account().await.unwrap_err() {
        VenueError::Rejected {
            kind: RejectKind::RateLimited,
            code: 10006,
            retry_after: Some(wait),
            ..
        } => assert!(wait <= Duration::from_secs(1), "{wait:?}"),
        other => panic!("{other:?}"),
    }
    m.inject(Route::Wallet, Fault::IpRateLimited);
    assert_eq!(
        once.account().await.unwrap_err().kind(),
        Some(RejectKind::Banned)
    );
}

#[tokio::test]
async fn fills_carry_the_pnl_the_transaction_log_booked() {
    let m = mock().await;
    let ex = linear(&m);
    let start = SystemClock.now_ms() - 1;
    ex.place_order(&buy(dec!(0.1), "f1")).await.unwrap();
    m.set_price("BTCUSDT", dec!(61000));
    let close = OrderRequest::market(btc(), Side::Sell, dec!(0.1), "f2").reduce_only();
    ex.place_order(&close).await.unwrap();
    let fills = ex.fills(&btc(), Some(start)).await.unwrap();
    assert_eq!(fills.len(), 2, "{fills:?}");
    assert_eq!(fills[0].realized_pnl, Decimal::ZERO);
    // Bought at 60 000.1, sold at 60 999.9: 0.1 × 999.8.
    assert_eq!(fills[1].realized_pnl, dec!(99.98));
    let fees: Decimal = fills.iter().map(|f| f.fee).sum();
    assert_eq!(m.balance(KEY).unwrap(), dec!(10000) + dec!(99.98) - fees);
    assert!(fills.iter().all(|f| f.fee_asset == "USDT" && !f.is_maker));
}

#[tokio::test]
async fn public_market_data_is_read_as_bybit_sends_it() {
    let m = mock().await;
    let client = Arc::new(
        BybitClient::new(
            "bybit",
            BybitEndpoints::at(&m.url(), "the test"),
            None,
            BybitOptions::default(),
            Arc::new(SystemClock),
        )
        .unwrap(),
    );
    let market = BybitMarket::new(client.clone(), Arc::new(Instruments::new(client)));
    let t = market.ticker(&btc()).await.unwrap();
    assert_eq!(
        (t.bid, t.ask, t.mark, t.volume_24h),
        (dec!(59999.9), dec!(60000.1), dec!(60000), dec!(12345.678))
    );
    let book = market.order_book(&btc(), 3).await.unwrap();
    assert_eq!((book.asks.len(), book.bids.len()), (3, 3));
    assert_eq!(book.asks[0].quantity, dec!(2));
    let candles = market
        .klines(&btc(), Interval::H4, KlineQuery::latest(5))
        .await
        .unwrap();
    assert_eq!(candles.len(), 5);
    assert!(
        candles
            .windows(2)
            .all(|w| w[1].open_time_ms - w[0].open_time_ms == 4 * 3_600_000)
    );
    assert!(candles.iter().all(|c| c.low <= c.open && c.high >= c.close));
    // A full page (1,000) of minutes from three days ago.
    let end = SystemClock.now_ms() - 3 * 86_400_000;
    let old = market
        .klines(&btc(), Interval::M1, KlineQuery::ending_at(end, 1000))
        .await
        .unwrap();
    assert_eq!(old.len(), 1000);
    assert!(
        old.windows(2)
            .all(|w| w[1].open_time_ms - w[0].open_time_ms == 60_000)
    );
    assert!(old.last().unwrap().open_time_ms <= end);
    let funding = market.funding_rate(&btc()).await.unwrap().unwrap();
    assert_eq!(funding.rate, dec!(0.0001));
    assert!(funding.next_funding_time_ms > SystemClock.now_ms());
    // A USDC perpetual is not a USDT one.
    let usdc = market.ticker(&Symbol::parse("BTCPERP").unwrap()).await;
    assert_eq!(usdc.unwrap_err().kind(), Some(RejectKind::UnknownSymbol));
}

/// A venue or a proxy may quote the request in its errors: neither the key nor the secret
/// reaches the error nofxi makes of it.
#[tokio::test]
async fn an_error_quoting_the_credentials_never_carries_them() {
    let m = mock().await;
    let ex = BybitLinear::new(client_with(&m, KEY, SECRET, 0));
    m.inject(
        Route::Private,
        Fault::Error {
            code: 10007,
            msg: format!("User authentication failed. api_key={KEY} secret={SECRET}"),
        },
    );
    m.inject(Route::Private, Fault::AcceptThenFail);
    for _ in 0..2 {
        let err = ex.account().await.unwrap_err();
        let shown = format!("{err} {err:?}");
        for secret in [KEY, SECRET] {
            assert!(!shown.contains(secret), "{secret} leaked: {shown}");
        }
    }
}
