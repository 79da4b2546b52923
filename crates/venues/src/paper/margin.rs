//! The arithmetic of a USDT-margined position, kept free of state so tests can check it against
//! hand computations.
//!
//! Notation: q = quantity (> 0), E = entry price, P = price, M = margin that backs the position
//! (the isolated wallet, or for cross the wallet balance less what other positions need),
//! mmr = maintenance margin rate. The position is liquidated when its margin balance
//! M + PnL(P) falls to the maintenance margin q·P·mmr:
//!
//! - long:  M + q(P − E) = q·P·mmr  ⇒  P = (q·E − M) / (q·(1 − mmr))
//! - short: M + q(E − P) = q·P·mmr  ⇒  P = (q·E + M) / (q·(1 + mmr))

use nofxi_domain::trading::PositionSide;
use rust_decimal::Decimal;

pub fn unrealized_pnl(
    side: PositionSide,
    quantity: Decimal,
    entry: Decimal,
    price: Decimal,
) -> Decimal {
    match side {
        PositionSide::Long => (price - entry) * quantity,
        PositionSide::Short => (entry - price) * quantity,
    }
}

pub fn fee(price: Decimal, quantity: Decimal, rate: Decimal) -> Decimal {
    price * quantity * rate
}

pub fn initial_margin(price: Decimal, quantity: Decimal, leverage: u32) -> Decimal {
    price * quantity / Decimal::from(leverage.max(1))
}

/// `None` when no positive price liquidates the position (a long backed by more than its
/// notional, for instance).
pub fn liquidation_price(
    side: PositionSide,
    quantity: Decimal,
    entry: Decimal,
    margin: Decimal,
    mmr: Decimal,
) -> Option<Decimal> {
    if quantity <= Decimal::ZERO {
        return None;
    }
    let p = match side {
        PositionSide::Long => (quantity * entry - margin) / (quantity * (Decimal::ONE - mmr)),
        PositionSide::Short => (quantity * entry + margin) / (quantity * (Decimal::ONE + mmr)),
    };
    (p > Decimal::ZERO).then_some(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal_macros::dec;

    #[test]
    fn hand_computed_liquidation_prices() {
        // Long 0.1 BTC at 50 000, 10x isolated: M = 500.
        // P = (5 000 − 500) / (0.1 × 0.996) = 4 500 / 0.0996 = 45 180.722…
        let p = liquidation_price(
            PositionSide::Long,
            dec!(0.1),
            dec!(50000),
            dec!(500),
            dec!(0.004),
        );
        assert_eq!(p.unwrap().round_dp(2), dec!(45180.72));
        // Short 1 ETH at 3 000, 5x isolated: M = 600.
        // P = (3 000 + 600) / (1 × 1.004) = 3 585.657…
        let p = liquidation_price(
            PositionSide::Short,
            dec!(1),
            dec!(3000),
            dec!(600),
            dec!(0.004),
        );
        assert_eq!(p.unwrap().round_dp(2), dec!(3585.66));
        // A 1x long backed by its whole notional cannot be liquidated at a positive price.
        assert_eq!(
            liquidation_price(
                PositionSide::Long,
                dec!(1),
                dec!(100),
                dec!(100),
                dec!(0.004)
            ),
            None
        );
    }

    #[test]
    fn hand_computed_fees_and_pnl() {
        assert_eq!(fee(dec!(50000), dec!(0.1), dec!(0.0005)), dec!(2.5));
        assert_eq!(
            unrealized_pnl(PositionSide::Long, dec!(0.1), dec!(50000), dec!(52000)),
            dec!(200)
        );
        assert_eq!(
            unrealized_pnl(PositionSide::Short, dec!(2), dec!(3000), dec!(3100)),
            dec!(-200)
        );
        assert_eq!(initial_margin(dec!(50000), dec!(0.1), 10), dec!(500));
    }
}
