//! The one table of every numeric field's bounds.
//!
//! The validators of this crate read these bounds, the CLI's flag checks and the backtest
//! read them, and a test of the skills crate compares every skill slot's `min`/`max` with
//! them, so a bound is changed in one place and the chat, the CLI and the store cannot
//! disagree about it. Amounts have an upper bound too: the engine multiplies them (a
//! position's value by its leverage, an equity by a ratio), and a balance near
//! `Decimal::MAX` overflows there. 1e12 USDT is beyond any account, far inside the range.

use rust_decimal::Decimal;

use crate::validation::Problem;

/// One numeric field: its snake_case name (the last part of a dotted config path, as slots
/// are named) and its inclusive bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldBounds {
    pub field: &'static str,
    pub min: Decimal,
    pub max: Decimal,
}

impl FieldBounds {
    /// `Some(OutOfRange)` when `got` is outside the bounds.
    pub fn problem(&self, got: Decimal) -> Option<Problem> {
        (got < self.min || got > self.max).then(|| Problem::OutOfRange {
            min: self.min.normalize().to_string(),
            max: self.max.normalize().to_string(),
            got: got.normalize().to_string(),
        })
    }

    pub fn contains(&self, got: Decimal) -> bool {
        self.problem(got).is_none()
    }
}

const fn int(n: i64) -> Decimal {
    Decimal::from_parts(n as u32, (n >> 32) as u32, 0, n < 0, 0)
}

const fn cents(n: u32) -> Decimal {
    Decimal::from_parts(n, 0, 0, false, 2)
}

const fn b(field: &'static str, min: Decimal, max: Decimal) -> FieldBounds {
    FieldBounds { field, min, max }
}

/// A trader's initial balance in USDT: at least a cent (the smallest amount the chat and the
/// reports show), at most 1e12.
pub const INITIAL_BALANCE: FieldBounds = b("initial_balance", cents(1), int(1_000_000_000_000));
/// Minutes between scans (REFERENCE §1: 3–60; clamped, not refused).
pub const SCAN_INTERVAL_MINUTES: FieldBounds = b("scan_interval_minutes", int(3), int(60));
/// Lighter's API key index (REFERENCE §1).
pub const API_KEY_INDEX: FieldBounds = b("api_key_index", int(0), int(255));
pub const PRIMARY_COUNT: FieldBounds = b("primary_count", int(10), int(30));
pub const MAX_POSITIONS: FieldBounds = b("max_positions", int(1), int(8));
pub const BTC_ETH_MAX_LEVERAGE: FieldBounds = b("btc_eth_max_leverage", int(1), int(20));
pub const ALTCOIN_MAX_LEVERAGE: FieldBounds = b("altcoin_max_leverage", int(1), int(20));
pub const MIN_CONFIDENCE: FieldBounds = b("min_confidence", int(50), int(100));
pub const MAX_POSITION_VALUE_RATIO: FieldBounds = b("max_position_value_ratio", cents(1), int(20));
pub const MAX_MARGIN_USAGE: FieldBounds = b("max_margin_usage", cents(1), int(1));
pub const MIN_POSITION_SIZE: FieldBounds = b("min_position_size", int(0), int(1_000_000));
pub const BTC_ETH_MIN_POSITION_SIZE: FieldBounds =
    b("btc_eth_min_position_size", int(0), int(1_000_000));
pub const MIN_RISK_REWARD_RATIO: FieldBounds = b("min_risk_reward_ratio", int(1), int(100));

/// Every bounded field, for the drift test against the skills and for lookups by name.
pub const ALL: &[FieldBounds] = &[
    INITIAL_BALANCE,
    SCAN_INTERVAL_MINUTES,
    API_KEY_INDEX,
    PRIMARY_COUNT,
    MAX_POSITIONS,
    BTC_ETH_MAX_LEVERAGE,
    ALTCOIN_MAX_LEVERAGE,
    MIN_CONFIDENCE,
    MAX_POSITION_VALUE_RATIO,
    MAX_MARGIN_USAGE,
    MIN_POSITION_SIZE,
    BTC_ETH_MIN_POSITION_SIZE,
    MIN_RISK_REWARD_RATIO,
];

/// The bounds of `field` (its last dotted part), when it has any.
pub fn of(field: &str) -> Option<&'static FieldBounds> {
    let last = field.rsplit('.').next().unwrap_or(field);
    ALL.iter().find(|b| b.field == last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn const_decimals_are_the_numbers_they_say() {
        assert_eq!(INITIAL_BALANCE.min, Decimal::new(1, 2));
        assert_eq!(INITIAL_BALANCE.max, Decimal::from(1_000_000_000_000_i64));
        assert_eq!(MAX_MARGIN_USAGE.max, Decimal::ONE);
        assert_eq!(API_KEY_INDEX.max, Decimal::from(255));
        assert!(ALL.iter().all(|b| b.min <= b.max));
    }

    #[test]
    fn the_range_is_named_with_what_was_given() {
        let p = INITIAL_BALANCE
            .problem("70000000000000000000000000000".parse().unwrap())
            .unwrap();
        let Problem::OutOfRange { min, max, got } = p else {
            panic!("{p:?}")
        };
        assert_eq!(
            (min.as_str(), max.as_str(), got.as_str()),
            ("0.01", "1000000000000", "70000000000000000000000000000")
        );
        assert!(INITIAL_BALANCE.problem(Decimal::new(1, 7)).is_some());
        assert!(INITIAL_BALANCE.contains(Decimal::new(1, 2)));
        assert_eq!(of("risk_control.max_positions"), Some(&MAX_POSITIONS));
    }
}
