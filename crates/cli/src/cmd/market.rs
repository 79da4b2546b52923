//! `nofxi market price|book|klines SYMBOL`: market data from the simulated market (default,
//! offline, deterministic), Binance futures public data, or a CSV file.
//!
//! Symbols resolve through the alias table (比特币, BTC, btcusdt → BTCUSDT) and the canonical
//! form is printed back so the user sees what was understood.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};
use nofxi_domain::Interval;
use nofxi_domain::market::{Candle, Symbol};
use nofxi_domain::validation::shown_input;
use nofxi_trader::runtime::connect::{DEFAULT_SIM_SEED, binance_endpoints};
use nofxi_venues::binance::{BinanceClient, BinanceMarket, BinanceOptions};
use nofxi_venues::csv_source::CsvMarket;
use nofxi_venues::sim::SimMarket;
use nofxi_venues::{Clock, KlineQuery, MarketData, SystemClock};
use serde_json::json;

use super::common::{block_on, print_json, print_table, usage};
use crate::home::GlobalArgs;

#[derive(Debug, Subcommand)]
pub enum MarketCommand {
    /// Last price, best bid/ask, mark price and 24h volume.
    Price(MarketArgs),
    /// Order book levels and the bid/ask pressure ratio.
    Book {
        #[command(flatten)]
        args: MarketArgs,
        /// Levels per side (1–10 for the market skill; Binance allows up to 1000).
        #[arg(long, default_value_t = 10)]
        depth: usize,
    },
    /// Candles (OHLCV), oldest first.
    Klines {
        #[command(flatten)]
        args: MarketArgs,
        /// 1m, 3m, 5m, 15m, 30m, 1h, 2h, 4h, 6h, 12h, 1d, 1w.
        #[arg(long, default_value = "1h")]
        interval: Interval,
        /// How many candles (1–1000).
        #[arg(long, default_value_t = 20)]
        limit: usize,
        /// Last candle at or before this time: epoch milliseconds or RFC 3339 (2026-01-01T00:00:00Z).
        #[arg(long)]
        end: Option<String>,
    },
}

#[derive(Debug, Args)]
pub struct MarketArgs {
    /// A symbol, ticker or name: BTCUSDT, btc, 比特币.
    pub symbol: String,
    /// sim (offline, default), binance, binance-testnet, or csv:PATH (klines from a file).
    #[arg(long, default_value = "sim")]
    pub source: String,
    /// Seed of the simulated market.
    #[arg(long, env = "NOFXI_SIM_SEED", default_value_t = DEFAULT_SIM_SEED)]
    pub seed: u64,
}

fn source(args: &MarketArgs, symbol: &Symbol, interval: Interval) -> Result<Arc<dyn MarketData>> {
    let clock: Arc<dyn Clock> = Arc::new(SystemClock);
    Ok(match args.source.as_str() {
        "sim" => Arc::new(SimMarket::new(args.seed, clock)),
        "binance" | "binance-testnet" => {
            let testnet = args.source == "binance-testnet";
            let venue = if testnet {
                "binance-testnet"
            } else {
                "binance"
            };
            let client = BinanceClient::new(
                venue,
                binance_endpoints(testnet).map_err(|e| usage(e.to_string()))?,
                None,
                BinanceOptions::default(),
                clock,
            )?;
            Arc::new(BinanceMarket::new(Arc::new(client)))
        }
        other => match other.strip_prefix("csv:") {
            Some(path) => Arc::new(
                CsvMarket::new(clock)
                    .with_file(symbol.clone(), interval, &PathBuf::from(path))
                    .map_err(|e| usage(format!("--source csv:{}: {e}", shown_input(path))))?,
            ),
            None => {
                bail!(
                    "unknown source \"{}\": use sim, binance, binance-testnet or csv:PATH",
                    shown_input(other)
                )
            }
        },
    })
}

/// The SYMBOL argument. The simulated and CSV sources price whatever they are asked for, so
/// there the coin must be one nofxi knows (else "unknown coin FOO; did you mean …", exit 2);
/// a live venue is itself the authority on what it lists, and answers for its own symbols.
fn symbol_arg(args: &MarketArgs) -> Result<Symbol> {
    let live = matches!(args.source.as_str(), "binance" | "binance-testnet");
    let parsed = if live {
        Symbol::parse(&args.symbol)
    } else {
        Symbol::parse_known(&args.symbol)
    };
    parsed.map_err(|e| usage(format!("SYMBOL: {e}")))
}

