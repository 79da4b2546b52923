//! Technical indicators over candle series (REFERENCE §4).
//!
//! Each function takes plain `f64` slices, oldest first, and returns one value per input bar,
//! `None` while the indicator is still warming up, so series line up with their candles by
//! index. Conventions (the ones most charting tools and TA-Lib use; the reference fixture in
//! `tests/fixtures/indicators_reference.py` spells them out and checks them independently):
//! EMA seeds with the SMA of its first `n` values; RSI and ATR use Wilder smoothing; Bollinger
//! uses the population standard deviation; MACD's histogram is `(DIF − DEA) × 2`.
//! `f64` lives only here: callers convert from `Decimal` candles with [`Series::from_candles`].

mod averages;
mod oscillators;
mod snapshot;

pub use averages::{Bands, bollinger, ema, sma};
pub use oscillators::{MacdPoint, atr, macd, rsi, support_resistance, volume_ratio};
pub use snapshot::{TechnicalSnapshot, snapshot};

use crate::market::Candle;

/// Columns of a candle series as `f64`, the form every indicator reads.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Series {
    pub high: Vec<f64>,
    pub low: Vec<f64>,
    pub close: Vec<f64>,
    pub volume: Vec<f64>,
}

impl Series {
    pub fn from_candles(candles: &[Candle]) -> Series {
        let mut s = Series {
            high: Vec::with_capacity(candles.len()),
            low: Vec::with_capacity(candles.len()),
            close: Vec::with_capacity(candles.len()),
            volume: Vec::with_capacity(candles.len()),
        };
        for c in candles {
            s.high.push(c.high_f64());
            s.low.push(c.low_f64());
            s.close.push(c.close_f64());
            s.volume.push(c.volume_f64());
        }
        s
    }

    pub fn len(&self) -> usize {
        self.close.len()
    }

    pub fn is_empty(&self) -> bool {
        self.close.is_empty()
    }
}

/// The last value of a series, if it is warm.
pub fn last(series: &[Option<f64>]) -> Option<f64> {
    series.last().copied().flatten()
}
