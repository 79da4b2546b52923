//! Backtests: recorded or simulated candles replayed through the same cycle code a live trader
//! runs — the same decider, guard, executor and paper exchange — with a manual clock stepping
//! one primary-timeframe candle per cycle.
//!
//! At each step the clock stands at the close of the newest candle. The paper exchange first
//! works resting stops and take-profits against that candle's high and low, then the decider
//! sees candles up to and including it, and new orders fill at its close (plus slippage):
//! the paper exchange quotes from the bars ([`Quotes::Bars`]). Fees are the paper exchange's
//! maker/taker rates, set from `fee_bps`.
//!
//! Stretches where nothing happens are taken as runs of idle steps (`cycle::idle`); the
//! first bar that does anything, and every bar with `full_cycles`, goes bar by bar.

mod curve;
mod feed;
mod journal;
pub mod report;

use std::sync::Arc;
use std::time::Instant;

use nofxi_domain::Interval;
use nofxi_domain::market::{Candle, Symbol};
use nofxi_domain::strategy_config::StrategyConfig;
use nofxi_domain::trading::{MarginMode, PositionMode};
use nofxi_venues::paper::{EphemeralPaperRepo, PaperConfig, PaperExchange, Quotes};
use nofxi_venues::{BarRun, Exchange, ManualClock, MarketData, VenueError};
use rust_decimal::Decimal;

pub use curve::EquityCurve;
pub use journal::BacktestJournal;
pub use report::BacktestReport;

use crate::cycle::{Bar, CycleOutcome, CycleWorld, ExecutionSettings, JournalError, TraderCycle};
use crate::decider::Decider;
use crate::stats::{compute_held, trades_from_fills};

/// The most candles one backtest replays (all symbols together; for the simulated market, the
/// minutes it builds): about a minute of work. `--from 1970` at 1m would otherwise run for
/// hours with nothing said.
pub const MAX_REPLAY_CANDLES: i64 = 20_000_000;

