//! `nofxi data download|list`: candle history from a venue's public klines, kept in the data
//! directory (`<home>/history`, see `nofxi paths`) for `nofxi backtest --data EXCHANGE`.
//!
//! The paging, resuming and hole-finding are `nofxi_venues::history`'s; this is the command
//! line around it: flags read and refused by name, a progress bar on a terminal, Ctrl-C that
//! stops between pages, and the report of what was stored and where the holes are.

use std::io::IsTerminal;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::Result;
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use nofxi_domain::Interval;
use nofxi_domain::market::Symbol;
use nofxi_domain::validation::shown_input;
use nofxi_trader::runtime::public_market::{PUBLIC_MARKETS, public_market, public_markets_text};
use nofxi_venues::history::{self, DownloadReport, HistoryStore, Hole, Manifest, SeriesKey};
use nofxi_venues::{Clock, SystemClock};
use serde_json::json;

use super::backtest::parse_time;
use super::common::{block_on, print_json, print_table, time, usage, whole_path};
use crate::home::GlobalArgs;

#[derive(Debug, Subcommand)]
pub enum DataCommand {
    /// Download candles from a venue's public market data (no account needed). Run it again
    /// to resume a run that was stopped: only what is missing is asked for.
    Download(DownloadArgs),
    /// What is stored: exchange, symbol, interval, time covered, candles, holes.
    List,
}

