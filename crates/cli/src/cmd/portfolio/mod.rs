//! `nofxi portfolio`: a personal investor's holdings (seed 001). Create a portfolio, import a
//! broker's CSV (previewed, duplicates skipped, all or nothing), see holdings, lots, P&L and
//! returns, export, and price holdings with quotes or closes typed in.
//!
//! Every figure comes from the portfolio crate's snapshot, the same one the web app and the
//! assistant show; this module only reads arguments and prints.

mod import;
mod marks;
mod view;

use anyhow::Result;
use clap::{Args, Subcommand};
use jiff::civil::Date;
use nofxi_domain::validation::shown_input;
use nofxi_portfolio::domain::{Account, CostMethod, Currency, Portfolio};

use super::common::{actor, block_on, open_store, print_json, print_table, shown_path, usage};
use crate::home::GlobalArgs;

#[derive(Debug, Subcommand)]
pub enum PortfolioCommand {
    /// Create a portfolio with its accounts: `nofxi portfolio add mine --account huatai:CNY`.
    Add(AddArgs),
    /// The portfolios, with their accounts and how many records each holds.
    List,
    /// Holdings, cash, P&L and warnings on a day (today by default).
    Show(ShowArgs),
    /// Read a CSV of transactions: shows what would be written, then writes the new rows.
    Import(import::ImportArgs),
    /// Write the transactions as CSV or JSON (to stdout, or `--out FILE`).
    Export(ExportArgs),
    /// The open lots of each holding, with their dates and unit costs.
    Lots(ShowArgs),
    /// Returns (time- and money-weighted) for today, MTD, YTD, 1 year and all, and allocation.
    Perf(ShowArgs),
    /// Quotes for codes (`600519`, `00700.HK`, `AAPL.US`, `CRYPTO:BTC`); simulated unless `--live`.
    Quote(marks::QuoteArgs),
    /// Record a price on a date (a close from your broker), used to value holdings.
    Price(marks::PriceArgs),
    /// Record an exchange rate on a date, for totals in the base currency.
    Fx(marks::FxArgs),
}

#[derive(Debug, Args)]
pub struct AddArgs {
    /// The portfolio's name.
    pub name: String,
    /// The currency totals are shown in.
    #[arg(long, default_value = "CNY")]
    pub base: String,
    /// How a sale picks its lots: fifo, average, lifo, hifo or specific.
    #[arg(long, default_value = "fifo")]
    pub method: String,
    /// An account as NAME or NAME:CURRENCY (repeat for several); a CSV's `account` column
    /// names these. Default: one account called `main` in the base currency.
    #[arg(long = "account", value_name = "NAME[:CURRENCY]")]
    pub accounts: Vec<String>,
}

#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The portfolio's name (optional when there is only one).
    pub name: Option<String>,
    /// The valuation day (YYYY-MM-DD); today by default.
    #[arg(long, value_name = "DATE")]
    pub on: Option<String>,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The portfolio's name (optional when there is only one).
    pub name: Option<String>,
    /// csv or json.
    #[arg(long, default_value = "csv")]
    pub format: String,
    /// Write to this file instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub out: Option<std::path::PathBuf>,
}

pub fn run(global: &GlobalArgs, command: PortfolioCommand) -> Result<()> {
    match command {
        PortfolioCommand::Add(args) => add(global, args),
        PortfolioCommand::List => list(global),
        PortfolioCommand::Show(args) => view::show(global, args),
        PortfolioCommand::Import(args) => import::run(global, args),
        PortfolioCommand::Export(args) => export(global, args),
        PortfolioCommand::Lots(args) => view::lots(global, args),
        PortfolioCommand::Perf(args) => view::perf(global, args),
        PortfolioCommand::Quote(args) => marks::quote(global, args),
        PortfolioCommand::Price(args) => marks::price(global, args),
        PortfolioCommand::Fx(args) => marks::fx(global, args),
    }
}

