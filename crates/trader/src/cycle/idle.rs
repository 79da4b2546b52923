//! The idle bar: the cycle's fast path for drivers that step through candles (backtests).
//!
//! Most bars of a backtest change nothing: no cross, no stop or target touched, no order to
//! send. The full cycle would still gather series, build the decider's input (cloning the
//! strategy and the account), run the guard on no decisions and write a record the backtest
//! journal throws away. On an idle bar the cycle instead reads the account exactly as the full
//! cycle does (so the venue sees the same calls), asks the decider whether the bar's candle
//! leaves it with nothing to propose, and if so marks the equity and stops.
//!
//! It is the same cycle, not a second loop: the decider consumes the candle exactly as its
//! `decide` would have, the venue is read the same way, and the journal gets the same equity
//! point. Anything the fast path cannot vouch for — a symbol without a bar, a decider that
//! cannot tell (every model), a signal on this bar — runs the whole cycle.
//! `tests/backtest_idle_bars.rs` runs backtests both ways and requires identical results.

use nofxi_domain::Interval;
use nofxi_domain::market::{Candle, Symbol};
use rust_decimal::Decimal;

use super::record::CycleRecord;
use crate::decider::Decider;

/// The newest closed candle of each symbol at the cycle's time, as the driver read it.
#[derive(Debug, Clone, Copy)]
pub struct Bar<'a> {
    pub interval: Interval,
    pub candles: &'a [(&'a Symbol, Candle)],
}

impl Bar<'_> {
    fn candle(&self, symbol: &Symbol) -> Option<&Candle> {
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

/// Whether every candidate's candle is in `bar` and leaves the decider with nothing to
/// propose. Candles the decider took in stay taken when a later symbol is not idle: the
/// full cycle that follows then finds nothing new for them, which is what "idle" said.
pub(super) fn is_idle<'s>(
    bar: &Bar<'_>,
    mut candidates: impl Iterator<Item = &'s Symbol> + Clone,
    decider: &mut dyn Decider,
) -> bool {
    if candidates.clone().any(|s| bar.candle(s).is_none()) {
        return false;
    }
    candidates.all(|symbol| {
        bar.candle(symbol)
            .is_some_and(|candle| decider.idle_on(symbol, bar.interval, candle))
    })
}
