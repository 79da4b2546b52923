//! Both returns over one period of a daily series, each with its basis.
//!
//! A period starts from the value at the end of the day before it (0 when the series starts
//! inside the period), so "this month" means what the money did this month, not since it was
//! first put in.

use jiff::civil::Date;
use serde::Serialize;

use super::basis::{Basis, Figure, Period};
use super::series::DayValue;
use super::twr::time_weighted_return;
use super::xirr::money_weighted_return;
use crate::domain::Currency;
use crate::error::PortfolioError;

/// A period's time-weighted and money-weighted returns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Returns {
    pub period: Period,
    pub time_weighted: Figure,
    /// `None` when no rate fits (no money moved and nothing is held).
    pub money_weighted: Option<Figure>,
}

/// The returns of `days` over `period` ending on `today`, `currency` being the series'.
pub fn returns(
    days: &[DayValue],
    period: Period,
    today: Date,
    currency: &Currency,
) -> Result<Returns, PortfolioError> {
    let Some(first) = days.first().map(|d| d.date) else {
        return Err(PortfolioError::one(
            "transactions",
            "there is nothing recorded yet",
            "record or import transactions first",
        ));
    };
    let from = period.start(today, first);
    let opening = days
        .iter()
        .take_while(|d| d.date < from)
        .last()
        .map(|d| d.value)
        .unwrap_or_default();
    let window: Vec<DayValue> = days
        .iter()
        .filter(|d| d.date >= from && d.date <= today)
        .copied()
        .collect();
    let time_weighted = Figure {
        value: time_weighted_return(opening, &window)?,
        basis: Basis::TimeWeighted {
            from,
            to: today,
            currency: currency.clone(),
        },
    };
    // An annual rate over less than a year is an extrapolation (a 2 % week reads as 180 % a
    // year), and over a single day it has no answer at all: like GIPS, nothing under a year
    // is annualised, so the money-weighted rate is given for windows of a year or more.
    let spans_a_year = from
        .checked_add(jiff::Span::new().years(1))
        .is_ok_and(|year_on| year_on <= today);
    let money_weighted = spans_a_year
        .then(|| money_weighted_return(opening, &window).ok())
        .flatten()
        .map(|value| Figure {
            value,
            basis: Basis::MoneyWeighted {
                from,
                to: today,
                currency: currency.clone(),
            },
        });
    Ok(Returns {
        period,
        time_weighted,
        money_weighted,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal::Decimal;
    use rust_decimal_macros::dec;

    fn day(date: &str, value: Decimal, inflow: Decimal) -> DayValue {
        DayValue {
            date: date.parse().unwrap(),
            value,
            inflow,
            outflow: dec!(0),
        }
    }

    #[test]
    fn a_period_starts_from_the_value_before_it() {
        // The portfolio of series/tests.rs: 10000 deposited, then 9995, 10495, 10990.
        let days = [
            day("2024-01-01", dec!(10000), dec!(10000)),
            day("2024-01-02", dec!(9995), dec!(0)),
            day("2024-01-03", dec!(10495), dec!(0)),
            day("2024-01-04", dec!(10990), dec!(0)),
        ];
        let cny: Currency = "CNY".parse().unwrap();
        // Today on 2024-01-03: opening 9995 → 10495 / 9995 − 1 = 500 / 9995 = 0.05002501250…
        let today = returns(&days, Period::Today, "2024-01-03".parse().unwrap(), &cny).unwrap();
        assert_eq!(today.time_weighted.value, dec!(0.0500250125));
        // Year to date on 2024-01-04 is the whole life: 10990 / 10000 − 1.
        let ytd = returns(
            &days,
            Period::YearToDate,
            "2024-01-04".parse().unwrap(),
            &cny,
        )
        .unwrap();
        assert_eq!(ytd.time_weighted.value, dec!(0.099));
        assert!(
            matches!(ytd.time_weighted.basis, Basis::TimeWeighted { from, .. } if from == days[0].date)
        );
        // Four days are no year: no annual rate is extrapolated from them.
        assert!(ytd.money_weighted.is_none());
    }
}
