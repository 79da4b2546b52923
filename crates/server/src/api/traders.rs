//! A trader's life and record: start and stop, status, the decision journal, stats, the
//! equity curve and open positions.
//!
//! A start or a stop waits for a confirmation exactly when the chat's would (the skill's rule,
//! `nofxi_assistant::edit_confirm::asks`): a start on a live or testnet account, a stop of a
//! running trader, paper included. Then it takes the two steps of every risky call (see
//! [`super::step`]); otherwise the first call acts.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::{Method, StatusCode};
use axum::routing::{get, post};
use nofxi_assistant::edit_confirm::{TRADER_START, TRADER_STOP, asks};
use nofxi_domain::trading::Position;
use nofxi_domain::{Exchange, Trader};
use nofxi_store::Store;
use nofxi_trader::runtime::baseline::PnlBasis;
use nofxi_trader::runtime::connect::ConnectError;
use nofxi_trader::runtime::preflight::start_trader;
use nofxi_trader::runtime::report::trader_stats;
use nofxi_trader::runtime::status::{StatusView, status_view};
use nofxi_trader::runtime::view::trader_account;
use nofxi_trader::stats::Stats;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::step::{ConfirmBody, Risky, Step, confirmation, summary};
use super::trader_edit::target;
use super::{Body, Op, Reply, schema};
use crate::access::{Caller, TRADE};
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;

pub fn operations() -> Vec<Op> {
    vec![
        Op::new(Method::POST, "/api/traders/{id}/start", "traders", "Start; the preflight runs before it is marked running. On a live or testnet account in two steps, as the chat asks (summary and token, then the call again with `confirm`); a paper trader starts at once", Reply::Json(200, schema::<Step<Trader>>), post(start)).body(schema::<ConfirmBody>).gate(TRADE),
        Op::new(Method::POST, "/api/traders/{id}/stop", "traders", "Stop; it finishes the cycle in progress. A running trader (paper included) in two steps, as the chat asks", Reply::Json(200, schema::<Step<Trader>>), post(stop)).body(schema::<ConfirmBody>).gate(TRADE),
        Op::new(Method::GET, "/api/traders/{id}/status", "traders", "Running or not, why it stopped, the last cycle, the engine holding it", Reply::Json(200, schema::<StatusView>), get(status)),
        Op::new(Method::GET, "/api/traders/{id}/journal", "traders", "The decision journal, newest cycle first: prompts, reasoning, decisions, guard verdicts, orders, fills", Reply::Json(200, schema::<Journal>), get(journal)).query(schema::<JournalQuery>),
        Op::new(Method::GET, "/api/traders/{id}/stats", "traders", "P&L from its start (net of fees) split into realized and unrealized, each with its basis; trades, win rate, profit factor (flagged below the minimum sample), drawdown, Sharpe (null below it)", Reply::Json(200, schema::<StatsView>), get(stats)),
        Op::new(Method::GET, "/api/traders/{id}/equity", "traders", "The equity curve, one point per cycle", Reply::Json(200, schema::<EquityCurve>), get(equity)),
        Op::new(Method::GET, "/api/traders/{id}/positions", "traders", "Open positions, read from the account now", Reply::Json(200, schema::<Positions>), get(positions)),
    ]
}

async fn start(
    State(state): State<AppState>,
    caller: Caller,
    Path(reference): Path<String>,
    Body(body): Body<ConfirmBody>,
) -> ApiResult<Json<Step<Trader>>> {
    let store = &state.store;
    let trader = store.get_trader(&caller.user, &reference).await?;
    let exchange = store
        .get_exchange(&caller.user, &trader.spec.exchange_id)
        .await?;
    let model = store
        .get_model(&caller.user, &trader.spec.ai_model_id)
        .await?;
    let strategy = store
        .get_strategy(&caller.user, &trader.spec.strategy_id)
        .await?;
    let balance = trader.spec.initial_balance.to_string();
    let account = summary(money_at_stake(&exchange), &[]);
    let risky = Risky {
        action: "trader.start",
        id: &trader.id,
        version: version(&trader),
        summary: summary(
            "confirm-start",
            &[
                ("name", &trader.spec.name),
                ("exchange", &exchange.spec.account_name),
                ("kind", &exchange.spec.exchange_type),
                ("model", &model.spec.name),
                ("strategy", &strategy.spec.name),
                ("balance", &balance),
                ("account", &account),
            ],
        ),
    };
    let asked = asks(
        &state.library,
        TRADER_START,
        target(store, &caller.user, &trader).await?,
    );
    if asked && let Some(step) = confirmation(&state, &caller, &body, risky)? {
        return Ok(Json(step));
    }
    // The preflight's own words say what failed and what to do (a venue's code and message
    // included); its kind is for programs and the logs, not the reader.
    let (trader, _) = start_trader(store, &caller.actor(true), &trader.id)
        .await
        .map_err(|e| {
            tracing::info!(trader = %trader.spec.name, kind = e.kind(), "start refused");
            let detail = e.to_string();
            let args = [("name", trader.spec.name.as_str()), ("detail", &detail)];
            ApiError::catalog(
                StatusCode::CONFLICT,
                "preflight",
                "http-start-refused",
                &args,
            )
        })?;
    Ok(Json(Step::Done {
        done: true,
        object: trader,
    }))
}

