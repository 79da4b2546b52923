//! `nofxi market price|book|klines SYMBOL`: the market-data skill's functions
//! (`get_realtime_price`, `get_order_book`, `get_kline`) from the simulated market (default,
//! offline, deterministic), a venue's public market data (`--source binance|okx|bybit|
//! hyperliquid|bitget`, the choices a paper account's `--market` has), Binance's testnet, or a
//! CSV file of candles.
//!
//! Every call goes through the skill's constraints runtime, as the chat's and the API's do:
//! the arguments against the function's schema and its coverage before any request (`--depth
//! 101` and `--interval 1.5h` are refused naming what is allowed; an index has no order book),
//! the skill's rate limits, and retries with jittered backoff and the venue's Retry-After.
//! A command can wait, so a limit is waited out here rather than refused.
//!
//! Symbols resolve through the alias table (比特币, BTC, btcusdt → BTCUSDT) and the canonical
//! form is printed back so the user sees what was understood; a `CODE.MARKET` symbol
//! (`SPX.IX`) goes to the skill as written.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, Result, anyhow};
use clap::{Args, Subcommand};
use nofxi_assistant::market_data::call::{self, MarketError, patient_runtime};
use nofxi_assistant::market_data::render::error_text;
use nofxi_assistant::market_data::source::{self, DataSource, SourceError};
use nofxi_assistant::market_data::{BookReport, GET_BOOK, GET_KLINE, GET_PRICE, KlineReport};
use nofxi_domain::Interval;
use nofxi_domain::market::Symbol;
use nofxi_domain::moment::{Precision, labelled};
use nofxi_domain::validation::shown_input;
use nofxi_skills::Lang;
use nofxi_skills::runtime::{CallError, Reach, SkillRuntime};
use nofxi_trader::runtime::connect::{DEFAULT_SIM_SEED, binance_endpoints};
use nofxi_venues::binance::{BinanceClient, BinanceMarket, BinanceOptions};
use nofxi_venues::csv_source::CsvMarket;
use nofxi_venues::{Clock, SystemClock};
use serde_json::{Value, json};

use super::common::{block_on, print_json, print_table, usage};
use crate::home::GlobalArgs;

#[derive(Debug, Subcommand)]
pub enum MarketCommand {
    /// Last price, best bid/ask, mark price and 24h volume.
    Price(MarketArgs),
    /// Order book levels, the spread and the bid/ask pressure ratio.
    Book {
        #[command(flatten)]
        args: MarketArgs,
        /// Levels per side, 1–100 (Hyperliquid's book has 20).
        #[arg(long, default_value_t = 5)]
        depth: u64,
    },
    /// Candles (OHLCV), oldest first, with their change, high and low.
    Klines {
        #[command(flatten)]
        args: MarketArgs,
        /// 1m, 3m, 5m, 15m, 30m, 1h, 2h, 4h, 6h, 12h, 1d or 1w (Hyperliquid has no 6h).
        #[arg(long, default_value = "1h")]
        interval: String,
        /// How many candles (1–1000).
        #[arg(long, default_value_t = 20)]
        limit: u64,
        /// First candle at or after this time: epoch milliseconds or RFC 3339.
        #[arg(long)]
        start: Option<String>,
        /// Last candle at or before this time: epoch milliseconds or RFC 3339 (2026-01-01T00:00:00Z).
        #[arg(long)]
        end: Option<String>,
    },
}

#[derive(Debug, Args)]
pub struct MarketArgs {
    /// A symbol, ticker or name: BTCUSDT, btc, 比特币; or CODE.MARKET (NVDA.US, SPX.IX).
    pub symbol: String,
    /// sim (offline, default), binance, okx, bybit, hyperliquid, bitget, binance-testnet, or
    /// csv:PATH (klines from a file).
    #[arg(long, default_value = "sim")]
    pub source: String,
    /// Seed of the simulated market.
    #[arg(long, env = "NOFXI_SIM_SEED", default_value_t = DEFAULT_SIM_SEED)]
    pub seed: u64,
}

