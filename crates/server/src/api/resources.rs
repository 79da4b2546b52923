//! The four resources (exchanges, models, strategies, traders): list, show, create, update,
//! delete (two steps), restore. One generic set of handlers over [`Kind`]; each kind says how
//! its bodies become the store's calls, so validation and wording are the CLI's own.

use std::collections::BTreeMap;
use std::sync::Arc;

use async_trait::async_trait;
use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::{Method, StatusCode};
use axum::routing::{get, post};
use nofxi_domain::validation::{Adjustment, ValidationError};
use nofxi_domain::{
    CredentialField, Credentials, Exchange, ExchangePatch, ExchangeSpec, MarketSource, Model,
    ModelPatch, ModelSpec, ResourceKind, Secret, Strategy, StrategyConfig, StrategyPatch,
    StrategySpec, Trader, TraderPatch, TraderSpec,
};
use nofxi_store::Store;
use rust_decimal::Decimal;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::step::{ConfirmBody, Risky, Step, confirmation, summary};
use super::{Body, Op, Reply, schema};
use crate::access::Caller;
use crate::error::{ApiError, ApiResult, Worded};
use crate::state::AppState;

/// A list of objects.
#[derive(Serialize, schemars::JsonSchema)]
pub struct Items<T> {
    pub items: Vec<T>,
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct ListQuery {
    /// List the trash (restorable for 30 days) instead.
    #[serde(default)]
    pub deleted: bool,
}

/// How one resource kind is read and written.
#[async_trait]
pub trait Kind: Send + Sync + 'static {
    const KIND: ResourceKind;
    const LIST: &'static str;
    const ITEM: &'static str;
    const RESTORE: &'static str;
    type View: Serialize + schemars::JsonSchema + Send + 'static;
    type Create: DeserializeOwned + schemars::JsonSchema + Send + 'static;
    type Update: DeserializeOwned + schemars::JsonSchema + Send + 'static;

    async fn list(store: &Store, user: &str, deleted: bool) -> ApiResult<Vec<Self::View>>;
    async fn get(store: &Store, user: &str, reference: &str) -> ApiResult<Self::View>;
    async fn create(
        store: &Arc<Store>,
        caller: &Caller,
        body: Self::Create,
    ) -> ApiResult<Self::View>;
    async fn update(
        store: &Arc<Store>,
        caller: &Caller,
        reference: &str,
        body: Self::Update,
    ) -> ApiResult<Self::View>;
    /// `(id, name, version)`: the version changes with every edit (a stale confirmation).
    fn identity(view: &Self::View) -> (String, String, String);
}

fn kind_ops<K: Kind>(tag: &'static str) -> Vec<Op> {
    vec![
        Op::new(Method::GET, K::LIST, tag, "List (`?deleted=true`: the trash)", Reply::Json(200, schema::<Items<K::View>>), get(list::<K>)).query(schema::<ListQuery>),
        Op::new(Method::POST, K::LIST, tag, "Create; every invalid field is named in `problems`", Reply::Json(201, schema::<K::View>), post(create::<K>)).body(schema::<K::Create>),
        Op::new(Method::GET, K::ITEM, tag, "Show one, by id or name", Reply::Json(200, schema::<K::View>), get(show::<K>)),
        Op::new(Method::PATCH, K::ITEM, tag, "Change the fields given", Reply::Json(200, schema::<K::View>), axum::routing::patch(update::<K>)).body(schema::<K::Update>),
        Op::new(Method::DELETE, K::ITEM, tag, "Move to the trash, in two steps: the first call returns the summary and a token, the second (with `confirm`) acts", Reply::Json(200, schema::<Step<nofxi_store::Removed>>), axum::routing::delete(remove::<K>)).body(schema::<ConfirmBody>),
        Op::new(Method::POST, K::RESTORE, tag, "Bring back from the trash (within 30 days)", Reply::Json(200, schema::<K::View>), post(restore::<K>)),
    ]
}

pub fn operations() -> Vec<Op> {
    let mut ops = kind_ops::<Exchanges>("exchanges");
    ops.extend(kind_ops::<Models>("models"));
    ops.extend(kind_ops::<Strategies>("strategies"));
    // A trader's change may wait for a confirmation, as in the chat: its own PATCH.
    let traders = kind_ops::<Traders>("traders");
    ops.extend(traders.into_iter().filter(|op| op.method != Method::PATCH));
    ops.push(super::trader_edit::operation());
    ops
}

