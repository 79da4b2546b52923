//! The `builtin` decider: an EMA cross with ATR stops on the strategy's primary timeframe.
//!
//! It keeps one [`EmaCross`] per symbol and feeds it only candles it has not seen, so a live
//! cycle costs a few float operations and a backtest can replay millions of candles. It acts
//! only when the cross happens on the newest closed candle: after a restart or a gap it rebuilds
//! its state from the window but does not trade on a cross that is already history.

use std::fmt::Write as _;

use async_trait::async_trait;
use nofxi_domain::Interval;
use nofxi_domain::market::{Candle, Symbol};
use nofxi_domain::plain::Plain;
use nofxi_domain::strategy_config::StrategyConfig;
use nofxi_domain::trading::{Position, PositionSide};
use rust_decimal::prelude::FromPrimitive;
use rust_decimal::{Decimal, RoundingStrategy};

use super::ema_cross::{Cross, EmaCross, EmaCrossParams, Signal};
use super::{Decider, DeciderError, DeciderOutput, SeriesRequest};
use crate::cycle::{CandidateData, CycleInput};
use crate::decision::{Decision, DecisionAction};

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BuiltinParams {
    pub signal: EmaCrossParams,
    /// Leverage asked for; the guard still clamps it to the strategy's limit.
    pub leverage: u32,
    /// Position value as a share of equity (0.5 = half the equity, before leverage).
    pub equity_fraction: Decimal,
}

impl Default for BuiltinParams {
    fn default() -> Self {
        BuiltinParams {
            signal: EmaCrossParams::default(),
            leverage: 3,
            equity_fraction: Decimal::new(5, 1),
        }
    }
}

struct SymbolState {
    cross: EmaCross,
    interval: Interval,
    last_open_ms: i64,
}

impl SymbolState {
    fn new(params: EmaCrossParams, interval: Interval) -> SymbolState {
        SymbolState {
            cross: EmaCross::new(params),
            interval,
            last_open_ms: i64::MIN,
        }
    }
}

/// Most candles read after the last one seen; a longer gap rebuilds from a fresh window.
const MAX_SINCE: usize = 1000;

pub struct BuiltinDecider {
    params: BuiltinParams,
    /// `params.signal.reward_ratio` as a decimal, converted once.
    reward_ratio: Decimal,
    /// "EMA12/26 crossed ", the start of every decision's reasoning.
    why_prefix: String,
    /// Per symbol. A strategy trades tens of symbols at most, and a linear scan of them beats
    /// hashing the symbol on every bar of a backtest.
    states: Vec<(Symbol, SymbolState)>,
    /// What the last `idle_prefix` found, for `take_idle` to adopt.
    screened: Option<Screened>,
}

/// The state of `states[index]` after `taken` idle candles from `from_open` on.
struct Screened {
    index: usize,
    interval: Interval,
    from_open: i64,
    taken: usize,
    cross: EmaCross,
}

impl BuiltinDecider {
    pub fn new(params: BuiltinParams) -> BuiltinDecider {
        BuiltinDecider {
            params,
            reward_ratio: Decimal::from_f64(params.signal.reward_ratio).unwrap_or_default(),
            why_prefix: format!("EMA{}/{} crossed ", params.signal.fast, params.signal.slow),
            states: Vec::new(),
            screened: None,
        }
    }

    fn state(&self, symbol: &Symbol) -> Option<&SymbolState> {
        self.states
            .iter()
            .find(|(s, _)| s == symbol)
            .map(|(_, st)| st)
    }

    fn state_mut(&mut self, symbol: &Symbol) -> Option<&mut SymbolState> {
        self.states
            .iter_mut()
            .find(|(s, _)| s == symbol)
            .map(|(_, st)| st)
    }

    /// Candles needed before the slowest indicator gives a value, with room for the first cross.
    fn warm_up(&self) -> usize {
        let s = self.params.signal;
        s.slow.max(s.atr_period + 1) * 3
    }

    /// Feed the unseen candles; the signal of the newest one, if it crossed on it.
    fn advance(
        &mut self,
        symbol: &Symbol,
        interval: Interval,
        candles: &[Candle],
    ) -> Option<Signal> {
        let newest = candles.last()?.open_time_ms;
        let params = self.params.signal;
        if self.state(symbol).is_none() {
            self.states
                .push((symbol.clone(), SymbolState::new(params, interval)));
        }
        let state = self.state_mut(symbol)?;
        let first_new = candles.partition_point(|c| c.open_time_ms <= state.last_open_ms);
        // The window must overlap what we saw, or candles were missed in between.
        let continues = state.interval == interval && state.cross.is_warm() && first_new > 0;
        if !continues {
            // Rebuild from the window. A cross inside it is history: do not trade on it.
            *state = SymbolState::new(params, interval);
            for c in candles {
                state
                    .cross
                    .on_candle(c.high_f64(), c.low_f64(), c.close_f64());
            }
            state.last_open_ms = newest;
            return None;
        }
        let mut signal = None;
        for c in &candles[first_new..] {
            signal = state
                .cross
                .on_candle(c.high_f64(), c.low_f64(), c.close_f64());
        }
        state.last_open_ms = newest;
        signal
    }

