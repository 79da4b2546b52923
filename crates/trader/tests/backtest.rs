//! Backtests replay through the live cycle code: deterministic, one equity point per cycle,
//! fees as configured, and fills at the close of the candle the signal came from.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

use std::sync::Arc;

use nofxi_domain::Interval;
use nofxi_domain::market::Symbol;
use nofxi_domain::strategy_config::StrategyConfig;
use nofxi_trader::backtest::{BacktestConfig, BacktestReport, run_backtest};
use nofxi_trader::decider::builtin::{BuiltinDecider, BuiltinParams};
use nofxi_venues::sim::SimMarket;
use nofxi_venues::{Clock, ManualClock};
use rust_decimal::Decimal;

const DAY: i64 = 86_400_000;
const FROM: i64 = 1_767_225_600_000;

fn config(days: i64) -> BacktestConfig {
    BacktestConfig {
        symbols: vec![
            Symbol::parse("BTCUSDT").unwrap(),
            Symbol::parse("ETHUSDT").unwrap(),
        ],
        interval: Interval::M15,
        from_ms: FROM,
        to_ms: FROM + days * DAY,
        initial_balance: Decimal::from(10_000),
        fee_bps: Decimal::from(4),
        slippage_bps: Decimal::ZERO,
        strategy: StrategyConfig::default(),
        full_cycles: false,
    }
}

async fn sim_backtest(days: i64) -> BacktestReport {
    let clock = Arc::new(ManualClock::new(FROM));
    let market = Arc::new(SimMarket::new(7, clock.clone() as Arc<dyn Clock>));
    let mut decider = BuiltinDecider::new(BuiltinParams::default());
    run_backtest(&config(days), market, clock, &mut decider, |_, _| {})
        .await
        .unwrap()
}

#[tokio::test]
async fn a_week_of_fifteen_minute_candles_trades_and_is_repeatable() {
    let first = sim_backtest(7).await;
    // 7 days × 96 candles, one cycle at each close.
    assert_eq!(first.cycles, 7 * 96);
    assert_eq!(first.candles, 2 * 7 * 96);
    assert_eq!(first.equity.len() as u64, first.cycles);
    assert!(
        first.fills > 0 && first.stats.total_trades > 0,
        "{:?}",
        first.stats
    );
    // 4 bp on every fill, and the account's loss or gain is the equity curve's.
    assert!(first.stats.total_fee > Decimal::ZERO);
    assert_eq!(
        first.stats.total_pnl,
        first.equity.last().unwrap().1 - first.equity.first().unwrap().1
    );
    assert!(!first.sparkline(40).is_empty());
    assert!(first.equity_csv().lines().count() as u64 == first.cycles + 1);
    assert!(first.equity_svg().starts_with("<svg"));

    let again = sim_backtest(7).await;
    assert_eq!(again.stats, first.stats);
    assert_eq!(again.equity, first.equity);
}

#[tokio::test]
async fn an_empty_range_is_refused_with_the_fix() {
    let clock = Arc::new(ManualClock::new(FROM));
    let market = Arc::new(SimMarket::new(7, clock.clone() as Arc<dyn Clock>));
    let mut decider = BuiltinDecider::new(BuiltinParams::default());
    let mut cfg = config(0);
    cfg.to_ms = FROM + 60_000;
    let err = run_backtest(&cfg, market, clock, &mut decider, |_, _| {})
        .await
        .unwrap_err();
    assert!(err.to_string().contains("--from must be before --to"));
}
