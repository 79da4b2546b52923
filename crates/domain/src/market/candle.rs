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
/// faster, which matters because a snapshot converts every candle of a series and a backtest
/// converts three prices per bar.
pub fn decimal_to_f64(d: Decimal) -> f64 {
    let Some(&power) = POWERS_OF_TEN.get(d.scale() as usize) else {
        return d.to_f64().unwrap_or(f64::NAN);
    };
    let mantissa = d.mantissa();
    // Both conversions round correctly; the 64-bit one is a single instruction, the 128-bit
    // one a library call.
    let m = match i64::try_from(mantissa) {
        Ok(m) => m as f64,
        Err(_) => mantissa as f64,
    };
    m / power
}

/// 10^0 to 10^22: the powers of ten an f64 holds exactly.
const POWERS_OF_TEN: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];