    fn decisions_for(
        &self,
        candidate: &CandidateData,
        signal: Signal,
        input: &CycleInput<'_>,
    ) -> Vec<Decision> {
        let held = |side| {
            input
                .positions
                .iter()
                .any(|p: &Position| p.symbol == candidate.symbol && p.side == side)
        };
        let (close, open, close_side) = match signal.cross {
            Cross::Up => (
                DecisionAction::CloseShort,
                DecisionAction::OpenLong,
                PositionSide::Short,
            ),
            Cross::Down => (
                DecisionAction::CloseLong,
                DecisionAction::OpenShort,
                PositionSide::Long,
            ),
        };
        // "EMA12/26 crossed up at 30123.45": at the cycle's price, the one the stops are set
        // from, as the exact decimal (the cross candle's float close in its shortest form cost
        // more than the rest of `decide`), appended to a prefix written once.
        let direction = if signal.cross == Cross::Up {
            "up at "
        } else {
            "down at "
        };
        let mut why = String::with_capacity(self.why_prefix.len() + direction.len() + 24);
        why.push_str(&self.why_prefix);
        why.push_str(direction);
        // Writing to a String cannot fail.
        let _ = write!(why, "{}", Plain(candidate.price));
        let base = Decision {
            symbol: candidate.symbol.to_string(),
            action: close,
            leverage: None,
            position_size_usd: None,
            stop_loss: None,
            take_profit: None,
            confidence: None,
            risk_usd: None,
            reasoning: why,
        };
        let mut out = Vec::with_capacity(2);
        if held(close_side) {
            out.push(base.clone());
        }
        let ratio = self
            .reward_ratio
            .max(input.strategy.risk_control.min_risk_reward_ratio);
        let distance = (signal.price - signal.stop_loss).abs();
        let Some((stop_loss, take_profit)) = stops(signal.cross, candidate.price, distance, ratio)
        else {
            return out;
        };
        let size = (input.account.equity * self.params.equity_fraction).round_dp(2);
        out.push(Decision {
            action: open,
            leverage: Some(self.params.leverage),
            position_size_usd: Some(size),
            stop_loss: Some(stop_loss),
            take_profit: Some(take_profit),
            // A rule either fires or not; the strategy's confidence floor is for models.
            confidence: Some(100),
            ..base
        });
        out
    }
}

/// Take `candle` into `cross` if no cross happens on it; otherwise leave `cross` as it was.
fn idle_step(cross: &mut EmaCross, candle: &Candle) -> bool {
    let (high, low, close) = (candle.high_f64(), candle.low_f64(), candle.close_f64());
    if cross.take_if_no_cross(high, low, close) {
        return true;
    }
    // Maybe a cross, maybe equal EMAs: `on_candle` decides, on a copy.
    let mut copy = *cross;
    if copy.on_candle(high, low, close).is_some() {
        return false;
    }
    *cross = copy;
    true
}

/// Stop and target `distance` and `ratio` × the risk away from `price`, the cycle's price the
/// guard checks the plan against. The stop is rounded towards the price and the target away
/// from it, so rounding to 8 places never leaves the reward short of `ratio` × the risk (the
/// guard refuses a plan at 2.99999999 when the strategy asks for 3).
fn stops(
    cross: Cross,
    price: Decimal,
    distance: f64,
    ratio: Decimal,
) -> Option<(Decimal, Decimal)> {
    // To 8 places through an integer: `Decimal::from_f64` writes out the float's every digit
    // first, several times the cost, for digits the rounding below drops anyway.
    let scaled = (distance * 1e8).round();
    if !(scaled.is_finite() && scaled.abs() < 1e27) {
        return None;
    }
    let distance = Decimal::try_from_i128_with_scale(scaled as i128, 8).ok()?;
    // Up: the stop is below and rounds up, the target above and rounds up; down, the mirror.
    let (rounding, sign) = match cross {
        Cross::Up => (RoundingStrategy::ToPositiveInfinity, Decimal::ONE),
        Cross::Down => (RoundingStrategy::ToNegativeInfinity, Decimal::NEGATIVE_ONE),
    };
    let stop_loss = (price - sign * distance).round_dp_with_strategy(8, rounding);
    let risk = (price - stop_loss) * sign;
    let take_profit = (price + sign * risk * ratio).round_dp_with_strategy(8, rounding);
    (risk > Decimal::ZERO && stop_loss > Decimal::ZERO && take_profit > Decimal::ZERO)
        .then_some((stop_loss, take_profit))
}

#[async_trait]
impl Decider for BuiltinDecider {
    fn name(&self) -> String {
        "builtin".into()
    }

