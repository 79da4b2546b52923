//! One worked example per cost method, computed by hand in the comments.
//!
//! The same three buys for every method:
//!   L1 2024-01-02 buy 100 @ 10.00 + fee 5 → cost 1005.00 (unit 10.05)
//!   L2 2024-02-01 buy 200 @ 12.00 + fee 5 → cost 2405.00 (unit 12.025)
//!   L3 2024-03-01 buy 100 @ 11.00 + fee 5 → cost 1105.00 (unit 11.05)
//! then one sale on 2024-04-01 of 250 @ 13.00 with fee 10 → proceeds 3250 − 10 = 3240.00.

use super::*;
use rust_decimal_macros::dec;

fn d(text: &str) -> Date {
    text.parse().unwrap()
}

fn three_buys(method: CostMethod) -> LotBook {
    let mut book = LotBook::new(method);
    book.open(d("2024-01-02"), dec!(100), dec!(1005.00));
    book.open(d("2024-02-01"), dec!(200), dec!(2405.00));
    book.open(d("2024-03-01"), dec!(100), dec!(1105.00));
    book
}

fn remaining(book: &LotBook) -> Vec<(&str, Decimal, Decimal)> {
    book.lots()
        .iter()
        .map(|l| (l.id.as_str(), l.quantity, l.cost))
        .collect()
}

fn consumed(sale: &Sale) -> Vec<(&str, Decimal, Decimal)> {
    sale.consumed
        .iter()
        .map(|c| (c.lot.as_str(), c.quantity, c.cost))
        .collect()
}

#[test]
fn fifo_takes_the_oldest_lots_and_part_of_the_next() {
    // L1 whole: 100 units, 1005.00. L2 part: 150 of 200, 2405 × 150/200 = 1803.75.
    // Cost 2808.75; realized 3240.00 − 2808.75 = 431.25. L2 keeps 50 at 2405 − 1803.75 = 601.25.
    let mut book = three_buys(CostMethod::Fifo);
    let sale = book
        .sell(d("2024-04-01"), dec!(250), dec!(3240.00), &[])
        .unwrap();
    assert_eq!(
        consumed(&sale),
        [
            ("L1", dec!(100), dec!(1005.00)),
            ("L2", dec!(150), dec!(1803.75))
        ]
    );
    assert_eq!(sale.cost, dec!(2808.75));
    assert_eq!(sale.realized, dec!(431.25));
    assert_eq!(
        remaining(&book),
        [
            ("L2", dec!(50), dec!(601.25)),
            ("L3", dec!(100), dec!(1105.00))
        ]
    );
}

#[test]
fn lifo_takes_the_newest_lots_first() {
    // L3 whole: 1105.00. L2 part: 150 of 200 = 1803.75. Cost 2908.75; realized 331.25.
    let mut book = three_buys(CostMethod::Lifo);
    let sale = book
        .sell(d("2024-04-01"), dec!(250), dec!(3240.00), &[])
        .unwrap();
    assert_eq!(
        consumed(&sale),
        [
            ("L3", dec!(100), dec!(1105.00)),
            ("L2", dec!(150), dec!(1803.75))
        ]
    );
    assert_eq!(sale.realized, dec!(331.25));
    assert_eq!(
        remaining(&book),
        [
            ("L1", dec!(100), dec!(1005.00)),
            ("L2", dec!(50), dec!(601.25))
        ]
    );
}

#[test]
fn hifo_takes_the_dearest_units_first() {
    // Unit costs 10.05, 12.025, 11.05: L2 whole (2405.00), then L3 50 of 100 = 552.50.
    // Cost 2957.50; realized 3240.00 − 2957.50 = 282.50.
    let mut book = three_buys(CostMethod::Hifo);
    let sale = book
        .sell(d("2024-04-01"), dec!(250), dec!(3240.00), &[])
        .unwrap();
    assert_eq!(
        consumed(&sale),
        [
            ("L2", dec!(200), dec!(2405.00)),
            ("L3", dec!(50), dec!(552.50))
        ]
    );
    assert_eq!(sale.realized, dec!(282.50));
    assert_eq!(
        remaining(&book),
        [
            ("L1", dec!(100), dec!(1005.00)),
            ("L3", dec!(50), dec!(552.50))
        ]
    );
}

