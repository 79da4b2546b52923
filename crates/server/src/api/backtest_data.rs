//! What a backtest from the page can run on besides the simulated market: the history
//! `nofxi data download` stored in `<home>/history`, listed as `nofxi data list` lists it
//! (the same [`HistoryStore::manifests`]) and replayed candle by candle.

use std::path::PathBuf;

use axum::Json;
use axum::extract::State;
use axum::http::Method;
use axum::routing::get;
use nofxi_domain::Interval;
use nofxi_domain::market::{Candle, Symbol};
use nofxi_trader::runtime::public_market::{PUBLIC_MARKETS, public_markets_text};
use nofxi_venues::history::{HistoryStore, Manifest, SeriesKey};

use super::{Op, Reply, schema};
use crate::error::{ApiError, ApiResult, Worded};
use crate::state::AppState;

pub fn operation() -> Op {
    Op::new(
        Method::GET,
        "/api/history",
        "backtests",
        "The market history downloaded with `nofxi data download`, as `nofxi data list` lists it: a backtest can run on any of it",
        Reply::Json(200, schema::<History>),
        get(list),
    )
}

#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct History {
    /// One series (exchange, symbol, interval) each, sorted by exchange, symbol and interval.
    #[schemars(with = "Vec<serde_json::Value>")]
    pub items: Vec<Manifest>,
}

async fn list(State(state): State<AppState>) -> ApiResult<Json<History>> {
    let items = match state.backtests.history() {
        Some(store) => store.manifests().map_err(ApiError::internal)?,
        None => Vec::new(),
    };
    Ok(Json(History { items }))
}

/// Downloaded candles to replay: per symbol, and the time they all cover.
#[derive(Debug)]
pub struct Replay {
    pub series: Vec<(Symbol, Vec<Candle>)>,
    /// Open times of the first and the last candle every symbol has.
    pub first_ms: i64,
    pub last_ms: i64,
    /// `binance history BTCUSDT 1h (nofxi data download)`.
    pub source: String,
}

fn refused(en: String, zh: String) -> ApiError {
    ApiError::field("data", Worded::new(en, zh))
}

/// The stored `interval` candles of `exchange` for `symbols`; refused under `data` with the
/// download command that fixes it when one was not downloaded.
pub fn replay(
    dir: Option<&PathBuf>,
    exchange: &str,
    symbols: &[Symbol],
    interval: Interval,
) -> ApiResult<Replay> {
    let exchange = exchange.trim().to_ascii_lowercase();
    if !PUBLIC_MARKETS.contains(&exchange.as_str()) {
        let choices = public_markets_text();
        return Err(refused(
            format!(
                "`data` {exchange:?} is no exchange nofxi downloads history from: use simulated, {choices}"
            ),
            format!(
                "`data` {exchange:?} 不是 nofxi 能下载行情历史的交易所：请用 simulated、{choices}"
            ),
        ));
    }
    let store = HistoryStore::new(dir.cloned().unwrap_or_default());
    let mut series = Vec::new();
    let (mut first_ms, mut last_ms) = (i64::MIN, i64::MAX);
    for symbol in symbols {
        let key = SeriesKey {
            exchange: exchange.clone(),
            symbol: symbol.clone(),
            interval,
        };
        let candles = match dir {
            Some(_) => store.candles(&key).map_err(ApiError::internal)?,
            None => Vec::new(),
        };
        let (Some(first), Some(last)) = (candles.first(), candles.last()) else {
            return Err(refused(
                format!(
                    "no {exchange} {symbol} {interval} candles are downloaded: run `nofxi data download --exchange {exchange} --symbols {symbol} --interval {interval} --from …` first"
                ),
                format!(
                    "还没有下载 {exchange} {symbol} {interval} 的K线：先运行 `nofxi data download --exchange {exchange} --symbols {symbol} --interval {interval} --from …`"
                ),
            ));
        };
        first_ms = first_ms.max(first.open_time_ms);
        last_ms = last_ms.min(last.open_time_ms);
        series.push((symbol.clone(), candles));
    }
    if first_ms > last_ms {
        return Err(refused(
            format!(
                "the {exchange} history of these symbols shares no time: download one range for all of them"
            ),
            format!("这些币种的 {exchange} 历史没有共同的时间段：请为它们下载同一段时间"),
        ));
    }
    let names: Vec<&str> = symbols.iter().map(Symbol::as_str).collect();
    Ok(Replay {
        series,
        first_ms,
        last_ms,
        source: format!(
            "{exchange} history {} {interval} (nofxi data download)",
            names.join(",")
        ),
    })
}
