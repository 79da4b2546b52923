//! The market-data skill's order book and candles over HTTP: `GET /api/market/book` and
//! `GET /api/market/klines`, run exactly as the chat runs them (the skill's schema and
//! coverage before any request, its rate limits, retries with Retry-After), on the caller's
//! own account's market or the source `source` names, labelled with their source and time.
//! A limit that would hold the request answers 429 with `Retry-After` instead of waiting.

use axum::Json;
use axum::extract::{Query, State};
use axum::http::header::RETRY_AFTER;
use axum::http::{HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use nofxi_assistant::market_data::call::{self, shared_runtime};
use nofxi_assistant::market_data::render::error_text;
use nofxi_assistant::market_data::source::{self, DataSource, SourceError};
use nofxi_assistant::market_data::{BookReport, GET_BOOK, GET_KLINE, KlineReport, MarketError};
use nofxi_domain::market::Symbol;
use nofxi_domain::validation::shown_input;
use nofxi_skills::Lang;
use nofxi_skills::runtime::CallError;
use serde::Deserialize;
use serde_json::{Map, Value};

use super::{Op, Reply, schema};
use crate::access::Caller;
use crate::error::{ApiError, Worded};
use crate::state::AppState;

pub fn operations() -> Vec<Op> {
    vec![
        Op::new(
            Method::GET,
            "/api/market/book",
            "market",
            "A symbol's order book: the top levels of both sides, the spread and the bid/ask pressure ratio (the market-data skill's get_order_book), labelled with its source and time",
            Reply::Json(200, schema::<BookReport>),
            get(book),
        )
        .query(schema::<BookQuery>),
        Op::new(
            Method::GET,
            "/api/market/klines",
            "market",
            "A symbol's candles, oldest first, with their change, high and low (the market-data skill's get_kline), labelled with their source and time",
            Reply::Json(200, schema::<KlineReport>),
            get(klines),
        )
        .query(schema::<KlineQuery>),
    ]
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct BookQuery {
    /// `BTC`, `ethusdt`, `比特币`, `BTCUSDT`.
    pub symbol: String,
    /// Levels per side, 1–100 (default 5; Hyperliquid's book has 20).
    pub depth: Option<String>,
    /// `simulated`, `binance`, `okx`, `bybit`, `hyperliquid` or `bitget`; by default the market
    /// of your live account (else your paper account's, else the simulated market).
    pub source: Option<String>,
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct KlineQuery {
    /// `BTC`, `ethusdt`, `比特币`, `BTCUSDT`.
    pub symbol: String,
    /// 1m, 3m, 5m, 15m, 30m, 1h, 2h, 4h, 6h, 12h, 1d or 1w (default 1h; Hyperliquid has no
    /// 6h).
    pub interval: Option<String>,
    /// How many candles, 1–1000 (default 100), newest last.
    pub limit: Option<String>,
    /// ISO 8601, like 2026-01-01T00:00:00Z.
    pub start_time: Option<String>,
    /// ISO 8601.
    pub end_time: Option<String>,
    /// As for the book.
    pub source: Option<String>,
}

async fn book(
    State(state): State<AppState>,
    caller: Caller,
    Query(q): Query<BookQuery>,
) -> Response {
    let mut args = Map::new();
    args.insert("symbol".into(), Value::String(canonical(&q.symbol)));
    put(&mut args, "depth", q.depth.as_deref());
    run(&state, &caller, q.source.as_deref(), GET_BOOK, args).await
}

async fn klines(
    State(state): State<AppState>,
    caller: Caller,
    Query(q): Query<KlineQuery>,
) -> Response {
    let mut args = Map::new();
    args.insert("symbol".into(), Value::String(canonical(&q.symbol)));
    put(&mut args, "interval", q.interval.as_deref());
    put(&mut args, "limit", q.limit.as_deref());
    put(&mut args, "start_time", q.start_time.as_deref());
    put(&mut args, "end_time", q.end_time.as_deref());
    run(&state, &caller, q.source.as_deref(), GET_KLINE, args).await
}

/// A coin said by a name or a ticker as its pair; anything else as given, for the schema.
fn canonical(said: &str) -> String {
    Symbol::parse_known(said)
        .map(|s| s.to_string())
        .unwrap_or_else(|_| said.trim().to_string())
}

/// A query value as the schema reads it: a whole number as one, anything else as text.
fn put(args: &mut Map<String, Value>, name: &str, value: Option<&str>) {
    if let Some(v) = value {
        let value = v
            .trim()
            .parse::<u64>()
            .map(Value::from)
            .unwrap_or_else(|_| Value::String(v.to_string()));
        args.insert(name.into(), value);
    }
}

async fn run(
    state: &AppState,
    caller: &Caller,
    named: Option<&str>,
    function: &str,
    args: Map<String, Value>,
) -> Response {
    let lang = crate::lang::current();
    let source = match pick(state, caller, named, lang).await {
        Ok(source) => source,
        Err(e) => return e.into_response(),
    };
    let Some(runtime) = shared_runtime() else {
        return ApiError::internal("the market-data skill is not loaded").into_response();
    };
    let args = Value::Object(args);
    let result = if function == GET_BOOK {
        call::order_book(runtime, &source, &args)
            .await
            .map(|r| Json(r).into_response())
    } else {
        call::klines(runtime, &source, &args)
            .await
            .map(|r| Json(r).into_response())
    };
    result.unwrap_or_else(|e| refused(&e, function, &args, &source))
}

/// The source `named` (a source, or one of the caller's accounts by name), or the caller's
/// own account's market.
async fn pick(
    state: &AppState,
    caller: &Caller,
    named: Option<&str>,
    lang: Lang,
) -> Result<DataSource, ApiError> {
    match source::for_request(&state.store, &caller.user, named, lang).await {
        Ok(chosen) => Ok(chosen.source),
        Err(SourceError::Unknown(name)) => Err(ApiError::field(
            "source",
            Worded::catalog(
                "market-unknown-source",
                &[
                    ("source", &shown_input(&name)),
                    ("names", &source::source_names_text()),
                ],
            ),
        )),
        Err(SourceError::Connect(c)) => Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "unavailable",
            Worded::new(c.to_string(), c.to_string()),
        )),
        Err(SourceError::Store(e)) => Err(ApiError::from(e)),
    }
}

/// A call that gave no data, as the API answers it: the arguments' problems by field, the
/// skill's refusal, 429 with Retry-After for a rate limit, 502 for a source that failed.
fn refused(e: &MarketError, function: &str, args: &Value, source: &DataSource) -> Response {
    let worded = Worded::new(
        error_text(e, function, args, &source.label, Lang::En),
        error_text(e, function, args, &source.label, Lang::Zh),
    );
    let (status, code) = match e {
        MarketError::Call(CallError::Invalid(invalid)) => {
            let mut err = ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "validation", worded);
            for problem in &invalid.errors {
                let message = Worded::new(
                    call_safe(&problem.message.en, args),
                    call_safe(&problem.message.zh, args),
                );
                err = err.and_field(problem.field.clone(), message);
            }
            return err.into_response();
        }
        MarketError::Call(CallError::Refused(_)) => {
            (StatusCode::UNPROCESSABLE_ENTITY, "not_covered")
        }
        MarketError::Call(CallError::RateLimited { retry_in, .. }) => {
            let mut response = ApiError::new(StatusCode::TOO_MANY_REQUESTS, "rate_limited", worded)
                .into_response();
            let seconds = retry_in.as_secs() + u64::from(retry_in.subsec_nanos() > 0);
            if let Ok(value) = HeaderValue::from_str(&seconds.max(1).to_string()) {
                response.headers_mut().insert(RETRY_AFTER, value);
            }
            return response;
        }
        MarketError::Call(_) => (StatusCode::BAD_GATEWAY, "unavailable"),
        MarketError::NoAnswerWithin { .. } => (StatusCode::GATEWAY_TIMEOUT, "unavailable"),
        MarketError::NotAnswering { again_in, .. } => {
            let mut response =
                ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "unavailable", worded)
                    .into_response();
            if let Ok(value) = HeaderValue::from_str(&again_in.as_secs().max(1).to_string()) {
                response.headers_mut().insert(RETRY_AFTER, value);
            }
            return response;
        }
        MarketError::NoSource { .. }
        | MarketError::UnknownCoin { .. }
        | MarketError::BadTime { .. }
        | MarketError::StartAfterEnd => (StatusCode::UNPROCESSABLE_ENTITY, "validation"),
    };
    ApiError::new(status, code, worded).into_response()
}

fn call_safe(message: &str, args: &Value) -> String {
    nofxi_assistant::market_data::render::quoted_safely(message, args)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use nofxi_skills::runtime::LimitedBy;
    use serde_json::json;

    use super::*;

    /// A rate limit that would hold the request is a 429 saying when to come back.
    #[test]
    fn a_rate_limit_is_a_429_with_retry_after_in_whole_seconds() {
        let limited = MarketError::Call(CallError::RateLimited {
            by: LimitedBy::Budget {
                function: Some(GET_KLINE.into()),
                per_minute: 20,
            },
            retry_in: Duration::from_millis(2_200),
        });
        let sim = source::named("simulated", 42, Lang::En).unwrap();
        let response = refused(&limited, GET_KLINE, &json!({"symbol": "BTCUSDT"}), &sim);
        assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(
            response
                .headers()
                .get(RETRY_AFTER)
                .and_then(|v| v.to_str().ok()),
            Some("3")
        );
    }
}
