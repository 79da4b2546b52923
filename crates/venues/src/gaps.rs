//! Holes in a candle series: stretches where candles of its interval are missing.
//!
//! A replay over a hole sees the last price standing still for its whole length (a 75-hour
//! hole in 15-minute candles is 300 cycles on one price), which is no market. A hole is not
//! an error, exchanges do halt, but it is said, with where it is, so the figures over it
//! are read knowing it.

use nofxi_domain::Interval;
use nofxi_domain::market::Candle;

/// Missing candles beyond which a hole is reported: one or two missing bars are common in
/// recorded data and change little.
pub const REPORTED_AFTER_MISSING: i64 = 3;

/// One hole: between the candle on `after_line` (a file's line, header = 1) and the next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gap {
    pub after_line: u64,
    pub from_ms: i64,
    pub to_ms: i64,
    /// Candles of the interval that would fit between the two.
    pub missing: i64,
}

/// Holes of more than `more_than` missing candles, in order.
pub fn gaps(candles: &[Candle], interval: Interval, more_than: i64) -> Vec<Gap> {
    let step = interval.millis().max(1);
    candles
        .windows(2)
        .enumerate()
        .filter_map(|(i, pair)| {
            let missing = (pair[1].open_time_ms - pair[0].open_time_ms) / step - 1;
            (missing > more_than).then(|| Gap {
                after_line: u64::try_from(i).unwrap_or(u64::MAX).saturating_add(2),
                from_ms: pair[0].open_time_ms,
                to_ms: pair[1].open_time_ms,
                missing,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal::Decimal;

    fn at(ms: i64) -> Candle {
        let one = Decimal::ONE;
        Candle {
            open_time_ms: ms,
            open: one,
            high: one,
            low: one,
            close: one,
            volume: one,
        }
    }

    #[test]
    fn a_75_hour_hole_in_15_minute_candles_is_found_with_its_line() {
        let q = 15 * 60_000;
        let start = 1_600_000_000_000;
        let series = [
            at(start),
            at(start + q),
            at(start + q + 75 * 60 * 60_000),
            at(start + 2 * q + 75 * 60 * 60_000),
            at(start + 5 * q + 75 * 60 * 60_000),
        ];
        let found = gaps(&series, Interval::M15, REPORTED_AFTER_MISSING);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].after_line, 3);
        assert_eq!(found[0].missing, 299);
    }
}
