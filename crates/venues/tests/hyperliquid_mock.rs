//! The Hyperliquid adapter against the mock Hyperliquid, beyond what the conformance suite
//! asks of every venue: signatures the mock recovers for real (an unapproved agent, a
//! revoked one, the other network's signature, an action encoded in another field order are
//! all "does not exist"), nonces out of the window, refusals typed from Hyperliquid's words,
//! an order whose answer was lost, cancels, the main-wallet address read where the account
//! is, hedge mode refused, market data, and the agent key kept out of every error.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

use std::sync::Arc;
use std::time::Duration;

use nofxi_domain::Interval;
use nofxi_domain::market::Symbol;
use nofxi_domain::trading::{
    MarginMode, OrderRequest, OrderStatus, OrderType, PositionMode, PositionSide, Side,
};
use nofxi_testkit::hyperliquid::{Fault, MockHyperliquid, Route, address_of_key};
use nofxi_venues::hyperliquid::{
    HyperliquidClient, HyperliquidCredentials, HyperliquidEndpoints, HyperliquidMarket,
    HyperliquidOptions, HyperliquidPerp, Retry, unknown_signer,
};
use nofxi_venues::{Exchange, KlineQuery, MarketData, RejectKind, SystemClock, VenueError};
use rust_decimal::Decimal;
use rust_decimal_macros::dec;
use serde_json::json;

const AGENT_KEY: &str = "0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba";
const OTHER_KEY: &str = "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318";
const WALLET: &str = "0x31ca8395cf837de08b24da3f660e77761dfb974b";

async fn mock() -> MockHyperliquid {
    let m = MockHyperliquid::start().await.unwrap();
    m.add_user(WALLET, dec!(10000));
    m.approve_agent(WALLET, &address_of_key(AGENT_KEY).unwrap(), "nofxi");
    m
}

fn client_with(
    m: &MockHyperliquid,
    key: &str,
    wallet: &str,
    testnet: bool,
) -> Arc<HyperliquidClient> {
    Arc::new(
        HyperliquidClient::new(
            "hyperliquid",
            HyperliquidEndpoints::at(&m.url(), "the test", testnet),
            Some(HyperliquidCredentials::new(key, wallet).unwrap()),
            HyperliquidOptions {
                timeout: Duration::from_millis(400),
                backoff_base: Duration::from_millis(10),
                ..HyperliquidOptions::default()
            },
            Arc::new(SystemClock),
        )
        .unwrap(),
    )
}

fn perp(m: &MockHyperliquid) -> HyperliquidPerp {
    HyperliquidPerp::new(client_with(m, AGENT_KEY, WALLET, false))
}

fn btc() -> Symbol {
    Symbol::parse("BTC").unwrap()
}

fn buy(qty: Decimal, id: &str) -> OrderRequest {
    OrderRequest::market(btc(), Side::Buy, qty, id)
}

fn refused(err: &VenueError, kind: RejectKind, words: &str) {
    assert_eq!(err.kind(), Some(kind), "{err}");
    assert!(err.to_string().contains(words), "{err}");
    assert!(!err.to_string().contains(&AGENT_KEY[2..]), "{err}");
}

#[tokio::test]
async fn a_signer_the_mock_does_not_know_is_refused_in_hyperliquids_words() {
    let m = mock().await;
    // A key no main wallet approved.
    let stranger = HyperliquidPerp::new(client_with(&m, OTHER_KEY, WALLET, false));
    let e = stranger.set_leverage(&btc(), 5).await.unwrap_err();
    // The signer's address is in Hyperliquid's words; like every 0x-run it is masked in an
    // error, which names no key either.
    refused(&e, RejectKind::KeyIpOrPermission, "User or API Wallet");
    assert!(e.to_string().contains("does not exist."), "{e}");
    assert!(unknown_signer(&e));
    // An approved agent, revoked (replaced by another, expired).
    let ours = perp(&m);
    ours.set_leverage(&btc(), 5).await.unwrap();
    m.revoke_agent(&address_of_key(AGENT_KEY).unwrap());
    let e = ours
        .place_order(&buy(dec!(0.001), "hlGone1"))
        .await
        .unwrap_err();
    assert!(unknown_signer(&e), "{e}");
    assert!(m.orders(WALLET).is_empty());
}

#[tokio::test]
async fn a_signature_over_other_bytes_recovers_another_address() {
    let m = mock().await;
    // Testnet's phantom agent sent to mainnet: another digest, another address.
    let testnet = HyperliquidPerp::new(client_with(&m, AGENT_KEY, WALLET, true));
    let e = testnet.set_leverage(&btc(), 5).await.unwrap_err();
    assert!(unknown_signer(&e), "{e}");
    m.set_testnet(true);
    testnet.set_leverage(&btc(), 5).await.unwrap();
    m.set_testnet(false);
    // The right fields in another order (a JSON map's sorted keys): the hash differs.
    let client = client_with(&m, AGENT_KEY, WALLET, false);
    let sorted = json!({"type": "updateLeverage", "asset": 0, "isCross": true, "leverage": 5});
    let e = client.exchange(&sorted, Retry::Safe).await.unwrap_err();
    assert!(unknown_signer(&e), "{e}");
}

