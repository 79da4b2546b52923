//! The idle fast path is the same cycle: a backtest run with it and one run with every bar
//! through the whole cycle give the same fills, trades, equity curve and final account. A
//! decider that claims idleness it does not have must make the two differ, or this test could
//! not catch a fast path that skips real work.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

use std::sync::Arc;

use async_trait::async_trait;
use nofxi_domain::Interval;
use nofxi_domain::market::{Candle, Symbol};
use nofxi_domain::strategy_config::StrategyConfig;
use nofxi_trader::backtest::{BacktestConfig, BacktestReport, run_backtest};
use nofxi_trader::cycle::CycleInput;
use nofxi_trader::decider::builtin::{BuiltinDecider, BuiltinParams};
use nofxi_trader::decider::{Decider, DeciderError, DeciderOutput, SeriesRequest};
use nofxi_venues::csv_source::CsvMarket;
use nofxi_venues::{Clock, ManualClock};
use rust_decimal::Decimal;

const FROM: i64 = 1_600_000_000_000;
const MINUTE: i64 = 60_000;
const CANDLES: i64 = 3_000;

/// A random walk in cents with wicks, like the peers' benchmark candles: crosses every few
/// dozen bars, and stops and take-profits touched now and then.
fn candles(seed: u64, start_cents: i64) -> Vec<Candle> {
    let mut state = seed;
    let mut next = move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as i64
    };
    let mut close = start_cents;
    (0..CANDLES)
        .map(|i| {
            let open = close;
            close = (open + (next() % 9_001 - 4_500) * open / 1_000_000).max(100);
            let wick = |r: i64| r % 3_001 * open / 1_000_000;
            let high = open.max(close) + wick(next());
            let low = (open.min(close) - wick(next())).max(1);
            Candle {
                open_time_ms: FROM + i * MINUTE,
                open: Decimal::new(open, 2),
                high: Decimal::new(high, 2),
                low: Decimal::new(low, 2),
                close: Decimal::new(close, 2),
                volume: Decimal::ONE,
            }
        })
        .collect()
}

async fn backtest(full_cycles: bool, decider: &mut dyn Decider) -> BacktestReport {
    backtest_on(full_cycles, decider, Some(candles(11, 200_000))).await
}

/// ETH's candles with holes: three missing every 401 minutes, and a longer one across the
/// first page boundary of the replay (a thousand candles).
fn with_gaps(mut candles: Vec<Candle>) -> Vec<Candle> {
    candles.retain(|c| {
        let i = (c.open_time_ms - FROM) / MINUTE;
        i % 401 >= 3 && !(990..1_020).contains(&i)
    });
    candles
}

/// BTC, and ETH when it has candles.
async fn backtest_on(
    full_cycles: bool,
    decider: &mut dyn Decider,
    eth_candles: Option<Vec<Candle>>,
) -> BacktestReport {
    let btc = Symbol::parse("BTCUSDT").unwrap();
    let eth = Symbol::parse("ETHUSDT").unwrap();
    let clock = Arc::new(ManualClock::new(FROM));
    let mut market = CsvMarket::new(clock.clone() as Arc<dyn Clock>).with_candles(
        btc.clone(),
        Interval::M1,
        candles(7, 3_000_000),
    );
    let mut symbols = vec![btc];
    if let Some(eth_candles) = eth_candles {
        market = market.with_candles(eth.clone(), Interval::M1, eth_candles);
        symbols.push(eth);
    }
    let config = BacktestConfig {
        symbols,
        interval: Interval::M1,
        from_ms: FROM,
        to_ms: FROM + CANDLES * MINUTE,
        initial_balance: Decimal::from(10_000),
        fee_bps: Decimal::from(4),
        slippage_bps: Decimal::ONE,
        strategy: StrategyConfig::default(),
        full_cycles,
    };
    run_backtest(&config, Arc::new(market), clock, decider, |_, _| {})
        .await
        .unwrap()
}

fn builtin() -> BuiltinDecider {
    BuiltinDecider::new(BuiltinParams::default())
}