async fn list<K: Kind>(
    State(state): State<AppState>,
    caller: Caller,
    Query(q): Query<ListQuery>,
) -> ApiResult<Json<Items<K::View>>> {
    Ok(Json(Items {
        items: K::list(&state.store, &caller.user, q.deleted).await?,
    }))
}

async fn show<K: Kind>(
    State(state): State<AppState>,
    caller: Caller,
    Path(reference): Path<String>,
) -> ApiResult<Json<K::View>> {
    Ok(Json(K::get(&state.store, &caller.user, &reference).await?))
}

async fn create<K: Kind>(
    State(state): State<AppState>,
    caller: Caller,
    Body(body): Body<K::Create>,
) -> ApiResult<(StatusCode, Json<K::View>)> {
    let view = K::create(&state.store, &caller, body).await?;
    Ok((StatusCode::CREATED, Json(view)))
}

async fn update<K: Kind>(
    State(state): State<AppState>,
    caller: Caller,
    Path(reference): Path<String>,
    Body(body): Body<K::Update>,
) -> ApiResult<Json<K::View>> {
    Ok(Json(
        K::update(&state.store, &caller, &reference, body).await?,
    ))
}

async fn remove<K: Kind>(
    State(state): State<AppState>,
    caller: Caller,
    Path(reference): Path<String>,
    Body(body): Body<ConfirmBody>,
) -> ApiResult<Json<Step<nofxi_store::Removed>>> {
    let view = K::get(&state.store, &caller.user, &reference).await?;
    let (id, name, version) = K::identity(&view);
    // Refused now (in use, running) rather than after the user confirmed.
    state.store.check_delete(&caller.user, K::KIND, &id).await?;
    let kind_word = match crate::lang::current() {
        nofxi_skills::text::Lang::Zh => K::KIND.zh(),
        nofxi_skills::text::Lang::En => K::KIND.as_str(),
    };
    let action = format!("{}.delete", K::KIND.as_str());
    let risky = Risky {
        action: &action,
        id: &id,
        version,
        summary: summary("confirm-delete", &[("kind", kind_word), ("name", &name)]),
    };
    if let Some(step) = confirmation(&state, &caller, &body, risky)? {
        return Ok(Json(step));
    }
    let removed = state
        .store
        .delete(&caller.actor(true), K::KIND, &id)
        .await?;
    Ok(Json(Step::Done {
        done: true,
        object: removed,
    }))
}

async fn restore<K: Kind>(
    State(state): State<AppState>,
    caller: Caller,
    Path(reference): Path<String>,
) -> ApiResult<Json<K::View>> {
    let removed = state
        .store
        .restore(&caller.actor(true), K::KIND, &reference)
        .await?;
    Ok(Json(K::get(&state.store, &caller.user, &removed.id).await?))
}

/// Credential fields sent beside an exchange's fields (`"api_key": "…"`): each must name a
/// credential field. An empty value is passed on, for the store's validation to refuse by
/// name (a field to keep is left out of the body, as the web form does).
fn credentials(given: BTreeMap<String, String>) -> ApiResult<Credentials> {
    let mut out = Credentials::new();
    let mut unknown = Vec::new();
    for (name, value) in given {
        match name.parse::<CredentialField>() {
            Ok(field) => out.set(field, Secret::new(value)),
            Err(_) => unknown.push(name),
        }
    }
    if unknown.is_empty() {
        return Ok(out);
    }
    let worded = |field: &str| Worded::catalog("http-unknown-field", &[("field", field)]);
    let mut fields = unknown.into_iter();
    let first = fields.next().unwrap_or_default();
    let error = fields.fold(ApiError::field(&first, worded(&first)), |error, field| {
        let message = worded(&field);
        error.and_field(field, message)
    });
    Err(error)
}

pub struct Exchanges;

