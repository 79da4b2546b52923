//! Rounding rules for money, in one place so every module rounds the same way.
//!
//! REFERENCE §4: money in 2 decimal places, unit cost in 6, half-up unless a fee rule says
//! otherwise. Costs and proceeds are kept at money precision so that splitting a lot in two
//! parts gives parts that add back to the whole (the second part is a subtraction, not a
//! second rounding).

use rust_decimal::{Decimal, RoundingStrategy};

/// Decimal places of a money amount.
pub const MONEY_DP: u32 = 2;
/// Decimal places of a unit cost shown to a person.
pub const UNIT_COST_DP: u32 = 6;

/// A money amount rounded half-up to cents.
pub fn money(value: Decimal) -> Decimal {
    value.round_dp_with_strategy(MONEY_DP, RoundingStrategy::MidpointAwayFromZero)
}

/// A unit cost (cost ÷ quantity) rounded half-up to 6 places; `0` for an empty quantity.
pub fn unit_cost(cost: Decimal, quantity: Decimal) -> Decimal {
    if quantity.is_zero() {
        return Decimal::ZERO;
    }
    (cost / quantity).round_dp_with_strategy(UNIT_COST_DP, RoundingStrategy::MidpointAwayFromZero)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal_macros::dec;

    #[test]
    fn money_rounds_half_up_and_unit_cost_keeps_six_places() {
        assert_eq!(money(dec!(1.005)), dec!(1.01));
        assert_eq!(money(dec!(-1.005)), dec!(-1.01));
        assert_eq!(money(dec!(1.004)), dec!(1.00));
        // 1000.00 / 3 = 333.3333333…
        assert_eq!(unit_cost(dec!(1000), dec!(3)), dec!(333.333333));
        assert_eq!(unit_cost(dec!(5), dec!(0)), dec!(0));
    }
}
