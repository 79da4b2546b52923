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

/// A time with its clock said: `… UTC`, or `… (simulated)` / `…（模拟时间）` on a simulated
/// timeline. The CLI and the chat both show times this way.
pub fn labelled(ms: i64, precision: Precision, simulated: bool, zh: bool) -> String {
    let face = clock_face(ms, precision);
    match (simulated, zh) {
        (false, _) => format!("{face} UTC"),
        (true, false) => format!("{face} (simulated)"),
        (true, true) => format!("{face}（模拟时间）"),
    }
}

/// The earliest moment nofxi reads: the Unix epoch, 1970-01-01T00:00:00Z. No market history
/// nofxi replays is older, and a time before it is a typo or a number that is no time.
pub const EARLIEST_MS: i64 = 0;

/// The latest moment nofxi reads: 9999-12-30T22:00:00Z, the last millisecond the time library
/// (jiff) shows as a date (four-digit years, with room for any zone's offset). Later "times"
/// are numbers in another unit (microseconds, nanoseconds) or no time at all, and near
/// `i64::MAX` arithmetic on them (an end one candle after the last) overflows.
pub const LATEST_MS: i64 = 253_402_207_200_000;

/// Why a text is not a moment nofxi accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MomentError {
    /// Not epoch milliseconds, RFC 3339 or a date.
    NotATime,
    /// A time outside [`EARLIEST_MS`]..=[`LATEST_MS`].
    OutOfRange,
}

/// Whether `ms` lies in the range nofxi accepts ([`EARLIEST_MS`]..=[`LATEST_MS`]).
pub fn in_range(ms: i64) -> bool {
    (EARLIEST_MS..=LATEST_MS).contains(&ms)
}

/// The accepted range in words, for the fix of an error about a time outside it.
pub const RANGE_TEXT: &str = "1970-01-01 to 9999-12-30 (epoch milliseconds 0 to 253402207200000)";

/// A moment as users write one: epoch milliseconds, RFC 3339 (`2026-01-01T08:00:00Z`), or a
/// bare date (`2026-01-01`, its midnight in UTC), inside [`EARLIEST_MS`]..=[`LATEST_MS`].
pub fn read_moment(text: &str) -> Result<i64, MomentError> {
    let text = text.trim();
    let ms = if let Ok(ms) = text.parse::<i64>() {
        ms
    } else if let Ok(t) = text.parse::<jiff::Timestamp>() {
        t.as_millisecond()
    } else {
        format!("{text}T00:00:00Z")
            .parse::<jiff::Timestamp>()
            .map_err(|_| MomentError::NotATime)?
            .as_millisecond()
    };
    if in_range(ms) {
        Ok(ms)
    } else {
        Err(MomentError::OutOfRange)
    }
}

/// [`read_moment`], `None` when the text is no time or one outside the accepted range.
pub fn parse_moment(text: &str) -> Option<i64> {
    read_moment(text).ok()
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

    /// Epoch milliseconds near `i64::MAX` (year 292 million) were read as a time, and every
    /// end computed from them overflowed.
    #[test]
    fn moments_outside_1970_to_9999_are_refused() {
        assert_eq!(read_moment("2026-01-01"), Ok(1_767_225_600_000));
        assert_eq!(read_moment("0"), Ok(EARLIEST_MS));
        assert_eq!(read_moment(&LATEST_MS.to_string()), Ok(LATEST_MS));
        assert!(jiff::Timestamp::from_millisecond(LATEST_MS + 1).is_err());
        assert_eq!(
            clock_face(LATEST_MS, Precision::Second),
            "9999-12-30 22:00:00"
        );
        for out in [
            i64::MAX.to_string(),
            i64::MIN.to_string(),
            (LATEST_MS + 1).to_string(),
            "-1".to_string(),
            "1600000000000000".to_string(),
            "1969-12-31".to_string(),
        ] {
            assert_eq!(read_moment(&out), Err(MomentError::OutOfRange), "{out}");
            assert_eq!(parse_moment(&out), None, "{out}");
        }
        assert_eq!(read_moment("yesterday-ish"), Err(MomentError::NotATime));
    }

    #[test]
    fn a_simulated_time_is_never_labelled_utc() {
        assert_eq!(
            labelled(0, Precision::Minute, false, true),
            "1970-01-01 00:00 UTC"
        );
        assert_eq!(
            labelled(0, Precision::Minute, true, false),
            "1970-01-01 00:00 (simulated)"
        );
        assert_eq!(
            labelled(0, Precision::Minute, true, true),
            "1970-01-01 00:00（模拟时间）"
        );
    }
}