#[tokio::test]
async fn nonces_out_of_the_window_are_clock_drift() {
    let m = mock().await;
    let ours = perp(&m);
    // The server three days ahead: every nonce from this machine is too low.
    m.set_clock_skew_ms(3 * 86_400_000);
    let e = ours.set_leverage(&btc(), 5).await.unwrap_err();
    refused(&e, RejectKind::ClockDrift, "Invalid nonce: nonce too low");
    m.set_clock_skew_ms(-2 * 86_400_000);
    let e = ours.set_leverage(&btc(), 5).await.unwrap_err();
    refused(&e, RejectKind::ClockDrift, "nonce too high");
    m.set_clock_skew_ms(0);
    // A nonce another process used is refused once, then sent again with a fresh one.
    m.inject(Route::Exchange("updateLeverage"), Fault::duplicate_nonce(1));
    ours.set_leverage(&btc(), 5).await.unwrap();
    // Two refused twice each (once more with a fresh nonce), then one refused and resent.
    assert_eq!(m.request_count("/exchange", "updateLeverage"), 2 + 2 + 2);
}

#[tokio::test]
async fn order_refusals_are_typed_from_hyperliquids_words() {
    let m = mock().await;
    let ours = perp(&m);
    m.set_balance(WALLET, dec!(20));
    ours.set_leverage(&btc(), 2).await.unwrap();
    let e = ours
        .place_order(&buy(dec!(0.01), "hlBig1"))
        .await
        .unwrap_err();
    refused(
        &e,
        RejectKind::InsufficientMargin,
        "Insufficient margin to place order.",
    );
    let e = ours
        .place_order(&buy(dec!(0.0001), "hlTiny1"))
        .await
        .unwrap_err();
    refused(
        &e,
        RejectKind::NotionalTooSmall,
        "Order must have minimum value of $10.",
    );
    let close = OrderRequest::market(btc(), Side::Sell, dec!(0.001), "hlRo1").reduce_only();
    let e = ours.place_order(&close).await.unwrap_err();
    refused(
        &e,
        RejectKind::Other,
        "Reduce only order would increase position.",
    );
    m.inject(Route::Exchange("order"), Fault::insufficient_margin());
    m.set_balance(WALLET, dec!(10000));
    let e = ours
        .place_order(&buy(dec!(0.001), "hlInj1"))
        .await
        .unwrap_err();
    assert_eq!(e.kind(), Some(RejectKind::InsufficientMargin));
    // One position per coin: a hedge-mode order never leaves, and hedge mode cannot be set.
    let hedge = buy(dec!(0.001), "hlHedge1").with_position_side(PositionSide::Long);
    let e = ours.place_order(&hedge).await.unwrap_err();
    assert_eq!(e.kind(), Some(RejectKind::PositionModeMismatch));
    assert_eq!(ours.position_mode().await.unwrap(), PositionMode::OneWay);
    assert!(ours.set_position_mode(PositionMode::Hedge).await.is_err());
    ours.set_position_mode(PositionMode::OneWay).await.unwrap();
    assert!(m.orders(WALLET).is_empty());
}

#[tokio::test]
async fn an_order_whose_answer_was_lost_is_found_not_sent_twice() {
    let m = mock().await;
    let ours = perp(&m);
    m.inject(Route::Exchange("order"), Fault::AcceptThenFail);
    let order = ours
        .place_order(&buy(dec!(0.002), "hlLost1"))
        .await
        .unwrap();
    assert_eq!(
        (order.status, order.executed_quantity),
        (OrderStatus::Filled, dec!(0.002))
    );
    assert!(order.average_price > dec!(60000));
    assert_eq!(m.request_count("/exchange", "order"), 1);
    m.inject(
        Route::Exchange("order"),
        Fault::AcceptThenDelay(Duration::from_secs(2)),
    );
    let order = ours
        .place_order(&buy(dec!(0.002), "hlSlow1"))
        .await
        .unwrap();
    assert_eq!(order.status, OrderStatus::Filled);
    assert_eq!(m.orders(WALLET).len(), 2);
    assert_eq!(m.position(WALLET, "BTC").unwrap().szi, dec!(0.004));
}

