//! Venues a simulation steps through bars: the paper exchange in a backtest.
//!
//! A backtest replays bars one step at a time, and on most steps nothing happens: no resting
//! order is reached, no position is liquidated, the decider has nothing to propose. Such a
//! step only moves the marks and the equity. [`SimulatedVenue::take_quiet_steps`] lets the
//! trading cycle take a run of such steps in one call, holding the account once, instead of a
//! bar call and an account read (each behind a lock and an await) per step. It takes a step
//! only when the venue's own rules say the bar works nothing, and only as far as the cycle
//! found the steps idle; the first step that does anything is left to the ordinary path.

use nofxi_domain::market::{Candle, Symbol};
use rust_decimal::Decimal;

/// Upcoming bars of a replay, one per symbol per step: `candles[k][t]` is step `t` of
/// `symbols[k]`. Every symbol has a bar at every step up to [`BarRun::len`].
#[derive(Debug, Clone, Copy)]
pub struct BarRun<'a> {
    pub symbols: &'a [Symbol],
    pub candles: &'a [&'a [Candle]],
}

impl<'a> BarRun<'a> {
    /// Steps every symbol has a bar for.
    pub fn len(&self) -> usize {
        self.candles.iter().map(|c| c.len()).min().unwrap_or(0)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Where `symbol` is in the run.
    pub fn index_of(&self, symbol: &Symbol) -> Option<usize> {
        self.symbols.iter().position(|s| s == symbol)
    }

    /// The bar of the `k`th symbol at step `t`.
    pub fn bar(&self, k: usize, t: usize) -> Option<&'a Candle> {
        self.candles.get(k).and_then(|c| c.get(t))
    }
}

/// A venue whose account lives in this process and is driven by a replay's bars.
///
/// A run is taken in two questions, so the caller can ask its own side (the decider) how far
/// it is idle in between without the venue calling back per step: which symbols are held
/// (they decide the cycle's candidates), then how many leading steps, up to the caller's
/// count, work nothing here.
pub trait SimulatedVenue: Send + Sync {
    /// The symbols with a position, in position order; `None` when the account is busy.
    fn held_symbols(&self) -> Option<Vec<Symbol>>;

    /// Take leading steps of `run`, at most `max`, while each works nothing at the venue —
    /// no order reached, no position liquidated, exactly as the bar-by-bar path would find.
    /// Each step taken marks the bars' closes and pushes the equity after it onto `equity`.
    /// Returns how many steps were taken; the rest of the run is left as it was. Zero when
    /// the venue cannot vouch for any step (a symbol that needs a price is not in the run,
    /// or the account is busy).
    fn take_quiet_steps(&self, run: &BarRun<'_>, max: usize, equity: &mut Vec<Decimal>) -> usize;
}
