//! The settings page's routes: the assistant's own model (which model config the chat asks
//! where rules cannot decide, each candidate said usable or why not), the engine as this
//! server sees it, and the Test buttons of model and exchange rows. The probes are the ones
//! the chat's "test …" runs (`nofxi_assistant::{model_probe, exchange_probe}`), so a button and
//! a message say the same.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{Method, StatusCode};
use axum::routing::{get, post, put};
use nofxi_assistant::assistant_model::{
    AssistantModelError, assistant_model, set_assistant_model, why_not_assistant,
};
use nofxi_assistant::exchange_probe::probe_exchange;
use nofxi_assistant::model_probe::probe_model_told;
use nofxi_assistant::probed::Probed;
use nofxi_domain::Model;
use nofxi_trader::runtime::host::ENGINE_BEAT_TTL_MS;
use serde::{Deserialize, Serialize};

use super::{Body, Op, Reply, schema};
use crate::access::Caller;
use crate::error::{ApiError, ApiResult};
use crate::lang;
use crate::state::AppState;

pub fn operations() -> Vec<Op> {
    vec![
        Op::new(
            Method::GET,
            "/api/settings",
            "settings",
            "The caller's settings: the assistant's model (none: rules only) with every model config said usable for it or why not, and the trading engine's state",
            Reply::Json(200, schema::<Settings>),
            get(read),
        ),
        Op::new(
            Method::PUT,
            "/api/settings/assistant-model",
            "settings",
            "Set the model the assistant asks where rules cannot decide (`model`: its name or id), or clear it (`model: null`: rules only). Refused, naming why, for the builtin rules, a disabled model or one without its key",
            Reply::Json(200, schema::<Settings>),
            put(set_model),
        )
        .body(schema::<AssistantModelBody>),
        Op::new(
            Method::POST,
            "/api/models/{id}/test",
            "models",
            "One real call to the model's endpoint (as the chat's \"test NAME\"): whether it answered, or what happened, why and what to do now",
            Reply::Json(200, schema::<Probed>),
            post(test_model),
        ),
        Op::new(
            Method::POST,
            "/api/exchanges/{id}/test",
            "exchanges",
            "The account's connectivity check (clock, key, IP whitelist, permissions, position mode, balance; a paper account on a venue's prices: that market), as the chat's \"test NAME\"",
            Reply::Json(200, schema::<Probed>),
            post(test_exchange),
        ),
    ]
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct Settings {
    /// The model the assistant asks where rules cannot decide; absent: rules only.
    pub assistant_model: Option<ModelChoice>,
    /// Every model config, each said usable as the assistant's model or why not.
    pub models: Vec<ModelChoice>,
    pub engine: EngineState,
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct ModelChoice {
    pub id: String,
    pub name: String,
    pub provider: String,
    /// It can serve as the assistant's model now.
    pub usable: bool,
    /// Why not, in the reply's language, when it cannot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why_not: Option<String>,
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct EngineState {
    /// This server runs the trading engine in its own process (`nofxi serve` without
    /// `--no-engine`).
    pub in_this_server: bool,
    /// Simulated paper time runs this many times faster than real time (the engine in this
    /// server).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sim_speed: Option<f64>,
    /// Some engine on this database (this one, or a `nofxi run` beside it) is alive: a
    /// started trader will trade.
    pub running: bool,
    /// The caller's traders marked running.
    pub traders_running: usize,
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AssistantModelBody {
    /// The model config's name or id; `null` clears it (rules only).
    pub model: Option<String>,
}

async fn read(State(state): State<AppState>, caller: Caller) -> ApiResult<Json<Settings>> {
    Ok(Json(settings_of(&state, &caller.user).await?))
}

async fn set_model(
    State(state): State<AppState>,
    caller: Caller,
    Body(body): Body<AssistantModelBody>,
) -> ApiResult<Json<Settings>> {
    let reference = body.model.as_deref().map(str::trim);
    if reference == Some("") {
        return Err(ApiError::bad_request("http-settings-model-empty", &[]));
    }
    set_assistant_model(&state.store, &caller.actor(false), reference)
        .await
        .map_err(refused)?;
    Ok(Json(settings_of(&state, &caller.user).await?))
}

async fn test_model(
    State(state): State<AppState>,
    caller: Caller,
    Path(reference): Path<String>,
) -> ApiResult<Json<Probed>> {
    let probe = probe_model_told(&state.store, &caller.user, &reference, lang::current()).await?;
    Ok(Json(probe))
}

async fn test_exchange(
    State(state): State<AppState>,
    caller: Caller,
    Path(reference): Path<String>,
) -> ApiResult<Json<Probed>> {
    let probe = probe_exchange(
        state.store.clone(),
        &caller.user,
        &reference,
        lang::current(),
    )
    .await?;
    Ok(Json(probe))
}

async fn settings_of(state: &AppState, user: &str) -> ApiResult<Settings> {
    let store = &state.store;
    let chosen = assistant_model(store, user).await?;
    let mut models = Vec::new();
    for model in store.list_models(user, false).await? {
        let why_not = why_not_assistant(store, user, &model).await;
        models.push(choice(&model, why_not.as_ref()));
    }
    let assistant_model = chosen.map(|m| {
        let listed = models.iter().find(|c| c.id == m.id);
        ModelChoice {
            usable: listed.is_some_and(|c| c.usable),
            why_not: listed.and_then(|c| c.why_not.clone()),
            ..choice(&m, None)
        }
    });
    let traders_running = store
        .list_traders(user, false)
        .await?
        .iter()
        .filter(|t| t.is_running)
        .count();
    Ok(Settings {
        assistant_model,
        models,
        engine: EngineState {
            in_this_server: state.engine_sim_speed.is_some(),
            sim_speed: state.engine_sim_speed,
            running: store.engine_running(ENGINE_BEAT_TTL_MS).await?,
            traders_running,
        },
    })
}

fn choice(model: &Model, why_not: Option<&AssistantModelError>) -> ModelChoice {
    ModelChoice {
        id: model.id.clone(),
        name: model.spec.name.clone(),
        provider: model.spec.provider.clone(),
        usable: why_not.is_none(),
        why_not: why_not.map(|e| said(e).in_lang(lang::current()).to_string()),
    }
}

/// Why a model cannot be the assistant's, in words that point at the page that fixes it.
fn said(e: &AssistantModelError) -> crate::error::Worded {
    use crate::error::Worded;
    match e {
        AssistantModelError::Builtin(name) => {
            Worded::catalog("http-assistant-model-builtin", &[("name", name)])
        }
        AssistantModelError::Disabled(name) => {
            Worded::catalog("http-assistant-model-disabled", &[("name", name)])
        }
        AssistantModelError::NoKey(name) => {
            Worded::catalog("http-assistant-model-no-key", &[("name", name)])
        }
        AssistantModelError::Endpoint { name, detail } => Worded::catalog(
            "http-assistant-model-endpoint",
            &[("name", name), ("detail", detail)],
        ),
        AssistantModelError::Store(e) => Worded::new(e.to_string(), e.to_zh()),
    }
}

fn refused(e: AssistantModelError) -> ApiError {
    match e {
        AssistantModelError::Store(e) => ApiError::from(e),
        other => ApiError::new(StatusCode::BAD_REQUEST, "bad_request", said(&other)),
    }
}
