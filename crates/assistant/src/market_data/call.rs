//! A market-data function called for real, through the market-data skill's constraints
//! runtime: the arguments against the function's schema and the coverage exclusions before
//! anything is sent (an index's order book is refused, `1.5h` is no interval), then the rate
//! limits of a remote source, and retries of what may pass (a timeout, the venue's rate limit
//! with its Retry-After) with jittered backoff.

use std::sync::OnceLock;
use std::time::Duration;

use nofxi_domain::Interval;
use nofxi_domain::market::Symbol;
use nofxi_skills::runtime::{CallError, CallFailure, Clock, Reference, SkillRuntime};
use nofxi_skills::{Library, Skill};
use nofxi_venues::{KlineQuery, RejectKind, VenueError};
use serde_json::{Map, Value};

use super::report::{BookReport, KlineReport, PriceReport};
use super::source::DataSource;
use super::unanswered;

/// The market-data skill's functions nofxi runs.
pub const GET_PRICE: &str = "get_realtime_price";
pub const GET_BOOK: &str = "get_order_book";
pub const GET_KLINE: &str = "get_kline";

/// A failure the venue says may pass (a 5xx): one of the skill's retryable codes, so the
/// runtime retries it; anything else is given up at once.
const RETRYABLE: i64 = 5000;
/// The source could not be reached at all (no network, a host that does not resolve, a
/// timeout): the skill's "data source is down", retried too, and remembered by
/// [`super::unanswered`] when it persists.
pub const UNREACHABLE: i64 = 5001;
const NOT_RETRYABLE: i64 = 0;
/// The longest a chat turn or an API request waits for a rate limit: beyond it the answer says
/// when to ask again.
pub const SHORT_WAIT: Duration = Duration::from_secs(1);

/// Why a call gave no data.
#[derive(Debug, thiserror::Error)]
pub enum MarketError {
    /// The runtime's answer: arguments refused, not covered, rate limited, or the source failed.
    #[error(transparent)]
    Call(#[from] CallError),
    /// A symbol the schema takes but no source nofxi has serves (stocks, forex, indices).
    #[error("no market-data source of nofxi serves {symbol}: it serves crypto pairs")]
    NoSource { symbol: String },
    /// A coin the simulated market would price although no market lists it.
    #[error("{symbol} is no coin nofxi knows")]
    UnknownCoin { symbol: String },
    /// A time argument that is no ISO 8601 time.
    #[error("`{field}` \"{value}\" is no time: use ISO 8601 like 2026-01-01T00:00:00Z")]
    BadTime { field: String, value: String },
    /// `start_time` after `end_time`.
    #[error("start_time is after end_time")]
    StartAfterEnd,
    /// The source gave no answer within the time a person waits (see [`super::unanswered`]).
    #[error("no answer within {} s", budget.as_secs())]
    NoAnswerWithin { budget: Duration },
    /// The source did not answer a moment ago and is left alone for a while.
    #[error("not answering ({} s ago); asked again in {} s", ago.as_secs(), again_in.as_secs())]
    NotAnswering { ago: Duration, again_in: Duration },
}

impl MarketError {
    /// The source could not be reached or kept failing: another market may answer instead.
    pub fn source_failed(&self) -> bool {
        matches!(
            self,
            MarketError::Call(CallError::Failed { .. })
                | MarketError::NoAnswerWithin { .. }
                | MarketError::NotAnswering { .. }
        )
    }
}

/// The built-in market-data skill.
pub fn market_skill() -> Option<&'static Skill> {
    static SKILL: OnceLock<Option<Skill>> = OnceLock::new();
    SKILL
        .get_or_init(|| {
            let library = Library::builtin().ok()?;
            library
                .skills()
                .iter()
                .find(|s| s.name == "market-data")
                .cloned()
        })
        .as_ref()
}

/// The runtime the chat and the HTTP API share, one per process (its rate limits are its
/// state): it never waits a limit out for long.
pub fn shared_runtime() -> Option<&'static SkillRuntime> {
    static RUNTIME: OnceLock<Option<SkillRuntime>> = OnceLock::new();
    RUNTIME
        .get_or_init(|| Some(brief(SkillRuntime::new(market_skill()?))))
        .as_ref()
}

/// A runtime that waits its limits out (a command run once, which can wait).
pub fn patient_runtime() -> Option<SkillRuntime> {
    Some(SkillRuntime::new(market_skill()?))
}

/// `runtime` as a chat turn or a request uses it: no long waits.
pub fn brief<C>(runtime: SkillRuntime<C>) -> SkillRuntime<C>
where
    C: Clock + Clone,
    C::Instant: Reference,
{
    runtime.with_max_wait(SHORT_WAIT)
}

/// A venue's error as the runtime reads it: its rate limit (with the wait it asked for) under
/// the skill's rate-limit code, anything else that may pass retryable, the rest not.
pub fn failure(e: &VenueError, limit_code: i64) -> CallFailure {
    let (code, retry_after) = match e {
        VenueError::Rejected {
            kind: RejectKind::RateLimited,
            retry_after,
            ..
        } => (limit_code, *retry_after),
        VenueError::Timeout { .. } | VenueError::Network { .. } => (UNREACHABLE, None),
        _ if e.is_retryable() => (RETRYABLE, None),
        _ => (NOT_RETRYABLE, None),
    };
    CallFailure {
        code,
        message: e.to_string(),
        retry_after,
    }
}

