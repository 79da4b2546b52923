//! The shape of a fee schedule file, and the checks a file must pass to be used.
//!
//! Files are embedded with `include_str!` so the binary carries the schedules it was tested
//! with; a broken file fails the crate's tests, not a user's trade.

use jiff::civil::Date;
use rust_decimal::{Decimal, RoundingStrategy};
use serde::{Deserialize, Serialize};

use crate::domain::{Currency, InstrumentClass, Market};
use crate::error::{FieldError, PortfolioError};

/// The embedded schedule files, by name (for error messages) and text.
const EMBEDDED: [(&str, &str); 7] = [
    ("sh.yaml", include_str!("../../fees/sh.yaml")),
    ("sz.yaml", include_str!("../../fees/sz.yaml")),
    ("bj.yaml", include_str!("../../fees/bj.yaml")),
    ("hk.yaml", include_str!("../../fees/hk.yaml")),
    ("us.yaml", include_str!("../../fees/us.yaml")),
    ("fund.yaml", include_str!("../../fees/fund.yaml")),
    ("crypto.yaml", include_str!("../../fees/crypto.yaml")),
];

/// Which trades a rule charges.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Buy,
    Sell,
    Both,
}

/// What a rate multiplies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Basis {
    /// The trade's value, quantity × price.
    Amount,
    /// The number of units (FINRA's per-share fee).
    Quantity,
}

/// How a fee is rounded to its decimal places.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rounding {
    HalfUp,
    /// Away from zero: HK stamp duty counts part of a dollar as a dollar.
    Up,
    /// Towards zero.
    Down,
}

impl Rounding {
    pub fn apply(self, value: Decimal, dp: u32) -> Decimal {
        let strategy = match self {
            Rounding::HalfUp => RoundingStrategy::MidpointAwayFromZero,
            Rounding::Up => RoundingStrategy::AwayFromZero,
            Rounding::Down => RoundingStrategy::ToZero,
        };
        value.round_dp_with_strategy(dp, strategy)
    }
}

/// A rule's rate from a date on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RateVersion {
    pub from: Date,
    pub rate: Decimal,
    #[serde(default)]
    pub min: Option<Decimal>,
    #[serde(default)]
    pub max: Option<Decimal>,
    /// Decimal places the fee is rounded to.
    pub dp: u32,
    pub rounding: Rounding,
}

/// One fee line of a market: commission, stamp duty, a levy…
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FeeRule {
    pub id: String,
    pub label: String,
    pub label_zh: String,
    pub side: Side,
    /// The instrument classes it applies to; empty means all.
    #[serde(default)]
    pub classes: Vec<InstrumentClass>,
    pub basis: Basis,
    /// Oldest first.
    pub versions: Vec<RateVersion>,
}

impl FeeRule {
    /// The version in force on `date`, if the rule had started by then.
    pub fn version_on(&self, date: Date) -> Option<&RateVersion> {
        self.versions.iter().rev().find(|v| v.from <= date)
    }
}

/// One market's schedule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FeeSchedule {
    pub market: Market,
    pub currency: Currency,
    /// Trades before this date are not covered: their fee must be given.
    pub valid_from: Date,
    pub rules: Vec<FeeRule>,
}

impl FeeSchedule {
    /// Parses one file and checks it: versions in date order, rates not negative, a minimum
    /// not above its maximum. `name` is the file's, so a problem says where to look.
    pub fn parse(name: &str, text: &str) -> Result<Self, PortfolioError> {
        let schedule: FeeSchedule = yaml_serde::from_str(text).map_err(|e| {
            PortfolioError::one(
                name,
                format!("is not a fee schedule: {e}"),
                "fix the YAML at the place shown",
            )
        })?;
        let mut problems = Vec::new();
        for rule in &schedule.rules {
            let field = format!("{name}: rules.{}", rule.id);
            if rule.versions.is_empty() {
                problems.push(FieldError::new(
                    &field,
                    "has no versions",
                    "add at least one dated rate",
                ));
            }
            for pair in rule.versions.windows(2) {
                if pair[0].from >= pair[1].from {
                    problems.push(FieldError::new(
                        &field,
                        format!("version {} is not after {}", pair[1].from, pair[0].from),
                        "list versions oldest first, one per date",
                    ));
                }
            }
            for v in &rule.versions {
                let bad_range = matches!((v.min, v.max), (Some(lo), Some(hi)) if lo > hi);
                if v.rate < Decimal::ZERO || bad_range || v.min.is_some_and(|m| m < Decimal::ZERO) {
                    problems.push(FieldError::new(
                        &field,
                        format!(
                            "version {} has a negative rate or a minimum above its maximum",
                            v.from
                        ),
                        "give rates and limits of 0 or more, min ≤ max",
                    ));
                }
            }
        }
        PortfolioError::check(problems)?;
        Ok(schedule)
    }
}

/// Every market's schedule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FeeSchedules(Vec<FeeSchedule>);

impl FeeSchedules {
    /// The schedules shipped in `crates/portfolio/fees/`.
    pub fn embedded() -> Result<Self, PortfolioError> {
        let mut schedules = Vec::new();
        let mut problems = Vec::new();
        for (name, text) in EMBEDDED {
            match FeeSchedule::parse(name, text) {
                Ok(s) => schedules.push(s),
                Err(e) => problems.extend(e.0),
            }
        }
        PortfolioError::check(problems)?;
        Ok(Self(schedules))
    }

    pub fn from_schedules(schedules: Vec<FeeSchedule>) -> Self {
        Self(schedules)
    }

    pub fn for_market(&self, market: Market) -> Option<&FeeSchedule> {
        self.0.iter().find(|s| s.market == market)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_embedded_file_loads_and_every_market_has_one() {
        let schedules = FeeSchedules::embedded().unwrap();
        for market in Market::ALL {
            let s = schedules.for_market(market).unwrap();
            assert_eq!(s.currency, market.default_currency(), "{market}");
        }
    }

    #[test]
    fn a_broken_file_says_which_rule_and_how_to_fix_it() {
        let text = "market: HK\ncurrency: HKD\nvalid_from: 2021-01-01\nrules:\n  - id: stamp\n    \
                    label: s\n    label_zh: s\n    side: both\n    basis: amount\n    versions:\n      \
                    - { from: 2023-01-01, rate: \"0.001\", dp: 0, rounding: up }\n      \
                    - { from: 2022-01-01, rate: \"-1\", dp: 0, rounding: up }\n";
        let err = FeeSchedule::parse("hk.yaml", text).unwrap_err();
        assert_eq!(err.0.len(), 2, "{err}");
        assert_eq!(err.0[0].field, "hk.yaml: rules.stamp");
        assert!(FeeSchedule::parse("x.yaml", "market: MOON").is_err());
    }

    #[test]
    fn rounding_modes() {
        use rust_decimal_macros::dec;
        assert_eq!(Rounding::Up.apply(dec!(12.001), 0), dec!(13));
        assert_eq!(Rounding::HalfUp.apply(dec!(0.125), 2), dec!(0.13));
        assert_eq!(Rounding::Down.apply(dec!(0.129), 2), dec!(0.12));
    }
}