#[derive(Deserialize, schemars::JsonSchema)]
pub struct ExchangeCreate {
    /// `paper`, `binance`, `okx`, … (GET /api/exchange-types).
    pub exchange_type: String,
    pub account_name: String,
    #[serde(default = "yes")]
    pub enabled: bool,
    #[serde(default)]
    pub testnet: bool,
    /// Where a paper account's prices come from: `simulated` (the default, offline) or a
    /// venue's live prices, `binance`, `okx`, `bybit`, `hyperliquid`, `bitget`. Paper accounts
    /// only.
    pub market: Option<String>,
    /// Credential fields by name (`api_key`, `secret_key`, `passphrase`, …): write-only,
    /// stored encrypted, shown back only as masks.
    #[serde(flatten)]
    pub credentials: BTreeMap<String, String>,
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct ExchangeUpdate {
    pub exchange_type: Option<String>,
    pub account_name: Option<String>,
    pub enabled: Option<bool>,
    pub testnet: Option<bool>,
    /// A paper account's market source (see the create body).
    pub market: Option<String>,
    /// Credential fields to replace; the others are kept.
    #[serde(flatten)]
    pub credentials: BTreeMap<String, String>,
}

fn yes() -> bool {
    true
}

#[async_trait]
impl Kind for Exchanges {
    const KIND: ResourceKind = ResourceKind::Exchange;
    const LIST: &'static str = "/api/exchanges";
    const ITEM: &'static str = "/api/exchanges/{id}";
    const RESTORE: &'static str = "/api/exchanges/{id}/restore";
    type View = Exchange;
    type Create = ExchangeCreate;
    type Update = ExchangeUpdate;