async fn stop(
    State(state): State<AppState>,
    caller: Caller,
    Path(reference): Path<String>,
    Body(body): Body<ConfirmBody>,
) -> ApiResult<Json<Step<Trader>>> {
    let trader = state.store.get_trader(&caller.user, &reference).await?;
    let risky = Risky {
        action: "trader.stop",
        id: &trader.id,
        version: version(&trader),
        summary: summary("confirm-stop", &[("name", &trader.spec.name)]),
    };
    let target = target(&state.store, &caller.user, &trader).await?;
    if asks(&state.library, TRADER_STOP, target)
        && let Some(step) = confirmation(&state, &caller, &body, risky)?
    {
        return Ok(Json(step));
    }
    let trader = state
        .store
        .set_trader_running(&caller.actor(true), &trader.id, false)
        .await?;
    Ok(Json(Step::Done {
        done: true,
        object: trader,
    }))
}

/// A trader's account that cannot be read: the store's failure as the store's; the venue's (a
/// refused key, a venue down) in its own words, not as a failure inside nofxi.
pub(super) fn unreadable(e: ConnectError) -> ApiError {
    let status = match e {
        ConnectError::Store(e) => return e.into(),
        ConnectError::Venue(_) => StatusCode::BAD_GATEWAY,
        _ => StatusCode::CONFLICT,
    };
    let detail = e.to_string();
    ApiError::catalog(
        status,
        "unavailable",
        "http-account-unreadable",
        &[("detail", &detail)],
    )
}

/// What money a start on `exchange` trades, as the chat's confirmations say it (the catalog
/// key): real money on a live account, test funds on a testnet one, none on paper.
pub(super) fn money_at_stake(exchange: &Exchange) -> &'static str {
    match (exchange.spec.exchange_type.as_str(), exchange.spec.testnet) {
        ("paper", _) => "confirm-account-paper",
        (_, true) => "confirm-account-testnet",
        _ => "confirm-account-live",
    }
}

/// What a start or stop confirmation is bound to: any edit, start or stop makes it stale.
fn version(trader: &Trader) -> String {
    format!("{}:{}", trader.updated_at, trader.is_running)
}

