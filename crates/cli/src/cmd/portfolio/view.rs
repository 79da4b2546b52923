//! `show`, `lots` and `perf`: the snapshot printed three ways (or as JSON with `--json`).

use anyhow::Result;
use jiff::civil::Date;
use nofxi_portfolio::domain::{Portfolio, Transaction};
use nofxi_portfolio::lots::Ledger;
use nofxi_portfolio::performance::{
    Figure, Period, Slice, Snapshot, Warning, per_currency, snapshot, with_fees,
};
use rust_decimal::Decimal;
use serde::Serialize;

use super::{ShowArgs, pick, valuation_day};
use crate::cmd::common::{block_on, open_store, print_json, print_table};
use crate::home::GlobalArgs;

/// The portfolio, its records and its snapshot on the asked day.
async fn load(
    global: &GlobalArgs,
    args: &ShowArgs,
) -> Result<(Portfolio, Vec<Transaction>, Snapshot)> {
    let on = valuation_day(args.on.as_deref())?;
    let store = open_store(global).await?;
    let portfolio = pick(&store, global, args.name.as_deref()).await?;
    let book = store.portfolio_book(&global.user, &portfolio.name).await?;
    let shot = snapshot(&portfolio, &book.records, &book.prices, &book.rates, on)?;
    Ok((portfolio, book.records, shot))
}

pub fn show(global: &GlobalArgs, args: ShowArgs) -> Result<()> {
    block_on(async {
        let shot = match load(global, &args).await {
            Ok((_, _, shot)) => shot,
            // A missing exchange rate stops the totals, not the holdings: each currency is
            // shown on its own after saying which rate to add (not in --json, whose shape
            // is one snapshot).
            Err(e) if !global.json && missing_rate(&e) => {
                let on = valuation_day(args.on.as_deref())?;
                let store = open_store(global).await?;
                let portfolio = pick(&store, global, args.name.as_deref()).await?;
                let book = store.portfolio_book(&global.user, &portfolio.name).await?;
                eprintln!(
                    "warning: {e}\nwarning: totals in {} need that rate (`nofxi portfolio fx`); each currency on its own:",
                    portfolio.base_currency
                );
                for part in per_currency(&portfolio, &book.records, &book.prices, &book.rates, on)?
                {
                    print_snapshot(&part);
                }
                return Ok(());
            }
            Err(e) => return Err(e),
        };
        if global.json {
            return print_json(&shot);
        }
        print_snapshot(&shot);
        Ok(())
    })?
}

/// Whether a refusal is a missing exchange rate.
fn missing_rate(e: &anyhow::Error) -> bool {
    e.downcast_ref::<nofxi_portfolio::PortfolioError>()
        .is_some_and(|p| p.fields().any(|f| f.starts_with("fx_rate")))
}

/// A snapshot as the terminal shows it: holdings, cash, totals with their basis, warnings.
fn print_snapshot(shot: &Snapshot) {
    println!(
        "{} on {} — {} record(s), cost method {}, totals in {}",
        shot.portfolio, shot.on, shot.records, shot.cost_method, shot.base_currency
    );
    let rows: Vec<Vec<String>> = shot
        .holdings
        .iter()
        .map(|h| {
            let p = &h.pnl;
            vec![
                p.key.instrument.key(),
                p.key.account.clone(),
                p.quantity.normalize().to_string(),
                p.unit_cost.to_string(),
                price_cell(p.price, h.priced_at, shot.on),
                amount(p.market_value),
                amount(p.unrealized.value),
                amount(p.realized.value),
                p.key.instrument.currency.to_string(),
            ]
        })
        .collect();
    print_table(
        &[
            "HOLDING",
            "ACCOUNT",
            "QTY",
            "UNIT COST",
            "PRICE",
            "VALUE",
            "UNREALIZED",
            "REALIZED",
            "CCY",
        ],
        &rows,
    );
    for c in &shot.cash {
        println!("cash {} {} {}", c.account, amount(c.amount), c.currency);
    }
    println!(
        "value {} {}; unrealized {}; realized {}",
        amount(shot.value),
        shot.base_currency,
        amount(shot.unrealized.value),
        amount(shot.realized.value)
    );
    print_basis(&[&shot.unrealized, &shot.realized]);
    print_warnings(&shot.warnings);
}