/// The source `--source` names.
fn source(args: &MarketArgs, symbol: &str, interval: Interval) -> Result<DataSource> {
    let clock: Arc<dyn Clock> = Arc::new(SystemClock);
    if args.source == "binance-testnet" {
        let client = BinanceClient::new(
            "binance-testnet",
            binance_endpoints(true).map_err(|e| usage(e.to_string()))?,
            None,
            BinanceOptions::default(),
            clock,
        )?;
        return Ok(DataSource {
            market: Arc::new(BinanceMarket::new(Arc::new(client))),
            name: "binance-testnet".into(),
            label: "Binance testnet public market data".into(),
            simulated: false,
            sim_clock: false,
            reach: Reach::Remote,
        });
    }
    if let Some(path) = args.source.strip_prefix("csv:") {
        let symbol = Symbol::parse(symbol).map_err(|e| usage(format!("SYMBOL: {e}")))?;
        let market = CsvMarket::new(clock)
            .with_file(symbol, interval, &PathBuf::from(path))
            .map_err(|e| usage(format!("--source csv:{}: {e}", shown_input(path))))?;
        return Ok(DataSource {
            market: Arc::new(market),
            name: "csv".into(),
            label: format!("candles from {}", shown_input(path)),
            simulated: false,
            sim_clock: false,
            reach: Reach::Local,
        });
    }
    source::named(&args.source, args.seed, Lang::En).map_err(|e| match e {
        SourceError::Unknown(name) => usage(format!(
            "unknown source \"{}\": use sim, binance, okx, bybit, hyperliquid, bitget, binance-testnet or csv:PATH",
            shown_input(&name)
        )),
        SourceError::Connect(c) => usage(c.to_string()),
        SourceError::Store(e) => anyhow!(e.to_string()),
    })
}

fn is_live(args: &MarketArgs) -> bool {
    !(matches!(args.source.as_str(), "sim" | "simulated") || args.source.starts_with("csv:"))
}

/// The SYMBOL argument as the skill takes it. The simulated and CSV sources price whatever
/// they are asked for, so there the coin must be one nofxi knows (else "unknown coin FOO;
/// did you mean …", exit 2); a live venue is itself the authority on what it lists. A
/// `CODE.MARKET` symbol is the skill's to judge (an index has no order book).
fn symbol_arg(args: &MarketArgs) -> Result<String> {
    let said = args.symbol.trim();
    if let Some((code, market)) = said.split_once('.')
        && !code.is_empty()
        && code.chars().all(|c| c.is_ascii_alphanumeric())
        && market.len() == 2
        && market.chars().all(|c| c.is_ascii_alphabetic())
    {
        return Ok(said.to_ascii_uppercase());
    }
    let parsed = if is_live(args) {
        Symbol::parse(said)
    } else {
        Symbol::parse_known(said)
    };
    parsed
        .map(|s| s.to_string())
        .map_err(|e| usage(format!("SYMBOL: {e}")))
}

fn parse_time(text: &str) -> Result<String> {
    let ts: jiff::Timestamp = match text.trim().parse::<i64>() {
        Ok(ms) => jiff::Timestamp::from_millisecond(ms).map_err(|e| usage(e.to_string()))?,
        Err(_) => text.trim().parse().with_context(|| {
            format!(
                "cannot read time \"{}\": use epoch milliseconds or RFC 3339 like 2026-01-01T00:00:00Z",
                shown_input(text)
            )
        })?,
    };
    Ok(ts.to_string())
}

fn utc(ms: i64, source: &DataSource) -> String {
    labelled(ms, Precision::Minute, source.sim_clock, false)
}

/// A call that gave no data: what the skill refused and the arguments' problems are usage
/// errors (exit 2); a source that failed is an error (exit 1).
fn refused(e: &MarketError, function: &str, args: &Value, source: &DataSource) -> anyhow::Error {
    let said = error_text(e, function, args, &source.label, Lang::En);
    match e {
        MarketError::Call(CallError::RateLimited { .. }) => anyhow!(said),
        e if e.source_failed() => anyhow!(said),
        _ => usage(said),
    }
}

pub fn run(global: &GlobalArgs, command: MarketCommand) -> Result<()> {
    block_on(run_async(global, command))?
}

async fn run_async(global: &GlobalArgs, command: MarketCommand) -> Result<()> {
    let runtime = patient_runtime().context("the market-data skill is not loaded")?;
    match command {
        MarketCommand::Price(args) => price(global, &runtime, &args).await,
        MarketCommand::Book { args, depth } => book(global, &runtime, &args, depth).await,
        MarketCommand::Klines {
            args,
            interval,
            limit,
            start,
            end,
        } => {
            let symbol = symbol_arg(&args)?;
            let mut call = json!({"symbol": symbol, "interval": interval, "limit": limit});
            if let Some(start) = start {
                call["start_time"] = Value::String(parse_time(&start)?);
            }
            if let Some(end) = end {
                call["end_time"] = Value::String(parse_time(&end)?);
            }
            let parsed = interval.parse::<Interval>().unwrap_or(Interval::H1);
            let source = source(&args, &symbol, parsed)?;
            let report = call::klines(&runtime, &source, &call)
                .await
                .map_err(|e| refused(&e, GET_KLINE, &call, &source))?;
            if global.json {
                return print_json(&report);
            }
            print_klines(&report, &args, &source);
            Ok(())
        }
    }
}

