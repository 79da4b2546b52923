//! Candle intervals, spelled the way exchanges and users spell them (`1m`, `4h`, `1d`).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A candle interval: the one list of them for every place that takes one (the chat's, the
/// CLI's, the API's and MCP's candles through the market-data skill, whose `get_kline`
/// schema lists the same; `nofxi data download`; strategies and backtests). REFERENCE §5's
/// eight, plus the intervals every venue serves that strategies commonly pick (3m, 2h, 6h,
/// 12h). Each venue maps them to its own spelling (OKX `1H`, Bybit `60`) and refuses one it
/// does not serve, naming those it does.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
pub enum Interval {
    #[serde(rename = "1m")]
    M1,
    #[serde(rename = "3m")]
    M3,
    #[serde(rename = "5m")]
    M5,
    #[serde(rename = "15m")]
    M15,
    #[serde(rename = "30m")]
    M30,
    #[serde(rename = "1h")]
    H1,
    #[serde(rename = "2h")]
    H2,
    #[serde(rename = "4h")]
    H4,
    #[serde(rename = "6h")]
    H6,
    #[serde(rename = "12h")]
    H12,
    #[serde(rename = "1d")]
    D1,
    #[serde(rename = "1w")]
    W1,
}

impl Interval {
    pub const ALL: [Interval; 12] = [
        Interval::M1,
        Interval::M3,
        Interval::M5,
        Interval::M15,
        Interval::M30,
        Interval::H1,
        Interval::H2,
        Interval::H4,
        Interval::H6,
        Interval::H12,
        Interval::D1,
        Interval::W1,
    ];

    /// Every interval's name, in [`Interval::ALL`]'s order: the list a schema's enum and a
    /// message that lists the choices take.
    pub const NAMES: [&'static str; 12] = {
        let mut names = [""; 12];
        let mut i = 0;
        while i < names.len() {
            names[i] = Interval::ALL[i].as_str();
            i += 1;
        }
        names
    };

    /// `1m, 3m, …, 1w`: the choices, for a message.
    pub fn names_text() -> String {
        Interval::NAMES.join(", ")
    }

    pub const fn as_str(self) -> &'static str {
        match self {
            Interval::M1 => "1m",
            Interval::M3 => "3m",
            Interval::M5 => "5m",
            Interval::M15 => "15m",
            Interval::M30 => "30m",
            Interval::H1 => "1h",
            Interval::H2 => "2h",
            Interval::H4 => "4h",
            Interval::H6 => "6h",
            Interval::H12 => "12h",
            Interval::D1 => "1d",
            Interval::W1 => "1w",
        }
    }

    /// Length of one candle in milliseconds. Weeks are fixed 7-day buckets (Binance aligns them
    /// to Monday 00:00 UTC; the alignment is the venue's business, the length is ours).
    pub fn millis(self) -> i64 {
        const MIN: i64 = 60_000;
        match self {
            Interval::M1 => MIN,
            Interval::M3 => 3 * MIN,
            Interval::M5 => 5 * MIN,
            Interval::M15 => 15 * MIN,
            Interval::M30 => 30 * MIN,
            Interval::H1 => 60 * MIN,
            Interval::H2 => 120 * MIN,
            Interval::H4 => 240 * MIN,
            Interval::H6 => 360 * MIN,
            Interval::H12 => 720 * MIN,
            Interval::D1 => 1_440 * MIN,
            Interval::W1 => 10_080 * MIN,
        }
    }
}

impl fmt::Display for Interval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error names what was given and lists what is allowed, so a user can fix it in one go.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown interval \"{}\": use one of {}",
    crate::validation::shown_input(.given),
    Interval::names_text()
)]
pub struct UnknownInterval {
    pub given: String,
}

impl FromStr for Interval {
    type Err = UnknownInterval;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = s.trim();
        Interval::ALL
            .into_iter()
            .find(|i| i.as_str() == wanted)
            .ok_or_else(|| UnknownInterval {
                given: s.to_string(),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_every_interval() {
        for i in Interval::ALL {
            assert_eq!(i.as_str().parse::<Interval>(), Ok(i));
            assert_eq!(serde_json::to_string(&i).unwrap(), format!("\"{i}\""));
        }
    }

    #[test]
    fn the_names_are_the_intervals_in_order() {
        let names: Vec<&str> = Interval::ALL.iter().map(|i| i.as_str()).collect();
        assert_eq!(names, Interval::NAMES);
        assert_eq!(
            Interval::names_text(),
            "1m, 3m, 5m, 15m, 30m, 1h, 2h, 4h, 6h, 12h, 1d, 1w"
        );
    }

    #[test]
    fn rejects_fractional_hours_and_lists_allowed() {
        let err = "1.5h".parse::<Interval>().unwrap_err();
        assert!(err.to_string().contains("1.5h"));
        assert!(err.to_string().contains("4h"));
    }
}