fn parse_time(text: &str) -> Result<i64> {
    if let Ok(ms) = text.trim().parse::<i64>() {
        return Ok(ms);
    }
    let ts: jiff::Timestamp = text.trim().parse().with_context(|| {
        format!(
            "cannot read time \"{}\": use epoch milliseconds or RFC 3339 like 2026-01-01T00:00:00Z",
            shown_input(text)
        )
    })?;
    Ok(ts.as_millisecond())
}

fn utc(ms: i64) -> String {
    jiff::Timestamp::from_millisecond(ms)
        .map(|t| t.strftime("%Y-%m-%d %H:%M").to_string())
        .unwrap_or_else(|_| ms.to_string())
}

pub fn run(global: &GlobalArgs, command: MarketCommand) -> Result<()> {
    block_on(run_async(global, command))?
}

async fn run_async(global: &GlobalArgs, command: MarketCommand) -> Result<()> {
    match command {
        MarketCommand::Price(args) => {
            let symbol = symbol_arg(&args)?;
            let market = source(&args, &symbol, Interval::M1)?;
            let t = market.ticker(&symbol).await?;
            if global.json {
                return print_json(&json!({"source": market.source(), "ticker": t}));
            }
            println!("{symbol} · {}", market.source());
            print_table(
                &["LAST", "BID", "ASK", "MARK", "24H VOLUME", "TIME (UTC)"],
                &[vec![
                    t.last.to_string(),
                    t.bid.to_string(),
                    t.ask.to_string(),
                    t.mark.to_string(),
                    t.volume_24h.to_string(),
                    utc(t.time_ms),
                ]],
            );
            Ok(())
        }
        MarketCommand::Book { args, depth } => {
            let symbol = symbol_arg(&args)?;
            let market = source(&args, &symbol, Interval::M1)?;
            let book = market.order_book(&symbol, depth.clamp(1, 1000)).await?;
            let pressure = book.pressure_ratio(depth);
            if global.json {
                return print_json(
                    &json!({"source": market.source(), "book": book, "pressure_ratio": pressure}),
                );
            }
            println!(
                "{symbol} · {} · bid/ask pressure {}",
                market.source(),
                pressure
                    .map(|p| p.round_dp(3).to_string())
                    .unwrap_or_else(|| "n/a".into())
            );
            let rows = (0..book.bids.len().max(book.asks.len()))
                .map(|i| {
                    let cell = |l: Option<&nofxi_domain::market::BookLevel>| {
                        l.map(|l| (l.price.to_string(), l.quantity.to_string()))
                            .unwrap_or_default()
                    };
                    let (bp, bq) = cell(book.bids.get(i));
                    let (ap, aq) = cell(book.asks.get(i));
                    vec![bq, bp, ap, aq]
                })
                .collect::<Vec<_>>();
            print_table(&["BID SIZE", "BID", "ASK", "ASK SIZE"], &rows);
            Ok(())
        }
        MarketCommand::Klines {
            args,
            interval,
            limit,
            end,
        } => {
            let symbol = symbol_arg(&args)?;
            let market = source(&args, &symbol, interval)?;
            let query = match end {
                Some(e) => KlineQuery::ending_at(parse_time(&e)?, limit),
                None => KlineQuery::latest(limit),
            };
            let candles = market.klines(&symbol, interval, query).await?;
            if global.json {
                return print_json(
                    &json!({"symbol": symbol, "interval": interval, "source": market.source(), "candles": candles}),
                );
            }
            let seed = if market.source() == "sim" {
                format!(" (seed {})", args.seed)
            } else {
                String::new()
            };
            println!("{symbol} {interval} · {}{seed}", market.source());
            print_table(
                &["OPEN TIME (UTC)", "OPEN", "HIGH", "LOW", "CLOSE", "VOLUME"],
                &rows(&candles),
            );
            Ok(())
        }
    }
}

fn rows(candles: &[Candle]) -> Vec<Vec<String>> {
    candles
        .iter()
        .map(|c| {
            vec![
                utc(c.open_time_ms),
                c.open.to_string(),
                c.high.to_string(),
                c.low.to_string(),
                c.close.to_string(),
                c.volume.to_string(),
            ]
        })
        .collect()
}
