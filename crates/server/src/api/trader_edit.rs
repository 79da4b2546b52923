//! Changing a trader over HTTP (`PATCH /api/traders/{id}`). Whether the change waits for a yes
//! is the chat's own rule (`nofxi_assistant::edit_confirm`: a changed model, account,
//! strategy, initial balance, scan interval or margin mode), asked with the chat's words; then
//! the two steps of every risky call (see [`super::step`]). The change is checked before the
//! question, so one that would be refused (a running trader moved to another account) is
//! refused at once, and the token is bound to the trader as it is and to the change itself.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::Method;
use axum::routing::patch;
use nofxi_assistant::edit_confirm::{FieldChange, TRADER_UPDATE, Target, question, trader_changes};
use nofxi_domain::Trader;
use nofxi_store::{Store, StoreError};
use nofxi_trader::runtime::connect::is_live;
use serde::Serialize;

use super::resources::{Kind, TraderUpdate, TraderView, Traders};
use super::step::{ConfirmBody, Risky, Step, confirmation};
use super::{Body, Op, Reply, schema};
use crate::access::Caller;
use crate::error::ApiResult;
use crate::state::AppState;

pub fn operation() -> Op {
    Op::new(
        Method::PATCH,
        Traders::ITEM,
        "traders",
        "Change the fields given. A change the chat asks about (model, exchange, strategy, initial balance, scan interval, margin mode) is made in two steps: the first call returns the summary and a token, the same call with `confirm` acts",
        Reply::Json(200, schema::<Edited<TraderView>>),
        patch(update),
    )
    .body(schema::<TraderUpdate>)
}

/// The answer to a change that may wait for a confirmation.
#[derive(Serialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum Edited<T> {
    /// Nothing was changed yet: show `summary`, send the same body back with `confirm`.
    Confirm(Step<T>),
    /// It was changed: the object as it is now.
    Saved(T),
}

async fn update(
    State(state): State<AppState>,
    caller: Caller,
    Path(reference): Path<String>,
    Body(body): Body<TraderUpdate>,
) -> ApiResult<Json<Edited<TraderView>>> {
    let store = &state.store;
    let (trader, after, _) = store
        .check_trader_update(&caller.user, &reference, body.patch())
        .await?;
    let changes = trader_changes(&trader.spec, &after);
    let shown = named(store, &caller.user, &changes).await;
    let target = target(store, &caller.user, &trader).await?;
    let lang = crate::lang::current();
    if let Some(summary) = question(&state.library, TRADER_UPDATE, lang, target, &shown) {
        let risky = Risky {
            action: "trader.update",
            id: &trader.id,
            version: version(&trader, &changes),
            summary,
        };
        let confirm = ConfirmBody {
            confirm: body.confirm.clone(),
        };
        if let Some(step) = confirmation(&state, &caller, &confirm, risky)? {
            return Ok(Json(Edited::Confirm(step)));
        }
    }
    let view = Traders::update(store, &caller, &trader.id, body).await?;
    Ok(Json(Edited::Saved(view)))
}

/// What a confirmation of `changes` to `trader` is bound to: the trader as it is (any edit,
/// start or stop makes it stale) and the change itself (a token for one change confirms no
/// other).
fn version(trader: &Trader, changes: &[FieldChange]) -> String {
    let change: Vec<String> = changes
        .iter()
        .map(|c| format!("{}={}", c.slot, c.after))
        .collect();
    format!(
        "{}:{}:{}",
        trader.updated_at,
        trader.is_running,
        change.join("\u{0}")
    )
}

/// What the rule knows of the trader: its name, whether it runs, what its account trades.
pub(super) async fn target<'a>(
    store: &Store,
    user: &str,
    trader: &'a Trader,
) -> Result<Target<'a>, StoreError> {
    let exchange = store.get_exchange(user, &trader.spec.exchange_id).await?;
    Ok(Target {
        name: &trader.spec.name,
        running: trader.is_running,
        live: is_live(&exchange),
        testnet: exchange.spec.testnet,
    })
}

/// The changes as the summary shows them: a model, account or strategy by its name.
async fn named(store: &Store, user: &str, changes: &[FieldChange]) -> Vec<FieldChange> {
    let mut shown = Vec::with_capacity(changes.len());
    for change in changes {
        let mut change = change.clone();
        for value in [&mut change.before, &mut change.after] {
            let Some(id) = value.as_str().map(str::to_string) else {
                continue;
            };
            let name = match change.slot.as_str() {
                "model" => store.get_model(user, &id).await.map(|m| m.spec.name),
                "exchange" => store
                    .get_exchange(user, &id)
                    .await
                    .map(|e| e.spec.account_name),
                "strategy" => store.get_strategy(user, &id).await.map(|s| s.spec.name),
                _ => continue,
            };
            // A binding to something deleted since is shown as it is stored.
            if let Ok(name) = name {
                *value = serde_json::Value::String(name);
            }
        }
        shown.push(change);
    }
    shown
}