async fn status(
    State(state): State<AppState>,
    caller: Caller,
    Path(reference): Path<String>,
) -> ApiResult<Json<StatusView>> {
    let trader = state.store.get_trader(&caller.user, &reference).await?;
    Ok(Json(
        status_view(&state.store, &caller.user, &trader).await?,
    ))
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct JournalQuery {
    /// How many cycles, newest first (1–500, default 50).
    pub limit: Option<i64>,
    /// Cycles before this cycle number (paging back).
    pub before: Option<u64>,
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct Journal {
    /// Cycle records as the engine journaled them.
    pub items: Vec<serde_json::Value>,
}

async fn journal(
    State(state): State<AppState>,
    caller: Caller,
    Path(reference): Path<String>,
    Query(q): Query<JournalQuery>,
) -> ApiResult<Json<Journal>> {
    let trader = state.store.get_trader(&caller.user, &reference).await?;
    let rows = state
        .store
        .cycles(
            &caller.user,
            &trader.id,
            q.limit.unwrap_or(50).clamp(1, 500),
            q.before,
        )
        .await?;
    Ok(Json(Journal {
        items: rows.into_iter().map(|r| r.record).collect(),
    }))
}

/// A trader's figures. `stats.total_pnl` is the account's equity now against `pnl_basis`,
/// in two parts that add up to it: `stats.realized_pnl` (in the wallet: closed trades after
/// fees and funding) and `stats.unrealized_pnl` (on the `stats.open_positions` open positions
/// at the mark price). The ratios of trades (win rate, profit factor, average win and loss)
/// are over closed trades only, and flagged by `stats.sample_too_small` below
/// `stats.sample_min_trades`.
#[derive(Serialize, schemars::JsonSchema)]
pub struct StatsView {
    pub stats: Stats,
    /// The equity P&L is measured from (its start), when known.
    pub pnl_basis: Option<Decimal>,
    /// How `pnl_basis` was found: `first_start` (the equity recorded when the trader first
    /// started), `first_cycle` (its first journalled equity) or `initial_balance` (a paper
    /// trader's funding).
    pub pnl_basis_kind: Option<&'static str>,
    /// When `pnl_basis` was taken (epoch ms), where known.
    pub pnl_basis_at_ms: Option<i64>,
    /// Total P&L as a percentage of `pnl_basis`.
    pub total_pnl_pct: Option<Decimal>,
}

pub async fn stats_of(store: &Arc<Store>, user: &str, trader: &Trader) -> ApiResult<StatsView> {
    let (stats, basis) = trader_stats(store, user, trader)
        .await
        .map_err(unreadable)?;
    let equity = basis.as_ref().map(PnlBasis::equity);
    let pct = equity
        .filter(|b| *b > Decimal::ZERO)
        .map(|b| (stats.total_pnl / b * Decimal::ONE_HUNDRED).round_dp(2));
    Ok(StatsView {
        stats,
        pnl_basis: equity,
        pnl_basis_kind: basis.as_ref().map(PnlBasis::kind),
        pnl_basis_at_ms: basis.as_ref().and_then(PnlBasis::at_ms),
        total_pnl_pct: pct,
    })
}

async fn stats(
    State(state): State<AppState>,
    caller: Caller,
    Path(reference): Path<String>,
) -> ApiResult<Json<StatsView>> {
    let trader = state.store.get_trader(&caller.user, &reference).await?;
    Ok(Json(stats_of(&state.store, &caller.user, &trader).await?))
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct EquityPoint {
    /// Epoch milliseconds (the timeline's, for a simulated paper trader).
    pub t: i64,
    pub equity: Decimal,
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct EquityCurve {
    pub points: Vec<EquityPoint>,
}

pub async fn curve_of(store: &Store, user: &str, trader_id: &str) -> ApiResult<Vec<EquityPoint>> {
    Ok(store
        .equity_curve(user, trader_id)
        .await?
        .into_iter()
        .map(|(t, equity)| EquityPoint { t, equity })
        .collect())
}

async fn equity(
    State(state): State<AppState>,
    caller: Caller,
    Path(reference): Path<String>,
) -> ApiResult<Json<EquityCurve>> {
    let trader = state.store.get_trader(&caller.user, &reference).await?;
    Ok(Json(EquityCurve {
        points: curve_of(&state.store, &caller.user, &trader.id).await?,
    }))
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct PositionView {
    pub symbol: String,
    /// `LONG` or `SHORT`.
    pub side: String,
    pub quantity: Decimal,
    pub entry_price: Decimal,
    pub mark_price: Decimal,
    pub leverage: u32,
    pub margin_mode: String,
    pub unrealized_pnl: Decimal,
    pub liquidation_price: Option<Decimal>,
}

impl From<&Position> for PositionView {
    fn from(p: &Position) -> PositionView {
        PositionView {
            symbol: p.symbol.to_string(),
            side: p.side.to_string(),
            quantity: p.quantity,
            entry_price: p.entry_price,
            mark_price: p.mark_price,
            leverage: p.leverage,
            margin_mode: p.margin_mode.to_string(),
            unrealized_pnl: p.unrealized_pnl,
            liquidation_price: p.liquidation_price,
        }
    }
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct Positions {
    pub items: Vec<PositionView>,
    /// Equity of the trader's account now; absent for a paper trader that never started.
    pub equity: Option<Decimal>,
}

pub async fn positions_of(store: &Arc<Store>, user: &str, trader: &Trader) -> ApiResult<Positions> {
    let view = trader_account(store.clone(), user, trader)
        .await
        .map_err(unreadable)?;
    Ok(match view {
        Some(v) => Positions {
            items: v.positions.iter().map(PositionView::from).collect(),
            equity: Some(v.account.equity),
        },
        None => Positions {
            items: Vec::new(),
            equity: None,
        },
    })
}

async fn positions(
    State(state): State<AppState>,
    caller: Caller,
    Path(reference): Path<String>,
) -> ApiResult<Json<Positions>> {
    let trader = state.store.get_trader(&caller.user, &reference).await?;
    Ok(Json(
        positions_of(&state.store, &caller.user, &trader).await?,
    ))
}