#[derive(Debug, Clone)]
pub struct BacktestConfig {
    pub symbols: Vec<Symbol>,
    /// One cycle per candle of this interval; the strategy's primary timeframe is set to it.
    pub interval: Interval,
    pub from_ms: i64,
    pub to_ms: i64,
    pub initial_balance: Decimal,
    /// Fee per fill in basis points (maker and taker alike).
    pub fee_bps: Decimal,
    pub slippage_bps: Decimal,
    pub strategy: StrategyConfig,
    /// Run every bar through the whole cycle, without the idle fast path: slower, and the
    /// reference the fast path is held to (same fills, trades and equity).
    pub full_cycles: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum BacktestError {
    #[error("the backtest range is empty: --from must be before --to by at least one {0} candle")]
    EmptyRange(Interval),
    #[error("no symbols to backtest: pass --symbols BTCUSDT,ETHUSDT")]
    NoSymbols,
    #[error(transparent)]
    Venue(#[from] VenueError),
    #[error(transparent)]
    Journal(#[from] JournalError),
}

/// Replays `[from, to]` through the cycle. `progress(done, total)` is called every 1% or so.
pub async fn run_backtest(
    config: &BacktestConfig,
    market: Arc<dyn MarketData>,
    clock: Arc<ManualClock>,
    decider: &mut dyn Decider,
    mut progress: impl FnMut(u64, u64),
) -> Result<BacktestReport, BacktestError> {
    if config.symbols.is_empty() {
        return Err(BacktestError::NoSymbols);
    }
    let step = config.interval.millis();
    // Cycles run at candle closes: the first is the close of the first whole candle in range.
    let first = config.from_ms.div_euclid(step) * step + step;
    if first > config.to_ms {
        return Err(BacktestError::EmptyRange(config.interval));
    }
    let total = u64::try_from((config.to_ms - first) / step + 1).unwrap_or(0);
    let mut strategy = config.strategy.clone();
    strategy.coin_source.static_coins = config.symbols.iter().map(Symbol::to_string).collect();
    strategy.coin_source.excluded_coins.clear();
    strategy.indicators.klines.primary_timeframe = config.interval;

    clock.set(first);
    let fee = config.fee_bps / Decimal::from(10_000);
    let paper_config = PaperConfig {
        initial_balance: config.initial_balance,
        maker_fee_rate: fee,
        taker_fee_rate: fee,
        slippage_bps: config.slippage_bps,
        // The bars are the market: orders fill at the close of the bar the cycle ran at.
        quotes: Quotes::Bars,
        ..PaperConfig::default()
    };
    let paper = PaperExchange::open(
        "backtest",
        paper_config,
        market.clone(),
        clock.clone(),
        Arc::new(EphemeralPaperRepo),
    )
    .await?;
    let journal = BacktestJournal::with_capacity(usize::try_from(total).unwrap_or(0));
    let world = CycleWorld {
        exchange: &paper,
        market: market.as_ref(),
        clock: clock.as_ref(),
        journal: &journal,
    };
    let settings = ExecutionSettings::new("backtest", MarginMode::Cross, PositionMode::OneWay);
    let mut cycle = TraderCycle::new("backtest", "backtest", settings);
    cycle.idle_fast_path = !config.full_cycles;
    let mut candles: Vec<(&Symbol, Candle)> = Vec::with_capacity(config.symbols.len());
    let last_open = first + i64::try_from(total - 1).unwrap_or(i64::MAX) * step - step;
    let mut feed = feed::BarFeed::new(
        market.as_ref(),
        &clock,
        config.interval,
        config.symbols.len(),
        last_open,
    );

    let mut idle_cycles = 0;
    let started = Instant::now();
    let every = (total / 100).max(1);
    let mut next_progress = 0;
    let mut n = 0;
    while n < total {
        let close = first + i64::try_from(n).unwrap_or(i64::MAX) * step;
        if n >= next_progress {
            progress(n, total);
            next_progress = n + every;
        }
        // Steps on which nothing happens go in runs; the first one that does anything, and
        // every step of a full-cycles backtest, takes the bar-by-bar path below.
        let max = usize::try_from(total - n).unwrap_or(usize::MAX);
        if let Some(bars) = feed.run(close - step, max) {
            let run = BarRun {
                symbols: &config.symbols,
                candles: &bars,
            };
            let taken =
                cycle.run_idle_steps(&strategy, decider, &world, &run, config.interval, close)?;
            if taken > 0 {
                feed.advance(taken);
                let taken = u64::try_from(taken).unwrap_or(u64::MAX);
                idle_cycles += taken;
                n += taken;
                clock.set(close + i64::try_from(taken - 1).unwrap_or(0) * step);
                continue;
            }
        }
        clock.set(close);
        // Stops, take-profits and liquidations see the whole bar (its high and low), not just
        // the close the cycle reads: a wick through a stop fills it, as it would live.
        candles.clear();
        for (index, symbol) in config.symbols.iter().enumerate() {
            if let Some(bar) = feed.bar(index, symbol, close - step).await? {
                paper.process_bar(symbol, &bar).await?;
                candles.push((symbol, bar));
            }
        }
        let bar = Bar {
            interval: config.interval,
            candles: &candles,
        };
        if let CycleOutcome::Idle { .. } = cycle.run_bar(&strategy, decider, &world, &bar).await? {
            idle_cycles += 1;
        }
        n += 1;
    }
    progress(total, total);

    // The account after the last bar (settled at its marks), then its fills, moved out of
    // the exchange: by time, and at one time in the order of `config.symbols`.
    let final_account = paper.account().await?;
    let mut fills = paper.into_state().fills;
    let rank = |symbol: &Symbol| config.symbols.iter().position(|s| s == symbol);
    fills.retain(|f| rank(&f.symbol).is_some());
    fills.sort_by_cached_key(|f| (f.time_ms, rank(&f.symbol)));
    let total_fee = fills.iter().map(|f| f.fee).sum();
    let trades = trades_from_fills(&fills);
    let equity = journal.take_equity();
    let periods_per_year = (365.0 * 24.0 * 3_600_000.0) / step as f64;
    let mut stats = compute_held(&trades, total_fee, equity.held(), periods_per_year);
    // What is open at the end is the unrealized part of the P&L; the rest is in the wallet.
    stats.unrealized_pnl = Some(final_account.unrealized_pnl);
    stats.realized_pnl = Some(stats.total_pnl - final_account.unrealized_pnl);
    // The speed counts the statistics too: a backtest is not done before its results are.
    let elapsed = started.elapsed();
    Ok(BacktestReport {
        stats,
        equity,
        cycles: total,
        candles: total * config.symbols.len() as u64,
        elapsed,
        refused: journal.refused(),
        fills: fills.len(),
        fill_log: fills,
        idle_cycles,
        final_account,
    })
}
