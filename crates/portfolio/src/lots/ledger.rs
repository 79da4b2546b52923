//! A portfolio's transactions replayed into holdings, cash and realized events.
//!
//! The ledger is derived state: it is rebuilt from the transactions whenever they change and
//! never stored beside them. Transactions are applied in date order (records of the same date
//! keep their given order, so a buy and a sell on one day stay in the sequence the user gave).
//! Every trade's fee must be known before replay: a missing fee is computed from the market's
//! schedule by [`crate::fees`] first, never taken as zero here without saying so.

use nofxi_domain::validation::shown_input;
use std::collections::BTreeMap;

use jiff::civil::Date;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::book::{LotBook, Sale};
use crate::domain::{CostMethod, Currency, Instrument, Portfolio, Transaction, TxKind};
use crate::error::{FieldError, PortfolioError};

/// One holding: an instrument in an account.
#[derive(
    Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
pub struct HoldingKey {
    pub account: String,
    pub instrument: Instrument,
}

/// A holding and its open lots.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Holding<'a> {
    pub key: &'a HoldingKey,
    pub book: &'a LotBook,
}

/// Where a realized amount came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RealizedKind {
    Sale,
    /// The part of a dividend beyond the cost of the lots held.
    Dividend,
    Interest,
    /// A fee charged on its own (an account fee), a negative amount.
    Fee,
}

/// An amount realized on a date, in the currency it was realized in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Realized {
    pub date: Date,
    pub kind: RealizedKind,
    /// The holding it belongs to; `None` for account-level interest and fees.
    pub holding: Option<HoldingKey>,
    pub amount: Decimal,
    pub currency: Currency,
    /// The sale and its consumed lots, for a sale.
    pub sale: Option<Sale>,
}

/// Holdings, cash per account and currency, and realized events after a replay.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Ledger {
    method: CostMethod,
    holdings: BTreeMap<HoldingKey, LotBook>,
    cash: BTreeMap<(String, Currency), Decimal>,
    realized: Vec<Realized>,
}

impl Ledger {
    /// An empty ledger booking by `portfolio`'s cost method.
    pub fn start(portfolio: &Portfolio) -> Self {
        Ledger {
            method: portfolio.cost_method,
            ..Ledger::default()
        }
    }

    /// Replays `transactions` for `portfolio`. On any refused record nothing is returned, and
    /// every problem names the record by its position in `transactions`.
    pub fn replay(
        portfolio: &Portfolio,
        transactions: &[Transaction],
    ) -> Result<Self, PortfolioError> {
        let mut ledger = Ledger::start(portfolio);
        for i in date_order(transactions) {
            ledger.record(portfolio, i, &transactions[i])?;
        }
        Ok(ledger)
    }

    /// Applies one record, `index` being its position in the caller's list (for messages).
    /// Records must come in date order; [`date_order`] gives it.
    pub fn record(
        &mut self,
        portfolio: &Portfolio,
        index: usize,
        tx: &Transaction,
    ) -> Result<(), PortfolioError> {
        let located = |e: PortfolioError| {
            PortfolioError(
                e.0.into_iter()
                    .map(|p| FieldError {
                        field: format!("transactions[{index}].{}", p.field),
                        problem: format!("{} ({} {})", p.problem, tx.date, tx.kind),
                        fix: p.fix,
                    })
                    .collect(),
            )
        };
        tx.validate().map_err(located)?;
        let Some(account) = portfolio.account(&tx.account) else {
            return Err(located(PortfolioError::one(
                "account",
                format!(
                    "`{}` is not an account of {}",
                    shown_input(&tx.account),
                    shown_input(&portfolio.name)
                ),
                "add the account to the portfolio, or correct the name",
            )));
        };
        let account = account.name.clone();
        self.apply(&account, tx).map_err(located)
    }

