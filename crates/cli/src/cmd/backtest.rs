//! `nofxi backtest`: replay candles through the same cycle code a live trader runs.
//!
//! Candles come from the simulated market (offline, default) or from CSV files in the format
//! `shared/bench/peer_backtest.py` writes (`--csv BTCUSDT=path.csv`, one per symbol). The
//! decider is the `builtin` rules unless `--model` names a model config; a model's answers are
//! kept in `$NOFXI_HOME/cache/answers/` by prompt hash, so running the same backtest again
//! replays them without calling (or paying) the model.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use nofxi_domain::Interval;
use nofxi_domain::market::Symbol;
use nofxi_domain::moment::{self, MomentError};
use nofxi_domain::strategy_config::StrategyConfig;
use nofxi_domain::validation::shown_input;
use nofxi_trader::backtest::{
    BacktestConfig, BacktestError, BacktestReport, MAX_REPLAY_CANDLES, run_backtest,
};
use nofxi_trader::decider::Decider;
use nofxi_trader::decider::builtin::{BuiltinDecider, BuiltinParams};
use nofxi_trader::decider::llm::AnswerCache;
use nofxi_trader::runtime::connect::sim_seed;
use nofxi_trader::runtime::preflight::{answer_cache_file_name, replay_decider};
use nofxi_trader::stats::trades_from_fills;
use nofxi_venues::csv_source::CsvMarket;
use nofxi_venues::sim::SimMarket;
use nofxi_venues::{Clock, ManualClock, MarketData};
use rust_decimal::Decimal;
use serde::Serialize;

use super::common::{block_on, decimal_arg, open_store, print_json, shown_path, usage};
use super::trader_live::print_stats;
use crate::home::GlobalArgs;

#[derive(Debug, Args)]
pub struct BacktestArgs {
    /// Strategy config to use, by name or id (default: the strategy defaults).
    #[arg(long)]
    pub strategy: Option<String>,
    /// Comma-separated symbols; aliases work (btc, 比特币). Default: the CSV files' symbols,
    /// else the strategy's coins.
    #[arg(long, value_delimiter = ',')]
    pub symbols: Vec<String>,
    /// Start: a date (2026-01-01), an RFC 3339 time, or epoch milliseconds. Default: the first
    /// CSV candle, else 30 days before --to.
    #[arg(long)]
    pub from: Option<String>,
    /// End, in the same forms. Default: the last CSV candle, else now.
    #[arg(long)]
    pub to: Option<String>,
    /// One cycle per candle of this interval (the strategy's primary timeframe is replaced).
    #[arg(long, default_value = "15m")]
    pub interval: Interval,
    /// `builtin` (offline rules) or a model config's name.
    #[arg(long, default_value = "builtin")]
    pub model: String,
    /// Replay CSV candles: SYMBOL=PATH, repeatable (timestamp_ms,open,high,low,close,volume).
    #[arg(long, value_name = "SYMBOL=PATH", conflicts_with = "data")]
    pub csv: Vec<String>,
    /// Replay the candles `nofxi data download` stored from this exchange (binance, okx,
    /// bybit, hyperliquid, bitget) at --interval. Default symbols: all stored at that interval.
    #[arg(long, value_name = "EXCHANGE")]
    pub data: Option<String>,
    #[arg(
        long,
        default_value = "10000",
        allow_hyphen_values = true,
        value_parser = decimal_arg
    )]
    pub initial_balance: Decimal,
    /// Fee per fill in basis points.
    #[arg(
        long,
        default_value = "4",
        allow_hyphen_values = true,
        value_parser = decimal_arg
    )]
    pub fee_bps: Decimal,
    #[arg(
        long,
        default_value = "0",
        allow_hyphen_values = true,
        value_parser = decimal_arg
    )]
    pub slippage_bps: Decimal,
    /// Write the equity curve as CSV here.
    #[arg(long)]
    pub equity_csv: Option<PathBuf>,
    /// Write the equity curve as SVG here.
    #[arg(long)]
    pub equity_svg: Option<PathBuf>,
    /// No progress bar (scripts, benchmarks).
    #[arg(long)]
    pub quiet: bool,
}

