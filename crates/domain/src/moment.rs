//! A time as it is shown to a person. Times on a simulated timeline (`nofxi run --sim-speed`)
//! are never labelled UTC: that would pass a made-up moment off as a real one.

/// How finely a time is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Precision {
    Minute,
    Second,
}

/// `ms` (Unix epoch milliseconds) as `2026-12-10 12:52` (or with seconds), without a zone:
/// the caller says which clock it is on.
pub fn clock_face(ms: i64, precision: Precision) -> String {
    let format = match precision {
        Precision::Minute => "%Y-%m-%d %H:%M",
        Precision::Second => "%Y-%m-%d %H:%M:%S",
    };
    jiff::Timestamp::from_millisecond(ms)
        .map(|t| t.strftime(format).to_string())
        .unwrap_or_else(|_| ms.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shows_the_minute_or_the_second_and_survives_out_of_range_times() {
        assert_eq!(clock_face(0, Precision::Minute), "1970-01-01 00:00");
        assert_eq!(clock_face(61_000, Precision::Second), "1970-01-01 00:01:01");
        assert_eq!(
            clock_face(i64::MAX, Precision::Second),
            i64::MAX.to_string()
        );
    }
}
