//! A-share dividend tax by holding period, computed from a sale's consumed lots.
//!
//! Dividends on A-shares are paid without tax and taxed when the shares are sold, at a rate set
//! by how long each sold unit was held (`fees/dividend_tax.yaml`). Each lot remembers the
//! dividends its units received, and a sale's consumed parts carry their share, so the tax is
//! worked out per lot here. It is a calculation to show and to record (brokers deduct it from
//! cash later, as a separate line), not booked by the ledger on its own: a user importing the
//! broker's deduction would otherwise pay it twice. Under the average method the pooled lot's
//! date is its first purchase, so the periods are only as exact as FIFO would make them.

use jiff::ToSpan;
use jiff::civil::Date;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::book::Sale;
use crate::domain::Market;
use crate::domain::money::money;
use crate::error::PortfolioError;

const EMBEDDED: &str = include_str!("../../fees/dividend_tax.yaml");

/// One holding-period bracket; the last has no limit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bracket {
    #[serde(default)]
    pub held_up_to_months: Option<i32>,
    pub rate: Decimal,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Version {
    from: Date,
    brackets: Vec<Bracket>,
}

/// The dividend tax rules, by sale date.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DividendTaxRules {
    markets: Vec<Market>,
    versions: Vec<Version>,
}

/// The tax on one consumed lot's dividends.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DividendTaxLine {
    pub lot: String,
    pub opened: Date,
    pub dividends: Decimal,
    pub rate: Decimal,
    pub tax: Decimal,
}

impl DividendTaxRules {
    /// The rules shipped in `fees/dividend_tax.yaml`, checked: brackets in increasing order,
    /// the last one open-ended.
    pub fn embedded() -> Result<Self, PortfolioError> {
        Self::parse(EMBEDDED)
    }

    pub fn parse(text: &str) -> Result<Self, PortfolioError> {
        let rules: Self = yaml_serde::from_str(text).map_err(|e| {
            PortfolioError::one(
                "dividend_tax.yaml",
                format!("is not readable: {e}"),
                "fix the YAML at the place shown",
            )
        })?;
        for v in &rules.versions {
            let limits: Vec<_> = v.brackets.iter().map(|b| b.held_up_to_months).collect();
            let ordered = limits
                .windows(2)
                .all(|w| matches!(w, [Some(a), Some(b)] if a < b) || matches!(w, [Some(_), None]));
            if !ordered || limits.last().is_none_or(Option::is_some) {
                return Err(PortfolioError::one(
                    "dividend_tax.yaml",
                    format!(
                        "the brackets from {} are out of order or the last one has a limit",
                        v.from
                    ),
                    "list brackets by increasing months and end with one without a limit",
                ));
            }
        }
        Ok(rules)
    }

    /// The tax each consumed lot of `sale` owes on its dividends; empty outside the markets
    /// the rules cover, before they start, or when no dividends were received.
    pub fn on_sale(&self, market: Market, sale: &Sale) -> Vec<DividendTaxLine> {
        let version = self.versions.iter().rev().find(|v| v.from <= sale.date);
        let Some(version) = version.filter(|_| self.markets.contains(&market)) else {
            return Vec::new();
        };
        sale.consumed
            .iter()
            .filter(|c| !c.dividends.is_zero())
            .map(|c| {
                let rate = bracket_rate(&version.brackets, c.opened, sale.date);
                DividendTaxLine {
                    lot: c.lot.clone(),
                    opened: c.opened,
                    dividends: c.dividends,
                    rate,
                    tax: money(c.dividends * rate),
                }
            })
            .collect()
    }
}

/// The holding period runs from the day bought to the day before the sale, so a lot is within
/// "N months" when the sale is no later than the purchase date plus N months.
fn bracket_rate(brackets: &[Bracket], opened: Date, sold: Date) -> Decimal {
    brackets
        .iter()
        .find(|b| match b.held_up_to_months {
            Some(months) => opened
                .checked_add(months.months())
                .is_ok_and(|limit| sold <= limit),
            None => true,
        })
        .map(|b| b.rate)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::CostMethod;
    use crate::lots::LotBook;
    use rust_decimal_macros::dec;

    fn d(text: &str) -> Date {
        text.parse().unwrap()
    }

    #[test]
    fn each_sold_lot_pays_by_how_long_it_was_held() {
        // L1 100 units bought 2024-01-10 (cost 1000), L2 100 bought 2024-03-01 (cost 1000).
        // Dividend 60.00 on 2024-03-05: 30.00 to each lot (costs 970.00 each).
        // FIFO sale of 150 on 2024-04-01: L1 whole, held 01-10 → 04-01, over 1 month: 10 % of
        // 30.00 = 3.00; L2 50 of 100 carries 15.00 of dividends, sold on 04-01 = 03-01 + 1
        // month, so still "1 month": 20 % of 15.00 = 3.00. L2 keeps 15.00 for later.
        let mut book = LotBook::new(CostMethod::Fifo);
        book.open(d("2024-01-10"), dec!(100), dec!(1000));
        book.open(d("2024-03-01"), dec!(100), dec!(1000));
        book.dividend(dec!(60.00));
        let sale = book
            .sell(d("2024-04-01"), dec!(150), dec!(1650), &[])
            .unwrap();
        let rules = DividendTaxRules::embedded().unwrap();
        let lines: Vec<_> = rules
            .on_sale(Market::Sh, &sale)
            .into_iter()
            .map(|l| (l.lot, l.dividends, l.rate, l.tax))
            .collect();
        assert_eq!(
            lines,
            [
                ("L1".to_string(), dec!(30.00), dec!(0.10), dec!(3.00)),
                ("L2".to_string(), dec!(15.00), dec!(0.20), dec!(3.00))
            ]
        );
        assert_eq!(book.lots()[0].dividends, dec!(15.00));
        assert!(rules.on_sale(Market::Hk, &sale).is_empty());
    }

    #[test]
    fn the_brackets_end_where_the_months_do() {
        let b = DividendTaxRules::embedded().unwrap().versions[0]
            .brackets
            .clone();
        assert_eq!(
            bracket_rate(&b, d("2024-01-10"), d("2024-02-10")),
            dec!(0.20)
        );
        assert_eq!(
            bracket_rate(&b, d("2024-01-10"), d("2024-02-11")),
            dec!(0.10)
        );
        assert_eq!(
            bracket_rate(&b, d("2023-01-10"), d("2024-01-10")),
            dec!(0.10)
        );
        assert_eq!(bracket_rate(&b, d("2023-01-10"), d("2024-01-11")), dec!(0));
    }

    #[test]
    fn brackets_out_of_order_are_refused() {
        let text = "markets: [SH]\nversions:\n  - from: 2015-09-08\n    brackets:\n      \
                    - { held_up_to_months: 12, rate: \"0.1\" }\n      - { held_up_to_months: 1, rate: \"0.2\" }\n";
        assert!(DividendTaxRules::parse(text).is_err());
    }
}
