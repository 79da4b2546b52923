//! A symbol's trading rules: the increments and minimums an exchange enforces, so an order can
//! be rounded before it is sent instead of refused with -1111 or -4164.

use rust_decimal::{Decimal, RoundingStrategy};
use serde::{Deserialize, Serialize};

use crate::market::Symbol;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SymbolRules {
    pub symbol: Symbol,
    /// Prices are multiples of this.
    pub tick_size: Decimal,
    /// Quantities are multiples of this.
    pub step_size: Decimal,
    pub min_quantity: Decimal,
    /// Smallest price × quantity accepted for an order that is not reduce-only.
    pub min_notional: Decimal,
}

fn down_to_multiple(value: Decimal, step: Decimal) -> Decimal {
    if step <= Decimal::ZERO {
        return value.normalize();
    }
    ((value / step).round_dp_with_strategy(0, RoundingStrategy::ToZero) * step).normalize()
}

impl SymbolRules {
    /// The largest valid quantity not above `quantity`: rounding down never buys more than
    /// the risk check allowed.
    pub fn round_quantity(&self, quantity: Decimal) -> Decimal {
        down_to_multiple(quantity, self.step_size)
    }

    /// The nearest valid price (ties away from zero).
    pub fn round_price(&self, price: Decimal) -> Decimal {
        if self.tick_size <= Decimal::ZERO {
            return price;
        }
        ((price / self.tick_size).round_dp_with_strategy(0, RoundingStrategy::MidpointAwayFromZero)
            * self.tick_size)
            .normalize()
    }

    /// Why an order of `quantity` at `price` would be refused, if it would.
    pub fn check(
        &self,
        quantity: Decimal,
        price: Decimal,
        reduce_only: bool,
    ) -> Result<(), String> {
        if self.round_quantity(quantity) != quantity.normalize() {
            return Err(format!(
                "quantity {quantity} is not a multiple of the step {}",
                self.step_size
            ));
        }
        if quantity < self.min_quantity {
            return Err(format!(
                "quantity {quantity} is below the minimum {}",
                self.min_quantity
            ));
        }
        if !reduce_only && quantity * price < self.min_notional {
            return Err(format!(
                "order value {} is below the minimum {} USDT",
                (quantity * price).round_dp(4),
                self.min_notional
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use rust_decimal_macros::dec;

    use super::*;

    fn btc() -> SymbolRules {
        SymbolRules {
            symbol: Symbol::parse("BTC").unwrap(),
            tick_size: dec!(0.1),
            step_size: dec!(0.001),
            min_quantity: dec!(0.001),
            min_notional: dec!(100),
        }
    }

    #[test]
    fn quantities_round_down_and_prices_to_the_nearest_tick() {
        let r = btc();
        assert_eq!(r.round_quantity(dec!(0.01234)), dec!(0.012));
        assert_eq!(r.round_price(dec!(60000.15)), dec!(60000.2));
        assert_eq!(r.round_price(dec!(60000.14)), dec!(60000.1));
        assert!(r.check(dec!(0.012), dec!(60000), false).is_ok());
        assert!(
            r.check(dec!(0.0125), dec!(60000), false)
                .unwrap_err()
                .contains("step")
        );
        assert!(
            r.check(dec!(0.001), dec!(60000), false)
                .unwrap_err()
                .contains("minimum 100")
        );
        assert!(r.check(dec!(0.001), dec!(60000), true).is_ok());
    }
}
