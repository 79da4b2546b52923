//! A small life worked by hand: deposit, buy, a rise, a partial sale.
//!
//!   2024-01-01 deposit 10000 CNY
//!   2024-01-02 buy 100 × 600519 @ 50.00, fee 5 → cash 4995.00     close 50 (the trade price)
//!   2024-01-03                                                     close 55
//!   2024-01-04 sell 50 @ 60.00, fee 5 → proceeds 2995.00, cash 7990.00, close 60

use super::*;
use crate::domain::transaction::tests::trade;
use crate::domain::{Account, Currency};
use crate::performance::{money_weighted_return, time_weighted_return};
use rust_decimal_macros::dec;

fn cny() -> Currency {
    "CNY".parse().unwrap()
}

fn portfolio() -> Portfolio {
    let mut p = Portfolio::new("mine", cny());
    p.accounts.push(Account {
        name: "main".into(),
        broker: String::new(),
        currency: cny(),
    });
    p
}

fn life() -> (Vec<Transaction>, PriceBook) {
    let mut deposit = trade(TxKind::Deposit, "2024-01-01", dec!(0), dec!(0));
    deposit.instrument = None;
    deposit.amount = dec!(10000);
    let mut buy = trade(TxKind::Buy, "2024-01-02", dec!(100), dec!(50));
    buy.fee = Some(dec!(5));
    let mut sell = trade(TxKind::Sell, "2024-01-04", dec!(50), dec!(60));
    sell.fee = Some(dec!(5));
    let txs = vec![deposit, buy.clone(), sell];
    let mut prices = PriceBook::with_trade_prices(&txs);
    let instrument = buy.instrument.unwrap();
    prices.insert(&instrument, "2024-01-03".parse().unwrap(), dec!(55));
    (txs, prices)
}

#[test]
fn the_portfolio_counts_only_money_crossing_its_boundary() {
    // Values: 10000 (cash), 4995 + 100 × 50 = 9995, 4995 + 5500 = 10495, 7990 + 50 × 60 = 10990.
    // The only flow is the deposit: TWR = 10990 / 10000 − 1 = 0.099.
    let (txs, prices) = life();
    let fx = FxTable::new(cny());
    let days = portfolio_days(
        &portfolio(),
        &txs,
        &prices,
        &fx,
        "2024-01-04".parse().unwrap(),
    )
    .unwrap();
    let values: Vec<_> = days
        .iter()
        .map(|d| (d.value, d.inflow, d.outflow))
        .collect();
    assert_eq!(
        values,
        [
            (dec!(10000), dec!(10000), dec!(0)),
            (dec!(9995), dec!(0), dec!(0)),
            (dec!(10495), dec!(0), dec!(0)),
            (dec!(10990), dec!(0), dec!(0)),
        ]
    );
    assert_eq!(time_weighted_return(dec!(0), &days).unwrap(), dec!(0.099));
}

#[test]
fn a_holding_counts_its_buys_in_and_its_sales_out() {
    // Day 2: in 5005 (5000 + fee), value 5000 → 5000 / 5005
    // Day 3: value 5500                      → 5500 / 5000
    // Day 4: out 2995, value 3000            → (3000 + 2995) / 5500
    // TWR = 5995 / 5005 − 1 = 990 / 5005 = 0.19780219780… → 0.1978021978
    let (txs, prices) = life();
    let key = HoldingKey {
        account: "main".into(),
        instrument: txs[1].instrument.clone().unwrap(),
    };
    let days = holding_days(
        &portfolio(),
        &txs,
        &key,
        &prices,
        "2024-01-04".parse().unwrap(),
    )
    .unwrap();
    assert_eq!(days.len(), 3);
    assert_eq!(
        (days[0].inflow, days[2].outflow, days[2].value),
        (dec!(5005), dec!(2995), dec!(3000))
    );
    assert_eq!(
        time_weighted_return(dec!(0), &days).unwrap(),
        dec!(0.1978021978)
    );
    // Money-weighted: −5005 on day 2, +2995 + 3000 = +5995 on day 4 (2 days):
    // (5995 / 5005)^(365 / 2) − 1, checked against that closed form.
    let mwr = money_weighted_return(dec!(0), &days).unwrap();
    let expected = (5995f64 / 5005.0).powf(365.0 / 2.0) - 1.0;
    let got: f64 = rust_decimal::prelude::ToPrimitive::to_f64(&mwr).unwrap();
    assert!(
        (got - expected).abs() / expected < 1e-9,
        "{got} vs {expected}"
    );
}

#[test]
fn a_missing_price_or_rate_says_what_to_add() {
    let (txs, _) = life();
    let fx = FxTable::new(cny());
    let err = portfolio_days(
        &portfolio(),
        &txs,
        &PriceBook::default(),
        &fx,
        "2024-01-02".parse().unwrap(),
    )
    .unwrap_err();
    assert_eq!(
        err.0[0].fix,
        "add a price for SH:600519 dated 2024-01-02 or earlier"
    );
    let (txs, prices) = life();
    let err = portfolio_days(
        &portfolio(),
        &txs,
        &prices,
        &FxTable::new("USD".parse().unwrap()),
        "2024-01-01".parse().unwrap(),
    )
    .unwrap_err();
    assert_eq!(err.0[0].field, "fx_rate");
}

#[test]
fn transfers_count_at_market_value_not_at_the_cost_they_carry() {
    // 100 units transferred in on 2024-01-02 carrying a cost of 10.00 each; the close that day
    // is 50.00 and the next day 55.00. The flow is 100 × 50 = 5000 (not 1000), so day one
    // returns 5000 / 5000 − 1 = 0 and day two 5500 / 5000 − 1 = 0.10: TWR 0.1.
    let mut transfer = trade(TxKind::TransferIn, "2024-01-02", dec!(100), dec!(10));
    transfer.fee = Some(dec!(0));
    let instrument = transfer.instrument.clone().unwrap();
    let txs = vec![transfer];
    let mut prices = PriceBook::with_trade_prices(&txs);
    let fx = FxTable::new(cny());
    let to = "2024-01-03".parse().unwrap();
    let err = portfolio_days(&portfolio(), &txs, &prices, &fx, to).unwrap_err();
    assert_eq!(
        err.0[0].field, "price",
        "a transfer's cost is not a market price"
    );
    prices.insert(&instrument, "2024-01-02".parse().unwrap(), dec!(50));
    prices.insert(&instrument, to, dec!(55));
    let days = portfolio_days(&portfolio(), &txs, &prices, &fx, to).unwrap();
    assert_eq!(
        (days[0].inflow, days[0].value, days[1].value),
        (dec!(5000), dec!(5000), dec!(5500))
    );
    assert_eq!(time_weighted_return(dec!(0), &days).unwrap(), dec!(0.1));
    let key = HoldingKey {
        account: "main".into(),
        instrument,
    };
    let held = holding_days(&portfolio(), &txs, &key, &prices, to).unwrap();
    assert_eq!(time_weighted_return(dec!(0), &held).unwrap(), dec!(0.1));
}