/// The price, and its date when it is not the valuation day's.
fn price_cell(price: Decimal, at: Option<jiff::civil::Date>, on: jiff::civil::Date) -> String {
    match at {
        Some(at) if at < on => format!("{price} ({at})"),
        Some(_) => price.to_string(),
        None => "-".into(),
    }
}

#[derive(Serialize)]
struct LotRow {
    holding: String,
    account: String,
    lot: String,
    opened: jiff::civil::Date,
    quantity: Decimal,
    cost: Decimal,
    unit_cost: Decimal,
    currency: String,
}

pub fn lots(global: &GlobalArgs, args: ShowArgs) -> Result<()> {
    block_on(async {
        let on = valuation_day(args.on.as_deref())?;
        let store = open_store(global).await?;
        let portfolio = pick(&store, global, args.name.as_deref()).await?;
        let book = store.portfolio_book(&global.user, &portfolio.name).await?;
        // Lots are each in their instrument's currency and need no rate. What the snapshot
        // refuses is still refused, but a missing rate stops only totals, which this does not
        // print: it is said as `show` says it, and the lots are listed currency by currency,
        // as `show` then lists each currency on its own.
        let by_currency = match snapshot(&portfolio, &book.records, &book.prices, &book.rates, on) {
            Ok(_) => false,
            Err(e) => {
                let e = anyhow::Error::from(e);
                if !missing_rate(&e) {
                    return Err(e);
                }
                eprintln!(
                    "warning: {e}\nwarning: totals in {} need that rate (`nofxi portfolio fx`); the lots, each currency on its own:",
                    portfolio.base_currency
                );
                true
            }
        };
        let rows = lot_rows(&portfolio, &book.records, on)?;
        if global.json {
            return print_json(&rows);
        }
        println!(
            "Open lots of {} on {on} (cost method {})",
            portfolio.name, portfolio.cost_method
        );
        if !by_currency {
            print_lots(rows.iter());
            return Ok(());
        }
        let mut currencies: Vec<&str> = rows.iter().map(|r| r.currency.as_str()).collect();
        currencies.sort_unstable();
        currencies.dedup();
        for currency in currencies {
            println!("\nIn {currency}:");
            print_lots(rows.iter().filter(|r| r.currency == currency));
        }
        Ok(())
    })?
}

/// The open lots of every holding on `on`, replayed from the records up to that day.
fn lot_rows(portfolio: &Portfolio, records: &[Transaction], on: Date) -> Result<Vec<LotRow>> {
    let upto: Vec<Transaction> = with_fees(records)?
        .into_iter()
        .filter(|t| t.date <= on)
        .collect();
    let ledger = Ledger::replay(portfolio, &upto)?;
    Ok(ledger
        .holdings()
        .flat_map(|h| {
            h.book.lots().iter().map(move |lot| LotRow {
                holding: h.key.instrument.key(),
                account: h.key.account.clone(),
                lot: lot.id.clone(),
                opened: lot.opened,
                quantity: lot.quantity,
                cost: lot.cost,
                unit_cost: lot.unit_cost(),
                currency: h.key.instrument.currency.to_string(),
            })
        })
        .collect())
}

