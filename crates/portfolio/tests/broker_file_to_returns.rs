//! A new user's path: a broker's CSV in Chinese, imported (twice), fees computed from the
//! schedules, lots booked FIFO, then P&L and returns. Every figure worked by hand below.
//!
//!   2024-01-02 银行转证券 100000                         cash 100000.00
//!   2024-01-02 买入 600519 10 @ 1500: 15000.00; commission 1.50 → min 5.00, transfer 0.15
//!              → fees 5.15, lot L1 15005.15                cash 84994.85
//!   2024-01-03 买入 510300 (ETF) 1000 @ 3.5: 3500.00; commission 0.35 → min 5.00 only
//!              → lot 3505.00                              cash 81489.85
//!   2024-01-04 卖出 600519 4 @ 1600: 6400.00; commission 0.64 → 5.00, stamp duty 0.05 %
//!              3.20, transfer 0.064 → 0.06 → fees 8.26, proceeds 6391.74; cost
//!              15005.15 × 4/10 = 6002.06; realized 389.68; L1 keeps 6 at 9003.09
//!                                                         cash 87881.59
//!   2024-01-05 closes: 600519 1550, 510300 3.600
//!              unrealized 6 × 1550 − 9003.09 = 296.91 and 3600 − 3505 = 95.00 → 391.91
//!              value 87881.59 + 9300 + 3600 = 100781.59; the deposit is the only flow, so
//!              TWR = 100781.59 / 100000 − 1 = 0.0078159

use nofxi_portfolio::csv_io::{commit, preview};
use nofxi_portfolio::domain::{Account, FxTable, Instrument, Market, Portfolio};
use nofxi_portfolio::fees::{FeeSchedules, FeeSource, fill_fees};
use nofxi_portfolio::lots::Ledger;
use nofxi_portfolio::performance::{Period, PriceBook, pnl, portfolio_days, returns};
use rust_decimal_macros::dec;

const BROKER_FILE: &str = "\u{feff}成交日期,买卖方向,证券代码,成交数量,成交价格,手续费,发生金额,资金账号\r\n\
2024-01-02,银行转证券,,,,,100000,huatai\r\n\
2024-01-02,证券买入,600519,10,1500.00,,,huatai\r\n\
2024-01-03,证券买入,510300,1000,3.500,,,huatai\r\n\
2024-01-04,证券卖出,600519,4,1600.00,,,huatai\r\n";

#[test]
fn a_broker_file_becomes_lots_pnl_and_returns() {
    let cny = "CNY".parse().unwrap();
    let mut portfolio = Portfolio::new("mine", "CNY".parse().unwrap());
    portfolio.accounts.push(Account {
        name: "huatai".into(),
        broker: "华泰".into(),
        currency: cny,
    });
    let mut store = Vec::new();

    let first = preview(&portfolio, &store, BROKER_FILE);
    assert_eq!(first.error_report(), "");
    assert_eq!(commit(&first, &mut store).unwrap(), 4);
    let again = preview(&portfolio, &store, BROKER_FILE);
    assert_eq!(
        (again.new_rows().count(), again.duplicates().count()),
        (0, 4)
    );
    assert_eq!(commit(&again, &mut store).unwrap(), 0);

    // Fees are computed on a working copy; the store keeps the records as given.
    let mut working = store.clone();
    let schedules = FeeSchedules::embedded().unwrap();
    let sources = fill_fees(&schedules, &mut working).unwrap();
    let fees: Vec<_> = working.iter().map(|t| t.fee.unwrap()).collect();
    assert_eq!(fees, [dec!(0), dec!(5.15), dec!(5.00), dec!(8.26)]);
    let FeeSource::Schedule { quote } = &sources[3] else {
        panic!("the sell's fee is computed")
    };
    let lines: Vec<_> = quote
        .lines
        .iter()
        .map(|l| (l.rule.as_str(), l.amount))
        .collect();
    assert_eq!(
        lines,
        [
            ("commission", dec!(5.00)),
            ("stamp_duty", dec!(3.20)),
            ("transfer_fee", dec!(0.06))
        ]
    );
    assert!(store.iter().all(|t| t.fee.is_none()));

    let ledger = Ledger::replay(&portfolio, &working).unwrap();
    let sale = ledger.realized()[0].sale.as_ref().unwrap();
    assert_eq!(
        (sale.proceeds, sale.cost, sale.realized),
        (dec!(6391.74), dec!(6002.06), dec!(389.68))
    );

    let on = "2024-01-05".parse().unwrap();
    let mut prices = PriceBook::with_trade_prices(&working);
    prices.insert(
        &Instrument::new(Market::Sh, "600519").unwrap(),
        on,
        dec!(1550),
    );
    prices.insert(
        &Instrument::new(Market::Sh, "510300").unwrap(),
        on,
        dec!(3.600),
    );
    let fx = FxTable::new(portfolio.base_currency.clone());
    let result = pnl(&portfolio, &ledger, &prices, &fx, on).unwrap();
    assert_eq!(result.unrealized.value, dec!(391.91));
    assert_eq!(result.realized.value, dec!(389.68));

    let days = portfolio_days(&portfolio, &working, &prices, &fx, on).unwrap();
    assert_eq!(days.last().map(|d| d.value), Some(dec!(100781.59)));
    let all = returns(&days, Period::All, on, &portfolio.base_currency).unwrap();
    assert_eq!(all.time_weighted.value, dec!(0.0078159));
    assert!(all.time_weighted.basis.describe(true).contains("时间加权"));
}

#[test]
fn the_snapshot_shows_the_same_figures_and_says_when_prices_are_old() {
    use nofxi_portfolio::domain::PriceMark;
    use nofxi_portfolio::performance::{Warning, snapshot};

    let mut portfolio = Portfolio::new("mine", "CNY".parse().unwrap());
    portfolio.accounts.push(Account {
        name: "huatai".into(),
        broker: "华泰".into(),
        currency: "CNY".parse().unwrap(),
    });
    let mut records = Vec::new();
    commit(&preview(&portfolio, &records, BROKER_FILE), &mut records).unwrap();
    let mark = |code: &str, price| PriceMark {
        instrument: Instrument::new(Market::Sh, code).unwrap(),
        date: "2024-01-05".parse().unwrap(),
        price,
        source: "user".into(),
    };
    let marks = [mark("600519", dec!(1550)), mark("510300", dec!(3.600))];

    let on = "2024-01-05".parse().unwrap();
    let shot = snapshot(&portfolio, &records, &marks, &[], on).unwrap();
    assert_eq!(
        (shot.value, shot.unrealized.value, shot.realized.value),
        (dec!(100781.59), dec!(391.91), dec!(389.68))
    );
    let held: Vec<_> = shot
        .holdings
        .iter()
        .map(|h| (h.pnl.key.instrument.symbol.as_str(), h.pnl.quantity))
        .collect();
    assert_eq!(held, [("600519", dec!(6)), ("510300", dec!(1000))]);
    assert_eq!(shot.returns.len(), 5);
    assert!(shot.warnings.is_empty());

    // Three days on with no newer price: the figures stand, and say their prices are old.
    let later = "2024-01-08".parse().unwrap();
    let shot = snapshot(&portfolio, &records, &marks, &[], later).unwrap();
    assert_eq!(shot.value, dec!(100781.59));
    assert_eq!(
        shot.warnings.first(),
        Some(&Warning::OldPrice {
            instrument: "SH:600519".into(),
            priced_at: on,
        })
    );
}
