//! Money-weighted return: the annual rate that makes every dated flow worth nothing today.
//!
//! XIRR solves Σ cᵢ / (1 + r)^(dᵢ / 365) = 0, with dᵢ the days since the first flow, as
//! spreadsheets do. Newton's method converges in a few steps from a 10 % guess for ordinary
//! flows; when it leaves the valid range (r ≤ −1) or stalls, bisection over a bracket where the
//! sum changes sign finds the root anyway. This is the one place money meets `f64`: the powers
//! need it, and the result is a rate, returned as a `Decimal` rounded to 10 places.

use jiff::civil::Date;
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;
use serde::Serialize;

use super::series::DayValue;
use crate::error::PortfolioError;

/// A dated amount from the investor's side: money put in is negative, money taken out (and
/// the value at the end) positive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Flow {
    pub date: Date,
    pub amount: Decimal,
}

const TOLERANCE: f64 = 1e-12;

/// The XIRR of `flows`.
pub fn xirr(flows: &[Flow]) -> Result<Decimal, PortfolioError> {
    let Some(first) = flows.iter().map(|f| f.date).min() else {
        return Err(no_root("there are no flows"));
    };
    let mut points = Vec::with_capacity(flows.len());
    for f in flows {
        let years = (f.date - first).get_days() as f64 / 365.0;
        let Some(amount) = f.amount.to_f64() else {
            return Err(no_root("an amount is out of range"));
        };
        points.push((years, amount));
    }
    let has_out = points.iter().any(|&(_, a)| a < 0.0);
    let has_in = points.iter().any(|&(_, a)| a > 0.0);
    if !has_out || !has_in {
        return Err(no_root("the flows all go one way"));
    }
    let rate = newton(&points)
        .or_else(|| bisection(&points))
        .ok_or_else(|| no_root("no rate fits the flows"))?;
    Decimal::from_f64_retain(rate)
        .map(|r| r.round_dp(super::twr::RETURN_DP))
        .ok_or_else(|| no_root("the rate is out of range"))
}

/// The money-weighted return over a daily series: the opening value goes in on the first day,
/// each day's inflow goes in (money the investor put in, so negative here) and its outflow
/// comes out, and the closing value comes out on the last day.
pub fn money_weighted_return(
    opening: Decimal,
    days: &[DayValue],
) -> Result<Decimal, PortfolioError> {
    let (Some(first), Some(last)) = (days.first(), days.last()) else {
        return Err(no_root("there are no days"));
    };
    let mut flows = vec![Flow {
        date: first.date,
        amount: -opening,
    }];
    for d in days {
        let net = d.outflow - d.inflow;
        if !net.is_zero() {
            flows.push(Flow {
                date: d.date,
                amount: net,
            });
        }
    }
    flows.push(Flow {
        date: last.date,
        amount: last.value,
    });
    xirr(&flows)
}

fn no_root(why: &str) -> PortfolioError {
    PortfolioError::one(
        "flows",
        format!("the money-weighted return cannot be computed: {why}"),
        "it needs money both put in and taken out (or a value at the end); check the period",
    )
}

/// Net present value at `rate`, and its derivative.
fn npv(points: &[(f64, f64)], rate: f64) -> (f64, f64) {
    points.iter().fold((0.0, 0.0), |(v, d), &(t, c)| {
        let factor = (1.0 + rate).powf(-t);
        (v + c * factor, d - t * c * factor / (1.0 + rate))
    })
}

fn newton(points: &[(f64, f64)]) -> Option<f64> {
    let mut rate = 0.1;
    for _ in 0..100 {
        let (value, slope) = npv(points, rate);
        if value.abs() < TOLERANCE {
            return Some(rate);
        }
        if slope == 0.0 || !slope.is_finite() {
            return None;
        }
        let next = rate - value / slope;
        if !next.is_finite() || next <= -1.0 {
            return None;
        }
        if (next - rate).abs() < TOLERANCE {
            return Some(next);
        }
        rate = next;
    }
    None
}

