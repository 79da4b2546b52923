//! Where the money is: shares of market value by market, currency or holding.
//!
//! Cash is part of the portfolio, so it is part of the allocation: by currency it joins its
//! currency; by market and by holding it is its own slice, `CASH`. Values are in the base
//! currency at the valuation date. Weights are rounded to 6 places each, so they may miss 1 by
//! a rounding unit; the values add up exactly.

use std::collections::BTreeMap;

use jiff::civil::Date;
use rust_decimal::{Decimal, RoundingStrategy};
use serde::Serialize;

use super::basis::{Basis, Figure};
use super::series::PriceBook;
use crate::domain::FxTable;
use crate::domain::money::money;
use crate::error::PortfolioError;
use crate::lots::Ledger;

/// How to group.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AllocationBy {
    Market,
    Currency,
    Holding,
}

impl AllocationBy {
    fn name(self) -> &'static str {
        match self {
            AllocationBy::Market => "market",
            AllocationBy::Currency => "currency",
            AllocationBy::Holding => "holding",
        }
    }
}

/// One group's value and its share of the whole.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Slice {
    pub label: String,
    pub value: Decimal,
    pub weight: Figure,
}

/// The label of the cash slice.
pub const CASH: &str = "CASH";

/// The allocation on `on`, largest slice first (ties by label).
pub fn allocation(
    ledger: &Ledger,
    prices: &PriceBook,
    fx: &FxTable,
    by: AllocationBy,
    on: Date,
) -> Result<Vec<Slice>, PortfolioError> {
    let mut groups: BTreeMap<String, Decimal> = BTreeMap::new();
    for holding in ledger.holdings() {
        let instrument = &holding.key.instrument;
        let worth = holding.book.quantity() * prices.price_on(instrument, on)?;
        let label = match by {
            AllocationBy::Market => instrument.market.to_string(),
            AllocationBy::Currency => instrument.currency.to_string(),
            AllocationBy::Holding => format!("{} {}", holding.key.account, instrument.key()),
        };
        *groups.entry(label).or_default() += fx.to_base(money(worth), &instrument.currency, on)?;
    }
    for ((_, currency), cash) in ledger.cash() {
        let label = match by {
            AllocationBy::Currency => currency.to_string(),
            AllocationBy::Market | AllocationBy::Holding => CASH.to_string(),
        };
        *groups.entry(label).or_default() += fx.to_base(*cash, currency, on)?;
    }
    let groups: Vec<(String, Decimal)> = groups.into_iter().map(|(l, v)| (l, money(v))).collect();
    let total: Decimal = groups.iter().map(|(_, v)| *v).sum();
    let basis = Basis::Allocation {
        by: by.name().to_string(),
        currency: fx.base.clone(),
        priced_on: on,
    };
    let mut slices: Vec<Slice> = groups
        .into_iter()
        .map(|(label, value)| {
            let weight = if total.is_zero() {
                Decimal::ZERO
            } else {
                (value / total).round_dp_with_strategy(6, RoundingStrategy::MidpointAwayFromZero)
            };
            Slice {
                label,
                value,
                weight: Figure {
                    value: weight,
                    basis: basis.clone(),
                },
            }
        })
        .collect();
    slices.sort_by(|a, b| b.value.cmp(&a.value).then_with(|| a.label.cmp(&b.label)));
    Ok(slices)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::performance::pnl::fixture::two_markets;
    use rust_decimal_macros::dec;

    fn rows(slices: &[Slice]) -> Vec<(&str, Decimal, Decimal)> {
        slices
            .iter()
            .map(|s| (s.label.as_str(), s.value, s.weight.value))
            .collect()
    }

    #[test]
    fn by_market_currency_and_holding_with_cash() {
        // On 2024-03-01 in CNY: 600519 60 × 18 = 1080.00; 00700 100 × 320 × 0.92 = 29440.00;
        // cash 1280.00 CNY + 450 HKD × 0.92 = 414.00. Total 32214.00.
        // Weights: 29440 / 32214 = 0.913888; 1694 / 32214 = 0.052586; 1080 / 32214 = 0.033526.
        // By currency: HKD 29440 + 414 = 29854 → 0.926740; CNY 1080 + 1280 = 2360 → 0.073260.
        let (p, txs, prices, fx) = two_markets();
        let ledger = Ledger::replay(&p, &txs).unwrap();
        let on = "2024-03-01".parse().unwrap();
        let by_market = allocation(&ledger, &prices, &fx, AllocationBy::Market, on).unwrap();
        assert_eq!(
            rows(&by_market),
            [
                ("HK", dec!(29440.00), dec!(0.913888)),
                ("CASH", dec!(1694.00), dec!(0.052586)),
                ("SH", dec!(1080.00), dec!(0.033526)),
            ]
        );
        let by_currency = allocation(&ledger, &prices, &fx, AllocationBy::Currency, on).unwrap();
        assert_eq!(
            rows(&by_currency),
            [
                ("HKD", dec!(29854.00), dec!(0.926740)),
                ("CNY", dec!(2360.00), dec!(0.073260))
            ]
        );
        let by_holding = allocation(&ledger, &prices, &fx, AllocationBy::Holding, on).unwrap();
        let labels: Vec<_> = by_holding.iter().map(|s| s.label.as_str()).collect();
        assert_eq!(labels, ["hk HK:00700", "CASH", "main SH:600519"]);
        assert!(by_holding[0].weight.basis.describe(true).contains("含现金"));
    }
}