fn add(global: &GlobalArgs, args: AddArgs) -> Result<()> {
    let base: Currency = args
        .base
        .parse()
        .map_err(|e| usage(format!("--base: {e}")))?;
    let method: CostMethod = args
        .method
        .parse()
        .map_err(|e| usage(format!("--method: {e}")))?;
    let mut portfolio = Portfolio::new(&args.name, base.clone());
    portfolio.cost_method = method;
    if args.accounts.is_empty() {
        portfolio.accounts.push(Account {
            name: "main".into(),
            broker: String::new(),
            currency: base,
        });
    }
    for spec in &args.accounts {
        portfolio
            .accounts
            .push(account(spec, &portfolio.base_currency)?);
    }
    block_on(async {
        let store = open_store(global).await?;
        store.create_portfolio(&actor(global), &portfolio).await?;
        if global.json {
            return print_json(&portfolio);
        }
        let names: Vec<String> = portfolio
            .accounts
            .iter()
            .map(|a| format!("{} ({})", a.name, a.currency))
            .collect();
        println!(
            "Created portfolio {} (base {}, {}), accounts: {}. Next: nofxi portfolio import {} FILE.csv",
            portfolio.name,
            portfolio.base_currency,
            portfolio.cost_method,
            names.join(", "),
            portfolio.name
        );
        Ok(())
    })?
}

/// `NAME` or `NAME:CURRENCY`.
fn account(spec: &str, base: &Currency) -> Result<Account> {
    let (name, currency) = match spec.rsplit_once(':') {
        Some((name, ccy)) => (
            name,
            ccy.parse()
                .map_err(|e| usage(format!("--account {}: {e}", shown_input(spec))))?,
        ),
        None => (spec, base.clone()),
    };
    Ok(Account {
        name: name.trim().to_string(),
        broker: String::new(),
        currency,
    })
}

fn list(global: &GlobalArgs) -> Result<()> {
    block_on(async {
        let store = open_store(global).await?;
        let portfolios = store.portfolios(&global.user).await?;
        let mut rows = Vec::new();
        let mut json = Vec::new();
        for p in &portfolios {
            let records = store
                .portfolio_transactions(&global.user, &p.name)
                .await?
                .len();
            let accounts: Vec<String> = p
                .accounts
                .iter()
                .map(|a| format!("{}:{}", a.name, a.currency))
                .collect();
            rows.push(vec![
                p.name.clone(),
                p.base_currency.to_string(),
                p.cost_method.to_string(),
                accounts.join(" "),
                records.to_string(),
            ]);
            json.push(serde_json::json!({"portfolio": p, "records": records}));
        }
        if global.json {
            return print_json(&json);
        }
        print_table(&["NAME", "BASE", "METHOD", "ACCOUNTS", "RECORDS"], &rows);
        Ok(())
    })?
}

fn export(global: &GlobalArgs, args: ExportArgs) -> Result<()> {
    block_on(async {
        let store = open_store(global).await?;
        let portfolio = pick(&store, global, args.name.as_deref()).await?;
        let records = store
            .portfolio_transactions(&global.user, &portfolio.name)
            .await?;
        let text = match args.format.to_ascii_lowercase().as_str() {
            "csv" => nofxi_portfolio::csv_io::to_csv(&records)?,
            "json" => nofxi_portfolio::csv_io::to_json(&records)?,
            other => {
                return Err(usage(format!(
                    "--format: `{}` is not a format; use csv or json",
                    shown_input(other)
                )));
            }
        };
        match &args.out {
            Some(path) => {
                std::fs::write(path, text)
                    .map_err(|e| usage(format!("--out: cannot write {}: {e}", shown_path(path))))?;
                eprintln!("Wrote {} record(s) to {}", records.len(), shown_path(path));
            }
            None => print!("{text}"),
        }
        Ok(())
    })?
}

/// The portfolio named, or the only one when no name is given.
async fn pick(
    store: &nofxi_store::Store,
    global: &GlobalArgs,
    name: Option<&str>,
) -> Result<Portfolio> {
    if let Some(name) = name {
        return Ok(store.portfolio(&global.user, name).await?);
    }
    let mut all = store.portfolios(&global.user).await?;
    match all.len() {
        1 => Ok(all.remove(0)),
        0 => Err(usage(
            "there is no portfolio yet: create one with `nofxi portfolio add NAME`",
        )),
        _ => {
            let names: Vec<&str> = all.iter().map(|p| p.name.as_str()).collect();
            Err(usage(format!(
                "there are several portfolios ({}): name the one you mean",
                names.join(", ")
            )))
        }
    }
}

/// `--on DATE`, or today on this machine's calendar.
fn valuation_day(on: Option<&str>) -> Result<Date> {
    match on {
        Some(text) => text.trim().parse().map_err(|e: jiff::Error| {
            usage(format!(
                "--on: `{}` is not a date ({e}); use YYYY-MM-DD",
                shown_input(text)
            ))
        }),
        None => Ok(jiff::ZonedDateTime::now().date()),
    }
}
