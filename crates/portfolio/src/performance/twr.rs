//! Time-weighted return: how the investments did, whatever the timing of deposits.
//!
//! Each day is a sub-period. Money coming in counts from the start of its day and money going
//! out until the end of it, so a day's return is r = (V_end + out) / (V_previous_end + in) − 1,
//! and the period's return links them: TWR = Π(1 + r) − 1. Counting both at the start would
//! credit a holding sold at today's price with yesterday's value; counting both at the end
//! would divide by nothing on a holding's first day. This is Portfolio Performance's TTWROR
//! with daily sub-periods. Exact decimals throughout; the result is rounded to 10 places.

use rust_decimal::Decimal;

use super::series::DayValue;
use crate::error::PortfolioError;

/// Places a return is rounded to.
pub const RETURN_DP: u32 = 10;

/// The time-weighted return over `days` (in date order), starting from `opening`, the value at
/// the end of the day before the first one (0 for a portfolio's whole life).
pub fn time_weighted_return(
    opening: Decimal,
    days: &[DayValue],
) -> Result<Decimal, PortfolioError> {
    let mut growth = Decimal::ONE;
    let mut previous = opening;
    for day in days {
        growth = link_day(growth, previous, day)?;
        previous = day.value;
    }
    Ok(growth_as_return(growth))
}

/// `growth` (the product of 1 + r so far) carried through `day`, which starts from `previous`,
/// the value at the end of the day before. One step for every reader of the series (the
/// period's return, the daily curve), so they agree to the last digit.
pub(crate) fn link_day(
    growth: Decimal,
    previous: Decimal,
    day: &DayValue,
) -> Result<Decimal, PortfolioError> {
    let invested = previous + day.inflow;
    let ended = day.value + day.outflow;
    if invested > Decimal::ZERO {
        Ok(growth * ended / invested)
    } else if ended.is_zero() {
        Ok(growth)
    } else {
        // Nothing was invested, yet something is worth something: a flow is missing, and a
        // return computed anyway would be infinite or meaningless.
        Err(PortfolioError::one(
            "flows",
            format!(
                "on {} the value is {} with nothing invested",
                day.date, day.value
            ),
            "record the deposit or transfer in that brought this value in",
        ))
    }
}

/// Linked growth as a return, rounded to [`RETURN_DP`] places.
pub(crate) fn growth_as_return(growth: Decimal) -> Decimal {
    (growth - Decimal::ONE).round_dp(RETURN_DP)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal_macros::dec;

    fn day(date: &str, value: Decimal, flow: Decimal) -> DayValue {
        let (inflow, outflow) = if flow > dec!(0) {
            (flow, dec!(0))
        } else {
            (dec!(0), -flow)
        };
        DayValue {
            date: date.parse().unwrap(),
            value,
            inflow,
            outflow,
        }
    }

    #[test]
    fn links_daily_returns_money_in_at_the_start_and_out_at_the_end_of_a_day() {
        // Day 1: deposit 1000, ends at 1000        → r = 1000 / (0 + 1000) − 1 = 0
        // Day 2: no flow, ends at 1100             → r = 1100 / 1000 − 1 = 0.10
        // Day 3: deposit 1000, ends at 2310        → r = 2310 / (1100 + 1000) − 1 = 0.10
        // Day 4: withdraw 500, ends at 1800        → r = (1800 + 500) / 2310 − 1 = −10/2310
        // TWR = 1 × 1.1 × 1.1 × 2300/2310 − 1 = 2783/2310 − 1 = 0.20476190476… → 0.2047619048
        // (Money-weighted this would differ: the second deposit earned 10 % for one day only.)
        let days = [
            day("2024-01-01", dec!(1000), dec!(1000)),
            day("2024-01-02", dec!(1100), dec!(0)),
            day("2024-01-03", dec!(2310), dec!(1000)),
            day("2024-01-04", dec!(1800), dec!(-500)),
        ];
        assert_eq!(
            time_weighted_return(dec!(0), &days).unwrap(),
            dec!(0.2047619048)
        );
    }

    #[test]
    fn a_window_starts_from_the_value_before_it() {
        // Opening 1100; day 3 and day 4 above: 1.1 × 2300/2310 − 1 = 2530/2310 − 1
        // = 0.09523809523… → 0.0952380952.
        let days = [
            day("2024-01-03", dec!(2310), dec!(1000)),
            day("2024-01-04", dec!(1800), dec!(-500)),
        ];
        assert_eq!(
            time_weighted_return(dec!(1100), &days).unwrap(),
            dec!(0.0952380952)
        );
    }

    #[test]
    fn empty_days_are_flat_and_value_from_nowhere_is_refused() {
        let days = [
            day("2024-01-01", dec!(0), dec!(0)),
            day("2024-01-02", dec!(0), dec!(0)),
        ];
        assert_eq!(time_weighted_return(dec!(0), &days).unwrap(), dec!(0));
        let err =
            time_weighted_return(dec!(0), &[day("2024-01-01", dec!(5), dec!(0))]).unwrap_err();
        assert_eq!(err.0[0].field, "flows");
    }
}
