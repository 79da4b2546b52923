//! Acting on a trader's positions over HTTP: close one position, or stop the trader and close
//! all of them. Both send orders at market, so both take the two steps of every risky call
//! (see [`super::step`]), their token bound to the positions the summary named: a position
//! that changed since (the trader added to it, a stop closed it) makes the token stale.
//! The close itself is the trader runtime's (`nofxi_trader::runtime::close`): under the
//! trader's lease, by its engine when one runs it, journalled as a cycle of its own.

use std::time::Duration;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{Method, StatusCode};
use axum::routing::post;
use nofxi_domain::Trader;
use nofxi_trader::cycle::CloseTarget;
use nofxi_trader::runtime::close::{
    CloseError, CloseReport, Closing, close_positions, one_position,
};
use serde::{Deserialize, Serialize};

use super::step::{ConfirmBody, Risky, Step, confirmation, summary};
use super::traders::{PositionView, money_at_stake, positions_of, unreadable};
use super::{Body, Op, Reply, schema};
use crate::access::{Caller, TRADE};
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;

/// How long a close waits for the engine running the trader to answer.
const CLOSE_PATIENCE: Duration = Duration::from_secs(20);
/// How long a stop-and-close waits for that engine to let the trader go (it finishes its
/// cycle first; a model may take most of a minute).
const STOP_PATIENCE: Duration = Duration::from_secs(75);

pub fn operations() -> Vec<Op> {
    vec![
        Op::new(
            Method::POST,
            "/api/traders/{id}/positions/close",
            "traders",
            "Close one open position at market (its stop-loss and take-profit orders go with it), in two steps: the summary and a token, then the same body with `confirm`. A running trader's engine closes it between two cycles; `waiting` says it has the request but is still in a cycle",
            Reply::Json(200, schema::<Step<Closed>>),
            post(close_one),
        )
        .body(schema::<ClosePosition>)
        .gate(TRADE),
        Op::new(
            Method::POST,
            "/api/traders/{id}/stop-and-close",
            "traders",
            "Stop the trader and close every open position at market, in two steps; it waits for the engine to finish the cycle in progress",
            Reply::Json(200, schema::<Step<Closed>>),
            post(stop_and_close),
        )
        .body(schema::<ConfirmBody>)
        .gate(TRADE),
    ]
}

/// The position to close, as `GET /api/traders/{id}/positions` lists it.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ClosePosition {
    /// `BTCUSDT`.
    pub symbol: String,
    /// `LONG` or `SHORT`.
    pub side: String,
    /// The token the first call returned.
    #[serde(default)]
    pub confirm: Option<String>,
}

/// What a close did.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Closed {
    /// The trader as it is now (stopped, after a stop-and-close).
    pub trader: Trader,
    /// The close, once made; absent while `waiting`.
    pub report: Option<CloseReport>,
    /// The engine running the trader has the request and closes after its current cycle.
    pub waiting: bool,
}

async fn close_one(
    State(state): State<AppState>,
    caller: Caller,
    Path(reference): Path<String>,
    Body(body): Body<ClosePosition>,
) -> ApiResult<Json<Step<Closed>>> {
    let trader = state.store.get_trader(&caller.user, &reference).await?;
    let Some(target) = one_position(&body.symbol, &body.side) else {
        return Err(ApiError::bad_request("http-close-bad-position", &[]));
    };
    let CloseTarget::Position { symbol, side } = &target else {
        return Err(ApiError::bad_request("http-close-bad-position", &[]));
    };
    let (symbol, side) = (symbol.to_string(), side.to_string());
    let held = positions_of(&state.store, &caller.user, &trader).await?;
    let side_word = summary(&format!("side-{}", side.to_ascii_lowercase()), &[]);
    let Some(position) = held
        .items
        .iter()
        .find(|p| p.symbol == symbol && p.side == side)
    else {
        let args = [
            ("name", trader.spec.name.as_str()),
            ("side", side_word.as_str()),
            ("symbol", symbol.as_str()),
        ];
        return Err(ApiError::catalog(
            StatusCode::CONFLICT,
            "conflict",
            "http-close-not-found",
            &args,
        ));
    };
    let account = account_words(&state, &caller, &trader).await?;
    let quantity = position.quantity.normalize().to_string();
    let risky = Risky {
        action: "trader.close_position",
        id: &trader.id,
        version: format!("{symbol}:{side}:{quantity}"),
        summary: summary(
            "confirm-close-position",
            &[
                ("name", &trader.spec.name),
                ("side", &side_word),
                ("quantity", &quantity),
                ("symbol", &symbol),
                ("account", &account),
            ],
        ),
    };
    let confirm = ConfirmBody {
        confirm: body.confirm,
    };
    if let Some(step) = confirmation(&state, &caller, &confirm, risky)? {
        return Ok(Json(step));
    }
    let closing = close_positions(
        &state.store,
        &caller.actor(true),
        &trader,
        target,
        false,
        CLOSE_PATIENCE,
    )
    .await;
    done(&state, &caller, &trader, closing).await
}