/// The rate-limit code a venue's limit is reported under.
pub fn limit_code<C>(runtime: &SkillRuntime<C>) -> i64
where
    C: Clock + Clone,
    C::Instant: Reference,
{
    runtime.limit_code().unwrap_or(RETRYABLE)
}

/// `get_realtime_price` with `args` on `source`.
pub async fn price<C>(
    runtime: &SkillRuntime<C>,
    source: &DataSource,
    args: &Value,
) -> Result<PriceReport, MarketError>
where
    C: Clock + Clone,
    C::Instant: Reference,
{
    let validated = runtime.prepare(GET_PRICE, args)?;
    let symbol = symbol_of(&validated.args, source)?;
    let market = source.market.clone();
    let code = limit_code(runtime);
    let ticker = unanswered::within(
        source,
        runtime.call_on(source.reach, GET_PRICE, |_| {
            let (market, symbol) = (market.clone(), symbol.clone());
            async move { market.ticker(&symbol).await.map_err(|e| failure(&e, code)) }
        }),
    )
    .await?;
    Ok(PriceReport::new(&ticker, source))
}

/// `get_order_book` with `args` on `source`.
pub async fn order_book<C>(
    runtime: &SkillRuntime<C>,
    source: &DataSource,
    args: &Value,
) -> Result<BookReport, MarketError>
where
    C: Clock + Clone,
    C::Instant: Reference,
{
    let validated = runtime.prepare(GET_BOOK, args)?;
    let symbol = symbol_of(&validated.args, source)?;
    let depth = count_of(&validated.args, "depth").unwrap_or(5);
    let market = source.market.clone();
    let code = limit_code(runtime);
    let book = unanswered::within(
        source,
        runtime.call_on(source.reach, GET_BOOK, |_| {
            let (market, symbol) = (market.clone(), symbol.clone());
            async move {
                market
                    .order_book(&symbol, depth)
                    .await
                    .map_err(|e| failure(&e, code))
            }
        }),
    )
    .await?;
    Ok(BookReport::new(&book, depth, source))
}

/// `get_kline` with `args` on `source`.
pub async fn klines<C>(
    runtime: &SkillRuntime<C>,
    source: &DataSource,
    args: &Value,
) -> Result<KlineReport, MarketError>
where
    C: Clock + Clone,
    C::Instant: Reference,
{
    let validated = runtime.prepare(GET_KLINE, args)?;
    let symbol = symbol_of(&validated.args, source)?;
    let interval = validated
        .args
        .get("interval")
        .and_then(Value::as_str)
        .and_then(|i| i.parse::<Interval>().ok())
        .unwrap_or(Interval::H1);
    let query = KlineQuery {
        start_ms: time_of(&validated.args, "start_time")?,
        end_ms: time_of(&validated.args, "end_time")?,
        limit: count_of(&validated.args, "limit").unwrap_or(100),
    };
    if let (Some(start), Some(end)) = (query.start_ms, query.end_ms)
        && start > end
    {
        return Err(MarketError::StartAfterEnd);
    }
    let market = source.market.clone();
    let code = limit_code(runtime);
    let candles = unanswered::within(
        source,
        runtime.call_on(source.reach, GET_KLINE, |_| {
            let (market, symbol) = (market.clone(), symbol.clone());
            async move {
                market
                    .klines(&symbol, interval, query)
                    .await
                    .map_err(|e| failure(&e, code))
            }
        }),
    )
    .await?;
    Ok(KlineReport::new(
        symbol.as_str(),
        interval,
        &candles,
        source,
    ))
}

/// The validated symbol as a pair a source serves: a crypto pair, and on the simulated
/// market one nofxi knows (it would price any name at all).
fn symbol_of(args: &Map<String, Value>, source: &DataSource) -> Result<Symbol, MarketError> {
    let said = args
        .get("symbol")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let symbol = Symbol::parse(said).map_err(|_| MarketError::NoSource {
        symbol: said.to_string(),
    })?;
    if source.simulated && !symbol.is_known() {
        return Err(MarketError::UnknownCoin {
            symbol: said.to_string(),
        });
    }
    Ok(symbol)
}

fn count_of(args: &Map<String, Value>, name: &str) -> Option<usize> {
    args.get(name)
        .and_then(Value::as_u64)
        .and_then(|n| usize::try_from(n).ok())
}

fn time_of(args: &Map<String, Value>, name: &str) -> Result<Option<i64>, MarketError> {
    let Some(value) = args.get(name) else {
        return Ok(None);
    };
    let text = value.as_str().unwrap_or_default();
    text.trim()
        .parse::<jiff::Timestamp>()
        .map(|t| Some(t.as_millisecond()))
        .map_err(|_| MarketError::BadTime {
            field: name.to_string(),
            value: text.to_string(),
        })
}
