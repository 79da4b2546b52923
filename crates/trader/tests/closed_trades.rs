//! Closed trades from fills, by hand-computed cases: a round trip, adds that move the average
//! entry, partial closes that share the entry fees and funding, a reversal that splits its
//! fee, exits of several fills, and the reason each exit's order names.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

use nofxi_domain::market::Symbol;
use nofxi_domain::trading::{Fill, FundingPayment, PositionSide, Side};
use nofxi_trader::stats::trades_from_fills;
use nofxi_trader::trades::{ClosedTrade, ExitReason, closed_trades, trade_pnls};
use rust_decimal::Decimal;
use rust_decimal_macros::dec;

const MINUTE: i64 = 60_000;

/// A fill of `order` at minute `at`; its client id is the order's (a nofxi id names its leg).
#[allow(clippy::too_many_arguments)]
fn fill(
    order: &str,
    at: i64,
    side: Side,
    qty: Decimal,
    price: Decimal,
    fee: Decimal,
    pnl: Decimal,
) -> Fill {
    Fill {
        trade_id: format!("{order}-{at}"),
        order_id: order.into(),
        client_order_id: order.into(),
        symbol: Symbol::parse("BTCUSDT").unwrap(),
        side,
        price,
        quantity: qty,
        fee,
        fee_asset: "USDT".into(),
        realized_pnl: pnl,
        is_maker: false,
        time_ms: at * MINUTE,
    }
}

fn only(trades: &[ClosedTrade]) -> &ClosedTrade {
    assert_eq!(trades.len(), 1, "{trades:#?}");
    &trades[0]
}

#[test]
fn a_round_trip_has_its_entry_exit_duration_fees_and_pnl() {
    // Long 0.01 @ 60,000 (fee 0.30), closed @ 61,000 (fee 0.305, realized +10) 90 min later.
    let fills = [
        fill(
            "nxabc0c1i0o",
            0,
            Side::Buy,
            dec!(0.01),
            dec!(60000),
            dec!(0.30),
            dec!(0),
        ),
        fill(
            "nxabc0c4i0c",
            90,
            Side::Sell,
            dec!(0.01),
            dec!(61000),
            dec!(0.305),
            dec!(10),
        ),
    ];
    let trades = closed_trades(&fills, None);
    let t = only(&trades);
    assert_eq!((t.symbol.as_str(), t.side.as_str()), ("BTCUSDT", "LONG"));
    assert_eq!(t.quantity, dec!(0.01));
    assert_eq!((t.entry_time_ms, t.entry_price), (0, dec!(60000)));
    assert_eq!((t.exit_time_ms, t.exit_price), (90 * MINUTE, dec!(61000)));
    assert_eq!(t.duration_ms, 90 * MINUTE);
    assert_eq!(t.realized_pnl, dec!(10));
    assert_eq!(t.fees, dec!(0.605));
    assert_eq!(
        t.funding, None,
        "no funding is booked here, so none is shown"
    );
    assert_eq!(t.pnl, dec!(9.395));
    assert_eq!(t.exit_reason, Some(ExitReason::Signal));
    assert_eq!(t.remaining, dec!(0));
    assert_eq!(t.exit_order_id, "nxabc0c4i0c");
}

