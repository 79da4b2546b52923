//! Realized and unrealized P&L per holding and for the portfolio.
//!
//! Per holding, figures stay in the instrument's currency (what the user sees on the broker's
//! screen); the portfolio's totals are in its base currency, unrealized converted at the
//! valuation date and each realized event at its own date (the money was realized then).
//! Holdings sold out are listed too, with quantity 0, so their realized P&L has a home.

use std::collections::BTreeMap;

use jiff::civil::Date;
use rust_decimal::Decimal;
use serde::Serialize;

use super::basis::{Basis, Figure};
use super::series::PriceBook;
use crate::domain::money::{money, unit_cost};
use crate::domain::{FxTable, Portfolio};
use crate::error::PortfolioError;
use crate::lots::{HoldingKey, Ledger};

/// One holding's position and P&L, in its own currency.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct HoldingPnl {
    pub key: HoldingKey,
    pub quantity: Decimal,
    /// Remaining cost of the open lots.
    pub cost: Decimal,
    pub unit_cost: Decimal,
    /// The price used, 0 when nothing is held.
    pub price: Decimal,
    pub market_value: Decimal,
    pub unrealized: Figure,
    pub realized: Figure,
}

/// The portfolio's P&L in its base currency, and each holding's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PortfolioPnl {
    pub holdings: Vec<HoldingPnl>,
    pub unrealized: Figure,
    pub realized: Figure,
}

/// P&L on `on` from a ledger replayed up to that date, at the prices of that date.
pub fn pnl(
    portfolio: &Portfolio,
    ledger: &Ledger,
    prices: &PriceBook,
    fx: &FxTable,
    on: Date,
) -> Result<PortfolioPnl, PortfolioError> {
    let method = portfolio.cost_method;
    let base = fx.base.clone();
    let mut realized_by_holding: BTreeMap<&HoldingKey, Decimal> = BTreeMap::new();
    let mut realized_base = Decimal::ZERO;
    for event in ledger.realized().iter().filter(|e| e.date <= on) {
        realized_base += fx.to_base(event.amount, &event.currency, event.date)?;
        if let Some(key) = &event.holding {
            *realized_by_holding.entry(key).or_default() += event.amount;
        }
    }
    let mut holdings = Vec::new();
    let mut unrealized_base = Decimal::ZERO;
    for holding in ledger.holdings() {
        let currency = holding.key.instrument.currency.clone();
        let (quantity, cost) = (holding.book.quantity(), holding.book.cost());
        let price = prices.price_on(&holding.key.instrument, on)?;
        let market_value = money(quantity * price);
        let unrealized = market_value - cost;
        unrealized_base += fx.to_base(unrealized, &currency, on)?;
        let realized = realized_by_holding.remove(holding.key).unwrap_or_default();
        holdings.push(HoldingPnl {
            key: holding.key.clone(),
            quantity,
            cost,
            unit_cost: unit_cost(cost, quantity),
            price,
            market_value,
            unrealized: Figure {
                value: unrealized,
                basis: Basis::Unrealized {
                    method,
                    currency: currency.clone(),
                    priced_on: on,
                },
            },
            realized: Figure {
                value: realized,
                basis: Basis::Realized {
                    method,
                    currency,
                    to: on,
                },
            },
        });
    }
    // Sold-out holdings: nothing open, realized P&L only.
    for (key, realized) in realized_by_holding {
        let currency = key.instrument.currency.clone();
        holdings.push(HoldingPnl {
            key: key.clone(),
            quantity: Decimal::ZERO,
            cost: Decimal::ZERO,
            unit_cost: Decimal::ZERO,
            price: Decimal::ZERO,
            market_value: Decimal::ZERO,
            unrealized: Figure {
                value: Decimal::ZERO,
                basis: Basis::Unrealized {
                    method,
                    currency: currency.clone(),
                    priced_on: on,
                },
            },
            realized: Figure {
                value: realized,
                basis: Basis::Realized {
                    method,
                    currency,
                    to: on,
                },
            },
        });
    }
    Ok(PortfolioPnl {
        holdings,
        unrealized: Figure {
            value: money(unrealized_base),
            basis: Basis::Unrealized {
                method,
                currency: base.clone(),
                priced_on: on,
            },
        },
        realized: Figure {
            value: money(realized_base),
            basis: Basis::Realized {
                method,
                currency: base,
                to: on,
            },
        },
    })
}

