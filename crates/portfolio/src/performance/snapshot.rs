//! One day's picture of a portfolio as every front end shows it (CLI, web, chat): holdings with
//! their price, P&L and weight, cash, totals, returns for the usual windows, and allocation.
//!
//! Computed from the records as stored: missing fees are filled from the schedules on a working
//! copy, trades price their own dates and marks (quotes, closes typed in) the others. Each
//! holding says the date of the price it was valued at, so a week-old price is never shown as
//! today's. What makes a figure unreliable is said in `warnings` instead of being hidden.

use std::cmp::Reverse;

use jiff::civil::Date;
use rust_decimal::Decimal;
use serde::Serialize;

use super::allocation::{AllocationBy, Slice, allocation};
use super::basis::{Figure, Period};
use super::pnl::{HoldingPnl, pnl};
use super::returns::{Returns, returns};
use super::series::{PriceBook, portfolio_days};
use crate::domain::money::money;
use crate::domain::{CostMethod, Currency, FxMark, FxTable, Portfolio, PriceMark, Transaction};
use crate::error::PortfolioError;
use crate::fees::{FeeSchedules, fill_fees};
use crate::lots::Ledger;

/// A holding on the day, with the date of the price it was valued at.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct PricedHolding {
    #[serde(flatten)]
    pub pnl: HoldingPnl,
    /// `None` for a holding sold out.
    #[schemars(with = "Option<String>")]
    pub priced_at: Option<Date>,
}

/// Cash in one account and currency.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct CashBalance {
    pub account: String,
    pub currency: Currency,
    pub amount: Decimal,
}

/// Allocation three ways.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Allocations {
    pub market: Vec<Slice>,
    pub currency: Vec<Slice>,
    pub holding: Vec<Slice>,
}

/// Everything shown about a portfolio on `on`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Snapshot {
    pub portfolio: String,
    pub base_currency: Currency,
    pub cost_method: CostMethod,
    #[schemars(with = "String")]
    pub on: Date,
    pub records: usize,
    /// Open holdings first (largest value first), then those sold out.
    pub holdings: Vec<PricedHolding>,
    pub cash: Vec<CashBalance>,
    /// Holdings and cash in the base currency.
    pub value: Decimal,
    pub unrealized: Figure,
    pub realized: Figure,
    /// Today, month to date, year to date, one year, all; empty with nothing recorded.
    pub returns: Vec<Returns>,
    pub allocation: Allocations,
    pub warnings: Vec<Warning>,
}

/// The windows a snapshot reports returns for.
pub const PERIODS: [Period; 5] = [
    Period::Today,
    Period::MonthToDate,
    Period::YearToDate,
    Period::OneYear,
    Period::All,
];

/// The transactions with their missing fees computed from the embedded schedules.
pub fn with_fees(records: &[Transaction]) -> Result<Vec<Transaction>, PortfolioError> {
    let mut working = records.to_vec();
    fill_fees(&FeeSchedules::embedded()?, &mut working)?;
    Ok(working)
}

/// The prices a valuation uses: every trade's, then the marks (a mark beats a trade price of
/// the same date: a close is the day's value, a trade only one moment of it).
pub fn price_book(records: &[Transaction], marks: &[PriceMark]) -> PriceBook {
    let mut book = PriceBook::with_trade_prices(records);
    for mark in marks {
        book.insert(&mark.instrument, mark.date, mark.price);
    }
    book
}

/// The rates a valuation uses, in `base`.
pub fn fx_table(base: &Currency, marks: &[FxMark]) -> Result<FxTable, PortfolioError> {
    let mut fx = FxTable::new(base.clone());
    for mark in marks {
        fx.insert(mark.from.clone(), mark.to.clone(), mark.date, mark.rate)?;
    }
    Ok(fx)
}