fn print_lots<'a>(rows: impl Iterator<Item = &'a LotRow>) {
    let table: Vec<Vec<String>> = rows
        .map(|r| {
            vec![
                r.holding.clone(),
                r.account.clone(),
                r.lot.clone(),
                r.opened.to_string(),
                r.quantity.normalize().to_string(),
                amount(r.cost),
                r.unit_cost.to_string(),
                r.currency.clone(),
            ]
        })
        .collect();
    print_table(
        &[
            "HOLDING",
            "ACCOUNT",
            "LOT",
            "OPENED",
            "QTY",
            "COST",
            "UNIT COST",
            "CCY",
        ],
        &table,
    );
}

pub fn perf(global: &GlobalArgs, args: ShowArgs) -> Result<()> {
    block_on(async {
        let (_, _, shot) = load(global, &args).await?;
        if global.json {
            return print_json(&serde_json::json!({
                "portfolio": shot.portfolio,
                "on": shot.on,
                "base_currency": shot.base_currency,
                "value": shot.value,
                "unrealized": shot.unrealized,
                "realized": shot.realized,
                "returns": shot.returns,
                "allocation": shot.allocation,
                "warnings": shot.warnings,
            }));
        }
        println!("Returns of {} to {}", shot.portfolio, shot.on);
        let rows: Vec<Vec<String>> = shot
            .returns
            .iter()
            .map(|r| {
                vec![
                    period_name(r.period).to_string(),
                    percent(r.time_weighted.value),
                    r.money_weighted
                        .as_ref()
                        .map_or("-".into(), |f| percent(f.value)),
                ]
            })
            .collect();
        print_table(
            &["PERIOD", "TIME-WEIGHTED", "MONEY-WEIGHTED (YEARLY)"],
            &rows,
        );
        if let Some(all) = shot.returns.last() {
            let mut figures = vec![&all.time_weighted];
            figures.extend(all.money_weighted.as_ref());
            print_basis(&figures);
        }
        for (by, slices) in [
            ("market", &shot.allocation.market),
            ("currency", &shot.allocation.currency),
            ("holding", &shot.allocation.holding),
        ] {
            println!("\nAllocation by {by} ({})", shot.base_currency);
            print_table(&["", "VALUE", "WEIGHT"], &slice_rows(slices));
        }
        print_warnings(&shot.warnings);
        Ok(())
    })?
}

fn slice_rows(slices: &[Slice]) -> Vec<Vec<String>> {
    slices
        .iter()
        .map(|s| vec![s.label.clone(), amount(s.value), percent(s.weight.value)])
        .collect()
}

fn period_name(period: Period) -> &'static str {
    match period {
        Period::Today => "today",
        Period::MonthToDate => "month to date",
        Period::YearToDate => "year to date",
        Period::OneYear => "1 year",
        Period::All => "all",
    }
}

/// Money with its two decimals (9300 → 9300.00), as statements print it.
fn amount(value: Decimal) -> String {
    let mut value = value;
    value.rescale(2);
    value.to_string()
}

/// A ratio as a percentage with two decimals (0.0078159 → 0.78 %).
fn percent(ratio: Decimal) -> String {
    format!(
        "{} %",
        (ratio * Decimal::ONE_HUNDRED)
            .round_dp_with_strategy(2, rust_decimal::RoundingStrategy::MidpointAwayFromZero)
    )
}

fn print_basis(figures: &[&Figure]) {
    for f in figures {
        println!("  basis: {}", f.basis.describe(false));
    }
}

fn print_warnings(warnings: &[Warning]) {
    for w in warnings {
        let text = match w {
            Warning::OldPrice {
                instrument,
                priced_at,
            } => format!(
                "{instrument} is valued at its price of {priced_at}: run `nofxi portfolio quote {instrument} --live`, or record a close with `nofxi portfolio price`"
            ),
            Warning::NegativeCash {
                account,
                currency,
                amount,
            } => format!(
                "cash in {account} is {amount} {currency}: the deposits that paid for the trades are missing, so returns mean little; add them as DEPOSIT rows"
            ),
            Warning::NoReturns { reason } => format!("no returns: {reason}"),
        };
        eprintln!("warning: {text}");
    }
}
