//! Marks: what an instrument was worth, or what a currency bought, on a date.
//!
//! Trades price a holding on their own dates; marks price it on the others. A mark comes from
//! a live quote that was fresh when taken, or from the user (a close typed in, a rate off a bank
//! statement). Simulated quotes are never marks: they would value real holdings at made-up
//! prices. One mark per instrument (or pair) and date: a later one replaces it.

use jiff::civil::Date;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::instrument::{Currency, Instrument};
use crate::error::{FieldError, PortfolioError};

/// An instrument's price on a date, in the instrument's currency.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct PriceMark {
    pub instrument: Instrument,
    /// YYYY-MM-DD.
    #[schemars(with = "String")]
    pub date: Date,
    pub price: Decimal,
    /// Where it came from: a quote source's name, or `user`.
    pub source: String,
}

/// One `from` bought `rate` of `to` on `date`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct FxMark {
    pub from: Currency,
    pub to: Currency,
    /// YYYY-MM-DD.
    #[schemars(with = "String")]
    pub date: Date,
    pub rate: Decimal,
    pub source: String,
}

impl PriceMark {
    pub fn validate(&self) -> Result<(), PortfolioError> {
        let mut problems: Vec<FieldError> = self
            .instrument
            .currency
            .unknown("instrument.currency")
            .into_iter()
            .collect();
        problems.extend(positive(
            "price",
            self.price,
            "give the price per unit, above 0",
        ));
        PortfolioError::check(problems)
    }
}

impl FxMark {
    pub fn validate(&self) -> Result<(), PortfolioError> {
        let unknown: Vec<FieldError> = [("from", &self.from), ("to", &self.to)]
            .into_iter()
            .filter_map(|(field, c)| c.unknown(field))
            .collect();
        PortfolioError::check(unknown)?;
        if self.from == self.to {
            return Err(PortfolioError::one(
                "currency",
                format!("{} to itself is always 1", self.from),
                "give two different currencies, e.g. HKD CNY",
            ));
        }
        let rate = positive(
            "rate",
            self.rate,
            "give the units of the second currency one unit of the first buys, above 0",
        );
        PortfolioError::check(rate.into_iter().collect())
    }
}

fn positive(field: &str, value: Decimal, fix: &str) -> Option<FieldError> {
    (value <= Decimal::ZERO).then(|| FieldError::new(field, format!("is {value}"), fix))
}
