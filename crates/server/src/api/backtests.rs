//! Backtests from the page: start one (a strategy over the simulated market or over history
//! `nofxi data download` stored, with the builtin decider), follow its progress, read its
//! result, which says what data it ran on. Jobs live in memory until the server stops; each
//! runs on a blocking thread so the API stays responsive.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{Method, StatusCode};
use axum::routing::{get, post};
use nofxi_domain::Interval;
use nofxi_domain::market::Symbol;
use nofxi_domain::strategy_config::StrategyConfig;
use nofxi_trader::backtest::{BacktestConfig, MAX_REPLAY_CANDLES, run_backtest};
use nofxi_trader::decider::builtin::{BuiltinDecider, BuiltinParams};
use nofxi_trader::runtime::connect::sim_seed;
use nofxi_trader::stats::Stats;
use nofxi_trader::trades::{ClosedTrade, closed_trades};
use nofxi_venues::csv_source::CsvMarket;
use nofxi_venues::history::HistoryStore;
use nofxi_venues::sim::SimMarket;
use nofxi_venues::{Clock, ManualClock, MarketData};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::backtest_data::{self, Replay};
use super::traders::EquityPoint;
use super::{Body, Op, Reply, schema};
use crate::access::Caller;
use crate::error::{ApiError, ApiResult, Worded};
use crate::state::AppState;

/// Backtests running at once on this 2-core class of machine: more would starve the engine.
const MAX_RUNNING: usize = 2;
/// Points kept of a result's equity curve (a chart needs no more).
const CURVE_POINTS: usize = 1000;