    fn apply(&mut self, account: &str, tx: &Transaction) -> Result<(), PortfolioError> {
        let fee = match (tx.kind.moves_units() && tx.kind != TxKind::Split, tx.fee) {
            (true, None) => {
                return Err(PortfolioError::one(
                    "fee",
                    "was not given and has not been computed",
                    "compute fees from the schedule before replay (fees::fill_fees), or give it",
                ));
            }
            (_, fee) => fee.unwrap_or_default(),
        };
        let key = tx.instrument.clone().map(|instrument| HoldingKey {
            account: account.to_string(),
            instrument,
        });
        let cash_key = (account.to_string(), tx.currency.clone());
        let mut cash = Decimal::ZERO;
        match (tx.kind, key) {
            (TxKind::Buy, Some(key)) => {
                let cost = tx.gross() + fee;
                self.book(&key).open(tx.date, tx.quantity, cost);
                cash -= cost;
            }
            (TxKind::TransferIn, Some(key)) => {
                self.book(&key).open(tx.date, tx.quantity, tx.gross() + fee);
                cash -= fee;
            }
            (TxKind::Sell, Some(key)) => {
                let proceeds = tx.gross() - fee;
                let sale = self
                    .book(&key)
                    .sell(tx.date, tx.quantity, proceeds, &tx.lots)?;
                cash += proceeds;
                self.realize(tx, RealizedKind::Sale, Some(key), sale.realized, Some(sale));
            }
            (TxKind::TransferOut, Some(key)) => {
                self.book(&key).transfer_out(tx.quantity, &tx.lots)?;
                cash -= fee;
            }
            (TxKind::Split, Some(key)) => self.book(&key).split(tx.quantity)?,
            (TxKind::Dividend, Some(key)) => {
                let net = tx.amount - tx.tax - fee;
                let booking = self.book(&key).dividend(net);
                cash += net;
                if !booking.realized.is_zero() {
                    self.realize(
                        tx,
                        RealizedKind::Dividend,
                        Some(key),
                        booking.realized,
                        None,
                    );
                }
            }
            (TxKind::Interest, _) => {
                let net = tx.amount - tx.tax - fee;
                cash += net;
                self.realize(tx, RealizedKind::Interest, None, net, None);
            }
            (TxKind::Fee, _) => {
                cash -= tx.amount;
                self.realize(tx, RealizedKind::Fee, None, -tx.amount, None);
            }
            (TxKind::Deposit, _) => cash += tx.amount - fee,
            (TxKind::Withdrawal, _) => cash -= tx.amount + fee,
            // validate() has already refused a security record without an instrument.
            (_, None) => {}
        }
        *self.cash.entry(cash_key).or_default() += cash;
        self.holdings.retain(|_, book| !book.lots().is_empty());
        Ok(())
    }

    fn book(&mut self, key: &HoldingKey) -> &mut LotBook {
        let method = self.method;
        self.holdings
            .entry(key.clone())
            .or_insert_with(|| LotBook::new(method))
    }

    fn realize(
        &mut self,
        tx: &Transaction,
        kind: RealizedKind,
        holding: Option<HoldingKey>,
        amount: Decimal,
        sale: Option<Sale>,
    ) {
        self.realized.push(Realized {
            date: tx.date,
            kind,
            holding,
            amount,
            currency: tx.currency.clone(),
            sale,
        });
    }

    /// Open holdings, by account then instrument.
    pub fn holdings(&self) -> impl Iterator<Item = Holding<'_>> {
        self.holdings
            .iter()
            .map(|(key, book)| Holding { key, book })
    }

    pub fn holding(&self, key: &HoldingKey) -> Option<&LotBook> {
        self.holdings.get(key)
    }

    /// Cash per (account, currency); negative when trades were recorded without deposits.
    pub fn cash(&self) -> &BTreeMap<(String, Currency), Decimal> {
        &self.cash
    }

    /// Realized events in date order.
    pub fn realized(&self) -> &[Realized] {
        &self.realized
    }
}