#[cfg(test)]
pub(crate) mod fixture {
    //! Two accounts, two currencies, worked by hand (base CNY).
    //!
    //! main (CNY): 2024-01-01 deposit 2000; 2024-01-02 buy 100 × 600519 @ 15, fee 5 → lot
    //!   1505.00; 2024-02-01 sell 40 @ 20, fee 5 → proceeds 795.00, cost 1505 × 0.4 = 602.00,
    //!   realized 193.00; 2024-02-20 account fee 10. Cash 2000 − 1505 + 795 − 10 = 1280.00.
    //! hk (HKD): 2024-01-01 deposit 30000; 2024-01-02 buy 100 × 00700 @ 300, fee 0 → 30000.00;
    //!   2024-02-15 dividend 500, tax 50 → net 450 lowers the lot to 29550.00. Cash 450.00.
    //! On 2024-03-01: 600519 at 18, 00700 at 320; HKD/CNY 0.91 from 2024-01-01, 0.92 from
    //! 2024-03-01.

    use crate::domain::transaction::tests::trade;
    use crate::domain::{Account, FxTable, Instrument, Market, Portfolio, Transaction, TxKind};
    use crate::performance::PriceBook;
    use rust_decimal::Decimal;
    use rust_decimal_macros::dec;

    pub(crate) fn two_markets() -> (Portfolio, Vec<Transaction>, PriceBook, FxTable) {
        let mut p = Portfolio::new("mine", "CNY".parse().unwrap());
        p.accounts.push(Account {
            name: "main".into(),
            broker: String::new(),
            currency: "CNY".parse().unwrap(),
        });
        p.accounts.push(Account {
            name: "hk".into(),
            broker: String::new(),
            currency: "HKD".parse().unwrap(),
        });
        let cash = |kind, date: &str, amount: Decimal, account: &str, currency: &str| {
            let mut t = trade(kind, date, dec!(0), dec!(0));
            t.instrument = None;
            t.amount = amount;
            t.account = account.into();
            t.currency = currency.parse().unwrap();
            t
        };
        let mut buy = trade(TxKind::Buy, "2024-01-02", dec!(100), dec!(15));
        buy.fee = Some(dec!(5));
        let mut sell = trade(TxKind::Sell, "2024-02-01", dec!(40), dec!(20));
        sell.fee = Some(dec!(5));
        let tencent = Instrument::new(Market::Hk, "700").unwrap();
        let mut hk_buy = trade(TxKind::Buy, "2024-01-02", dec!(100), dec!(300));
        hk_buy.account = "hk".into();
        hk_buy.currency = tencent.currency.clone();
        hk_buy.instrument = Some(tencent.clone());
        let mut dividend = hk_buy.clone();
        dividend.kind = TxKind::Dividend;
        dividend.date = "2024-02-15".parse().unwrap();
        dividend.quantity = dec!(0);
        dividend.price = dec!(0);
        dividend.amount = dec!(500);
        dividend.tax = dec!(50);
        let txs = vec![
            cash(TxKind::Deposit, "2024-01-01", dec!(2000), "main", "CNY"),
            cash(TxKind::Deposit, "2024-01-01", dec!(30000), "hk", "HKD"),
            buy.clone(),
            hk_buy,
            sell,
            dividend,
            cash(TxKind::Fee, "2024-02-20", dec!(10), "main", "CNY"),
        ];
        let mut prices = PriceBook::with_trade_prices(&txs);
        let on = "2024-03-01".parse().unwrap();
        prices.insert(buy.instrument.as_ref().unwrap(), on, dec!(18));
        prices.insert(&tencent, on, dec!(320));
        let mut fx = FxTable::new("CNY".parse().unwrap());
        fx.insert(
            "HKD".parse().unwrap(),
            "CNY".parse().unwrap(),
            "2024-01-01".parse().unwrap(),
            dec!(0.91),
        )
        .unwrap();
        fx.insert(
            "HKD".parse().unwrap(),
            "CNY".parse().unwrap(),
            on,
            dec!(0.92),
        )
        .unwrap();
        (p, txs, prices, fx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal_macros::dec;

    #[test]
    fn per_holding_in_its_currency_and_totals_in_base() {
        // 600519: 60 left costing 1505 − 602 = 903.00; 60 × 18 = 1080.00; unrealized 177.00;
        //   realized 193.00.
        // 00700: 100 costing 29550.00; 100 × 320 = 32000.00; unrealized 2450.00 HKD
        //   = 2450 × 0.92 = 2254.00 CNY.
        // Portfolio: unrealized 177 + 2254 = 2431.00; realized 193.00 − the 10.00 fee = 183.00.
        let (p, txs, prices, fx) = fixture::two_markets();
        let ledger = Ledger::replay(&p, &txs).unwrap();
        let on = "2024-03-01".parse().unwrap();
        let result = pnl(&p, &ledger, &prices, &fx, on).unwrap();
        let rows: Vec<_> = result
            .holdings
            .iter()
            .map(|h| {
                (
                    h.key.instrument.key(),
                    h.quantity,
                    h.cost,
                    h.market_value,
                    h.unrealized.value,
                    h.realized.value,
                )
            })
            .collect();
        assert_eq!(
            rows,
            [
                (
                    "HK:00700".to_string(),
                    dec!(100),
                    dec!(29550.00),
                    dec!(32000.00),
                    dec!(2450.00),
                    dec!(0)
                ),
                (
                    "SH:600519".to_string(),
                    dec!(60),
                    dec!(903.00),
                    dec!(1080.00),
                    dec!(177.00),
                    dec!(193.00)
                ),
            ]
        );
        assert_eq!(result.holdings[1].unit_cost, dec!(15.05));
        assert_eq!(result.unrealized.value, dec!(2431.00));
        assert_eq!(result.realized.value, dec!(183.00));
        assert!(
            matches!(result.realized.basis, Basis::Realized { ref currency, .. } if currency.as_str() == "CNY")
        );
    }

    #[test]
    fn a_sold_out_holding_keeps_its_realized_pnl() {
        // Buy 10 @ 10 fee 0, sell 10 @ 12 fee 0: realized 20.00, nothing held.
        use crate::domain::transaction::tests::trade;
        use crate::domain::{Account, TxKind};
        let mut p = Portfolio::new("mine", "CNY".parse().unwrap());
        p.accounts.push(Account {
            name: "main".into(),
            broker: String::new(),
            currency: "CNY".parse().unwrap(),
        });
        let txs = [
            trade(TxKind::Buy, "2024-01-02", dec!(10), dec!(10)),
            trade(TxKind::Sell, "2024-01-03", dec!(10), dec!(12)),
        ];
        let ledger = Ledger::replay(&p, &txs).unwrap();
        let fx = FxTable::new("CNY".parse().unwrap());
        let result = pnl(
            &p,
            &ledger,
            &PriceBook::default(),
            &fx,
            "2024-01-04".parse().unwrap(),
        )
        .unwrap();
        assert_eq!(result.holdings.len(), 1);
        assert_eq!(
            (
                result.holdings[0].quantity,
                result.holdings[0].realized.value
            ),
            (dec!(0), dec!(20.00))
        );
    }
}
