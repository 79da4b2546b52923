//! Resting orders against a whole bar, for backtests: a stop whose price the bar's low touched
//! fired inside the bar even if the bar closed above it.
//!
//! The path inside a bar is unknown, so the choices are the conservative ones: a bar that
//! opened beyond an order's price fills at the open (a gap), stops are worked before
//! take-profits (a bar that touched both is assumed to have hit the stop first), and
//! liquidation is checked at the bar's adverse extreme after the stops.

use nofxi_domain::market::Candle;
use nofxi_domain::trading::{Order, OrderType, Side};
use rust_decimal::Decimal;

/// When a resting order fills inside `bar`: `(price, is_maker)`, or `None` if the bar never
/// reached it. Prices are before slippage; the caller adds it for taker fills.
pub fn fill_in_bar(order: &Order, bar: &Candle) -> Option<(Decimal, bool)> {
    let level = match order.order_type {
        OrderType::Limit => order.price?,
        OrderType::StopMarket | OrderType::TakeProfitMarket => order.stop_price?,
        OrderType::Market => return Some((bar.open, false)),
    };
    // Which extreme of the bar reaches the level, and whether the open is already past it.
    let falls_to = |p: Decimal| bar.low <= p;
    let rises_to = |p: Decimal| bar.high >= p;
    let (reached, price) = match (order.order_type, order.side) {
        // Buy limits and buy take-profits wait for the price to come down.
        (OrderType::Limit, Side::Buy) | (OrderType::TakeProfitMarket, Side::Buy) => {
            (falls_to(level), level.min(bar.open))
        }
        (OrderType::Limit, Side::Sell) | (OrderType::TakeProfitMarket, Side::Sell) => {
            (rises_to(level), level.max(bar.open))
        }
        // A sell stop protects a long: it fires on the way down, at the open if it gapped.
        (OrderType::StopMarket, Side::Sell) => (falls_to(level), level.min(bar.open)),
        (OrderType::StopMarket, Side::Buy) => (rises_to(level), level.max(bar.open)),
        (OrderType::Market, _) => return None,
    };
    reached.then_some((price, order.order_type == OrderType::Limit))
}

/// Processing order within one bar: stops first, then limits, then take-profits.
pub fn priority(order_type: OrderType) -> u8 {
    match order_type {
        OrderType::StopMarket => 0,
        OrderType::Market | OrderType::Limit => 1,
        OrderType::TakeProfitMarket => 2,
    }
}

#[cfg(test)]
mod tests {
    use nofxi_domain::market::Symbol;
    use nofxi_domain::trading::OrderRequest;
    use rust_decimal_macros::dec;

    use super::*;
    use crate::paper::matching::draft;

    fn bar(open: Decimal, high: Decimal, low: Decimal, close: Decimal) -> Candle {
        Candle {
            open_time_ms: 0,
            open,
            high,
            low,
            close,
            volume: Decimal::ONE,
        }
    }

    fn order(t: OrderType, side: Side, level: Decimal) -> Order {
        let s = Symbol::parse("BTC").unwrap();
        let req = match t {
            OrderType::Limit => OrderRequest::limit(s, side, dec!(1), level, "x"),
            _ => OrderRequest::trigger(s, t, side, dec!(1), level, "x"),
        };
        draft(&req, "1".into(), 0)
    }

    #[test]
    fn a_stop_fires_inside_the_bar_and_at_the_open_after_a_gap() {
        let stop = order(OrderType::StopMarket, Side::Sell, dec!(49000));
        let wick = bar(dec!(50000), dec!(50500), dec!(48800), dec!(50200));
        assert_eq!(fill_in_bar(&stop, &wick), Some((dec!(49000), false)));
        let gap = bar(dec!(48000), dec!(48500), dec!(47000), dec!(48200));
        assert_eq!(fill_in_bar(&stop, &gap), Some((dec!(48000), false)));
        let calm = bar(dec!(50000), dec!(50500), dec!(49500), dec!(50200));
        assert_eq!(fill_in_bar(&stop, &calm), None);
    }

    #[test]
    fn limits_fill_as_maker_and_take_profits_at_their_price() {
        let buy = order(OrderType::Limit, Side::Buy, dec!(49000));
        let b = bar(dec!(50000), dec!(50100), dec!(48900), dec!(49900));
        assert_eq!(fill_in_bar(&buy, &b), Some((dec!(49000), true)));
        let tp = order(OrderType::TakeProfitMarket, Side::Sell, dec!(50050));
        assert_eq!(fill_in_bar(&tp, &b), Some((dec!(50050), false)));
        assert!(priority(OrderType::StopMarket) < priority(OrderType::TakeProfitMarket));
    }
}
