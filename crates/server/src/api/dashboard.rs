//! The dashboard: every trader with its state (and why it stopped), equity, P&L (realized and
//! unrealized apart, each with its basis), open positions, its last decision with the model's
//! reasoning, and its equity curve; a summary across the traders; and a stream that says when
//! any of it changed.
//!
//! The figures come from the journal's newest cycle (what the engine saw), not from a venue
//! call per trader, so the page is cheap to refresh on every cycle.

use std::convert::Infallible;
use std::time::Duration;

use axum::Json;
use axum::extract::State;
use axum::http::Method;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::routing::get;
use futures::Stream;
use nofxi_domain::trading::AccountSnapshot;
use nofxi_domain::{MarketSource, Trader};
use nofxi_store::{CycleRow, Store};
use nofxi_trader::runtime::baseline::{PnlBasis, pnl_basis};
use nofxi_trader::runtime::connect::is_live;
use nofxi_trader::runtime::status::{StatusView, status_view_after};
use rust_decimal::Decimal;
use serde::Serialize;

use super::traders::{EquityPoint, PositionView, curve_of};
use super::{Op, Reply, schema};
use crate::access::Caller;
use crate::error::ApiResult;
use crate::state::AppState;

/// How often a dashboard stream looks for changes.
const STREAM_POLL: Duration = Duration::from_millis(1000);

/// How many recent cycles a card looks through for the newest one with figures, when the
/// newest failed.
const FIGURES_LOOKBACK: i64 = 20;

