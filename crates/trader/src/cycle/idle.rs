//! Idle bars: the cycle's fast path for drivers that step through candles (backtests).
//!
//! Most bars of a backtest change nothing: no cross, no stop or target touched, no order to
//! send. The full cycle would still gather series, build the decider's input (cloning the
//! strategy and the account), run the guard on no decisions and write a record the backtest
//! journal throws away. An idle bar instead asks the decider whether the bar's candle leaves
//! it with nothing to propose, and if so marks the equity and stops. Two ways in:
//!
//! - [`TraderCycle::run_bar`], one bar: the account is read exactly as the full cycle reads
//!   it, then the decider is asked. Any venue.
//! - [`TraderCycle::run_idle_steps`], a run of bars: a venue a replay drives
//!   ([`nofxi_venues::SimulatedVenue`], the paper exchange quoting from bars) takes steps
//!   while its own rules find each bar quiet (no order reached, nothing liquidated) and the
//!   decider is idle on it, holding the account once for the run instead of a bar call and
//!   an account read per step.
//!
//! It is the same cycle, not a second loop: the decider consumes each candle exactly as its
//! `decide` would have, the venue applies its own rules, and the journal gets the same equity
//! points. Anything the fast path cannot vouch for — a symbol without a bar, a decider that
//! cannot tell (every model), a signal on this bar, a bar that reaches an order — runs the
//! whole cycle. `tests/backtest_idle_bars.rs` runs backtests both ways and requires identical
//! results.

use nofxi_domain::Interval;
use nofxi_domain::market::{Candle, Symbol};
use nofxi_domain::strategy_config::StrategyConfig;
use nofxi_venues::BarRun;
use rust_decimal::Decimal;

use super::journal::JournalError;
use super::record::CycleRecord;
use super::{CycleWorld, TraderCycle};
use crate::decider::Decider;

/// The newest closed candle of each symbol at the cycle's time, as the driver read it.
#[derive(Debug, Clone, Copy)]
pub struct Bar<'a> {
    pub interval: Interval,
    pub candles: &'a [(&'a Symbol, Candle)],
}

impl Bar<'_> {
    pub(super) fn candle(&self, symbol: &Symbol) -> Option<&Candle> {
        self.candles
            .iter()
            .find(|(s, _)| *s == symbol)
            .map(|(_, c)| c)
    }
}

/// What one cycle came to.
#[derive(Debug, Clone, PartialEq)]
pub enum CycleOutcome {
    /// The whole cycle ran and was journalled.
    Recorded(Box<CycleRecord>),
    /// Nothing to do on this bar: only the equity was marked.
    Idle { equity: Decimal },
}

pub(super) fn recorded(record: CycleRecord) -> CycleOutcome {
    CycleOutcome::Recorded(Box::new(record))
}

/// Whether every candidate has a candle and none of them leaves the decider anything to
/// propose; `candidates` pairs each with its candle, if it has one. Candles the decider took
/// in stay taken when a later symbol is not idle: the full cycle that follows then finds
/// nothing new for them, which is what "idle" said.
pub(super) fn is_idle<'s, 'c>(
    mut candidates: impl Iterator<Item = (&'s Symbol, Option<&'c Candle>)> + Clone,
    interval: Interval,
    decider: &mut dyn Decider,
) -> bool {
    if candidates.clone().any(|(_, candle)| candle.is_none()) {
        return false;
    }
    candidates.all(|(symbol, candle)| {
        candle.is_some_and(|candle| decider.idle_on(symbol, interval, candle))
    })
}

impl TraderCycle {
    /// A run of idle bars in one call, for a venue a replay steps through bars
    /// ([`nofxi_venues::SimulatedVenue`]): each step the venue finds quiet and the decider
    /// idle on is an idle cycle, exactly as [`TraderCycle::run_bar`] would have made it one
    /// bar at a time, with the equity the venue reports after the step. Step `t` of `run`
    /// closes at `first_close_ms + t` intervals. Returns the steps taken; zero when the venue
    /// is not simulated, the fast path is off, or the first step is not idle (run it with
    /// `run_bar`).
    ///
    /// The decider is asked first how far it is idle, without taking anything in; the venue
    /// then takes that many steps or fewer; the decider takes in exactly the steps taken.
    pub fn run_idle_steps(
        &mut self,
        strategy: &StrategyConfig,
        decider: &mut dyn Decider,
        world: &CycleWorld<'_>,
        run: &BarRun<'_>,
        interval: Interval,
        first_close_ms: i64,
    ) -> Result<usize, JournalError> {
        let Some(venue) = world.exchange.simulated() else {
            return Ok(0);
        };
        if !self.idle_fast_path {
            return Ok(0);
        }
        let Some(held) = venue.held_symbols() else {
            return Ok(0);
        };
        self.coins.refresh(strategy);
        // The candidates' bars in the run. The candidates are the same at every step:
        // nothing that changes the positions happens during a run. A candidate without bars
        // in the run is never idle here.
        let mut series = Vec::new();
        for symbol in self.coins.candidates(&held) {
            let Some(candles) = run.index_of(symbol).and_then(|k| run.candles.get(k)) else {
                return Ok(0);
            };
            series.push((symbol, *candles));
        }
        // Steps every candidate is idle on; each asks no further than the one before found.
        let mut idle = run.len();
        for (symbol, candles) in &series {
            if idle == 0 {
                return Ok(0);
            }
            idle = decider.idle_prefix(symbol, interval, &candles[..idle.min(candles.len())]);
        }
        let mut equity = std::mem::take(&mut self.idle_equity);
        equity.clear();
        let taken = venue.take_quiet_steps(run, idle, &mut equity);
        for (symbol, candles) in &series {
            decider.take_idle(symbol, interval, &candles[..taken.min(candles.len())]);
        }
        // The cycle number of the first step is the next one, as `run_bar` would count it.
        self.cycle_number += u64::from(taken > 0);
        let result = self
            .mark_idle(world, first_close_ms, interval.millis(), &equity)
            .map(|()| taken);
        self.idle_equity = equity;
        result
    }
}
