//! The `builtin` decider's signal: a fast/slow EMA cross, with stops from ATR.
//!
//! A cross up means "be long", a cross down "be short"; the decider turns that into a close of
//! the opposite position and an open, with a stop loss `atr_stop` ATRs away and a take profit
//! at `reward_ratio` times that distance, so the plan meets the strategy's R:R by construction.
//! It needs no network and no model, which is what lets a paper trader and a backtest run
//! offline, and its per-candle cost is two EMA updates and one ATR update.

use super::incremental::{Atr, Ema};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cross {
    Up,
    Down,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EmaCrossParams {
    pub fast: usize,
    pub slow: usize,
    pub atr_period: usize,
    /// Stop distance in ATRs.
    pub atr_stop: f64,
    /// Take-profit distance as a multiple of the stop distance.
    pub reward_ratio: f64,
}

impl Default for EmaCrossParams {
    /// EMA 12/26 (the MACD pair, and the peers' benchmark), 14-bar ATR, 2-ATR stop, 3R target.
    fn default() -> Self {
        EmaCrossParams {
            fast: 12,
            slow: 26,
            atr_period: 14,
            atr_stop: 2.0,
            reward_ratio: 3.0,
        }
    }
}

/// Per-symbol state of the cross detector.
#[derive(Debug, Clone, Copy)]
pub struct EmaCross {
    params: EmaCrossParams,
    fast: Ema,
    slow: Ema,
    atr: Atr,
    /// Sign of fast − slow at the previous candle; a cross is a change of sign.
    above: Option<bool>,
}

/// What the detector saw on one candle: a cross (if any) and the stop/target for acting on it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Signal {
    pub cross: Cross,
    pub price: f64,
    pub stop_loss: f64,
    pub take_profit: f64,
}

impl EmaCross {
    pub fn new(params: EmaCrossParams) -> EmaCross {
        EmaCross {
            params,
            fast: Ema::new(params.fast),
            slow: Ema::new(params.slow),
            atr: Atr::new(params.atr_period),
            above: None,
        }
    }

    /// Both EMAs and the ATR have values: crosses from here on are real signals.
    pub fn is_warm(&self) -> bool {
        self.slow.value().is_some() && self.fast.value().is_some() && self.atr.value().is_some()
    }

    /// Feed one closed candle if it leaves the EMAs on the side they were, the common case:
    /// true when it was taken in (no signal can come of it), false with the state untouched
    /// when it would cross or the state is not warm. `on_candle` on a copy would say the
    /// same, at the price of copying the state in and out for every candle of a backtest.
    pub fn take_if_no_cross(&mut self, high: f64, low: f64, close: f64) -> bool {
        let (Some(fast), Some(slow), Some(above)) =
            (self.fast.peek(close), self.slow.peek(close), self.above)
        else {
            return false;
        };
        if fast == slow || (fast > slow) != above {
            return false;
        }
        // What `on_candle` does with this candle, less the signal logic that cannot fire:
        // the EMAs take the values just peeked (the same expression), the ATR its update.
        self.fast.accept(fast);
        self.slow.accept(slow);
        self.atr.update(high, low, close);
        true
    }

    /// Feed one closed candle; returns a signal on the candle where the EMAs cross.
    pub fn on_candle(&mut self, high: f64, low: f64, close: f64) -> Option<Signal> {
        let fast = self.fast.update(close);
        let slow = self.slow.update(close);
        let atr = self.atr.update(high, low, close);
        let (fast, slow) = (fast?, slow?);
        if fast == slow {
            return None;
        }
        let above = fast > slow;
        let crossed = self.above.is_some_and(|was| was != above);
        self.above = Some(above);
        if !crossed {
            return None;
        }
        let cross = if above { Cross::Up } else { Cross::Down };
        // Before the ATR warms up there is no honest stop distance: no signal.
        let distance = atr? * self.params.atr_stop;
        // NaN (a broken price) compares false here too, which is what we want: no signal.
        if distance.is_nan() || distance <= 0.0 {
            return None;
        }
        let target = distance * self.params.reward_ratio;
        let (stop_loss, take_profit) = match cross {
            Cross::Up => (close - distance, close + target),
            Cross::Down => (close + distance, close - target),
        };
        Some(Signal {
            cross,
            price: close,
            stop_loss,
            take_profit,
        })
    }
}