    fn series_wanted(&self, symbol: &Symbol, strategy: &StrategyConfig) -> Vec<SeriesRequest> {
        let interval = strategy.indicators.klines.primary_timeframe;
        let seen = self
            .state(symbol)
            .filter(|s| s.interval == interval && s.cross.is_warm());
        let request = match seen {
            // Warm: everything from the last candle seen on (it comes back as the overlap).
            Some(state) => SeriesRequest {
                interval,
                count: MAX_SINCE,
                start_ms: Some(state.last_open_ms),
            },
            None => SeriesRequest {
                interval,
                count: self.warm_up(),
                start_ms: None,
            },
        };
        vec![request]
    }

    /// Idle when the candle is the very next one after the last seen and the EMAs do not cross
    /// on it: then `decide` would feed just this candle and propose nothing. A cross, a gap, a
    /// cold state or another interval leaves the state as it was, for the whole cycle.
    fn idle_on(&mut self, symbol: &Symbol, interval: Interval, candle: &Candle) -> bool {
        let Some(state) = self.state_mut(symbol) else {
            return false;
        };
        let next = state.last_open_ms.checked_add(interval.millis());
        if state.interval != interval || !state.cross.is_warm() || next != Some(candle.open_time_ms)
        {
            return false;
        }
        if !idle_step(&mut state.cross, candle) {
            return false;
        }
        state.last_open_ms = candle.open_time_ms;
        true
    }

    /// `idle_on` over the candles in turn, on a copy of the state that `take_idle` adopts
    /// when it is handed the same candles.
    fn idle_prefix(&mut self, symbol: &Symbol, interval: Interval, candles: &[Candle]) -> usize {
        self.screened = None;
        let Some(index) = self.states.iter().position(|(s, _)| s == symbol) else {
            return 0;
        };
        let state = &self.states[index].1;
        if state.interval != interval || !state.cross.is_warm() {
            return 0;
        }
        let step = interval.millis();
        let (from_open, mut cross) = (state.last_open_ms, state.cross);
        let mut last = from_open;
        let taken = candles
            .iter()
            .take_while(|c| {
                let next = last.checked_add(step) == Some(c.open_time_ms);
                let idle = next && idle_step(&mut cross, c);
                last = c.open_time_ms;
                idle
            })
            .count();
        if taken > 0 {
            self.screened = Some(Screened {
                index,
                interval,
                from_open,
                taken,
                cross,
            });
        }
        taken
    }

    fn take_idle(&mut self, symbol: &Symbol, interval: Interval, candles: &[Candle]) {
        let Some(newest) = candles.last() else {
            return;
        };
        if let Some(screened) = self.screened.take()
            && screened.taken == candles.len()
            && screened.interval == interval
            && let Some((s, state)) = self.states.get_mut(screened.index)
            && s == symbol
            && state.interval == interval
            && state.last_open_ms == screened.from_open
            && i64::try_from(candles.len())
                .ok()
                .and_then(|n| interval.millis().checked_mul(n))
                .and_then(|span| screened.from_open.checked_add(span))
                == Some(newest.open_time_ms)
        {
            // The state the screen left after these very candles.
            state.cross = screened.cross;
            state.last_open_ms = newest.open_time_ms;
            return;
        }
        for candle in candles {
            self.idle_on(symbol, interval, candle);
        }
    }

    async fn decide(&mut self, input: &CycleInput<'_>) -> Result<DeciderOutput, DeciderError> {
        let interval = input.strategy.indicators.klines.primary_timeframe;
        let mut output = DeciderOutput::default();
        for candidate in input.candidates {
            if let Some(signal) =
                self.advance(&candidate.symbol, interval, candidate.series(interval))
            {
                output
                    .decisions
                    .extend(self.decisions_for(candidate, signal, input));
            }
        }
        output.reasoning = if output.decisions.is_empty() {
            "no EMA cross on the latest closed candle".into()
        } else {
            let mut reasoning = String::with_capacity(64 * output.decisions.len());
            for d in &output.decisions {
                if !reasoning.is_empty() {
                    reasoning.push_str("; ");
                }
                reasoning.push_str(&d.symbol);
                reasoning.push_str(": ");
                reasoning.push_str(&d.reasoning);
            }
            reasoning
        };
        Ok(output)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whatever the price and distance, the rounded plan meets the ratio exactly as the guard
    /// computes it, and the stop stays on its side.
    #[test]
    fn rounded_stops_never_fall_short_of_the_ratio() {
        let ratio = Decimal::from(3);
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let price = Decimal::new((x % 9_000_000_000_000) as i64 + 1_000_000, 9);
            let distance = (x >> 40) as f64 / 1e7 + 1e-9;
            for cross in [Cross::Up, Cross::Down] {
                let Some((stop, target)) = stops(cross, price, distance, ratio) else {
                    continue;
                };
                let (risk, reward) = match cross {
                    Cross::Up => (price - stop, target - price),
                    Cross::Down => (stop - price, price - target),
                };
                assert!(risk > Decimal::ZERO, "{cross:?} {price} {distance}");
                assert!(
                    reward / risk >= ratio,
                    "{cross:?} {price} {distance}: {stop} {target}"
                );
            }
        }
    }
}
