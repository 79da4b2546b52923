//! The exchanges' time zones, and reading a feed's local wall-clock time as an instant.
//!
//! Feeds stamp quotes in the exchange's local time without an offset, so the zone is ours to
//! supply. The workspace builds `jiff` with its default features: the IANA database is read from
//! the system (`/usr/share/zoneinfo`) at run time. A machine without one (a slim container)
//! falls back to the POSIX rule each zone follows today: Shanghai and Hong Kong are UTC+8 with no
//! daylight saving (since 1991 and 1979), New York is UTC−5 with daylight saving from the
//! second Sunday of March to the first Sunday of November (the US rule since 2007). Quotes are
//! recent, so the rule and the database agree wherever it matters.

use std::sync::LazyLock;

use jiff::Timestamp;
use jiff::civil::DateTime;
use jiff::tz::{self, TimeZone};

static SHANGHAI: LazyLock<TimeZone> = LazyLock::new(|| zone("Asia/Shanghai", "CST-8", 8));
static HONG_KONG: LazyLock<TimeZone> = LazyLock::new(|| zone("Asia/Hong_Kong", "HKT-8", 8));
static NEW_YORK: LazyLock<TimeZone> = LazyLock::new(|| zone("America/New_York", NEW_YORK_RULE, -5));

const NEW_YORK_RULE: &str = "EST5EDT,M3.2.0,M11.1.0";

/// Shanghai, Shenzhen and Beijing exchanges, and Chinese fund houses.
pub(crate) fn shanghai() -> &'static TimeZone {
    &SHANGHAI
}

pub(crate) fn hong_kong() -> &'static TimeZone {
    &HONG_KONG
}

/// NYSE and Nasdaq.
pub(crate) fn new_york() -> &'static TimeZone {
    &NEW_YORK
}

fn zone(iana: &str, posix: &str, standard_hours: i8) -> TimeZone {
    TimeZone::get(iana)
        .or_else(|_| TimeZone::posix(posix))
        // Only reachable if the rule above were mistyped; a test parses every rule.
        .unwrap_or_else(|_| TimeZone::fixed(tz::offset(standard_hours)))
}

/// Reads `text` with the first of `formats` (strftime) that fits, as wall-clock time in `zone`.
pub(crate) fn local_time(text: &str, formats: &[&str], zone: &TimeZone) -> Option<Timestamp> {
    let text = text.trim();
    formats
        .iter()
        .find_map(|format| DateTime::strptime(format, text).ok())
        .and_then(|datetime| zone.to_timestamp(datetime).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fallback_rules_agree_with_the_database() {
        let instants = [
            "2025-01-10T21:00:00Z",
            "2025-03-09T06:59:59Z",
            "2025-03-09T07:00:00Z",
            "2025-07-04T14:30:00Z",
            "2025-11-02T05:59:59Z",
            "2025-11-02T06:00:00Z",
        ];
        let rules = [
            ("Asia/Shanghai", "CST-8"),
            ("Asia/Hong_Kong", "HKT-8"),
            ("America/New_York", NEW_YORK_RULE),
        ];
        for (iana, posix) in rules {
            let rule = TimeZone::posix(posix).unwrap();
            let Ok(db) = TimeZone::get(iana) else {
                continue; // no system database here: nothing to compare with
            };
            for instant in instants {
                let ts: Timestamp = instant.parse().unwrap();
                assert_eq!(rule.to_offset(ts), db.to_offset(ts), "{iana} at {instant}");
            }
        }
    }

    #[test]
    fn wall_clock_times_read_in_the_exchange_zone() {
        let ts = local_time("20250110150003", &["%Y%m%d%H%M%S"], shanghai()).unwrap();
        assert_eq!(ts.to_string(), "2025-01-10T07:00:03Z");
        let ts = local_time("2025-07-03 16:00:00", &["%Y-%m-%d %H:%M:%S"], new_york()).unwrap();
        assert_eq!(ts.to_string(), "2025-07-03T20:00:00Z");
        assert!(local_time("2025-13-40", &["%Y-%m-%d"], hong_kong()).is_none());
    }
}