#[derive(Serialize)]
struct Summary {
    /// Where the candles came from: every figure below is built on them, so it is said first
    /// (`sim (seed 42)`: generated, not market history; `csv BTCUSDT=btc.csv`: replayed).
    data_source: String,
    /// True when the candles were generated, not recorded.
    simulated: bool,
    stats: nofxi_trader::stats::Stats,
    cycles: u64,
    candles: u64,
    seconds: f64,
    candles_per_second: f64,
    fills: usize,
    refused: usize,
    final_equity: Decimal,
    /// Positions still open after the last candle: their unrealized P&L and the entry fees
    /// already paid for them. Both are in the total P&L (the equity's change) and in no
    /// trade (trades are closed positions), so trades plus these make the total.
    open_at_end_pnl: Decimal,
    open_at_end_fees: Decimal,
    /// Model calls, when `--model` named a model config.
    #[serde(skip_serializing_if = "Option::is_none")]
    model_answers: Option<ModelAnswers>,
}

#[derive(Serialize)]
struct ModelAnswers {
    replayed: u64,
    asked: u64,
    cache_file: PathBuf,
}

/// The decider and, for a model config, its answer cache and the cache's file.
type DeciderParts = (
    StrategyConfig,
    Box<dyn Decider>,
    Option<(Arc<AnswerCache>, PathBuf)>,
);

pub fn run(global: &GlobalArgs, args: BacktestArgs) -> Result<()> {
    block_on(run_async(global, args))?
}