#[test]
fn an_add_moves_the_average_entry_and_a_partial_close_leaves_it() {
    // Long 1 @ 100, add 1 @ 110 (average 105), close 1 @ 120 (+15), add 2 @ 130 (average of
    // 1 @ 105 and 2 @ 130 = 121.666…), close 3 @ 125.
    let fills = [
        fill("o1", 0, Side::Buy, dec!(1), dec!(100), dec!(0.1), dec!(0)),
        fill("o2", 10, Side::Buy, dec!(1), dec!(110), dec!(0.1), dec!(0)),
        fill(
            "c1",
            20,
            Side::Sell,
            dec!(1),
            dec!(120),
            dec!(0.12),
            dec!(15),
        ),
        fill("o3", 30, Side::Buy, dec!(2), dec!(130), dec!(0.2), dec!(0)),
        fill(
            "c2",
            40,
            Side::Sell,
            dec!(3),
            dec!(125),
            dec!(0.3),
            dec!(10),
        ),
    ];
    let trades = closed_trades(&fills, None);
    assert_eq!(trades.len(), 2, "{trades:#?}");
    let (first, second) = (&trades[0], &trades[1]);
    assert_eq!(first.entry_price, dec!(105));
    assert_eq!((first.quantity, first.remaining), (dec!(1), dec!(1)));
    // Half of the entry fees (0.2) go with the half closed.
    assert_eq!(first.fees, dec!(0.22));
    assert_eq!(first.pnl, dec!(14.78));
    // The position is the same one: its entry time is the first fill's.
    assert_eq!(second.entry_time_ms, 0);
    assert_eq!(second.entry_price, dec!(121.66666667));
    assert_eq!((second.quantity, second.remaining), (dec!(3), dec!(0)));
    // The rest of the first entry fees (0.1), the add's (0.2) and its own (0.3).
    assert_eq!(second.fees, dec!(0.6));
    assert_eq!(second.pnl, dec!(9.4));
    assert_eq!(second.exit_reason, None, "an order nofxi did not name");
    // The stats count exactly these trades.
    assert_eq!(trades_from_fills(&fills), trade_pnls(&trades));
}

#[test]
fn an_exit_in_several_fills_is_one_trade_at_their_average_price() {
    let fills = [
        fill(
            "nxabcc1i0o",
            0,
            Side::Sell,
            dec!(2),
            dec!(50),
            dec!(0.2),
            dec!(0),
        ),
        fill(
            "nxabcc2i0s",
            5,
            Side::Buy,
            dec!(0.5),
            dec!(52),
            dec!(0.05),
            dec!(-1),
        ),
        fill(
            "nxabcc2i0s",
            6,
            Side::Buy,
            dec!(1.5),
            dec!(53),
            dec!(0.15),
            dec!(-4.5),
        ),
    ];
    let trades = closed_trades(&fills, None);
    let t = only(&trades);
    assert_eq!(t.side, "SHORT");
    assert_eq!(t.quantity, dec!(2));
    // (0.5 × 52 + 1.5 × 53) / 2
    assert_eq!(t.exit_price, dec!(52.75));
    assert_eq!(t.exit_time_ms, 6 * MINUTE);
    assert_eq!(t.duration_ms, 6 * MINUTE);
    assert_eq!(t.realized_pnl, dec!(-5.5));
    assert_eq!(t.fees, dec!(0.4));
    assert_eq!(t.pnl, dec!(-5.9));
    assert_eq!(t.exit_reason, Some(ExitReason::StopLoss));
}

#[test]
fn a_reversal_closes_the_position_and_opens_the_rest_the_other_way() {
    // Long 1 @ 100; sell 3 @ 90 closes the long (-10) and opens a short of 2; its fee 0.3 is
    // split 0.1 / 0.2. The short is closed @ 80 (+20).
    let fills = [
        fill("o1", 0, Side::Buy, dec!(1), dec!(100), dec!(0.1), dec!(0)),
        fill(
            "r1",
            10,
            Side::Sell,
            dec!(3),
            dec!(90),
            dec!(0.3),
            dec!(-10),
        ),
        fill(
            "nxabcc9i0t",
            25,
            Side::Buy,
            dec!(2),
            dec!(80),
            dec!(0.16),
            dec!(20),
        ),
    ];
    let trades = closed_trades(&fills, None);
    assert_eq!(trades.len(), 2, "{trades:#?}");
    let (long, short) = (&trades[0], &trades[1]);
    assert_eq!((long.side.as_str(), long.quantity), ("LONG", dec!(1)));
    assert_eq!(long.fees, dec!(0.2));
    assert_eq!(long.pnl, dec!(-10.2));
    assert_eq!((short.side.as_str(), short.quantity), ("SHORT", dec!(2)));
    assert_eq!(
        (short.entry_time_ms, short.entry_price),
        (10 * MINUTE, dec!(90))
    );
    assert_eq!(short.duration_ms, 15 * MINUTE);
    assert_eq!(short.fees, dec!(0.36));
    assert_eq!(short.pnl, dec!(19.64));
    assert_eq!(short.exit_reason, Some(ExitReason::TakeProfit));
}