#[derive(Debug, Args)]
pub struct DownloadArgs {
    /// binance, okx, bybit, hyperliquid or bitget.
    #[arg(long)]
    pub exchange: String,
    /// Comma-separated symbols; aliases work (btc,eth).
    #[arg(long, value_delimiter = ',', required = true)]
    pub symbols: Vec<String>,
    /// 1m, 3m, 5m, 15m, 30m, 1h, 2h, 4h, 6h, 12h, 1d, 1w.
    #[arg(long, default_value = "1m")]
    pub interval: Interval,
    /// Start: a date (2025-01-01), an RFC 3339 time, or epoch milliseconds.
    #[arg(long)]
    pub from: String,
    /// End (candles opening before it), in the same forms. Default: now.
    #[arg(long)]
    pub to: Option<String>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// The history directory inside the data directory.
pub fn history_dir(global: &GlobalArgs) -> Result<PathBuf> {
    Ok(global.home_dir()?.join("history"))
}

pub fn run(global: &GlobalArgs, command: DataCommand) -> Result<()> {
    match command {
        DataCommand::Download(args) => block_on(download(global, args))?,
        DataCommand::List => list(global),
    }
}

/// The `--exchange` value, refused by name unless nofxi reads that venue's public klines.
pub fn venue_arg(flag: &str, text: &str) -> Result<String> {
    let venue = text.trim().to_ascii_lowercase();
    if PUBLIC_MARKETS.contains(&venue.as_str()) {
        return Ok(venue);
    }
    Err(usage(format!(
        "{flag} \"{}\" is not a venue nofxi reads market data from: use {}",
        shown_input(text),
        public_markets_text()
    )))
}

async fn download(global: &GlobalArgs, args: DownloadArgs) -> Result<()> {
    let venue = venue_arg("--exchange", &args.exchange)?;
    let mut symbols: Vec<Symbol> = Vec::new();
    for s in &args.symbols {
        let symbol = Symbol::parse(s).map_err(|e| usage(format!("--symbols: {e}")))?;
        if !symbols.contains(&symbol) {
            symbols.push(symbol);
        }
    }
    let clock: Arc<dyn Clock> = Arc::new(SystemClock);
    let now = clock.now_ms();
    let from = parse_time("--from", &args.from)?;
    let to = match &args.to {
        Some(t) => parse_time("--to", t)?,
        None => now,
    };
    if from >= to {
        return Err(usage(format!(
            "--from {} is not before --to {}: give a start earlier than the end",
            time(from),
            time(to)
        )));
    }
    if from >= now {
        return Err(usage(format!(
            "--from {} is in the future: there are no candles yet",
            time(from)
        )));
    }
    let market = public_market(&venue, clock)?
        .ok_or_else(|| usage(format!("--exchange {venue} has no public market data")))?;
    let store = HistoryStore::new(history_dir(global)?);
    let mut plans = Vec::new();
    for symbol in symbols {
        let key = SeriesKey {
            exchange: venue.clone(),
            symbol,
            interval: args.interval,
        };
        plans.push(history::plan(&store, &key, from, to, now)?);
    }
    let pages: u64 = plans.iter().map(|p| p.pages).sum();
    let bar = if args.quiet || global.json || !std::io::stderr().is_terminal() {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(pages)
    };
    bar.set_style(
        ProgressStyle::with_template("{msg:>16} {bar:40} {pos}/{len} pages {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    // Ctrl-C stops after the page in flight; what is stored stays, and the next run resumes.
    let stop = Arc::new(AtomicBool::new(false));
    let stopper = stop.clone();
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            stopper.store(true, Ordering::SeqCst);
        }
    });
    let mut reports = Vec::new();
    for plan in &plans {
        bar.set_message(format!("{} {}", plan.series.symbol, plan.series.interval));
        let mut on_page = |_: history::PageDone| {
            bar.inc(1);
            if stop.load(Ordering::SeqCst) {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        };
        let result = history::download(market.as_ref(), &store, plan, &mut on_page).await;
        let report = match result {
            Ok(r) => r,
            Err(e) => {
                bar.abandon();
                let series = &plan.series;
                return Err(anyhow::anyhow!(
                    "{e}\n{} {} {}: the pages before this error are kept; run the same command \
                     again to resume",
                    series.exchange,
                    series.symbol,
                    series.interval
                ));
            }
        };
        let stopped = !report.complete;
        reports.push(report);
        if stopped {
            break;
        }
    }
    bar.finish_and_clear();
    let stopped = reports.iter().any(|r| !r.complete) || reports.len() < plans.len();
    if global.json {
        let out: Vec<_> = reports.iter().map(report_json).collect();
        print_json(&json!({"exchange": venue, "complete": !stopped, "series": out}))?;
    } else {
        for r in &reports {
            print_report(r);
        }
        println!("stored in {}", whole_path(store.root()));
    }
    if stopped {
        eprintln!("stopped: run the same command again to resume where it stopped");
    }
    Ok(())
}

fn report_json(r: &DownloadReport) -> serde_json::Value {
    json!({
        "symbol": r.series.symbol, "interval": r.series.interval,
        "from_ms": r.range.from_ms, "to_ms": r.range.to_ms,
        "pages": r.pages, "received": r.received, "stored": r.stored,
        "complete": r.complete, "holes": r.holes,
    })
}

fn print_report(r: &DownloadReport) {
    let s = &r.series;
    let asked = if r.pages == 0 {
        "already stored, nothing asked".to_string()
    } else {
        let pages = if r.pages == 1 { "page" } else { "pages" };
        format!("{} candles in {} {pages}", r.received, r.pages)
    };
    println!(
        "{} {} {}  {} to {}  {asked}  ({} stored)",
        s.exchange,
        s.symbol,
        s.interval,
        time(r.range.from_ms),
        time(r.range.to_ms),
        r.stored
    );
    warn_holes(
        &format!("{} {} {}", s.exchange, s.symbol, s.interval),
        &r.holes,
        s.interval,
    );
}

/// Holes said on stderr, the first few with where they are: they are kept as holes.
pub fn warn_holes(series: &str, holes: &[Hole], interval: Interval) {
    const SHOWN: usize = 3;
    for h in holes.iter().take(SHOWN) {
        eprintln!(
            "warning: {series}: hole of {} {interval} candles from {} to {}: the venue has none \
             there; nothing was filled in",
            h.missing,
            time(h.from_ms),
            time(h.to_ms)
        );
    }
    if holes.len() > SHOWN {
        eprintln!("warning: {series}: {} more holes", holes.len() - SHOWN);
    }
}

fn list(global: &GlobalArgs) -> Result<()> {
    let store = HistoryStore::new(history_dir(global)?);
    let manifests = store.manifests()?;
    if global.json {
        return print_json(&manifests);
    }
    let rows: Vec<Vec<String>> = manifests.iter().map(list_row).collect();
    print_table(
        &[
            "EXCHANGE", "SYMBOL", "INTERVAL", "FROM", "TO", "CANDLES", "HOLES",
        ],
        &rows,
    );
    for m in manifests.iter().filter(|m| m.covered.len() > 1) {
        let spans: Vec<String> = m
            .covered
            .iter()
            .map(|s| format!("{} to {}", time(s.from_ms), time(s.to_ms)))
            .collect();
        println!(
            "note: {} {} {} was downloaded in {} separate ranges: {}",
            m.exchange,
            m.symbol,
            m.interval,
            m.covered.len(),
            spans.join(", ")
        );
    }
    Ok(())
}

fn list_row(m: &Manifest) -> Vec<String> {
    let from = m
        .covered
        .first()
        .map(|s| time(s.from_ms))
        .unwrap_or_default();
    let to = m.covered.last().map(|s| time(s.to_ms)).unwrap_or_default();
    let holes = match m.holes.len() {
        0 => "none".to_string(),
        n => format!("{n} ({} candles missing)", m.missing()),
    };
    vec![
        m.exchange.clone(),
        m.symbol.clone(),
        m.interval.to_string(),
        from,
        to,
        m.candles.to_string(),
        holes,
    ]
}