async fn price(global: &GlobalArgs, runtime: &SkillRuntime, args: &MarketArgs) -> Result<()> {
    let symbol = symbol_arg(args)?;
    let source = source(args, &symbol, Interval::M1)?;
    let call = json!({"symbol": symbol});
    let t = call::price(runtime, &source, &call)
        .await
        .map_err(|e| refused(&e, GET_PRICE, &call, &source))?;
    if global.json {
        return print_json(&t);
    }
    println!("{} · {} · {}", t.symbol, source.name, source.label);
    print_table(
        &["LAST", "BID", "ASK", "MARK", "24H VOLUME", "TIME"],
        &[vec![
            t.last.to_string(),
            t.bid.to_string(),
            t.ask.to_string(),
            t.mark.to_string(),
            t.volume_24h.to_string(),
            utc(t.time_ms, &source),
        ]],
    );
    Ok(())
}

async fn book(
    global: &GlobalArgs,
    runtime: &SkillRuntime,
    args: &MarketArgs,
    depth: u64,
) -> Result<()> {
    let symbol = symbol_arg(args)?;
    let source = source(args, &symbol, Interval::M1)?;
    let call = json!({"symbol": symbol, "depth": depth});
    let report = call::order_book(runtime, &source, &call)
        .await
        .map_err(|e| refused(&e, GET_BOOK, &call, &source))?;
    if global.json {
        return print_json(&report);
    }
    print_book(&report, &source);
    Ok(())
}

fn figure(d: Option<rust_decimal::Decimal>) -> String {
    d.map(|d| d.normalize().to_string())
        .unwrap_or_else(|| "n/a".into())
}

fn print_book(r: &BookReport, source: &DataSource) {
    println!(
        "{} · {} · {} · {}",
        r.symbol,
        source.name,
        source.label,
        utc(r.time_ms, source)
    );
    let rows = (0..r.bids.len().max(r.asks.len()))
        .map(|i| {
            let cell = |l: Option<&nofxi_assistant::market_data::report::Level>| {
                l.map(|l| (l.price.to_string(), l.size.to_string()))
                    .unwrap_or_default()
            };
            let (bp, bq) = cell(r.bids.get(i));
            let (ap, aq) = cell(r.asks.get(i));
            vec![bq, bp, ap, aq]
        })
        .collect::<Vec<_>>();
    print_table(&["BID SIZE", "BID", "ASK", "ASK SIZE"], &rows);
    println!(
        "spread {} ({}%) · bid/ask pressure {} (Σ bids {} / Σ asks {} over {} levels)",
        figure(r.spread),
        figure(r.spread_pct),
        figure(r.pressure_ratio),
        r.bid_size.normalize(),
        r.ask_size.normalize(),
        r.depth
    );
}

fn print_klines(r: &KlineReport, args: &MarketArgs, source: &DataSource) {
    let seed = if source.simulated {
        format!(", seed {}", args.seed)
    } else {
        String::new()
    };
    println!(
        "{} {} · {} · {}{seed}",
        r.symbol, r.interval, source.name, source.label
    );
    let rows: Vec<Vec<String>> = r
        .candles
        .iter()
        .map(|c| {
            vec![
                labelled(c.open_time_ms, Precision::Minute, source.sim_clock, false),
                c.open.to_string(),
                c.high.to_string(),
                c.low.to_string(),
                c.close.to_string(),
                c.volume.to_string(),
            ]
        })
        .collect();
    print_table(
        &["OPEN TIME", "OPEN", "HIGH", "LOW", "CLOSE", "VOLUME"],
        &rows,
    );
    if let Some(s) = r.summary {
        let change = s
            .change_pct
            .map(|c| format!("{}{c}%", if c.is_sign_positive() { "+" } else { "" }))
            .unwrap_or_else(|| "n/a".into());
        println!(
            "{} candles: {change} ({} → {}), high {}, low {}",
            s.count, s.first_open, s.last_close, s.high, s.low
        );
    }
}