#[tokio::test]
async fn idle_bars_change_nothing_the_full_cycle_would_do() {
    let fast = backtest(false, &mut builtin()).await;
    let full = backtest(true, &mut builtin()).await;

    // Both paths were exercised: most bars idle, some traded, some stops fired.
    assert_eq!(full.idle_cycles, 0);
    assert!(
        fast.idle_cycles > fast.cycles / 2 && fast.idle_cycles < fast.cycles,
        "{} idle of {}",
        fast.idle_cycles,
        fast.cycles
    );
    let triggered = fast
        .fill_log
        .iter()
        .filter(|f| !f.client_order_id.ends_with('o') && !f.client_order_id.ends_with('c'))
        .count();
    assert!(triggered > 0, "no stop or take-profit fired");
    assert_same_backtest(&fast, &full, 20);
}

/// `fast` took most bars as idle runs and traded at least `min_trades` times, and its
/// results are the full cycle's, fill for fill.
fn assert_same_backtest(fast: &BacktestReport, full: &BacktestReport, min_trades: usize) {
    assert!(
        fast.idle_cycles > fast.cycles / 2,
        "{} idle",
        fast.idle_cycles
    );
    assert!(fast.stats.total_trades > min_trades, "{:?}", fast.stats);
    assert_eq!(fast.fill_log, full.fill_log);
    assert_eq!(fast.stats, full.stats);
    assert_eq!(fast.equity, full.equity);
    assert_eq!(fast.refused, full.refused);
    assert_eq!(fast.final_account, full.final_account);
}

/// Where a symbol's data has holes the replay repeats its last candle, and the fast path
/// must step around them exactly as the full cycle does.
#[tokio::test]
async fn gaps_in_the_data_change_nothing_either() {
    let eth = || Some(with_gaps(candles(11, 200_000)));
    let fast = backtest_on(false, &mut builtin(), eth()).await;
    let full = backtest_on(true, &mut builtin(), eth()).await;
    assert_same_backtest(&fast, &full, 20);
}

/// With one symbol, a run is the one symbol's: the decider's screen of it is what it takes in.
#[tokio::test]
async fn one_symbol_runs_change_nothing_either() {
    let fast = backtest_on(false, &mut builtin(), None).await;
    let full = backtest_on(true, &mut builtin(), None).await;
    assert_same_backtest(&fast, &full, 10);
}

/// The builtin decider, except that once warm it calls every bar idle, crosses included.
struct ClaimsIdle(BuiltinDecider);

#[async_trait]
impl Decider for ClaimsIdle {
    fn name(&self) -> String {
        self.0.name()
    }

    fn series_wanted(&self, symbol: &Symbol, strategy: &StrategyConfig) -> Vec<SeriesRequest> {
        self.0.series_wanted(symbol, strategy)
    }

    async fn decide(&mut self, input: &CycleInput<'_>) -> Result<DeciderOutput, DeciderError> {
        self.0.decide(input).await
    }

    fn idle_on(&mut self, symbol: &Symbol, interval: Interval, candle: &Candle) -> bool {
        // Warm when the real one would have answered for a quiet bar.
        let warm = self.0.idle_on(symbol, interval, candle);
        warm || candle.open_time_ms > FROM + 100 * MINUTE
    }

    fn idle_prefix(&mut self, symbol: &Symbol, interval: Interval, candles: &[Candle]) -> usize {
        let honest = self.0.idle_prefix(symbol, interval, candles);
        let late = candles
            .first()
            .is_some_and(|c| c.open_time_ms > FROM + 100 * MINUTE);
        if late { candles.len() } else { honest }
    }
}

#[tokio::test]
async fn a_fast_path_that_skips_real_work_is_caught() {
    let honest = backtest(true, &mut builtin()).await;
    let liar = backtest(false, &mut ClaimsIdle(builtin())).await;
    assert_ne!(liar.fill_log, honest.fill_log);
    assert_ne!(liar.equity, honest.equity);
}
