//! A trader's closed trades (`GET /api/traders/{id}/trades`): each exit of a position with its
//! entry and exit, size, fees, funding, duration, reason and P&L, built from the fills of the
//! account the trader trades by the function its stats and the backtests use
//! (`nofxi_trader::trades`), so the list and the stats count the same trades.

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::Method;
use axum::routing::get;
use nofxi_trader::runtime::report::trader_trades;
use nofxi_trader::trades::ClosedTrade;
use serde::{Deserialize, Serialize};

use super::traders::unreadable;
use super::{Op, Reply, schema};
use crate::access::Caller;
use crate::error::ApiResult;
use crate::state::AppState;

pub fn operations() -> Vec<Op> {
    vec![
        Op::new(
            Method::GET,
            "/api/traders/{id}/trades",
            "traders",
            "Closed trades, newest first: each exit of a position with its entry and exit time and price, side, size, fees, funding where the account books it, duration, exit reason where known and P&L, in exact decimals; the trades the stats count",
            Reply::Json(200, schema::<Trades>),
            get(trades),
        )
        .query(schema::<TradesQuery>),
    ]
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct TradesQuery {
    /// How many, newest first (1–1000, default 200).
    pub limit: Option<usize>,
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct Trades {
    /// Newest exit first.
    pub items: Vec<ClosedTrade>,
    /// How many closed trades there are in all (`items` may hold fewer).
    pub total: usize,
}

async fn trades(
    State(state): State<AppState>,
    caller: Caller,
    Path(reference): Path<String>,
    Query(q): Query<TradesQuery>,
) -> ApiResult<Json<Trades>> {
    let trader = state.store.get_trader(&caller.user, &reference).await?;
    let mut all = trader_trades(&state.store, &caller.user, &trader)
        .await
        .map_err(unreadable)?;
    let total = all.len();
    all.reverse();
    all.truncate(q.limit.unwrap_or(200).clamp(1, 1_000));
    Ok(Json(Trades { items: all, total }))
}