async fn stop_and_close(
    State(state): State<AppState>,
    caller: Caller,
    Path(reference): Path<String>,
    Body(body): Body<ConfirmBody>,
) -> ApiResult<Json<Step<Closed>>> {
    let trader = state.store.get_trader(&caller.user, &reference).await?;
    let held = positions_of(&state.store, &caller.user, &trader).await?;
    let account = account_words(&state, &caller, &trader).await?;
    let listed: Vec<String> = held.items.iter().map(position_words).collect();
    let list = listed.join(&summary("list-separator", &[]));
    // A stopped trader is only closed: its summary does not speak of a stop.
    let id = match (listed.is_empty(), trader.is_running) {
        (true, _) => "confirm-stop-close-none",
        (false, true) => "confirm-stop-close-all",
        (false, false) => "confirm-close-all",
    };
    let args = [
        ("name", trader.spec.name.as_str()),
        ("account", account.as_str()),
        ("positions", list.as_str()),
    ];
    let summary = summary(id, &args);
    let risky = Risky {
        action: "trader.stop_and_close",
        id: &trader.id,
        version: format!("{}:{}:{list}", trader.updated_at, trader.is_running),
        summary,
    };
    if let Some(step) = confirmation(&state, &caller, &body, risky)? {
        return Ok(Json(step));
    }
    let closing = close_positions(
        &state.store,
        &caller.actor(true),
        &trader,
        CloseTarget::All,
        true,
        STOP_PATIENCE,
    )
    .await;
    done(&state, &caller, &trader, closing).await
}

/// The answer to a confirmed close: what it closed, or why it could not.
async fn done(
    state: &AppState,
    caller: &Caller,
    trader: &Trader,
    closing: Result<Closing, CloseError>,
) -> ApiResult<Json<Step<Closed>>> {
    let name = trader.spec.name.as_str();
    let (report, waiting) = match closing {
        Ok(Closing::Done(report)) => (Some(report), false),
        Ok(Closing::Waiting) => (None, true),
        Err(CloseError::Store(e)) => return Err(e.into()),
        Err(CloseError::Connect(e)) => return Err(unreadable(e)),
        Err(CloseError::StillHeld) => {
            return Err(ApiError::catalog(
                StatusCode::CONFLICT,
                "conflict",
                "http-close-still-held",
                &[("name", name)],
            ));
        }
        Err(e @ CloseError::Journal(_)) => return Err(refused(name, &e.to_string())),
    };
    // Nothing closed and something refused: the close failed, in the venue's words.
    if let Some(r) = report
        .as_ref()
        .filter(|r| r.closed.is_empty() && !r.failed.is_empty())
    {
        return Err(refused(name, &r.failed.join("; ")));
    }
    let trader = state.store.get_trader(&caller.user, &trader.id).await?;
    Ok(Json(Step::Done {
        done: true,
        object: Closed {
            trader,
            report,
            waiting,
        },
    }))
}

fn refused(name: &str, detail: &str) -> ApiError {
    ApiError::catalog(
        StatusCode::BAD_GATEWAY,
        "unavailable",
        "http-close-refused",
        &[("name", name), ("detail", detail)],
    )
}

/// What the trader's account trades with, as a confirmation says it.
async fn account_words(state: &AppState, caller: &Caller, trader: &Trader) -> ApiResult<String> {
    let exchange = state
        .store
        .get_exchange(&caller.user, &trader.spec.exchange_id)
        .await?;
    Ok(summary(money_at_stake(&exchange), &[]))
}

/// `BTCUSDT long 0.01`.
fn position_words(p: &PositionView) -> String {
    let side = summary(&format!("side-{}", p.side.to_ascii_lowercase()), &[]);
    format!("{} {side} {}", p.symbol, p.quantity.normalize())
}
