//! A live venue leaves a position's other protective order open when one fills (Binance
//! does): the next cycle finds it and cancels it, and leaves the orders of a position that is
//! still held alone. Against the testkit mock Binance, over loopback HTTP.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

use std::sync::Arc;

use async_trait::async_trait;
use nofxi_domain::market::Symbol;
use nofxi_domain::strategy_config::StrategyConfig;
use nofxi_domain::trading::{MarginMode, OrderRequest, OrderType, PositionMode, Side};
use nofxi_testkit::binance::MockBinance;
use nofxi_trader::cycle::{
    CANCEL_ORPHANED, CycleInput, CycleWorld, ExecutionSettings, MemoryJournal, TraderCycle,
};
use nofxi_trader::decider::{Decider, DeciderError, DeciderOutput, SeriesRequest};
use nofxi_venues::binance::{
    ApiCredentials, BinanceClient, BinanceEndpoints, BinanceFutures, BinanceMarket, BinanceOptions,
};
use nofxi_venues::{Exchange, SystemClock};
use rust_decimal::Decimal;
use rust_decimal_macros::dec;

const KEY: &str = "orphanKey1";
const SECRET: &str = "orphanSecret1";

/// Proposes nothing: the cycle's own housekeeping is what is under test.
struct Idle;

#[async_trait]
impl Decider for Idle {
    fn name(&self) -> String {
        "idle".into()
    }
    fn series_wanted(&self, _: &Symbol, _: &StrategyConfig) -> Vec<SeriesRequest> {
        Vec::new()
    }
    async fn decide(&mut self, _: &CycleInput<'_>) -> Result<DeciderOutput, DeciderError> {
        Ok(DeciderOutput::default())
    }
}

fn sym(s: &str) -> Symbol {
    Symbol::parse(s).unwrap()
}

async fn protected_long(ex: &BinanceFutures, symbol: &str, qty: Decimal, sl: Decimal, tp: Decimal) {
    let tag = symbol.to_ascii_lowercase();
    ex.place_order(&OrderRequest::market(
        sym(symbol),
        Side::Buy,
        qty,
        &format!("{tag}-e"),
    ))
    .await
    .unwrap();
    for (kind, trigger, leg) in [
        (OrderType::StopMarket, sl, "s"),
        (OrderType::TakeProfitMarket, tp, "t"),
    ] {
        let req = OrderRequest::trigger(
            sym(symbol),
            kind,
            Side::Sell,
            qty,
            trigger,
            &format!("{tag}-{leg}"),
        );
        ex.place_order(&req).await.unwrap();
    }
}

#[tokio::test]
async fn a_cycle_cancels_the_take_profit_its_filled_stop_left_behind() {
    let m = MockBinance::start().await.unwrap();
    m.add_account(KEY, SECRET, dec!(100000));
    let client = Arc::new(
        BinanceClient::new(
            "binance",
            BinanceEndpoints::single(&m.url()),
            Some(ApiCredentials::new(KEY, SECRET)),
            BinanceOptions::default(),
            Arc::new(SystemClock),
        )
        .unwrap(),
    );
    let ex = BinanceFutures::new(client.clone());
    let market = BinanceMarket::new(client);
    protected_long(&ex, "BTCUSDT", dec!(0.01), dec!(59000), dec!(62000)).await;
    protected_long(&ex, "ETHUSDT", dec!(0.1), dec!(2900), dec!(3100)).await;
    // BTC's stop fires on the venue; its take-profit stays open there.
    assert!(m.fire_trigger(KEY, "btcusdt-s"));
    assert!(
        ex.positions()
            .await
            .unwrap()
            .iter()
            .all(|p| p.symbol != sym("BTCUSDT"))
    );

    let journal = MemoryJournal::default();
    let world = CycleWorld {
        exchange: &ex,
        market: &market,
        clock: &SystemClock,
        journal: &journal,
    };
    let mut trader = TraderCycle::new(
        "t-orphan",
        "live-bot",
        ExecutionSettings::new("t-orphan", MarginMode::Cross, PositionMode::OneWay),
    );
    let record = trader
        .run(&StrategyConfig::default(), &mut Idle, &world)
        .await
        .unwrap();

    let status = |id: &str| {
        m.orders(KEY)
            .into_iter()
            .find(|o| o.client_order_id == id)
            .map(|o| o.status)
            .unwrap()
    };
    assert_eq!(status("btcusdt-t"), "CANCELED");
    // ETH is still held: its stop and take-profit protect it and stay.
    assert_eq!(status("ethusdt-s"), "NEW");
    assert_eq!(status("ethusdt-t"), "NEW");
    let cancelled: Vec<_> = record
        .executions
        .iter()
        .filter(|e| e.what == CANCEL_ORPHANED)
        .map(|e| (e.client_order_id.as_str(), e.ok))
        .collect();
    assert_eq!(cancelled, [("btcusdt-t", true)]);
    // Reconciled once: a second cycle finds nothing more to cancel.
    let again = trader
        .run(&StrategyConfig::default(), &mut Idle, &world)
        .await
        .unwrap();
    assert!(again.executions.iter().all(|e| e.what != CANCEL_ORPHANED));
}