/// Positions of `transactions` in date order, records of one date in their given order.
pub fn date_order(transactions: &[Transaction]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..transactions.len()).collect();
    order.sort_by_key(|&i| transactions[i].date);
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::transaction::tests::trade;
    use crate::domain::{Account, Market};
    use rust_decimal_macros::dec;

    fn portfolio() -> Portfolio {
        let mut p = Portfolio::new("mine", "CNY".parse().unwrap());
        p.accounts.push(Account {
            name: "main".into(),
            broker: String::new(),
            currency: "CNY".parse().unwrap(),
        });
        p
    }

    fn cash(kind: TxKind, date: &str, amount: Decimal) -> Transaction {
        let mut t = trade(kind, date, Decimal::ZERO, Decimal::ZERO);
        t.instrument = None;
        t.amount = amount;
        t
    }

    #[test]
    fn replays_in_date_order_into_lots_cash_and_realized() {
        // Deposit 10000. Buy 100 @ 15.00 fee 5 → lot 1505.00, cash 8495.00.
        // Dividend 200 gross, tax 20 → net 180 lowers the lot to 1325.00, cash 8675.00.
        // Sell 40 @ 20.00 fee 5 → proceeds 795.00; cost 1325 × 0.4 = 530.00; realized 265.00;
        // cash 9470.00. Listed out of order on purpose.
        let mut dividend = trade(TxKind::Dividend, "2024-02-01", dec!(0), dec!(0));
        dividend.amount = dec!(200);
        dividend.tax = dec!(20);
        let mut buy = trade(TxKind::Buy, "2024-01-02", dec!(100), dec!(15.00));
        buy.fee = Some(dec!(5));
        let mut sell = trade(TxKind::Sell, "2024-03-01", dec!(40), dec!(20.00));
        sell.fee = Some(dec!(5));
        let txs = [
            sell,
            cash(TxKind::Deposit, "2024-01-01", dec!(10000)),
            dividend,
            buy,
        ];
        let ledger = Ledger::replay(&portfolio(), &txs).unwrap();
        let holding = ledger.holdings().next().unwrap();
        assert_eq!(
            (holding.book.quantity(), holding.book.cost()),
            (dec!(60), dec!(795.00))
        );
        assert_eq!(
            ledger.cash().values().copied().collect::<Vec<_>>(),
            [dec!(9470.00)]
        );
        let realized: Vec<_> = ledger
            .realized()
            .iter()
            .map(|r| (r.kind, r.amount))
            .collect();
        assert_eq!(realized, [(RealizedKind::Sale, dec!(265.00))]);
    }

    #[test]
    fn problems_name_the_record_and_a_missing_fee_is_not_taken_as_zero() {
        let mut buy = trade(TxKind::Buy, "2024-01-02", dec!(100), dec!(15));
        buy.fee = None;
        let err = Ledger::replay(&portfolio(), &[buy.clone()]).unwrap_err();
        assert_eq!(err.0[0].field, "transactions[0].fee");
        buy.fee = Some(dec!(0));
        buy.account = "other".into();
        let err = Ledger::replay(&portfolio(), &[buy]).unwrap_err();
        assert_eq!(err.0[0].field, "transactions[0].account");
        assert!(err.0[0].problem.contains("2024-01-02 BUY"), "{err}");
    }

    #[test]
    fn holdings_are_kept_apart_by_account_and_instrument() {
        let mut p = portfolio();
        p.accounts.push(Account {
            name: "hk".into(),
            broker: String::new(),
            currency: "HKD".parse().unwrap(),
        });
        let mut hk = trade(TxKind::Buy, "2024-01-02", dec!(100), dec!(300));
        let tencent = Instrument::new(Market::Hk, "700").unwrap();
        hk.currency = tencent.currency.clone();
        hk.instrument = Some(tencent);
        hk.account = "HK".into();
        let a = trade(TxKind::Buy, "2024-01-02", dec!(100), dec!(10));
        let ledger = Ledger::replay(&p, &[a, hk]).unwrap();
        let keys: Vec<_> = ledger
            .holdings()
            .map(|h| (h.key.account.clone(), h.key.instrument.key()))
            .collect();
        assert_eq!(
            keys,
            [
                ("hk".to_string(), "HK:00700".to_string()),
                ("main".into(), "SH:600519".into())
            ]
        );
        assert_eq!(
            ledger.cash()[&("hk".to_string(), "HKD".parse().unwrap())],
            dec!(-30000)
        );
    }
}
