//! Exchange rates by date, and the base currency totals are shown in.
//!
//! A conversion on a date uses the latest rate on or before it: markets close on weekends and
//! holidays, and the last known rate is what a statement would use. A rate for USD→CNY also
//! answers CNY→USD (its inverse), so a user enters each pair once. A missing rate is an error
//! naming the pair and the date, never a silent 1:1.

use std::collections::BTreeMap;

use jiff::civil::Date;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::instrument::Currency;
use crate::error::PortfolioError;

/// Rates by pair and date, plus the base currency for totals.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FxTable {
    pub base: Currency,
    /// `(from, to)` → date → units of `to` for one unit of `from`.
    rates: BTreeMap<(Currency, Currency), BTreeMap<Date, Decimal>>,
}

impl FxTable {
    pub fn new(base: Currency) -> Self {
        Self {
            base,
            rates: BTreeMap::new(),
        }
    }

    /// Records that one `from` bought `rate` of `to` on `date`.
    pub fn insert(
        &mut self,
        from: Currency,
        to: Currency,
        date: Date,
        rate: Decimal,
    ) -> Result<(), PortfolioError> {
        if rate <= Decimal::ZERO {
            return Err(PortfolioError::one(
                "fx_rate",
                format!("{from}/{to} on {date} is {rate}"),
                "give the rate as units of the second currency per unit of the first, above 0",
            ));
        }
        self.rates.entry((from, to)).or_default().insert(date, rate);
        Ok(())
    }

    /// Units of `to` for one `from` on `date`: the latest rate on or before that date, direct
    /// or inverted.
    pub fn rate(
        &self,
        from: &Currency,
        to: &Currency,
        date: Date,
    ) -> Result<Decimal, PortfolioError> {
        if from == to {
            return Ok(Decimal::ONE);
        }
        let latest = |a: &Currency, b: &Currency| {
            self.rates
                .get(&(a.clone(), b.clone()))
                .and_then(|by_date| by_date.range(..=date).next_back())
                .map(|(d, r)| (*d, *r))
        };
        // Prefer whichever of the direct and inverse rates is more recent.
        let direct = latest(from, to);
        let inverse = latest(to, from).map(|(d, r)| (d, Decimal::ONE / r));
        match (direct, inverse) {
            (Some(a), Some(b)) => Ok(if a.0 >= b.0 { a.1 } else { b.1 }),
            (Some(a), None) | (None, Some(a)) => Ok(a.1),
            (None, None) => Err(PortfolioError::one(
                "fx_rate",
                format!("no {from}/{to} rate on or before {date}"),
                format!("add a {from}/{to} rate dated {date} or earlier"),
            )),
        }
    }

    /// `amount` of `from` in `to` on `date`, unrounded (callers round totals once, at the end).
    pub fn convert(
        &self,
        amount: Decimal,
        from: &Currency,
        to: &Currency,
        date: Date,
    ) -> Result<Decimal, PortfolioError> {
        Ok(amount * self.rate(from, to, date)?)
    }

    /// `amount` of `from` in the base currency on `date`.
    pub fn to_base(
        &self,
        amount: Decimal,
        from: &Currency,
        date: Date,
    ) -> Result<Decimal, PortfolioError> {
        self.convert(amount, from, &self.base.clone(), date)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::civil::date;
    use rust_decimal_macros::dec;

    fn c(code: &str) -> Currency {
        code.parse().unwrap()
    }

    #[test]
    fn uses_the_latest_rate_on_or_before_the_date_and_inverts() {
        let mut fx = FxTable::new(c("CNY"));
        fx.insert(c("USD"), c("CNY"), date(2024, 1, 2), dec!(7.10))
            .unwrap();
        fx.insert(c("USD"), c("CNY"), date(2024, 1, 5), dec!(7.20))
            .unwrap();
        // A Saturday uses Friday's rate.
        assert_eq!(
            fx.rate(&c("USD"), &c("CNY"), date(2024, 1, 6)).unwrap(),
            dec!(7.20)
        );
        assert_eq!(
            fx.rate(&c("USD"), &c("CNY"), date(2024, 1, 4)).unwrap(),
            dec!(7.10)
        );
        // 100 CNY at 1/7.20 USD each = 13.888…
        let usd = fx
            .convert(dec!(100), &c("CNY"), &c("USD"), date(2024, 1, 6))
            .unwrap();
        assert_eq!(usd.round_dp(4), dec!(13.8889));
        assert_eq!(
            fx.to_base(dec!(10), &c("USD"), date(2024, 1, 2)).unwrap(),
            dec!(71.00)
        );
    }

    #[test]
    fn a_missing_rate_names_the_pair_and_date() {
        let mut fx = FxTable::new(c("CNY"));
        fx.insert(c("HKD"), c("CNY"), date(2024, 1, 2), dec!(0.91))
            .unwrap();
        let err = fx.rate(&c("HKD"), &c("CNY"), date(2024, 1, 1)).unwrap_err();
        assert_eq!(
            err.0[0].fix,
            "add a HKD/CNY rate dated 2024-01-01 or earlier"
        );
        assert!(
            fx.insert(c("HKD"), c("CNY"), date(2024, 1, 3), dec!(0))
                .is_err()
        );
    }
}