#[tokio::test]
async fn stops_cancel_by_client_id_and_a_second_cancel_is_order_not_found() {
    let m = mock().await;
    let ours = perp(&m);
    ours.set_margin_mode(&btc(), MarginMode::Isolated)
        .await
        .unwrap();
    ours.set_leverage(&btc(), 4).await.unwrap();
    ours.place_order(&buy(dec!(0.01), "hlEntry1"))
        .await
        .unwrap();
    let position = ours.positions().await.unwrap().pop().unwrap();
    assert_eq!(
        (position.margin_mode, position.leverage),
        (MarginMode::Isolated, 4)
    );
    // A take-profit trigger, rounded to five figures on the way out.
    let tp = OrderRequest::trigger(
        btc(),
        OrderType::TakeProfitMarket,
        Side::Sell,
        dec!(0.01),
        dec!(64000.4),
        "hlTp1",
    );
    let placed = ours.place_order(&tp).await.unwrap();
    assert_eq!(
        (placed.status, placed.stop_price),
        (OrderStatus::New, Some(dec!(64000)))
    );
    let sent = m.orders(WALLET).pop().unwrap();
    assert_eq!(
        (sent.trigger_px, sent.limit_px, sent.reduce_only),
        (Some(dec!(64000)), dec!(57600), true)
    );
    let open = ours.open_orders(None).await.unwrap();
    assert_eq!(
        open.iter()
            .map(|o| o.client_order_id.as_str())
            .collect::<Vec<_>>(),
        ["hlTp1"]
    );
    let cancelled = ours.cancel_order(&btc(), "hlTp1").await.unwrap();
    assert_eq!(cancelled.status, OrderStatus::Canceled);
    let e = ours.cancel_order(&btc(), "hlTp1").await.unwrap_err();
    refused(
        &e,
        RejectKind::OrderNotFound,
        "Order was never placed, already canceled, or filled.",
    );
    assert!(
        ours.order_status(&btc(), "hlNever1")
            .await
            .unwrap()
            .is_none()
    );
}

#[tokio::test]
async fn the_account_is_the_main_wallets_and_an_agents_address_reads_empty() {
    let m = mock().await;
    let ours = perp(&m);
    ours.place_order(&buy(dec!(0.01), "hlAcct1")).await.unwrap();
    let (account, positions) = ours.account_and_positions().await.unwrap();
    assert_eq!(account.asset, "USDC");
    assert_eq!(positions.len(), 1);
    let fees: Decimal = ours
        .fills(&btc(), None)
        .await
        .unwrap()
        .iter()
        .map(|f| f.fee)
        .sum();
    assert_eq!(account.wallet_balance, dec!(10000) - fees);
    // The agent's own address where the main wallet's belongs: the pitfall the docs name.
    let agent = address_of_key(AGENT_KEY).unwrap();
    let misread = HyperliquidPerp::new(client_with(&m, AGENT_KEY, &agent, false));
    assert!(misread.account().await.unwrap().equity.is_zero());
    assert!(misread.positions().await.unwrap().is_empty());
    let role = misread.user_role(&agent).await.unwrap();
    assert_eq!(
        (role["role"].as_str(), role["data"]["user"].as_str()),
        (Some("agent"), Some(WALLET))
    );
}

#[tokio::test]
async fn rate_limits_are_retried_for_reads_and_orders() {
    let m = mock().await;
    let ours = perp(&m);
    m.inject(Route::Info("clearinghouseState"), Fault::RateLimited);
    ours.account().await.unwrap();
    assert_eq!(m.request_count("/info", "clearinghouseState"), 2);
    for _ in 0..5 {
        m.inject(Route::Info("clearinghouseState"), Fault::RateLimited);
    }
    let e = ours.account().await.unwrap_err();
    assert_eq!(
        (e.kind(), e.code()),
        (Some(RejectKind::RateLimited), Some(-1003))
    );
}

#[tokio::test]
async fn public_market_data_reads_books_candles_and_funding() {
    let m = mock().await;
    let ours = perp(&m);
    let market = HyperliquidMarket::new(ours.client().clone(), ours.assets().clone());
    let t = market.ticker(&btc()).await.unwrap();
    assert!(t.bid < t.ask && t.mark == dec!(60000), "{t:?}");
    let book = market.order_book(&btc(), 5).await.unwrap();
    assert_eq!((book.bids.len(), book.asks.len()), (5, 5));
    assert_eq!(book.asks[0].price, dec!(60001));
    let candles = market
        .klines(&btc(), Interval::H1, KlineQuery::latest(24))
        .await
        .unwrap();
    assert_eq!(candles.len(), 24);
    assert!(
        candles
            .windows(2)
            .all(|w| w[1].open_time_ms - w[0].open_time_ms == 3_600_000)
    );
    assert!(
        market
            .klines(&btc(), Interval::H6, KlineQuery::latest(3))
            .await
            .is_err()
    );
    let funding = market.funding_rate(&btc()).await.unwrap().unwrap();
    assert_eq!(funding.rate, dec!(0.0000125));
    assert_eq!(funding.next_funding_time_ms % 3_600_000, 0);
    // kPEPE's name is not upper case; it is still nofxi's KPEPEUSDT.
    let pepe = market
        .ticker(&Symbol::parse("KPEPE").unwrap())
        .await
        .unwrap();
    assert!(pepe.mark > Decimal::ZERO);
    let e = market
        .ticker(&Symbol::parse("FTT").unwrap())
        .await
        .unwrap_err();
    assert_eq!(e.kind(), Some(RejectKind::UnknownSymbol), "a delisted coin");
    let rules = ours
        .symbol_rules(&Symbol::parse("ETH").unwrap())
        .await
        .unwrap();
    assert_eq!(
        (rules.tick_size, rules.step_size),
        (dec!(0.1), dec!(0.0001))
    );
}
