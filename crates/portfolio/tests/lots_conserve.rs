//! Whatever the method and the sequence of trades, a book neither creates nor loses units or
//! cost: every unit and every cent bought is either still in a lot or in a sale's consumed
//! parts, and dividends booked against cost plus dividends realized equal dividends paid.

use nofxi_portfolio::domain::CostMethod;
use nofxi_portfolio::lots::LotBook;
use proptest::prelude::*;
use rust_decimal::Decimal;

#[derive(Debug, Clone)]
enum Step {
    Buy {
        units: u32,
        cents: u32,
    },
    /// Sell this many thousandths of what is held.
    Sell {
        share: u32,
    },
    Split {
        ratio: u32,
    },
    Dividend {
        cents: u32,
    },
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        (1u32..5000, 0u32..10_000_000).prop_map(|(units, cents)| Step::Buy { units, cents }),
        (1u32..=1000).prop_map(|share| Step::Sell { share }),
        (2u32..4).prop_map(|ratio| Step::Split { ratio }),
        (1u32..1_000_000).prop_map(|cents| Step::Dividend { cents }),
    ]
}

fn method() -> impl Strategy<Value = CostMethod> {
    prop_oneof![
        Just(CostMethod::Fifo),
        Just(CostMethod::Lifo),
        Just(CostMethod::Hifo),
        Just(CostMethod::Average)
    ]
}

proptest! {
    #[test]
    fn units_and_cost_are_conserved(method in method(), steps in prop::collection::vec(step(), 1..40)) {
        let date = "2024-01-02".parse().unwrap();
        let mut book = LotBook::new(method);
        let (mut cost_in, mut cost_out, mut lowered) = (Decimal::ZERO, Decimal::ZERO, Decimal::ZERO);
        let (mut paid, mut realized_dividends) = (Decimal::ZERO, Decimal::ZERO);
        let (mut units_in, mut units_out) = (Decimal::ZERO, Decimal::ZERO);
        for step in steps {
            match step {
                Step::Buy { units, cents } => {
                    let cost = Decimal::new(i64::from(cents), 2);
                    book.open(date, Decimal::from(units), cost);
                    cost_in += cost;
                    units_in += Decimal::from(units);
                }
                Step::Sell { share } => {
                    let quantity = (book.quantity() * Decimal::from(share) / Decimal::from(1000)).floor();
                    if quantity.is_zero() { continue; }
                    let sale = book.sell(date, quantity, Decimal::ZERO, &[]).unwrap();
                    let consumed: Decimal = sale.consumed.iter().map(|c| c.quantity).sum();
                    prop_assert_eq!(consumed, quantity);
                    prop_assert_eq!(sale.cost, sale.consumed.iter().map(|c| c.cost).sum::<Decimal>());
                    cost_out += sale.cost;
                    units_out += quantity;
                }
                Step::Split { ratio } => {
                    book.split(Decimal::from(ratio)).unwrap();
                    units_in *= Decimal::from(ratio);
                    units_out *= Decimal::from(ratio);
                }
                Step::Dividend { cents } => {
                    let net = Decimal::new(i64::from(cents), 2);
                    let booking = book.dividend(net);
                    prop_assert_eq!(booking.cost_reduced + booking.realized, net);
                    paid += net;
                    lowered += booking.cost_reduced;
                    realized_dividends += booking.realized;
                }
            }
            prop_assert!(book.lots().iter().all(|l| l.cost >= Decimal::ZERO && l.quantity > Decimal::ZERO));
        }
        prop_assert_eq!(book.quantity(), units_in - units_out);
        prop_assert_eq!(book.cost() + cost_out + lowered, cost_in);
        prop_assert_eq!(lowered + realized_dividends, paid);
    }
}
