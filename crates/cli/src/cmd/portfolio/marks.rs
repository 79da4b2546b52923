//! `quote`, `price` and `fx`: what values holdings between their trades.
//!
//! A live quote that is fresh is kept as the day's price mark; a simulated one is only shown
//! (it would value real holdings at made-up prices), and a stale one is shown as stale.

use anyhow::Result;
use clap::Args;
use jiff::civil::Date;
use nofxi_domain::validation::shown_input;
use nofxi_portfolio::domain::{Currency, FxMark, Instrument, PriceMark};
use nofxi_quotes::{LiveConfig, Quotes};
use rust_decimal::Decimal;

use super::valuation_day;
use crate::cmd::common::{block_on, decimal_arg, open_store, print_json, usage};
use crate::home::GlobalArgs;

#[derive(Debug, Args)]
pub struct QuoteArgs {
    /// Codes: 600519, 00700.HK, AAPL.US, MARKET:CODE (CRYPTO:BTC, FUND:110022).
    #[arg(required = true)]
    pub codes: Vec<String>,
    /// Ask the public feeds (Tencent, Sina, Eastmoney, Binance) instead of the simulated
    /// market; a fresh live quote is kept as the day's price of the instrument.
    #[arg(long)]
    pub live: bool,
}

#[derive(Debug, Args)]
pub struct PriceArgs {
    /// The code: 600519, 600519.SH, 00700.HK, AAPL, or MARKET:CODE (FUND:110022).
    pub code: String,
    /// The price per unit in the instrument's currency.
    #[arg(value_parser = decimal_arg, allow_hyphen_values = true)]
    pub price: Decimal,
    /// The day it was the price of (YYYY-MM-DD); today by default.
    #[arg(long, value_name = "DATE")]
    pub date: Option<String>,
}

#[derive(Debug, Args)]
pub struct FxArgs {
    /// The currency converted from (HKD).
    pub from: String,
    /// The currency converted to (CNY).
    pub to: String,
    /// Units of `to` that one `from` buys.
    #[arg(value_parser = decimal_arg, allow_hyphen_values = true)]
    pub rate: Decimal,
    /// The day of the rate (YYYY-MM-DD); today by default.
    #[arg(long, value_name = "DATE")]
    pub date: Option<String>,
}

/// A code as the user types it: `MARKET:CODE`, or anything a CSV's code column accepts.
pub fn parse_code(text: &str) -> Result<Instrument> {
    nofxi_portfolio::csv_io::code(text).map_err(|e| usage(format!("{}: {e}", shown_input(text))))
}

fn day(date: Option<&str>) -> Result<Date> {
    valuation_day(date).map_err(|_| {
        usage(format!(
            "--date: `{}` is not a date; use YYYY-MM-DD",
            shown_input(date.unwrap_or_default())
        ))
    })
}

pub fn quote(global: &GlobalArgs, args: QuoteArgs) -> Result<()> {
    let instruments = args
        .codes
        .iter()
        .map(|c| parse_code(c))
        .collect::<Result<Vec<_>>>()?;
    let quotes = if args.live {
        Quotes::live(LiveConfig::builtin()?)?
    } else {
        Quotes::offline()
    };
    block_on(async {
        let store = open_store(global).await?;
        let now = jiff::Timestamp::now();
        let mut shown = Vec::new();
        let mut marks = Vec::new();
        let mut failures = Vec::new();
        for instrument in &instruments {
            match quotes.quote(instrument, now).await {
                Ok(q) => {
                    if !q.simulated && !q.stale {
                        marks.push(PriceMark {
                            instrument: q.instrument.clone(),
                            date: q
                                .as_of
                                .to_zoned_datetime(jiff::tz::TimeZone::system())
                                .date(),
                            price: q.last,
                            source: q.source.name().to_string(),
                        });
                    }
                    shown.push(q);
                }
                Err(e) => failures.push(format!("{}: {e}", instrument.key())),
            }
        }
        store.record_price_marks(&global.user, &marks).await?;
        if global.json {
            print_json(&serde_json::json!({"quotes": shown, "failures": failures}))?;
        } else {
            for q in &shown {
                let label = if q.simulated {
                    " (simulated, not a market price; not kept)"
                } else if q.stale {
                    " (stale: older than the last session; not kept)"
                } else {
                    ""
                };
                println!(
                    "{} {} {} {} at {} from {}{label}",
                    q.instrument.key(),
                    q.name.as_deref().unwrap_or(""),
                    q.last,
                    q.instrument.currency,
                    q.as_of,
                    q.source.name()
                );
            }
            for f in &failures {
                eprintln!("error: {f}");
            }
        }
        if !failures.is_empty() {
            anyhow::bail!(
                "{} of {} quote(s) failed",
                failures.len(),
                instruments.len()
            );
        }
        Ok(())
    })?
}

pub fn price(global: &GlobalArgs, args: PriceArgs) -> Result<()> {
    let mark = PriceMark {
        instrument: parse_code(&args.code)?,
        date: day(args.date.as_deref())?,
        price: args.price,
        source: "user".into(),
    };
    block_on(async {
        let store = open_store(global).await?;
        store
            .record_price_marks(&global.user, std::slice::from_ref(&mark))
            .await?;
        if global.json {
            return print_json(&mark);
        }
        println!(
            "Recorded {} at {} {} on {}",
            mark.instrument.key(),
            mark.price,
            mark.instrument.currency,
            mark.date
        );
        Ok(())
    })?
}

pub fn fx(global: &GlobalArgs, args: FxArgs) -> Result<()> {
    let currency = |flag: &str, text: &str| -> Result<Currency> {
        text.parse().map_err(|e| usage(format!("{flag}: {e}")))
    };
    let mark = FxMark {
        from: currency("FROM", &args.from)?,
        to: currency("TO", &args.to)?,
        date: day(args.date.as_deref())?,
        rate: args.rate,
        source: "user".into(),
    };
    block_on(async {
        let store = open_store(global).await?;
        store
            .record_fx_marks(&global.user, std::slice::from_ref(&mark))
            .await?;
        if global.json {
            return print_json(&mark);
        }
        println!(
            "Recorded 1 {} = {} {} on {}",
            mark.from, mark.rate, mark.to, mark.date
        );
        Ok(())
    })?
}
