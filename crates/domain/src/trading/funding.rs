//! Funding on a perpetual: at each of the venue's funding times a position pays or receives
//! its notional at the mark times the funding rate. A positive rate has longs pay shorts.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::PositionSide;
use crate::market::Symbol;

/// One funding settlement of one position. `amount` is signed as the wallet sees it: negative
/// when the position paid, positive when it received.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FundingPayment {
    pub symbol: Symbol,
    pub side: PositionSide,
    pub quantity: Decimal,
    /// The mark the notional was taken at.
    pub mark_price: Decimal,
    pub rate: Decimal,
    pub amount: Decimal,
    /// The venue's funding time this settles.
    pub funding_time_ms: i64,
    /// When the account booked it (at or after the funding time).
    pub booked_ms: i64,
}

impl FundingPayment {
    /// What a position of `side` and `quantity` pays (negative) or receives at `mark` and
    /// `rate`: longs pay a positive rate, shorts receive it.
    pub fn amount_for(
        side: PositionSide,
        quantity: Decimal,
        mark: Decimal,
        rate: Decimal,
    ) -> Decimal {
        let notional_rate = quantity * mark * rate;
        match side {
            PositionSide::Long => -notional_rate,
            PositionSide::Short => notional_rate,
        }
    }

    /// `paid 0.61 USDT` or `received 0.61 USDT`, two decimals as money is shown.
    pub fn said(&self) -> String {
        let verb = if self.amount < Decimal::ZERO {
            "paid"
        } else {
            "received"
        };
        format!("{verb} {} USDT", self.amount.abs().round_dp(2))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal_macros::dec;

    #[test]
    fn longs_pay_a_positive_rate_and_shorts_receive_it() {
        // 0.1 BTC at 60 000 is 6 000 notional; 0.01 % of it is 0.6.
        let long =
            FundingPayment::amount_for(PositionSide::Long, dec!(0.1), dec!(60000), dec!(0.0001));
        assert_eq!(long, dec!(-0.6));
        let short =
            FundingPayment::amount_for(PositionSide::Short, dec!(0.1), dec!(60000), dec!(0.0001));
        assert_eq!(short, dec!(0.6));
        // A negative rate turns it round.
        let long =
            FundingPayment::amount_for(PositionSide::Long, dec!(2), dec!(3000), dec!(-0.00025));
        assert_eq!(long, dec!(1.5));
    }
}