async fn run_async(global: &GlobalArgs, args: BacktestArgs) -> Result<()> {
    check_amounts(&args)?;
    let clock = Arc::new(ManualClock::new(0));
    let (market, csv_symbols, csv_range) = match &args.data {
        Some(_) => market(&args, clock.clone(), &global.home_dir()?)?,
        None => market(&args, clock.clone(), Path::new(""))?,
    };
    let (strategy, mut decider, cache) = strategy_and_decider(global, &args).await?;
    let symbols = if !args.symbols.is_empty() {
        args.symbols
            .iter()
            .map(|s| Symbol::parse_known(s).map_err(|e| usage(format!("--symbols: {e}"))))
            .collect::<Result<Vec<_>>>()?
    } else if !csv_symbols.is_empty() {
        csv_symbols
    } else {
        strategy
            .coin_source
            .static_coins
            .iter()
            .map(|s| Symbol::parse(s))
            .collect::<Result<Vec<_>, _>>()?
    };
    let now = nofxi_venues::SystemClock.now_ms();
    // Every time here is inside 1970..9999 (the flags and the CSV's rows are refused outside
    // it), so sums and differences of a few of them cannot overflow; saturating all the same,
    // and a default start never before the epoch.
    let to = match &args.to {
        Some(t) => parse_time("--to", t)?,
        None => csv_range
            .map(|(_, last)| last.saturating_add(args.interval.millis()))
            .unwrap_or(now),
    };
    let from = match &args.from {
        Some(t) => parse_time("--from", t)?,
        None => csv_range.map(|(first, _)| first).unwrap_or_else(|| {
            to.saturating_sub(DEFAULT_DAYS * 86_400_000)
                .max(moment::EARLIEST_MS)
        }),
    };
    let (from, to) = match csv_range {
        Some(data) => within_data(from, to, data, args.interval, &data_name(&args))?,
        None => (from, to),
    };
    check_replay_size(from, to, args.interval, symbols.len(), csv_range.is_none())?;
    let config = BacktestConfig {
        symbols,
        interval: args.interval,
        from_ms: from,
        to_ms: to,
        initial_balance: args.initial_balance,
        fee_bps: args.fee_bps,
        slippage_bps: args.slippage_bps,
        strategy,
        full_cycles: false,
    };
    let bar = if args.quiet || global.json {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(0)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} cycles {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let report = run_backtest(&config, market, clock, decider.as_mut(), |done, total| {
        bar.set_length(total);
        bar.set_position(done);
    })
    .await
    .map_err(|e| match e {
        // What the flags asked for cannot run: a usage error, not a failure.
        BacktestError::EmptyRange(_) | BacktestError::NoSymbols => usage(e.to_string()),
        other => other.into(),
    })?;
    bar.finish_and_clear();

    if let Some(path) = &args.equity_csv {
        std::fs::write(path, report.equity_csv())
            .with_context(|| format!("cannot write {}", shown_path(path)))?;
    }
    if let Some(path) = &args.equity_svg {
        std::fs::write(path, report.equity_svg())
            .with_context(|| format!("cannot write {}", shown_path(path)))?;
    }
    let simulated = args.csv.is_empty() && args.data.is_none();
    let data_source = if simulated {
        format!("sim (seed {})", sim_seed())
    } else if let Some(venue) = &args.data {
        let names: Vec<String> = config.symbols.iter().map(|s| s.to_string()).collect();
        format!(
            "{} history {} {} (nofxi data download)",
            shown_input(venue.trim()),
            names.join(","),
            args.interval
        )
    } else {
        let specs: Vec<String> = args.csv.iter().map(|s| shown_input(s)).collect();
        format!("csv {}", specs.join(", "))
    };
    let summary = Summary {
        data_source,
        simulated,
        stats: report.stats.clone(),
        cycles: report.cycles,
        candles: report.candles,
        seconds: report.elapsed.as_secs_f64(),
        candles_per_second: report.candles_per_second(),
        fills: report.fills,
        refused: report.refused,
        final_equity: report.final_account.equity,
        open_at_end_pnl: report.final_account.unrealized_pnl,
        open_at_end_fees: report.final_account.unrealized_pnl + closed_pnl(&report)
            - report.stats.total_pnl,
        model_answers: cache.map(|(cache, cache_file)| ModelAnswers {
            replayed: cache.replayed(),
            asked: cache.asked(),
            cache_file,
        }),
    };
    if global.json {
        return print_json(&summary);
    }
    let origin = if summary.simulated {
        "simulated candles, not market history"
    } else {
        "replayed from recorded candles"
    };
    println!("data            {} · {origin}", summary.data_source);
    println!("equity          {}", report.sparkline(60));
    println!(
        "final equity    {} USDT (from {})",
        summary.final_equity.round_dp(2),
        args.initial_balance
    );
    print_stats(&report.stats, Some(args.initial_balance));
    if !summary.open_at_end_pnl.is_zero() || !summary.open_at_end_fees.is_zero() {
        println!(
            "open at end     {} USDT unrealized, {} USDT entry fees paid: in the total P&L, \
             not in the trades (closed positions)",
            summary.open_at_end_pnl.round_dp(2),
            summary.open_at_end_fees.round_dp(2)
        );
    }
    println!(
        "fills           {} ({} decisions refused by the risk guard)",
        report.fills, report.refused
    );
    println!(
        "speed           {} candles in {:.2} s = {:.0} candles/s ({} cycles)",
        report.candles, summary.seconds, summary.candles_per_second, report.cycles
    );
    if let Some(m) = &summary.model_answers {
        println!(
            "model answers   {} replayed from the cache, {} asked ({})",
            m.replayed,
            m.asked,
            shown_path(&m.cache_file)
        );
    }
    Ok(())
}

/// The account and cost flags, refused before anything runs when they make no sense.
fn check_amounts(args: &BacktestArgs) -> Result<()> {
    // The trader's bounds: a backtest account is one a trader could have.
    let bounds = nofxi_domain::bounds::INITIAL_BALANCE;
    if !bounds.contains(args.initial_balance) {
        return Err(usage(format!(
            "--initial-balance {} is outside {}–{} USDT: give one such as 10000",
            args.initial_balance.normalize(),
            bounds.min.normalize(),
            bounds.max.normalize()
        )));
    }
    for (flag, value) in [
        ("--fee-bps", args.fee_bps),
        ("--slippage-bps", args.slippage_bps),
    ] {
        if value < Decimal::ZERO {
            return Err(usage(format!(
                "{flag} {value} is negative: give 0 or more basis points (e.g. 4)"
            )));
        }
    }
    Ok(())
}

/// The P&L of the closed positions, net of their fees.
fn closed_pnl(report: &BacktestReport) -> Decimal {
    trades_from_fills(&report.fill_log).iter().sum()
}

/// Days a simulated backtest covers when `--from` is not given.
const DEFAULT_DAYS: i64 = 30;

type MarketParts = (Arc<dyn MarketData>, Vec<Symbol>, Option<(i64, i64)>);

/// The candle source, the symbols it has (CSV) and the time range it covers (CSV).
fn market(args: &BacktestArgs, clock: Arc<ManualClock>, home: &Path) -> Result<MarketParts> {
    if let Some(venue) = &args.data {
        return downloaded(args, venue, clock, home);
    }
    if args.csv.is_empty() {
        return Ok((
            Arc::new(SimMarket::new(sim_seed(), clock as Arc<dyn Clock>)),
            Vec::new(),
            None,
        ));
    }
    let mut market = CsvMarket::new(clock as Arc<dyn Clock>);
    let mut symbols = Vec::new();
    let mut range: Option<(i64, i64)> = None;
    for spec in &args.csv {
        // What the flag said, escaped and cut as every value an error repeats.
        let said = shown_input(spec);
        let Some((symbol, path)) = spec.split_once('=') else {
            return Err(usage(format!(
                "--csv \"{said}\" needs the form SYMBOL=PATH, e.g. --csv BTCUSDT=candles.csv"
            )));
        };
        let symbol =
            Symbol::parse_known(symbol).map_err(|e| usage(format!("--csv {said}: {e}")))?;
        // One series per symbol: a second file would silently replace the first.
        if symbols.contains(&symbol) {
            return Err(usage(format!(
                "--csv {said}: {symbol} is given twice: give one file per symbol (join the \
                 files first if they hold parts of one history)"
            )));
        }
        let candles = nofxi_venues::csv_source::read_candles_file(Path::new(path))
            .map_err(|e| usage(format!("--csv {said}: {e}: fix the file or leave it out")))?;
        warn_gaps(spec, &candles, args.interval);
        if let (Some(first), Some(last)) = (candles.first(), candles.last()) {
            let (lo, hi) = range.unwrap_or((first.open_time_ms, last.open_time_ms));
            range = Some((lo.min(first.open_time_ms), hi.max(last.open_time_ms)));
        }
        market = market.with_candles(symbol.clone(), args.interval, candles);
        symbols.push(symbol);
    }
    Ok((Arc::new(market), symbols, range))
}

/// What `--data` or `--csv` names, for messages about the recorded candles' range.
fn data_name(args: &BacktestArgs) -> String {
    match &args.data {
        Some(venue) => format!("--data {}", shown_input(venue.trim())),
        None => "the CSV".into(),
    }
}

/// The candles `nofxi data download` stored from `venue`, for the symbols asked for (or every
/// symbol stored at the interval), with the range they cover. A symbol or interval that was
/// not downloaded is refused with the download command that fixes it.
fn downloaded(
    args: &BacktestArgs,
    venue: &str,
    clock: Arc<ManualClock>,
    home: &Path,
) -> Result<MarketParts> {
    use nofxi_venues::history::{HistoryStore, SeriesKey};
    let venue = super::data::venue_arg("--data", venue)?;
    let store = HistoryStore::new(home.join("history"));
    let stored = store.manifests()?;
    let symbols: Vec<Symbol> = if args.symbols.is_empty() {
        let here: Vec<Symbol> = stored
            .iter()
            .filter(|m| m.exchange == venue && m.interval == args.interval && m.candles > 0)
            .filter_map(|m| Symbol::parse(&m.symbol).ok())
            .collect();
        if here.is_empty() {
            return Err(usage(format!(
                "--data {venue} has no {} candles stored{}: download some first, e.g. `nofxi \
                 data download --exchange {venue} --symbols btc --interval {} --from 2025-01-01`",
                args.interval,
                stored_intervals(&stored, &venue, None),
                args.interval
            )));
        }
        here
    } else {
        args.symbols
            .iter()
            .map(|s| Symbol::parse(s).map_err(|e| usage(format!("--symbols: {e}"))))
            .collect::<Result<Vec<_>>>()?
    };
    let mut market = CsvMarket::new(clock as Arc<dyn Clock>);
    let mut range: Option<(i64, i64)> = None;
    for symbol in &symbols {
        let key = SeriesKey {
            exchange: venue.clone(),
            symbol: symbol.clone(),
            interval: args.interval,
        };
        let candles = store.candles(&key)?;
        let (Some(first), Some(last)) = (candles.first(), candles.last()) else {
            return Err(usage(format!(
                "--data {venue} has no {symbol} {} candles{}: download them with `nofxi data \
                 download --exchange {venue} --symbols {symbol} --interval {} --from …`",
                args.interval,
                stored_intervals(&stored, &venue, Some(symbol)),
                args.interval
            )));
        };
        let (lo, hi) = range.unwrap_or((first.open_time_ms, last.open_time_ms));
        range = Some((lo.max(first.open_time_ms), hi.min(last.open_time_ms)));
        let manifest = store.manifest(&key)?;
        super::data::warn_holes(
            &format!("--data {venue} {symbol} {}", args.interval),
            &manifest.holes,
            args.interval,
        );
        market = market.with_candles(symbol.clone(), args.interval, candles);
    }
    if let Some((lo, hi)) = range
        && lo > hi
    {
        return Err(usage(format!(
            "--data {venue}: the symbols' stored candles share no time: download one range for \
             all of them"
        )));
    }
    Ok((Arc::new(market), symbols, range))
}

/// ` (stored: 1m, 1h)`: the intervals stored for the venue (and symbol), when there are any.
fn stored_intervals(
    stored: &[nofxi_venues::history::Manifest],
    venue: &str,
    symbol: Option<&Symbol>,
) -> String {
    let mut intervals: Vec<String> = stored
        .iter()
        .filter(|m| m.exchange == venue && m.candles > 0)
        .filter(|m| symbol.is_none_or(|s| m.symbol == s.as_str()))
        .map(|m| m.interval.to_string())
        .collect();
    intervals.dedup();
    if intervals.is_empty() {
        String::new()
    } else {
        format!(" (stored: {}; --interval picks one)", intervals.join(", "))
    }
}

fn check_replay_size(
    from: i64,
    to: i64,
    interval: Interval,
    symbols: usize,
    simulated: bool,
) -> Result<()> {
    let span = to.saturating_sub(from).max(0);
    let per_symbol = span / interval.millis().max(1);
    let symbols_n = i64::try_from(symbols).unwrap_or(i64::MAX);
    let total = per_symbol.saturating_mul(symbols_n);
    if total > MAX_REPLAY_CANDLES {
        return Err(usage(format!(
            "--from/--to hold {per_symbol} {interval} candles per symbol ({total} for {symbols} \
             symbols), more than the {MAX_REPLAY_CANDLES} one backtest replays: shorten the \
             range, use a longer --interval, or fewer --symbols"
        )));
    }
    // The simulated market builds every minute of the range, whatever the interval: 130
    // years of 1d candles cost as much as 130 years of 1m ones.
    let minutes = (span / 60_000).saturating_mul(symbols_n);
    if simulated && minutes > MAX_REPLAY_CANDLES {
        return Err(usage(format!(
            "--from/--to span {} simulated minutes for {symbols} symbols, more than the \
             {MAX_REPLAY_CANDLES} one backtest simulates (the simulated market builds every \
             minute, whatever --interval): shorten the range, use fewer --symbols, or replay \
             recorded candles with --csv",
            minutes
        )));
    }
    Ok(())
}

/// The range cut to the recorded candles, said on stderr when it is cut: past the CSV's last
/// candle the replay used to hold the last price, a flat stretch passed off as market history.
fn within_data(
    from: i64,
    to: i64,
    data: (i64, i64),
    interval: Interval,
    what: &str,
) -> Result<(i64, i64)> {
    let (first, last) = data;
    let end = last.saturating_add(interval.millis());
    let shown = super::common::time;
    if to <= first || from >= end {
        return Err(usage(format!(
            "--from/--to ({} to {}) hold none of {what}'s candles ({} to {}): choose a range \
             inside the data",
            shown(from),
            shown(to),
            shown(first),
            shown(last)
        )));
    }
    if from < first {
        eprintln!(
            "warning: --from {} is before {what}'s first candle: the backtest starts at {}",
            shown(from),
            shown(first)
        );
    }
    if to > end {
        eprintln!(
            "warning: --to {} is past {what}'s last candle ({}): the backtest ends there",
            shown(to),
            shown(last)
        );
    }
    Ok((from.max(first), to.min(end)))
}

/// Holes in a CSV series, said on stderr with where they are (the first few, and how many).
fn warn_gaps(spec: &str, candles: &[nofxi_domain::market::Candle], interval: Interval) {
    use nofxi_venues::gaps::{REPORTED_AFTER_MISSING, gaps};
    const SHOWN: usize = 3;
    let found = gaps(candles, interval, REPORTED_AFTER_MISSING);
    let spec = shown_input(spec);
    for g in found.iter().take(SHOWN) {
        eprintln!(
            "warning: --csv {spec}: {} {interval} candles missing after line {} ({} to {}): \
             the replay holds the last price over that stretch",
            g.missing,
            g.after_line,
            super::common::time(g.from_ms),
            super::common::time(g.to_ms)
        );
    }
    if found.len() > SHOWN {
        eprintln!(
            "warning: --csv {spec}: {} more gaps of over {REPORTED_AFTER_MISSING} candles",
            found.len() - SHOWN
        );
    }
}

async fn strategy_and_decider(global: &GlobalArgs, args: &BacktestArgs) -> Result<DeciderParts> {
    let needs_store = args.strategy.is_some() || args.model != "builtin";
    if !needs_store {
        return Ok((
            StrategyConfig::default(),
            Box::new(BuiltinDecider::new(BuiltinParams::default())),
            None,
        ));
    }
    let store = open_store(global).await?;
    let strategy = match &args.strategy {
        Some(name) => store.get_strategy(&global.user, name).await?.spec.config,
        None => StrategyConfig::default(),
    };
    if args.model == "builtin" {
        let decider = Box::new(BuiltinDecider::new(BuiltinParams::default()));
        return Ok((strategy, decider, None));
    }
    let model = store.get_model(&global.user, &args.model).await?;
    if nofxi_trader::runtime::preflight::is_builtin(&model) {
        let decider = Box::new(BuiltinDecider::new(BuiltinParams::default()));
        return Ok((strategy, decider, None));
    }
    let key = store.model_api_key(&global.user, &model.id).await?;
    let file = global
        .home_dir()?
        .join("cache")
        .join("answers")
        .join(answer_cache_file_name(&model));
    let replay = replay_decider(&model, key, &file)?;
    Ok((strategy, replay.decider, Some((replay.cache, file))))
}

/// `2026-01-01`, an RFC 3339 timestamp, or epoch milliseconds, from 1970 to 9999.
pub(crate) fn parse_time(flag: &str, text: &str) -> Result<i64> {
    let shown = shown_input(text.trim());
    match moment::read_moment(text) {
        Ok(ms) => Ok(ms),
        Err(MomentError::NotATime) => Err(usage(format!(
            "{flag} \"{shown}\" is not a time: use a date (2026-01-01), RFC 3339 (2026-01-01T00:00:00Z) or epoch milliseconds"
        ))),
        Err(MomentError::OutOfRange) => Err(usage(format!(
            "{flag} \"{shown}\" is outside the times nofxi reads, {}: give a time in that range \
             (epoch milliseconds, not seconds or microseconds)",
            moment::RANGE_TEXT
        ))),
    }
}