/// The portfolio on `on`, from its stored records and marks.
pub fn snapshot(
    portfolio: &Portfolio,
    records: &[Transaction],
    prices: &[PriceMark],
    rates: &[FxMark],
    on: Date,
) -> Result<Snapshot, PortfolioError> {
    let working = with_fees(records)?;
    let upto: Vec<Transaction> = working.iter().filter(|t| t.date <= on).cloned().collect();
    let book = price_book(&upto, prices);
    let fx = fx_table(&portfolio.base_currency, rates)?;
    let ledger = Ledger::replay(portfolio, &upto)?;
    let result = pnl(portfolio, &ledger, &book, &fx, on)?;
    let by = |how| allocation(&ledger, &book, &fx, how, on);
    let allocation = Allocations {
        market: by(AllocationBy::Market)?,
        currency: by(AllocationBy::Currency)?,
        holding: by(AllocationBy::Holding)?,
    };
    let value = money(allocation.market.iter().map(|s| s.value).sum());
    let cash: Vec<CashBalance> = ledger
        .cash()
        .iter()
        .map(|((account, currency), amount)| CashBalance {
            account: account.clone(),
            currency: currency.clone(),
            amount: *amount,
        })
        .collect();
    // Returns need every flow that brought value in; without them the holdings and P&L are
    // still right, so the snapshot is kept and the returns' absence is a warning saying what
    // to add, never a refusal of the whole report.
    let (returns, no_returns) = match all_returns(portfolio, &upto, &book, &fx, on) {
        Ok(returns) => (returns, None),
        Err(e) => (
            Vec::new(),
            Some(Warning::NoReturns {
                reason: e.to_string(),
            }),
        ),
    };
    let mut holdings: Vec<PricedHolding> = result
        .holdings
        .into_iter()
        .map(|pnl| PricedHolding {
            priced_at: (!pnl.quantity.is_zero())
                .then(|| book.priced_on(&pnl.key.instrument, on))
                .flatten(),
            pnl,
        })
        .collect();
    holdings.sort_by_key(|h| (h.pnl.quantity.is_zero(), Reverse(h.pnl.market_value)));
    let mut warnings = warnings(&holdings, &cash, on);
    warnings.extend(no_returns);
    Ok(Snapshot {
        portfolio: portfolio.name.clone(),
        base_currency: portfolio.base_currency.clone(),
        cost_method: portfolio.cost_method,
        on,
        records: upto.len(),
        holdings,
        cash,
        value,
        unrealized: result.unrealized,
        realized: result.realized,
        returns,
        allocation,
        warnings,
    })
}

/// The portfolio split by currency, each part valued in its own currency with no exchange
/// rate: what can still be shown when a rate to the base currency is missing. A part holds
/// the records made in its currency (its instruments' trades, its cash).
pub fn per_currency(
    portfolio: &Portfolio,
    records: &[Transaction],
    prices: &[PriceMark],
    rates: &[FxMark],
    on: Date,
) -> Result<Vec<Snapshot>, PortfolioError> {
    let mut currencies: Vec<&Currency> = records.iter().map(|t| &t.currency).collect();
    currencies.sort();
    currencies.dedup();
    currencies
        .into_iter()
        .map(|currency| {
            let mut part = portfolio.clone();
            part.base_currency = currency.clone();
            let own: Vec<Transaction> = records
                .iter()
                .filter(|t| &t.currency == currency)
                .cloned()
                .collect();
            snapshot(&part, &own, prices, rates, on)
        })
        .collect()
}

/// The returns of every period; none with nothing recorded.
fn all_returns(
    portfolio: &Portfolio,
    upto: &[Transaction],
    book: &PriceBook,
    fx: &FxTable,
    on: Date,
) -> Result<Vec<Returns>, PortfolioError> {
    if upto.is_empty() {
        return Ok(Vec::new());
    }
    let days = portfolio_days(portfolio, upto, book, fx, on)?;
    PERIODS
        .iter()
        .map(|&period| returns(&days, period, on, &portfolio.base_currency))
        .collect()
}

/// What makes a figure less than it seems; each front end words it in the user's language.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(tag = "warning", rename_all = "snake_case")]
pub enum Warning {
    /// The holding is valued at a price older than the valuation date.
    OldPrice {
        instrument: String,
        #[schemars(with = "String")]
        priced_at: Date,
    },
    /// Cash below zero: trades imported without the deposits that paid for them, which makes
    /// the returns meaningless.
    NegativeCash {
        account: String,
        currency: Currency,
        amount: Decimal,
    },
    /// No return could be computed (a flow is missing); `reason` names what to add.
    NoReturns { reason: String },
}

fn warnings(holdings: &[PricedHolding], cash: &[CashBalance], on: Date) -> Vec<Warning> {
    let old = holdings.iter().filter_map(|h| {
        let at = h.priced_at.filter(|&at| at < on)?;
        Some(Warning::OldPrice {
            instrument: h.pnl.key.instrument.key(),
            priced_at: at,
        })
    });
    let negative =
        cash.iter()
            .filter(|c| c.amount < Decimal::ZERO)
            .map(|c| Warning::NegativeCash {
                account: c.account.clone(),
                currency: c.currency.clone(),
                amount: c.amount,
            });
    old.chain(negative).collect()
}