#[test]
fn average_pools_every_unit_at_one_cost() {
    // Pool: 400 units, 4515.00. 250 units cost 4515 × 250/400 = 2821.875 → 2821.88 (half-up).
    // Realized 3240.00 − 2821.88 = 418.12. The pool keeps 150 units at 4515 − 2821.88 = 1693.12,
    // unit cost 1693.12 / 150 = 11.2874666… → 11.287467.
    let mut book = three_buys(CostMethod::Average);
    assert_eq!(book.lots().len(), 1);
    let sale = book
        .sell(d("2024-04-01"), dec!(250), dec!(3240.00), &[])
        .unwrap();
    assert_eq!(consumed(&sale), [("L1", dec!(250), dec!(2821.88))]);
    assert_eq!(sale.realized, dec!(418.12));
    assert_eq!(remaining(&book), [("L1", dec!(150), dec!(1693.12))]);
    assert_eq!(book.lots()[0].unit_cost(), dec!(11.287467));
    assert_eq!(book.lots()[0].opened, d("2024-01-02"));
}

#[test]
fn specific_lots_take_exactly_what_the_sale_names() {
    // L3 60 of 100: 1105 × 0.6 = 663.00; L1 whole 1005.00; L2 90 of 200: 2405 × 0.45 = 1082.25.
    // Cost 2750.25; realized 3240.00 − 2750.25 = 489.75.
    // Left: L2 110 at 2405 − 1082.25 = 1322.75, L3 40 at 1105 − 663 = 442.00.
    let mut book = three_buys(CostMethod::Specific);
    let pick = |lot: &str, q| LotPick {
        lot: lot.into(),
        quantity: q,
    };
    let picks = [
        pick("L3", dec!(60)),
        pick("L1", dec!(100)),
        pick("L2", dec!(90)),
    ];
    let sale = book
        .sell(d("2024-04-01"), dec!(250), dec!(3240.00), &picks)
        .unwrap();
    assert_eq!(sale.cost, dec!(2750.25));
    assert_eq!(sale.realized, dec!(489.75));
    assert_eq!(
        remaining(&book),
        [
            ("L2", dec!(110), dec!(1322.75)),
            ("L3", dec!(40), dec!(442.00))
        ]
    );
}

#[test]
fn a_refused_specific_sale_changes_nothing_and_says_why() {
    let mut book = three_buys(CostMethod::Specific);
    let before = book.clone();
    let err = book
        .sell(d("2024-04-01"), dec!(250), dec!(3240), &[])
        .unwrap_err();
    assert!(err.0[0].fix.contains("L1:100"), "{err}");
    let picks = [LotPick {
        lot: "L9".into(),
        quantity: dec!(10),
    }];
    let err = book
        .sell(d("2024-04-01"), dec!(10), dec!(130), &picks)
        .unwrap_err();
    assert_eq!(err.0[0].fix, "pick from the open lots: L1, L2, L3");
    let picks = [
        LotPick {
            lot: "L1".into(),
            quantity: dec!(60),
        },
        LotPick {
            lot: "L1".into(),
            quantity: dec!(60),
        },
    ];
    assert!(
        book.sell(d("2024-04-01"), dec!(120), dec!(130), &picks)
            .is_err()
    );
    assert_eq!(book, before);
}

#[test]
fn selling_more_than_held_is_refused_whole() {
    let mut book = three_buys(CostMethod::Fifo);
    let err = book
        .sell(d("2024-04-01"), dec!(401), dec!(1), &[])
        .unwrap_err();
    assert_eq!(err.0[0].field, "quantity");
    assert_eq!(book.quantity(), dec!(400));
}