#[test]
fn funding_booked_while_open_is_shared_out_like_the_entry_fees() {
    let btc = Symbol::parse("BTCUSDT").unwrap();
    let paid = |at: i64, amount: Decimal| FundingPayment {
        symbol: btc.clone(),
        side: PositionSide::Long,
        quantity: dec!(2),
        mark_price: dec!(100),
        rate: dec!(0.0001),
        amount,
        funding_time_ms: at * MINUTE,
        booked_ms: at * MINUTE,
    };
    let fills = [
        fill("o1", 0, Side::Buy, dec!(2), dec!(100), dec!(0), dec!(0)),
        fill("c1", 30, Side::Sell, dec!(1), dec!(101), dec!(0), dec!(1)),
        fill("c2", 90, Side::Sell, dec!(1), dec!(102), dec!(0), dec!(2)),
        // A new position, closed before any funding time.
        fill("o2", 100, Side::Buy, dec!(1), dec!(100), dec!(0), dec!(0)),
        fill("c3", 110, Side::Sell, dec!(1), dec!(100), dec!(0), dec!(0)),
    ];
    // -0.4 while 2 were open (half each), -0.1 on the 1 left: -0.2 and -0.3. Booked before
    // the first fill, or on a short, it is no trade's.
    let mut short = paid(60, dec!(5));
    short.side = PositionSide::Short;
    let funding = [
        paid(-5, dec!(-9)),
        paid(20, dec!(-0.4)),
        paid(60, dec!(-0.1)),
        short,
    ];
    let trades = closed_trades(&fills, Some(&funding));
    let got: Vec<(Option<Decimal>, Decimal)> = trades.iter().map(|t| (t.funding, t.pnl)).collect();
    assert_eq!(
        got,
        [
            (Some(dec!(-0.2)), dec!(0.8)),
            (Some(dec!(-0.3)), dec!(1.7)),
            (Some(dec!(0)), dec!(0))
        ]
    );
}

#[test]
fn symbols_are_kept_apart_and_a_liquidation_says_so() {
    let mut eth_open = fill("e1", 1, Side::Buy, dec!(1), dec!(3000), dec!(0), dec!(0));
    eth_open.symbol = Symbol::parse("ETHUSDT").unwrap();
    let mut eth_liquidated = fill(
        "liquidation-7",
        50,
        Side::Sell,
        dec!(1),
        dec!(2700),
        dec!(1.35),
        dec!(-300),
    );
    eth_liquidated.symbol = Symbol::parse("ETHUSDT").unwrap();
    let fills = [
        fill("o1", 0, Side::Buy, dec!(1), dec!(100), dec!(0), dec!(0)),
        eth_open,
        fill(
            "nxabcu5u",
            40,
            Side::Sell,
            dec!(1),
            dec!(99),
            dec!(0),
            dec!(-1),
        ),
        eth_liquidated,
    ];
    let trades = closed_trades(&fills, None);
    let got: Vec<(&str, Option<ExitReason>, Decimal)> = trades
        .iter()
        .map(|t| (t.symbol.as_str(), t.exit_reason, t.pnl))
        .collect();
    assert_eq!(
        got,
        [
            ("BTCUSDT", Some(ExitReason::Manual), dec!(-1)),
            ("ETHUSDT", Some(ExitReason::Liquidation), dec!(-301.35))
        ]
    );
    assert_eq!(trades[1].entry_time_ms, MINUTE);
    // An open position with no exit is no closed trade.
    assert!(closed_trades(&fills[..2], None).is_empty());
}
