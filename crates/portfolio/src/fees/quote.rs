//! A trade's fees computed line by line from its market's schedule, at the rates of its date.

use jiff::civil::Date;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::schedule::{Basis, FeeSchedules, Side};
use crate::domain::money::money;
use crate::domain::{Currency, Instrument, Market};
use crate::error::PortfolioError;

/// The direction of a trade, as fee rules see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TradeSide {
    Buy,
    Sell,
}

/// One computed fee, with what it was computed from, so a user can check it by hand.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FeeLine {
    pub rule: String,
    pub label: String,
    pub label_zh: String,
    /// The amount or quantity the rate was applied to.
    pub basis_value: Decimal,
    pub rate: Decimal,
    /// The date the rate took effect.
    pub rate_from: Date,
    pub amount: Decimal,
    /// The rate is per unit traded (FINRA's per share), not a share of the amount.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub per_unit: bool,
    /// The rule's minimum or maximum that set the amount instead of basis × rate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bound: Option<FeeBound>,
}

/// Which of a rule's limits decided a fee.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "amount", rename_all = "snake_case")]
pub enum FeeBound {
    Minimum(Decimal),
    Maximum(Decimal),
}

/// A trade's fees: every line and their total, in the schedule's currency.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FeeQuote {
    pub market: Market,
    pub currency: Currency,
    pub date: Date,
    pub lines: Vec<FeeLine>,
    pub total: Decimal,
}

impl FeeSchedules {
    /// The fees of trading `quantity` of `instrument` at `price` on `date`. Each line is the
    /// basis × rate, rounded by its rule, then held between the rule's minimum and maximum.
    pub fn quote(
        &self,
        instrument: &Instrument,
        side: TradeSide,
        date: Date,
        quantity: Decimal,
        price: Decimal,
    ) -> Result<FeeQuote, PortfolioError> {
        let market = instrument.market;
        let Some(schedule) = self.for_market(market) else {
            return Err(PortfolioError::one(
                "fee",
                format!("there is no fee schedule for {market}"),
                "give the fee of this trade",
            ));
        };
        if date < schedule.valid_from {
            return Err(PortfolioError::one(
                "fee",
                format!(
                    "the {market} fee schedule starts on {}, the trade is on {date}",
                    schedule.valid_from
                ),
                "give the fee of this trade (from the broker's statement)",
            ));
        }
        let amount = money(quantity * price);
        let class = instrument.class();
        let mut lines = Vec::new();
        for rule in &schedule.rules {
            let charged_side = matches!(
                (rule.side, side),
                (Side::Both, _) | (Side::Buy, TradeSide::Buy) | (Side::Sell, TradeSide::Sell)
            );
            let charged_class = rule.classes.is_empty() || rule.classes.contains(&class);
            let Some(version) = rule.version_on(date) else {
                continue;
            };
            if !charged_side || !charged_class {
                continue;
            }
            let absolute =
                version.min.is_some() || version.max.is_some() || rule.basis == Basis::Quantity;
            if absolute && instrument.currency != schedule.currency {
                return Err(PortfolioError::one(
                    "fee",
                    format!(
                        "the {market} {} is set in {} but the trade is in {}",
                        rule.id, schedule.currency, instrument.currency
                    ),
                    "give the fee of this trade",
                ));
            }
            let basis_value = match rule.basis {
                Basis::Amount => amount,
                Basis::Quantity => quantity,
            };
            let computed = version
                .rounding
                .apply(basis_value * version.rate, version.dp);
            let mut fee = computed;
            let mut bound = None;
            if let Some(min) = version.min
                && computed < min
            {
                fee = min;
                bound = Some(FeeBound::Minimum(min));
            }
            if let Some(max) = version.max
                && computed > max
            {
                fee = max;
                bound = Some(FeeBound::Maximum(max));
            }
            lines.push(FeeLine {
                rule: rule.id.clone(),
                label: rule.label.clone(),
                label_zh: rule.label_zh.clone(),
                basis_value,
                rate: version.rate,
                rate_from: version.from,
                amount: fee,
                per_unit: rule.basis == Basis::Quantity,
                bound,
            });
        }
        let total = lines.iter().map(|l| l.amount).sum();
        Ok(FeeQuote {
            market,
            currency: instrument.currency.clone(),
            date,
            lines,
            total,
        })
    }
}

#[cfg(test)]
mod tests;