#[test]
fn a_split_changes_units_and_unit_cost_but_not_cost() {
    // After the FIFO sale: L2 50 @ 601.25, L3 100 @ 1105.00. A 2-for-1 split: L2 100 units
    // still 601.25 (unit 6.0125), L3 200 units still 1105.00 (unit 5.525).
    // Then sell 150 @ 7.00, no fee: proceeds 1050.00; L2 whole 601.25 + L3 50 of 200:
    // 1105 × 50/200 = 276.25 → cost 877.50; realized 1050.00 − 877.50 = 172.50.
    let mut book = three_buys(CostMethod::Fifo);
    book.sell(d("2024-04-01"), dec!(250), dec!(3240.00), &[])
        .unwrap();
    book.split(dec!(2)).unwrap();
    assert_eq!(
        remaining(&book),
        [
            ("L2", dec!(100), dec!(601.25)),
            ("L3", dec!(200), dec!(1105.00))
        ]
    );
    assert_eq!(book.lots()[0].unit_cost(), dec!(6.0125));
    let sale = book
        .sell(d("2024-05-01"), dec!(150), dec!(1050.00), &[])
        .unwrap();
    assert_eq!(sale.cost, dec!(877.50));
    assert_eq!(sale.realized, dec!(172.50));
}

#[test]
fn a_reverse_split_can_leave_a_fraction() {
    // 1-for-10 on 15 units costing 150.00: 1.5 units still costing 150.00 (unit 100).
    let mut book = LotBook::new(CostMethod::Fifo);
    book.open(d("2024-01-02"), dec!(15), dec!(150.00));
    book.split(dec!(0.1)).unwrap();
    assert_eq!(book.quantity(), dec!(1.5));
    assert_eq!(book.cost(), dec!(150.00));
    assert_eq!(book.lots()[0].unit_cost(), dec!(100));
    assert!(book.split(dec!(0)).is_err());
}

#[test]
fn a_dividend_lowers_cost_and_beyond_cost_is_realized() {
    // L1 10 units cost 100.00; L2 30 units cost 30.00. Dividend 80.00 net over 40 units:
    // L1's share 80 × 10/40 = 20.00 → cost 80.00; L2 takes the rest 60.00 but only 30.00 of
    // cost is left → cost 0, 30.00 realized. Cost lowered 20 + 30 = 50.00.
    let mut book = LotBook::new(CostMethod::Fifo);
    book.open(d("2024-01-02"), dec!(10), dec!(100.00));
    book.open(d("2024-01-03"), dec!(30), dec!(30.00));
    let booking = book.dividend(dec!(80.00));
    assert_eq!(
        booking,
        DividendBooking {
            cost_reduced: dec!(50.00),
            realized: dec!(30.00)
        }
    );
    assert_eq!(
        remaining(&book),
        [("L1", dec!(10), dec!(80.00)), ("L2", dec!(30), dec!(0))]
    );
}

#[test]
fn dividend_shares_add_up_exactly_and_with_nothing_held_all_is_realized() {
    // 100.00 over three lots of 1 unit: 33.33, 33.33, and the rest 33.34.
    let mut book = LotBook::new(CostMethod::Fifo);
    for day in ["2024-01-02", "2024-01-03", "2024-01-04"] {
        book.open(d(day), dec!(1), dec!(50));
    }
    book.dividend(dec!(100.00));
    let costs: Vec<_> = book.lots().iter().map(|l| l.cost).collect();
    assert_eq!(costs, [dec!(16.67), dec!(16.67), dec!(16.66)]);
    let mut empty = LotBook::new(CostMethod::Fifo);
    assert_eq!(empty.dividend(dec!(12.5)).realized, dec!(12.5));
}

#[test]
fn a_transfer_out_takes_cost_with_it_and_realizes_nothing() {
    let mut book = three_buys(CostMethod::Fifo);
    let moved = book.transfer_out(dec!(120), &[]).unwrap();
    // L1 whole 1005.00; L2 20 of 200: 2405 × 0.1 = 240.50.
    let costs: Vec<_> = moved.iter().map(|c| c.cost).collect();
    assert_eq!(costs, [dec!(1005.00), dec!(240.50)]);
    assert_eq!(book.cost(), dec!(2164.50) + dec!(1105.00));
}
