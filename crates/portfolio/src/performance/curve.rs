//! The performance curve: the portfolio's value and cumulative time-weighted return on every
//! day from its first record, what a chart of "how did my money do" draws.
//!
//! Each point links the days up to it with the same step as [`time_weighted_return`], from an
//! opening of 0, so the last point is the snapshot's all-period return to the last digit and a
//! chart never disagrees with the table beside it. Values are in the base currency; the
//! return is not annualised, as in the snapshot.
//!
//! [`time_weighted_return`]: super::twr::time_weighted_return

use jiff::civil::Date;
use rust_decimal::Decimal;
use serde::Serialize;

use super::series::{DayValue, portfolio_days};
use super::snapshot::{fx_table, price_book, with_fees};
use super::twr::{growth_as_return, link_day};
use crate::domain::{FxMark, Portfolio, PriceMark, Transaction};
use crate::error::PortfolioError;

/// One day of the curve.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct CurvePoint {
    #[schemars(with = "String")]
    pub date: Date,
    /// The value at the end of the day, in the base currency.
    pub value: Decimal,
    /// The time-weighted return from the first day to the end of this one (0.05 is 5 %).
    pub twr: Decimal,
}

/// The cumulative time-weighted return of each day of `days` (in date order, from the first
/// record, as [`portfolio_days`] makes them).
pub fn curve(days: &[DayValue]) -> Result<Vec<CurvePoint>, PortfolioError> {
    let mut growth = Decimal::ONE;
    let mut previous = Decimal::ZERO;
    let mut points = Vec::with_capacity(days.len());
    for day in days {
        growth = link_day(growth, previous, day)?;
        previous = day.value;
        points.push(CurvePoint {
            date: day.date,
            value: day.value,
            twr: growth_as_return(growth),
        });
    }
    Ok(points)
}

/// The curve of a portfolio up to `on`, from its stored records and marks, valued as
/// [`snapshot`](super::snapshot::snapshot) values them (fees filled, records after `on` left
/// out, marks beating trade prices); empty when nothing is recorded by then.
pub fn portfolio_curve(
    portfolio: &Portfolio,
    records: &[Transaction],
    prices: &[PriceMark],
    rates: &[FxMark],
    on: Date,
) -> Result<Vec<CurvePoint>, PortfolioError> {
    let upto: Vec<Transaction> = with_fees(records)?
        .into_iter()
        .filter(|t| t.date <= on)
        .collect();
    if upto.is_empty() {
        return Ok(Vec::new());
    }
    let book = price_book(&upto, prices);
    let fx = fx_table(&portfolio.base_currency, rates)?;
    curve(&portfolio_days(portfolio, &upto, &book, &fx, on)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::csv_io::{commit, preview};
    use crate::domain::{Account, Instrument, Market};
    use crate::performance::basis::Period;
    use crate::performance::returns::returns;
    use crate::performance::snapshot::snapshot;
    use crate::performance::twr::time_weighted_return;
    use rust_decimal_macros::dec;

    fn day(date: &str, value: Decimal, inflow: Decimal, outflow: Decimal) -> DayValue {
        DayValue {
            date: date.parse().unwrap(),
            value,
            inflow,
            outflow,
        }
    }

    #[test]
    fn each_day_links_the_days_before_it_and_the_last_is_the_whole_return() {
        // twr.rs's example: deposit 1000; +10 %; deposit 1000 then +10 %; withdraw 500 and
        // lose 10 on the day.
        // Day 1: 1000 / (0 + 1000)           → growth 1         → 0
        // Day 2: 1100 / 1000                 → growth 1.1       → 0.1
        // Day 3: 2310 / (1100 + 1000)        → growth 1.21      → 0.21
        // Day 4: (1800 + 500) / 2310         → growth 2783/2310 → 0.2047619048
        let days = [
            day("2024-01-01", dec!(1000), dec!(1000), dec!(0)),
            day("2024-01-02", dec!(1100), dec!(0), dec!(0)),
            day("2024-01-03", dec!(2310), dec!(1000), dec!(0)),
            day("2024-01-04", dec!(1800), dec!(0), dec!(500)),
        ];
        let points = curve(&days).unwrap();
        let twr: Vec<Decimal> = points.iter().map(|p| p.twr).collect();
        assert_eq!(twr, [dec!(0), dec!(0.1), dec!(0.21), dec!(0.2047619048)]);
        assert_eq!(points[3].value, dec!(1800));
        let cny = "CNY".parse().unwrap();
        let all = returns(&days, Period::All, days[3].date, &cny).unwrap();
        assert_eq!(points[3].twr, all.time_weighted.value);
        assert_eq!(points[3].twr, time_weighted_return(dec!(0), &days).unwrap());
    }

    #[test]
    fn value_from_nowhere_is_refused_as_the_return_refuses_it() {
        let err = curve(&[day("2024-01-01", dec!(5), dec!(0), dec!(0))]).unwrap_err();
        assert_eq!(err.0[0].field, "flows");
        assert!(curve(&[]).unwrap().is_empty());
    }

    /// The broker export of the API and CLI tests: deposit 100000, buy 10 600519 at 1500, buy
    /// 1000 510300 at 3.5, sell 4 600519 at 1600, fees from the schedules.
    const SAMPLE: &str = "成交日期,买卖方向,证券代码,成交数量,成交价格,手续费,发生金额\n\
        2024-01-02,银行转证券,,,,,100000\n\
        2024-01-02,证券买入,600519,10,1500.00,,\n\
        2024-01-03,证券买入,510300,1000,3.500,,\n\
        2024-01-04,证券卖出,600519,4,1600.00,,\n";

    #[test]
    fn a_portfolios_curve_ends_at_its_snapshots_all_period_return() {
        let mut portfolio = Portfolio::new("mine", "CNY".parse().unwrap());
        portfolio.accounts.push(Account {
            name: "main".into(),
            broker: String::new(),
            currency: "CNY".parse().unwrap(),
        });
        let mut records = Vec::new();
        commit(&preview(&portfolio, &[], SAMPLE), &mut records).unwrap();
        let on: Date = "2024-01-05".parse().unwrap();
        let mark = |symbol: &str, price| PriceMark {
            instrument: Instrument::new(Market::Sh, symbol).unwrap(),
            date: on,
            price,
            source: "user".into(),
        };
        let marks = [mark("600519", dec!(1550)), mark("510300", dec!(3.6))];
        let points = portfolio_curve(&portfolio, &records, &marks, &[], on).unwrap();
        let dates: Vec<String> = points.iter().map(|p| p.date.to_string()).collect();
        assert_eq!(
            dates,
            ["2024-01-02", "2024-01-03", "2024-01-04", "2024-01-05"]
        );
        let shot = snapshot(&portfolio, &records, &marks, &[], on).unwrap();
        let all = shot.returns.iter().find(|r| r.period == Period::All);
        let last = points.last().unwrap();
        assert_eq!(Some(last.twr), all.map(|r| r.time_weighted.value));
        assert_eq!(last.twr, dec!(0.0078159));
        assert_eq!(last.value, shot.value);
        // Nothing recorded by the day asked for: an empty curve, not an error.
        let before = "2023-12-31".parse().unwrap();
        assert!(
            portfolio_curve(&portfolio, &records, &marks, &[], before)
                .unwrap()
                .is_empty()
        );
    }
}