    async fn list(store: &Store, user: &str, deleted: bool) -> ApiResult<Vec<Exchange>> {
        Ok(store.list_exchanges(user, deleted).await?)
    }
    async fn get(store: &Store, user: &str, reference: &str) -> ApiResult<Exchange> {
        Ok(store.get_exchange(user, reference).await?)
    }
    async fn create(store: &Arc<Store>, caller: &Caller, b: ExchangeCreate) -> ApiResult<Exchange> {
        let spec = ExchangeSpec {
            exchange_type: b.exchange_type,
            account_name: b.account_name,
            enabled: b.enabled,
            testnet: b.testnet,
        };
        let creds = credentials(b.credentials)?;
        let market = market_source(b.market.as_deref())?.unwrap_or_default();
        Ok(store
            .create_exchange_with_market(&caller.actor(true), spec, creds, market)
            .await?)
    }
    async fn update(
        store: &Arc<Store>,
        caller: &Caller,
        reference: &str,
        b: ExchangeUpdate,
    ) -> ApiResult<Exchange> {
        let patch = ExchangePatch {
            exchange_type: b.exchange_type,
            account_name: b.account_name,
            enabled: b.enabled,
            testnet: b.testnet,
        };
        let creds = credentials(b.credentials)?;
        let Some(market) = market_source(b.market.as_deref())? else {
            return Ok(store
                .update_exchange(&caller.actor(true), reference, patch, creds)
                .await?);
        };
        // Checked before anything is written: the market and the type it ends up with.
        let current = store.get_exchange(&caller.user, reference).await?;
        let kind = patch.exchange_type.as_deref();
        if let Some(problem) = market.problem_for(kind.unwrap_or(&current.spec.exchange_type)) {
            return Err(ApiError::validation(&ValidationError::single(
                "market", problem,
            )));
        }
        if patch != ExchangePatch::default() || !creds.is_empty() {
            store
                .update_exchange(&caller.actor(true), &current.id, patch, creds)
                .await?;
        }
        Ok(store
            .set_exchange_market(&caller.actor(true), &current.id, market)
            .await?)
    }
    fn identity(v: &Exchange) -> (String, String, String) {
        (
            v.id.clone(),
            v.spec.account_name.clone(),
            v.updated_at.to_string(),
        )
    }
}

/// A `market` field as sent, refused under its name with the choices when it is none of them.
fn market_source(text: Option<&str>) -> ApiResult<Option<MarketSource>> {
    text.map(|t| {
        t.parse::<MarketSource>()
            .map_err(|problem| ApiError::validation(&ValidationError::single("market", problem)))
    })
    .transpose()
}

pub struct Models;

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ModelCreate {
    pub name: String,
    /// `builtin`, `deepseek`, `openai`, … (GET /api/providers).
    pub provider: String,
    #[serde(default = "yes")]
    pub enabled: bool,
    pub base_url: Option<String>,
    pub model_name: Option<String>,
    /// Write-only: stored encrypted, shown back only as a mask.
    pub api_key: Option<String>,
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ModelUpdate {
    pub name: Option<String>,
    pub provider: Option<String>,
    pub enabled: Option<bool>,
    pub base_url: Option<String>,
    pub model_name: Option<String>,
    /// A new key; absent keeps the stored one.
    pub api_key: Option<String>,
}

#[async_trait]
impl Kind for Models {
    const KIND: ResourceKind = ResourceKind::Model;
    const LIST: &'static str = "/api/models";
    const ITEM: &'static str = "/api/models/{id}";
    const RESTORE: &'static str = "/api/models/{id}/restore";
    type View = Model;
    type Create = ModelCreate;
    type Update = ModelUpdate;

    async fn list(store: &Store, user: &str, deleted: bool) -> ApiResult<Vec<Model>> {
        Ok(store.list_models(user, deleted).await?)
    }
    async fn get(store: &Store, user: &str, reference: &str) -> ApiResult<Model> {
        Ok(store.get_model(user, reference).await?)
    }
    async fn create(store: &Arc<Store>, caller: &Caller, b: ModelCreate) -> ApiResult<Model> {
        let spec = ModelSpec {
            name: b.name,
            provider: b.provider,
            enabled: b.enabled,
            base_url: b.base_url.filter(|s| !s.trim().is_empty()),
            model_name: b.model_name.filter(|s| !s.trim().is_empty()),
        };
        Ok(store
            .create_model(&caller.actor(true), spec, b.api_key.map(Secret::new))
            .await?)
    }
    async fn update(
        store: &Arc<Store>,
        caller: &Caller,
        reference: &str,
        b: ModelUpdate,
    ) -> ApiResult<Model> {
        let patch = ModelPatch {
            name: b.name,
            provider: b.provider,
            enabled: b.enabled,
            base_url: b.base_url,
            model_name: b.model_name,
        };
        Ok(store
            .update_model(
                &caller.actor(true),
                reference,
                patch,
                b.api_key.map(Secret::new),
            )
            .await?)
    }
    fn identity(v: &Model) -> (String, String, String) {
        (v.id.clone(), v.spec.name.clone(), v.updated_at.to_string())
    }
}

pub struct Strategies;

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StrategyCreate {
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub is_active: bool,
    /// Coins, indicators, risk controls, prompt sections; the defaults when absent.
    pub config: Option<StrategyConfig>,
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StrategyUpdate {
    pub name: Option<String>,
    pub description: Option<String>,
    pub is_active: Option<bool>,
    /// The whole config, replacing the stored one.
    pub config: Option<StrategyConfig>,
}

#[async_trait]
impl Kind for Strategies {
    const KIND: ResourceKind = ResourceKind::Strategy;
    const LIST: &'static str = "/api/strategies";
    const ITEM: &'static str = "/api/strategies/{id}";
    const RESTORE: &'static str = "/api/strategies/{id}/restore";
    type View = Strategy;
    type Create = StrategyCreate;
    type Update = StrategyUpdate;

    async fn list(store: &Store, user: &str, deleted: bool) -> ApiResult<Vec<Strategy>> {
        Ok(store.list_strategies(user, deleted).await?)
    }
    async fn get(store: &Store, user: &str, reference: &str) -> ApiResult<Strategy> {
        Ok(store.get_strategy(user, reference).await?)
    }
    async fn create(store: &Arc<Store>, caller: &Caller, b: StrategyCreate) -> ApiResult<Strategy> {
        let mut spec = StrategySpec::new(b.name);
        spec.description = b.description;
        spec.is_active = b.is_active;
        if let Some(config) = b.config {
            spec.config = config;
        }
        Ok(store.create_strategy(&caller.actor(true), spec).await?)
    }
    async fn update(
        store: &Arc<Store>,
        caller: &Caller,
        reference: &str,
        b: StrategyUpdate,
    ) -> ApiResult<Strategy> {
        let patch = StrategyPatch {
            name: b.name,
            description: b.description,
            is_active: b.is_active,
            config: b.config,
        };
        Ok(store
            .update_strategy(&caller.actor(true), reference, patch)
            .await?)
    }
    fn identity(v: &Strategy) -> (String, String, String) {
        (v.id.clone(), v.spec.name.clone(), v.updated_at.to_string())
    }
}

pub struct Traders;

/// A trader as the API shows it; after a create or update, the values a rule changed (a scan
/// interval below the minimum raised to it) and why, so a form can say so.
#[derive(Serialize, schemars::JsonSchema)]
pub struct TraderView {
    #[serde(flatten)]
    pub trader: Trader,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub adjusted: Vec<Adjustment>,
}

impl From<Trader> for TraderView {
    fn from(trader: Trader) -> TraderView {
        TraderView {
            trader,
            adjusted: Vec::new(),
        }
    }
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TraderCreate {
    pub name: String,
    /// The exchange account, by id or name.
    #[serde(alias = "exchange")]
    pub exchange_id: String,
    /// The model config, by id or name.
    #[serde(alias = "model")]
    pub ai_model_id: String,
    /// The strategy, by id or name.
    #[serde(alias = "strategy")]
    pub strategy_id: String,
    /// USDT, an exact decimal (a string: "1000.50").
    pub initial_balance: Decimal,
    pub scan_interval_minutes: Option<i64>,
    pub is_cross_margin: Option<bool>,
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TraderUpdate {
    pub name: Option<String>,
    #[serde(alias = "exchange")]
    pub exchange_id: Option<String>,
    #[serde(alias = "model")]
    pub ai_model_id: Option<String>,
    #[serde(alias = "strategy")]
    pub strategy_id: Option<String>,
    pub initial_balance: Option<Decimal>,
    pub scan_interval_minutes: Option<i64>,
    pub is_cross_margin: Option<bool>,
    /// The token of the first call's confirmation, when the change needed one.
    pub confirm: Option<String>,
}

impl TraderUpdate {
    /// The fields it changes.
    pub fn patch(&self) -> TraderPatch {
        TraderPatch {
            name: self.name.clone(),
            ai_model_id: self.ai_model_id.clone(),
            exchange_id: self.exchange_id.clone(),
            strategy_id: self.strategy_id.clone(),
            initial_balance: self.initial_balance,
            scan_interval_minutes: self.scan_interval_minutes,
            is_cross_margin: self.is_cross_margin,
        }
    }
}

#[async_trait]
impl Kind for Traders {
    const KIND: ResourceKind = ResourceKind::Trader;
    const LIST: &'static str = "/api/traders";
    const ITEM: &'static str = "/api/traders/{id}";
    const RESTORE: &'static str = "/api/traders/{id}/restore";
    type View = TraderView;
    type Create = TraderCreate;
    type Update = TraderUpdate;

    async fn list(store: &Store, user: &str, deleted: bool) -> ApiResult<Vec<TraderView>> {
        let traders = store.list_traders(user, deleted).await?;
        Ok(traders.into_iter().map(TraderView::from).collect())
    }
    async fn get(store: &Store, user: &str, reference: &str) -> ApiResult<TraderView> {
        Ok(store.get_trader(user, reference).await?.into())
    }
    async fn create(store: &Arc<Store>, caller: &Caller, b: TraderCreate) -> ApiResult<TraderView> {
        let mut spec = TraderSpec::new(
            b.name,
            b.ai_model_id,
            b.exchange_id,
            b.strategy_id,
            b.initial_balance,
        );
        if let Some(minutes) = b.scan_interval_minutes {
            spec.scan_interval_minutes = minutes;
        }
        if let Some(cross) = b.is_cross_margin {
            spec.is_cross_margin = cross;
        }
        let (trader, adjusted) = store.create_trader(&caller.actor(true), spec).await?;
        Ok(TraderView { trader, adjusted })
    }
    async fn update(
        store: &Arc<Store>,
        caller: &Caller,
        reference: &str,
        b: TraderUpdate,
    ) -> ApiResult<TraderView> {
        let (trader, adjusted) = store
            .update_trader(&caller.actor(true), reference, b.patch())
            .await?;
        Ok(TraderView { trader, adjusted })
    }
    fn identity(v: &TraderView) -> (String, String, String) {
        let v = &v.trader;
        (
            v.id.clone(),
            v.spec.name.clone(),
            format!("{}:{}", v.updated_at, v.is_running),
        )
    }
}
