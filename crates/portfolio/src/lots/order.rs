//! Which open lot a sale consumes first, per cost method.
//!
//! Only the order is decided here; [`LotBook`](super::LotBook) does the consuming. Specific
//! lots are named by the sale and the average method keeps a single pooled lot, so neither
//! needs an order.

use crate::domain::CostMethod;

use super::book::Lot;

/// Indices of `lots` (kept in the order they were opened) in the order a sale takes them.
pub(crate) fn consumption_order(method: CostMethod, lots: &[Lot]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..lots.len()).collect();
    match method {
        CostMethod::Fifo | CostMethod::Average | CostMethod::Specific => {}
        CostMethod::Lifo => order.reverse(),
        CostMethod::Hifo => order.sort_by(|&a, &b| {
            // Highest unit cost first, compared without dividing (a.cost / a.qty vs
            // b.cost / b.qty as a.cost × b.qty vs b.cost × a.qty) so no rounding can tie or
            // swap two close costs; equal costs keep the older lot first (the sort is stable).
            let (la, lb) = (&lots[a], &lots[b]);
            let left = la.cost * lb.quantity;
            let right = lb.cost * la.quantity;
            right.cmp(&left)
        }),
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal_macros::dec;

    fn lot(id: &str, quantity: rust_decimal::Decimal, cost: rust_decimal::Decimal) -> Lot {
        Lot {
            id: id.into(),
            opened: "2024-01-01".parse().unwrap(),
            quantity,
            cost,
            dividends: Default::default(),
        }
    }

    #[test]
    fn hifo_compares_unit_costs_exactly_and_keeps_ties_in_age_order() {
        // Unit costs: L1 10.00, L2 10.333…, L3 10.00, L4 12.00.
        let lots = [
            lot("L1", dec!(100), dec!(1000)),
            lot("L2", dec!(300), dec!(3100)),
            lot("L3", dec!(50), dec!(500)),
            lot("L4", dec!(10), dec!(120)),
        ];
        assert_eq!(consumption_order(CostMethod::Hifo, &lots), [3, 1, 0, 2]);
        assert_eq!(consumption_order(CostMethod::Lifo, &lots), [3, 2, 1, 0]);
        assert_eq!(consumption_order(CostMethod::Fifo, &lots), [0, 1, 2, 3]);
    }
}
