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
    #[inline]
    pub fn close_f64(&self) -> f64 {
        decimal_to_f64(self.close)
    }

    #[inline]
    pub fn high_f64(&self) -> f64 {
        decimal_to_f64(self.high)
    }

    #[inline]
    pub fn low_f64(&self) -> f64 {
        decimal_to_f64(self.low)
    }

    #[inline]
    pub fn volume_f64(&self) -> f64 {
        decimal_to_f64(self.volume)
    }
}

/// Mantissa over a power of ten: within a few ulps of `Decimal::to_f64` and several times
/// faster, which matters because a snapshot converts every candle of a series and a backtest
/// converts three prices per bar (and its statistics every equity point). With a mantissa
/// under 2^53 it is exactly the correctly rounded value (both operands are exact, and IEEE
/// division rounds once).
#[inline]
pub fn decimal_to_f64(d: Decimal) -> f64 {
    // The 96-bit mantissa's words straight from the representation: prices fit in the low
    // 64 bits, and a 64-bit integer converts in one instruction (an i128 is a library call).
    let b = d.serialize();
    let word = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
    let (scale, negative) = (usize::from(b[2]), b[3] & 0x80 != 0);
    let Some(&power) = POWERS_OF_TEN.get(scale) else {
        return d.to_f64().unwrap_or(f64::NAN);
    };
    let low = (u64::from(word(8)) << 32 | u64::from(word(4))) as f64;
    // A large account's equity at many places fills the top word: 2^64 times it is exact,
    // and the sum rounds once more.
    let mantissa = match word(12) {
        0 => low,
        high => f64::from(high) * 18_446_744_073_709_551_616.0 + low,
    };
    let magnitude = mantissa / power;
    // `0.0 - x` rather than `-x`: a negative zero decimal is plain zero, as before.
    if negative { 0.0 - magnitude } else { magnitude }
}

/// `a > b`, exactly, given their float views from [`decimal_to_f64`]: floats further apart
/// than the conversion error (a few ulps; a billionth of the magnitude is far wider) decide
/// alone, closer ones are compared as decimals. A decimal comparison of different scales
/// rescales a 96-bit mantissa; a loop over a million prices or equity points that has the
/// floats anyway saves most of that.
#[inline]
pub fn exceeds(a: Decimal, a_f: f64, b: Decimal, b_f: f64) -> bool {
    let margin = 1e-9 * a_f.abs().max(b_f.abs());
    if a_f > b_f + margin {
        true
    } else if a_f < b_f - margin || a.serialize() == b.serialize() {
        // The same representation is the common tie (a flat account's equity repeats).
        false
    } else {
        a > b
    }
}

/// 10^0 to 10^22: the powers of ten an f64 holds exactly.
const POWERS_OF_TEN: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    /// Under 2^53 the mantissa and the power of ten are exact, so the result must be the
    /// correctly rounded value, which is what parsing the decimal's text gives.
    #[test]
    fn conversion_is_correctly_rounded_for_prices() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..50_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mantissa = (x >> 11) as i64 * if x & 1 == 0 { 1 } else { -1 };
            let scale = (x >> 3) as u32 % 23;
            let d = Decimal::new(mantissa, scale);
            let want: f64 = d.to_string().parse().unwrap();
            assert_eq!(decimal_to_f64(d), want, "{d}");
        }
    }

    #[test]
    fn wide_mantissas_and_zero_still_convert() {
        let big = Decimal::from_i128_with_scale(79_228_162_514_264_337_593_543_950_335, 10);
        let got = decimal_to_f64(big);
        assert!(
            (got / 7.922_816_251_426_434e18 - 1.0).abs() < 1e-15,
            "{got}"
        );
        assert_eq!(decimal_to_f64(-Decimal::ZERO).to_bits(), 0.0f64.to_bits());
        assert_eq!(decimal_to_f64(Decimal::new(-15, 1)), -1.5);
    }

    /// Mantissas past 64 bits (a large account's equity at many places) convert within two
    /// ulps of the correctly rounded value, at every scale the fast path takes.
    #[test]
    fn wide_mantissas_convert_within_two_ulps() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..50_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let high = (x >> 40) as u128 % (1 << 31) + 1;
            let mantissa = (high << 64 | u128::from(x.rotate_left(17))) as i128;
            let d = Decimal::from_i128_with_scale(mantissa, (x % 23) as u32);
            let want: f64 = d.to_string().parse().unwrap();
            let got = decimal_to_f64(d);
            assert!(
                (got - want).abs() <= 2.0 * (want.abs() * f64::EPSILON),
                "{d}: {got} vs {want}"
            );
        }
    }

    /// The float screen never changes an answer: pairs far apart, a few ulps apart and
    /// closer than any float can tell all compare as the decimals do.
    #[test]
    fn exceeds_is_the_exact_comparison() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..20_000 {
            let base = Decimal::new((next() % 2_000_000_000_000) as i64 - 1_000_000_000, 6);
            let apart = Decimal::new((next() % 2_001) as i64 - 1_000, 3 + (next() % 26) as u32);
            let (a, b) = (base, base + apart);
            for (p, q) in [(a, b), (b, a), (a, a)] {
                assert_eq!(
                    exceeds(p, decimal_to_f64(p), q, decimal_to_f64(q)),
                    p > q,
                    "{p} > {q}"
                );
            }
        }
    }
}