pub fn operations() -> Vec<Op> {
    vec![
        Op::new(
            Method::GET,
            "/api/dashboard",
            "dashboard",
            "Every trader: state, equity, P&L (realized and unrealized apart), positions, last decision, equity curve; and their sum",
            Reply::Json(200, schema::<Dashboard>),
            get(dashboard),
        ),
        Op::new(
            Method::GET,
            "/api/stream",
            "dashboard",
            "Server-sent events: `changed` whenever a trader of the caller changes or journals a cycle (then read /api/dashboard again)",
            Reply::EventStream,
            get(stream),
        ),
    ]
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct Dashboard {
    pub traders: Vec<TraderCard>,
    pub summary: Summary,
}

/// The traders together. The money figures are sums over the `counted` traders that have
/// them (a cycle journaled and a P&L basis); each is its cards' figure added up.
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
pub struct Summary {
    pub traders: usize,
    /// Traders marked running.
    pub running: usize,
    /// Traders whose figures are in the sums.
    pub counted: usize,
    pub equity: Decimal,
    pub pnl: Decimal,
    pub realized_pnl: Decimal,
    pub unrealized_pnl: Decimal,
    /// Open positions of every trader (as of each one's newest cycle).
    pub open_positions: usize,
}

impl Summary {
    fn of(cards: &[TraderCard]) -> Summary {
        let mut sum = Summary {
            traders: cards.len(),
            ..Summary::default()
        };
        for card in cards {
            sum.running += usize::from(card.is_running);
            sum.open_positions += card.positions.len();
            if let (Some(equity), Some(pnl), Some(realized), Some(unrealized)) = (
                card.equity,
                card.pnl,
                card.realized_pnl,
                card.unrealized_pnl,
            ) {
                sum.counted += 1;
                sum.equity += equity;
                sum.pnl += pnl;
                sum.realized_pnl += realized;
                sum.unrealized_pnl += unrealized;
            }
        }
        sum
    }
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct TraderCard {
    pub id: String,
    pub name: String,
    pub is_running: bool,
    pub status: StatusView,
    pub exchange: String,
    /// Where a paper trader's prices come from (`simulated`, `binance`, …): its equity and
    /// P&L rest on them. Absent for a live account, which trades on its own venue's prices.
    pub market: Option<MarketSource>,
    pub model: String,
    pub strategy: String,
    pub initial_balance: Decimal,
    /// Equity after the newest cycle; absent before the first.
    pub equity: Option<Decimal>,
    /// P&L against the trader's start (see `trader stats`): `realized_pnl + unrealized_pnl`.
    pub pnl: Option<Decimal>,
    pub pnl_pct: Option<Decimal>,
    /// The part in the wallet: closed trades after fees and funding (the newest cycle's
    /// wallet balance − `pnl_basis`).
    pub realized_pnl: Option<Decimal>,
    /// The part on the open positions at the newest cycle's mark prices.
    pub unrealized_pnl: Option<Decimal>,
    /// The equity the P&L is measured from, and how it was found (`first_start`,
    /// `first_cycle`, `initial_balance`; see `/api/traders/{id}/stats`).
    pub pnl_basis: Option<Decimal>,
    pub pnl_basis_kind: Option<&'static str>,
    pub positions: Vec<PositionView>,
    pub last_decision: Option<LastDecision>,
    pub equity_curve: Vec<EquityPoint>,
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct LastDecision {
    pub cycle_number: u64,
    /// Epoch milliseconds (the timeline's, for a simulated paper trader).
    pub at: i64,
    pub simulated: bool,
    /// The model's reasoning for the cycle.
    pub reasoning: String,
    /// The decisions it made, as journaled.
    pub decisions: serde_json::Value,
    pub error: Option<String>,
}

async fn dashboard(State(state): State<AppState>, caller: Caller) -> ApiResult<Json<Dashboard>> {
    let store = &state.store;
    let mut cards = Vec::new();
    for trader in store.list_traders(&caller.user, false).await? {
        cards.push(card(store, &caller.user, trader).await?);
    }
    let summary = Summary::of(&cards);
    Ok(Json(Dashboard {
        traders: cards,
        summary,
    }))
}

async fn card(store: &Store, user: &str, trader: Trader) -> ApiResult<TraderCard> {
    // The curve is read before the newest cycle: a cycle journaled between the two reads then
    // shows as a last decision one point ahead of the curve, never as a curve point with no
    // last decision (the engine runs while the page reads).
    let equity_curve = curve_of(store, user, &trader.id).await?;
    // Each row is read once: the newest cycle feeds the status, equity, positions and the
    // last decision; the account feeds its name and the P&L basis.
    let last = store
        .cycles(user, &trader.id, 1, None)
        .await?
        .into_iter()
        .next();
    let status = status_view_after(store, user, &trader, last.as_ref()).await?;
    let name_of =
        |r: Result<String, nofxi_store::StoreError>, id: &str| r.unwrap_or_else(|_| id.to_string());
    let spec = &trader.spec;
    let account = store.get_exchange(user, &spec.exchange_id).await;
    let paper = account.as_ref().is_ok_and(|e| !is_live(e));
    let market = account.as_ref().ok().filter(|_| paper).map(|e| e.market);
    let exchange = name_of(account.map(|e| e.spec.account_name), &spec.exchange_id);
    let model = name_of(
        store
            .get_model(user, &spec.ai_model_id)
            .await
            .map(|m| m.spec.name),
        &spec.ai_model_id,
    );
    let strategy = name_of(
        store
            .get_strategy(user, &spec.strategy_id)
            .await
            .map(|s| s.spec.name),
        &spec.strategy_id,
    );
    // A cycle that failed (its model or venue did not answer) journals no account: the
    // figures are the newest cycle that read one, so a failing or stopped trader keeps its
    // last known equity and positions, and the sum across traders still counts it.
    let with_figures = match &last {
        Some(r) if r.equity.is_none() => store
            .cycles(user, &trader.id, FIGURES_LOOKBACK, None)
            .await?
            .into_iter()
            .find(|r| r.equity.is_some()),
        _ => None,
    };
    let figures = with_figures.as_ref().or(last.as_ref());
    let record = figures.map(|r| &r.record);
    let equity = figures.and_then(|r| r.equity);
    let basis = pnl_basis(store, user, &trader, paper).await;
    let (pnl, pnl_pct) = match (equity, &basis) {
        (Some(e), Some(b)) => {
            let (pnl, pct) = b.pnl(e);
            (Some(pnl), Some(pct))
        }
        _ => (None, None),
    };
    // The newest cycle's account, the one its equity is (after it traded, else before).
    let account = record.and_then(|r| {
        r.get("account_after")
            .filter(|a| !a.is_null())
            .or_else(|| r.get("account_before"))
            .and_then(|a| serde_json::from_value::<AccountSnapshot>(a.clone()).ok())
    });
    let (realized_pnl, unrealized_pnl) = match (&account, &basis) {
        (Some(a), Some(b)) if equity.is_some() => {
            let (realized, unrealized) = b.split(a);
            (Some(realized), Some(unrealized))
        }
        _ => (None, None),
    };
    let positions = record
        .and_then(|r| r.get("positions_after"))
        .and_then(|p| {
            serde_json::from_value::<Vec<nofxi_domain::trading::Position>>(p.clone()).ok()
        })
        .unwrap_or_default()
        .iter()
        .map(PositionView::from)
        .collect();
    let last_decision = last.as_ref().map(last_decision);
    Ok(TraderCard {
        equity_curve,
        id: trader.id,
        name: trader.spec.name.clone(),
        is_running: trader.is_running,
        status,
        exchange,
        market,
        model,
        strategy,
        initial_balance: trader.spec.initial_balance,
        equity,
        pnl,
        pnl_pct,
        realized_pnl,
        unrealized_pnl,
        pnl_basis: basis.as_ref().map(PnlBasis::equity),
        pnl_basis_kind: basis.as_ref().map(PnlBasis::kind),
        positions,
        last_decision,
    })
}

/// The newest cycle's decision as a card shows it.
fn last_decision(row: &CycleRow) -> LastDecision {
    let r = &row.record;
    LastDecision {
        cycle_number: row.cycle_number,
        at: row.started_at,
        simulated: r
            .get("simulated")
            .and_then(|v| v.as_bool())
            .unwrap_or(false),
        reasoning: r
            .get("reasoning")
            .and_then(|v| v.as_str())
            .unwrap_or("")
            .to_string(),
        decisions: r
            .get("decisions")
            .cloned()
            .unwrap_or(serde_json::Value::Null),
        error: r.get("error").and_then(|v| v.as_str()).map(str::to_string),
    }
}

/// `changed` when the caller's activity mark moves; the first event comes at once so a page
/// that connects late still reads the dashboard once.
async fn stream(
    State(state): State<AppState>,
    caller: Caller,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let store = state.store.clone();
    let user = caller.user;
    let events = futures::stream::unfold(None::<String>, move |seen| {
        let store = store.clone();
        let user = user.clone();
        async move {
            loop {
                if seen.is_some() {
                    tokio::time::sleep(STREAM_POLL).await;
                }
                let mark = store.activity_mark(&user).await.unwrap_or_default();
                if seen.as_deref() != Some(mark.as_str()) {
                    let event = Event::default().event("changed").data(mark.clone());
                    return Some((Ok(event), Some(mark)));
                }
            }
        }
    });
    Sse::new(state.until_stopping(events)).keep_alive(KeepAlive::default())
}