fn bisection(points: &[(f64, f64)]) -> Option<f64> {
    let mut low = -0.999_999_999;
    let mut high = 1.0;
    // Widen the bracket upwards until the sign changes (returns of many thousand percent are
    // possible over a few days).
    while npv(points, low).0.signum() == npv(points, high).0.signum() {
        high *= 2.0;
        if high > 1e9 {
            return None;
        }
    }
    for _ in 0..300 {
        let mid = (low + high) / 2.0;
        let value = npv(points, mid).0;
        if value.abs() < TOLERANCE || (high - low) < 1e-15 {
            return Some(mid);
        }
        if value.signum() == npv(points, low).0.signum() {
            low = mid;
        } else {
            high = mid;
        }
    }
    Some((low + high) / 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal_macros::dec;

    fn flow(date: &str, amount: Decimal) -> Flow {
        Flow {
            date: date.parse().unwrap(),
            amount,
        }
    }

    #[test]
    fn matches_the_spreadsheet_reference() {
        // The example of Excel's XIRR documentation: 0.373362535 (37.34 %). Excel stops
        // iterating at a tolerance of 0.000001 %, so its ninth place is not the root's: the
        // root, found independently by bisecting the same equation in Python's floats, is
        // 0.3733625335188… Both are checked: Excel's to within 2e-9, the root to 10 places.
        let flows = [
            flow("2008-01-01", dec!(-10000)),
            flow("2008-03-01", dec!(2750)),
            flow("2008-10-30", dec!(4250)),
            flow("2009-02-15", dec!(3250)),
            flow("2009-04-01", dec!(2750)),
        ];
        let rate = xirr(&flows).unwrap();
        assert!(
            (rate - dec!(0.373362535)).abs() < dec!(0.000000002),
            "{rate}"
        );
        assert_eq!(rate, dec!(0.3733625335));
    }

    #[test]
    fn equals_irr_when_flows_are_365_days_apart() {
        // numpy-financial's documented irr([-100, 39, 59, 55, 20]) = 0.28095 (5 places); with
        // flows exactly 365 days apart XIRR is the same equation.
        let flows = [
            flow("2021-01-01", dec!(-100)),
            flow("2022-01-01", dec!(39)),
            flow("2023-01-01", dec!(59)),
            flow("2024-01-01", dec!(55)),
            flow("2024-12-31", dec!(20)),
        ];
        assert_eq!(xirr(&flows).unwrap().round_dp(5), dec!(0.28095));
    }

    #[test]
    fn a_very_high_rate_over_a_few_days_is_found() {
        // −100 in, +200 out 30 days later: the rate is 2^(365/30) − 1, far from Newton's 10 %
        // guess; checked against that closed form.
        let flows = [
            flow("2024-01-01", dec!(-100)),
            flow("2024-01-31", dec!(200)),
        ];
        let rate = xirr(&flows).unwrap().to_f64().unwrap();
        // 2^(365/30) − 1 = 4597.2…
        let expected = 2f64.powf(365.0 / 30.0) - 1.0;
        assert!(
            (rate - expected).abs() / expected < 1e-9,
            "{rate} vs {expected}"
        );
    }

    #[test]
    fn one_way_flows_have_no_rate() {
        let flows = [
            flow("2024-01-01", dec!(-100)),
            flow("2024-02-01", dec!(-100)),
        ];
        assert_eq!(xirr(&flows).unwrap_err().0[0].field, "flows");
    }

    #[test]
    fn from_a_series_deposits_go_in_and_the_end_value_comes_out() {
        // Deposit 1000 on 2023-01-01, worth 1100 on 2024-01-01 (365 days): exactly 10 %.
        let days = [
            DayValue {
                date: "2023-01-01".parse().unwrap(),
                value: dec!(1000),
                inflow: dec!(1000),
                outflow: dec!(0),
            },
            DayValue {
                date: "2024-01-01".parse().unwrap(),
                value: dec!(1100),
                inflow: dec!(0),
                outflow: dec!(0),
            },
        ];
        assert_eq!(
            money_weighted_return(dec!(0), &days).unwrap().round_dp(8),
            dec!(0.1)
        );
    }
}
