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

/// A moment as users write one: epoch milliseconds, RFC 3339 (`2026-01-01T08:00:00Z`), or a
/// bare date (`2026-01-01`, its midnight in UTC). `None` when it is none of these.
pub fn parse_moment(text: &str) -> Option<i64> {
    let text = text.trim();
    if let Ok(ms) = text.parse::<i64>() {
        return Some(ms);
    }
    if let Ok(t) = text.parse::<jiff::Timestamp>() {
        return Some(t.as_millisecond());
    }
    format!("{text}T00:00:00Z")
        .parse::<jiff::Timestamp>()
        .ok()
        .map(|t| t.as_millisecond())
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
