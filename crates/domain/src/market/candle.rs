//! One OHLCV candle, keyed by the open time of its interval.

use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;
use serde::{Deserialize, Serialize};

use crate::Interval;

/// A candle whose interval starts at `open_time_ms` (Unix epoch milliseconds, UTC).
/// The interval itself is not stored: a series is always read for one interval, and keeping it
/// out makes a candle cheap to copy through indicator code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Candle {
    pub open_time_ms: i64,
    pub open: Decimal,
    pub high: Decimal,
    pub low: Decimal,
    pub close: Decimal,
    pub volume: Decimal,
}

impl Candle {
    /// The last millisecond the candle covers, the way Binance reports `closeTime`.
    pub fn close_time_ms(&self, interval: Interval) -> i64 {
        self.open_time_ms + interval.millis() - 1
    }

    /// `f64` view for indicator maths (the only place `f64` is allowed).
    pub fn close_f64(&self) -> f64 {
        decimal_to_f64(self.close)
    }

    pub fn high_f64(&self) -> f64 {
        decimal_to_f64(self.high)
    }

    pub fn low_f64(&self) -> f64 {
        decimal_to_f64(self.low)
    }

    pub fn volume_f64(&self) -> f64 {
        decimal_to_f64(self.volume)
    }
}

/// Mantissa over a power of ten: within one rounding of `Decimal::to_f64` and several times
/// faster, which matters because a snapshot converts every candle of a series.
pub fn decimal_to_f64(d: Decimal) -> f64 {
    let scale = d.scale();
    if scale <= 22 {
        // 10^22 is the largest power of ten an f64 holds exactly.
        d.mantissa() as f64 / 10f64.powi(scale as i32)
    } else {
        d.to_f64().unwrap_or(f64::NAN)
    }
}
