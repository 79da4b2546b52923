//! Daily values and external flows, for a whole portfolio or one holding.
//!
//! What counts as external depends on whose return it is. For the portfolio, money crossing its
//! boundary is external: deposits, withdrawals, securities transferred in or out; a buy only
//! turns cash into shares. For one holding, its buys are money coming in and its sales and
//! dividends money going out. Every calendar day gets a value (weekends keep Friday's prices),
//! so periods can start on any date.
//!
//! Prices come from a [`PriceBook`]: the latest price on or before a day. Trade prices are
//! prices too, so a holding can be valued from its own trades before any quote is added.

use std::collections::BTreeMap;

use jiff::ToSpan;
use jiff::civil::Date;
use rust_decimal::Decimal;
use serde::Serialize;

use crate::domain::money::money;
use crate::domain::{FxTable, Instrument, Portfolio, Transaction, TxKind};
use crate::error::PortfolioError;
use crate::lots::{HoldingKey, Ledger, date_order};

/// A day's closing value and the external money that came in and went out that day.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct DayValue {
    pub date: Date,
    pub value: Decimal,
    /// Money put in (counted from the start of the day), 0 or more.
    pub inflow: Decimal,
    /// Money taken out (counted until the end of the day), 0 or more.
    pub outflow: Decimal,
}

/// Prices by instrument and date.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct PriceBook {
    prices: BTreeMap<Instrument, BTreeMap<Date, Decimal>>,
}

impl PriceBook {
    /// A book holding the price of every buy and sale on its date. Transfers are left out:
    /// their price is the cost carried in, often years old, not what the units were worth.
    pub fn with_trade_prices(transactions: &[Transaction]) -> Self {
        let mut book = Self::default();
        for tx in transactions {
            if let (Some(instrument), TxKind::Buy | TxKind::Sell) = (&tx.instrument, tx.kind) {
                book.insert(instrument, tx.date, tx.price);
            }
        }
        book
    }

    /// Sets the price on a date (a later insert for the same date wins: a close beats a trade).
    pub fn insert(&mut self, instrument: &Instrument, date: Date, price: Decimal) {
        self.prices
            .entry(instrument.clone())
            .or_default()
            .insert(date, price);
    }

    /// The date of the price [`PriceBook::price_on`] would use, if there is one.
    pub fn priced_on(&self, instrument: &Instrument, date: Date) -> Option<Date> {
        self.prices
            .get(instrument)
            .and_then(|by_date| by_date.range(..=date).next_back())
            .map(|(d, _)| *d)
    }

    /// The latest price on or before `date`.
    pub fn price_on(&self, instrument: &Instrument, date: Date) -> Result<Decimal, PortfolioError> {
        self.prices
            .get(instrument)
            .and_then(|by_date| by_date.range(..=date).next_back())
            .map(|(_, p)| *p)
            .ok_or_else(|| {
                PortfolioError::one(
                    "price",
                    format!("no price for {} on or before {date}", instrument.key()),
                    format!(
                        "add a price for {} dated {date} or earlier",
                        instrument.key()
                    ),
                )
            })
    }
}

/// The portfolio's daily values in its base currency, from its first record to `to`.
pub fn portfolio_days(
    portfolio: &Portfolio,
    transactions: &[Transaction],
    prices: &PriceBook,
    fx: &FxTable,
    to: Date,
) -> Result<Vec<DayValue>, PortfolioError> {
    let order = date_order(transactions);
    let mut ledger = Ledger::start(portfolio);
    let mut next = 0;
    let mut days = Vec::new();
    for day in calendar(transactions, &order, to) {
        let (mut inflow, mut outflow) = (Decimal::ZERO, Decimal::ZERO);
        while let Some(&i) = order.get(next).filter(|&&i| transactions[i].date <= day) {
            let tx = &transactions[i];
            ledger.record(portfolio, i, tx)?;
            let external = match tx.kind {
                TxKind::Deposit => tx.amount,
                TxKind::Withdrawal => -tx.amount,
                TxKind::TransferIn => transfer_value(prices, tx, day)?,
                TxKind::TransferOut => -transfer_value(prices, tx, day)?,
                _ => Decimal::ZERO,
            };
            let external = fx.to_base(external, &tx.currency, day)?;
            if external > Decimal::ZERO {
                inflow += external;
            } else {
                outflow -= external;
            }
            next += 1;
        }
        let mut value = Decimal::ZERO;
        for holding in ledger.holdings() {
            let instrument = &holding.key.instrument;
            let worth = holding.book.quantity() * prices.price_on(instrument, day)?;
            value += fx.to_base(worth, &instrument.currency, day)?;
        }
        for ((_, currency), cash) in ledger.cash() {
            value += fx.to_base(*cash, currency, day)?;
        }
        days.push(DayValue {
            date: day,
            value: money(value),
            inflow: money(inflow),
            outflow: money(outflow),
        });
    }
    Ok(days)
}

/// One holding's daily values in its own currency, from its first record to `to`.
pub fn holding_days(
    portfolio: &Portfolio,
    transactions: &[Transaction],
    key: &HoldingKey,
    prices: &PriceBook,
    to: Date,
) -> Result<Vec<DayValue>, PortfolioError> {
    let mine: Vec<Transaction> = transactions
        .iter()
        .filter(|tx| {
            tx.instrument.as_ref() == Some(&key.instrument)
                && portfolio
                    .account(&tx.account)
                    .is_some_and(|a| a.name == key.account)
        })
        .cloned()
        .collect();
    let order = date_order(&mine);
    let mut ledger = Ledger::start(portfolio);
    let mut next = 0;
    let mut days = Vec::new();
    for day in calendar(&mine, &order, to) {
        let (mut inflow, mut outflow) = (Decimal::ZERO, Decimal::ZERO);
        while let Some(&i) = order.get(next).filter(|&&i| mine[i].date <= day) {
            let tx = &mine[i];
            ledger.record(portfolio, i, tx)?;
            let fee = tx.fee_or_zero();
            match tx.kind {
                TxKind::Buy => inflow += tx.gross() + fee,
                TxKind::TransferIn => inflow += transfer_value(prices, tx, day)? + fee,
                TxKind::Sell => outflow += tx.gross() - fee,
                TxKind::TransferOut => outflow += transfer_value(prices, tx, day)?,
                TxKind::Dividend => outflow += tx.amount - tx.tax - fee,
                _ => {}
            }
            next += 1;
        }
        let held = ledger
            .holding(key)
            .map(|b| b.quantity())
            .unwrap_or_default();
        let value = if held.is_zero() {
            Decimal::ZERO
        } else {
            held * prices.price_on(&key.instrument, day)?
        };
        days.push(DayValue {
            date: day,
            value: money(value),
            inflow: money(inflow),
            outflow: money(outflow),
        });
    }
    Ok(days)
}

/// What transferred units were worth on the day they moved: their market price then, not the
/// cost they carry (counting the cost would show the gap as a gain or loss of the day).
fn transfer_value(
    prices: &PriceBook,
    tx: &Transaction,
    day: Date,
) -> Result<Decimal, PortfolioError> {
    match &tx.instrument {
        Some(instrument) => Ok(money(tx.quantity * prices.price_on(instrument, day)?)),
        None => Ok(Decimal::ZERO),
    }
}

/// Every day from the first record's date to `to`, both included.
fn calendar(transactions: &[Transaction], order: &[usize], to: Date) -> Vec<Date> {
    let Some(first) = order.first().map(|&i| transactions[i].date) else {
        return Vec::new();
    };
    first.series(1.day()).take_while(|d| *d <= to).collect()
}

#[cfg(test)]
mod tests;