pub fn operations() -> Vec<Op> {
    vec![
        Op::new(
            Method::POST,
            "/api/backtests",
            "backtests",
            "Start a backtest of a strategy on the simulated market or on downloaded history; 202 with its id",
            Reply::Json(202, schema::<Started>),
            post(start),
        )
        .body(schema::<BacktestRequest>),
        backtest_data::operation(),
        Op::new(
            Method::GET,
            "/api/backtests/{id}",
            "backtests",
            "A backtest's progress (0–1) and, when done, its stats and equity curve",
            Reply::Json(200, schema::<Job>),
            get(show),
        ),
    ]
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BacktestRequest {
    /// A strategy by id or name; absent: the default strategy.
    pub strategy: Option<String>,
    /// Symbols (`BTCUSDT`, `eth`, `比特币`); absent: the strategy's static coins.
    #[serde(default)]
    pub symbols: Vec<String>,
    /// `2026-01-01` or an RFC 3339 time; default: 30 days before `end`.
    pub start: Option<String>,
    /// Default: now.
    pub end: Option<String>,
    /// USDT; default 1000.
    pub initial_balance: Option<Decimal>,
    /// One cycle per candle of this interval; default `1h`.
    pub interval: Option<Interval>,
    /// What to replay: `simulated` (the default, the offline simulated market) or an exchange
    /// whose history `nofxi data download` stored (`binance`; GET /api/history lists it).
    /// Without `start` and `end` the whole time the symbols' history covers is replayed.
    pub data: Option<String>,
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct Started {
    pub id: String,
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Job {
    pub id: String,
    /// `running`, `done` or `failed`.
    pub status: String,
    pub progress: f64,
    pub error: Option<String>,
    pub result: Option<BacktestResult>,
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct BacktestResult {
    pub stats: Stats,
    pub equity_curve: Vec<EquityPoint>,
    pub cycles: u64,
    pub fills: usize,
    /// Its closed trades, newest first (as a trader's: `GET /api/traders/{id}/trades`).
    pub trades: Vec<ClosedTrade>,
    pub refused: usize,
    pub final_equity: Decimal,
    /// True when the prices were the simulated market's, not market history.
    pub simulated: bool,
    /// What it ran on: `simulated market (seed 42)`, `binance history BTCUSDT 1h (nofxi data
    /// download)`.
    pub data_source: String,
}

#[derive(Default)]
pub struct Backtests {
    jobs: Mutex<HashMap<String, Entry>>,
    /// Where `nofxi data download` stores history (`<home>/history`); none: only the
    /// simulated market.
    history_dir: Option<PathBuf>,
}

struct Entry {
    user: String,
    job: Job,
    /// Progress in millionths, written by the running job.
    progress: Arc<AtomicU64>,
}

impl std::fmt::Debug for Backtests {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Backtests")
    }
}

impl Backtests {
    pub fn with_history(history_dir: Option<PathBuf>) -> Backtests {
        Backtests {
            jobs: Mutex::default(),
            history_dir,
        }
    }

    /// The downloaded history, when the server knows where it is.
    pub fn history(&self) -> Option<HistoryStore> {
        self.history_dir.as_ref().map(HistoryStore::new)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Entry>> {
        match self.jobs.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    fn finish(&self, id: &str, outcome: Result<BacktestResult, String>) {
        if let Some(entry) = self.lock().get_mut(id) {
            match outcome {
                Ok(result) => {
                    entry.job.status = "done".into();
                    entry.job.result = Some(result);
                    entry.progress.store(1_000_000, Ordering::Relaxed);
                }
                Err(e) => {
                    entry.job.status = "failed".into();
                    entry.job.error = Some(e);
                }
            }
        }
    }
}

fn invalid(field: &str, en: String, zh: String) -> ApiError {
    ApiError::field(field, Worded::new(en, zh))
}

/// `2026-01-01` (UTC midnight), an RFC 3339 timestamp, or epoch milliseconds.
fn parse_time(field: &str, text: &str) -> ApiResult<i64> {
    if let Some(ms) = nofxi_domain::moment::parse_moment(text) {
        return Ok(ms);
    }
    let text = text.trim();
    Err(invalid(
        field,
        format!("`{field}` {text:?} is not a date: write it as 2026-01-01 or 2026-01-01T08:00:00Z"),
        format!("`{field}` {text:?} 不是日期：请写成 2026-01-01 或 2026-01-01T08:00:00Z"),
    ))
}

async fn start(
    State(state): State<AppState>,
    caller: Caller,
    Body(body): Body<BacktestRequest>,
) -> ApiResult<(StatusCode, Json<Started>)> {
    let strategy = match &body.strategy {
        Some(r) if !r.trim().is_empty() => {
            state.store.get_strategy(&caller.user, r).await?.spec.config
        }
        _ => StrategyConfig::default(),
    };
    let symbols = symbols_of(&body, &strategy)?;
    let interval = body.interval.unwrap_or(Interval::H1);
    let data = body
        .data
        .as_deref()
        .map(str::trim)
        .filter(|d| !d.is_empty() && !d.eq_ignore_ascii_case("simulated"));
    let replay = match data {
        Some(exchange) => Some(backtest_data::replay(
            state.backtests.history_dir.as_ref(),
            exchange,
            &symbols,
            interval,
        )?),
        None => None,
    };
    let now = state.store.now_ms();
    let (from, to) = range_of(&body, now, interval, symbols.len(), replay.as_ref())?;
    let initial_balance = body.initial_balance.unwrap_or(Decimal::from(1000));
    if initial_balance <= Decimal::ZERO {
        return Err(invalid(
            "initial_balance",
            "`initial_balance` must be above 0".into(),
            "`initial_balance` 必须大于 0".into(),
        ));
    }
    let config = BacktestConfig {
        symbols,
        interval,
        from_ms: from,
        to_ms: to,
        initial_balance,
        fee_bps: Decimal::from(4),
        slippage_bps: Decimal::from(2),
        strategy,
        full_cycles: false,
    };
    let (id, progress) = enqueue(&state, &caller)?;
    let backtests = state.backtests.clone();
    let handle = tokio::runtime::Handle::current();
    let job_id = id.clone();
    tokio::task::spawn_blocking(move || {
        let outcome = handle.block_on(run(config, progress, replay));
        backtests.finish(&job_id, outcome);
    });
    Ok((StatusCode::ACCEPTED, Json(Started { id })))
}

/// The symbols asked for, or the strategy's coins; at least one.
fn symbols_of(body: &BacktestRequest, strategy: &StrategyConfig) -> ApiResult<Vec<Symbol>> {
    let symbols_given: &[String] = if body.symbols.is_empty() {
        &strategy.coin_source.static_coins
    } else {
        &body.symbols
    };
    let mut symbols = Vec::new();
    for s in symbols_given {
        let symbol = Symbol::parse_known(s).map_err(|e| {
            invalid(
                "symbols",
                format!("`symbols`: {e}"),
                format!("`symbols`：{e}"),
            )
        })?;
        if !symbols.contains(&symbol) {
            symbols.push(symbol);
        }
    }
    if symbols.is_empty() {
        return Err(invalid(
            "symbols",
            "no symbols to backtest: give some (BTCUSDT, ETHUSDT) or pick a strategy with coins"
                .into(),
            "没有要回测的币种：请填写（BTCUSDT, ETHUSDT），或选一个设置了币种的策略".into(),
        ));
    }
    Ok(symbols)
}

/// The time replayed: as asked, else the last 30 days, or for downloaded history the whole
/// time it covers; cut to what was downloaded, and no more than one backtest replays.
fn range_of(
    body: &BacktestRequest,
    now: i64,
    interval: Interval,
    symbols: usize,
    replay: Option<&Replay>,
) -> ApiResult<(i64, i64)> {
    let given = |t: &Option<String>| t.clone().filter(|t| !t.trim().is_empty());
    let data_end = replay.map(|r| r.last_ms.saturating_add(interval.millis()));
    let to = match given(&body.end) {
        Some(t) => parse_time("end", &t)?,
        None => data_end.unwrap_or(now),
    };
    let from = match given(&body.start) {
        Some(t) => parse_time("start", &t)?,
        None => replay.map_or(to - 30 * 86_400_000, |r| r.first_ms),
    };
    let (from, to) = match (replay, data_end) {
        (Some(r), Some(end)) => (from.max(r.first_ms), to.min(end)),
        _ => (from, to),
    };
    if let Some(r) = replay.filter(|_| from >= to) {
        return Err(invalid(
            "start",
            format!(
                "`start` to `end` holds none of the {}: choose a range inside it",
                r.source
            ),
            format!(
                "`start` 到 `end` 之间没有 {} 的K线：请选它覆盖的时间",
                r.source
            ),
        ));
    }
    let n = i64::try_from(symbols).unwrap_or(i64::MAX);
    // The simulated market builds every minute of the range; history replays its candles.
    let step = if replay.is_some() {
        interval.millis()
    } else {
        60_000
    };
    let units = ((to - from).max(0) / step.max(1)).saturating_mul(n);
    if from >= to || units > MAX_REPLAY_CANDLES {
        return Err(invalid(
            "start",
            format!(
                "the range must be after `start` and hold at most {MAX_REPLAY_CANDLES} candles (simulated minutes on the simulated market) over all symbols: shorten it or use fewer symbols"
            ),
            format!(
                "时间范围须在 `start` 之后，且所有币种合计不超过 {MAX_REPLAY_CANDLES} 根K线（模拟行情按分钟计）：请缩短范围或减少币种"
            ),
        ));
    }
    Ok((from, to))
}

/// A new running job for the caller, unless as many as the machine takes already run.
fn enqueue(state: &AppState, caller: &Caller) -> ApiResult<(String, Arc<AtomicU64>)> {
    let id = uuid::Uuid::now_v7().to_string();
    let progress = Arc::new(AtomicU64::new(0));
    let mut jobs = state.backtests.lock();
    let running = jobs.values().filter(|e| e.job.status == "running").count();
    if running >= MAX_RUNNING {
        let count = running.to_string();
        return Err(ApiError::catalog(
            StatusCode::TOO_MANY_REQUESTS,
            "busy",
            "http-backtest-busy",
            &[("count", &count)],
        ));
    }
    jobs.insert(
        id.clone(),
        Entry {
            user: caller.user.clone(),
            job: Job {
                id: id.clone(),
                status: "running".into(),
                progress: 0.0,
                error: None,
                result: None,
            },
            progress: progress.clone(),
        },
    );
    Ok((id, progress))
}

async fn run(
    config: BacktestConfig,
    progress: Arc<AtomicU64>,
    replay: Option<Replay>,
) -> Result<BacktestResult, String> {
    let clock = Arc::new(ManualClock::new(0));
    let simulated = replay.is_none();
    let (market, data_source): (Arc<dyn MarketData>, String) = match replay {
        Some(replay) => {
            let mut market = CsvMarket::new(clock.clone() as Arc<dyn Clock>);
            for (symbol, candles) in replay.series {
                market = market.with_candles(symbol, config.interval, candles);
            }
            (Arc::new(market), replay.source)
        }
        None => (
            Arc::new(SimMarket::new(sim_seed(), clock.clone() as Arc<dyn Clock>)),
            format!("simulated market (seed {})", sim_seed()),
        ),
    };
    let mut decider = BuiltinDecider::new(BuiltinParams::default());
    let report = run_backtest(&config, market, clock, &mut decider, |done, total| {
        let millionths = done.saturating_mul(1_000_000) / total.max(1);
        progress.store(millionths, Ordering::Relaxed);
    })
    .await
    .map_err(|e| e.to_string())?;
    let points: Vec<(i64, Decimal)> = report.equity.points().collect();
    let step = points.len().div_ceil(CURVE_POINTS).max(1);
    let mut curve: Vec<EquityPoint> = points
        .iter()
        .step_by(step)
        .map(|(t, equity)| EquityPoint {
            t: *t,
            equity: *equity,
        })
        .collect();
    if let Some((t, equity)) = points.last()
        && curve.last().is_none_or(|p| p.t != *t)
    {
        curve.push(EquityPoint {
            t: *t,
            equity: *equity,
        });
    }
    let mut trades = closed_trades(&report.fill_log, None);
    trades.reverse();
    Ok(BacktestResult {
        stats: report.stats,
        equity_curve: curve,
        cycles: report.cycles,
        fills: report.fills,
        trades,
        refused: report.refused,
        final_equity: report.final_account.equity,
        simulated,
        data_source,
    })
}

async fn show(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<Job>> {
    let jobs = state.backtests.lock();
    match jobs.get(&id).filter(|e| e.user == caller.user) {
        Some(entry) => {
            let mut job = entry.job.clone();
            job.progress = entry.progress.load(Ordering::Relaxed) as f64 / 1_000_000.0;
            Ok(Json(job))
        }
        None => Err(ApiError::catalog(
            StatusCode::NOT_FOUND,
            "not_found",
            "http-backtest-unknown",
            &[("id", &id)],
        )),
    }
}
