//! Everything a trader needs before it may start, checked in the order a user would fix it,
//! each failure typed so the assistant can explain it (what happened / why / what now).
//!
//! 1. the configuration: strategy, model and exchange exist, are enabled, credentials are
//!    complete (REFERENCE §1, `nofxi_domain::trader::start_problems`);
//! 2. the model can decide: the builtin rules, or a provider endpoint built from the config and
//!    its key (no call is made: a wrong key shows on the first cycle, and `nofxi model test`
//!    checks it on demand);
//! 3. the account answers: the venue connects and reports an account;
//! 4. there is money to trade: equity above zero.
//!
//! A trader that passes has its P&L baseline recorded, once (see [`super::baseline`]).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use nofxi_domain::{Model, Secret, Strategy, Trader, ValidationError};
use nofxi_llm::ConnectError as ModelConnectError;
use nofxi_store::{Store, StoreError};
use nofxi_venues::{Clock, VenueError};
use rust_decimal::Decimal;

use super::baseline::record_first_start;
use super::connect::{ConnectError, PaperAccount, Persistence, Venue, connect_with};
use crate::decider::Decider;
use crate::decider::DeciderError;
use crate::decider::builtin::{BuiltinDecider, BuiltinParams};
use crate::decider::llm::{AnswerCache, LlmDecider, ModelClient};
use crate::decider::provider_client::ProviderClient;

#[derive(Debug, thiserror::Error)]
pub enum PreflightError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Config(ValidationError),
    #[error("cannot connect to model {model}: {source}")]
    ModelConnect {
        model: String,
        source: ModelConnectError,
    },
    #[error("the LLM decider cannot start: {0}")]
    Decider(DeciderError),
    #[error("cannot open the model answer cache {}: {source}", path.display())]
    AnswerCache {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot connect to the exchange: {0}")]
    Connect(#[from] ConnectError),
    #[error("the exchange account does not answer: {0}")]
    AccountUnreachable(VenueError),
    /// It answered, and refused (a key, IP or permission problem): not "does not answer".
    #[error("the exchange refused to show the account: {0}")]
    AccountRefused(VenueError),
    #[error(
        "the account has no equity to trade ({equity} USDT): fund the account (a paper trader: raise its initial_balance)"
    )]
    NoBalance { equity: Decimal },
}

impl PreflightError {
    /// A short, stable name for status lines and the assistant's diagnosis.
    pub fn kind(&self) -> &'static str {
        match self {
            PreflightError::Store(_) => "store",
            PreflightError::Config(_) => "config",
            PreflightError::ModelConnect { .. } => "model_connect",
            PreflightError::Decider(_) => "decider",
            PreflightError::AnswerCache { .. } => "answer_cache",
            PreflightError::Connect(_) => "connect",
            PreflightError::AccountUnreachable(_) => "account_unreachable",
            PreflightError::AccountRefused(_) => "account_refused",
            PreflightError::NoBalance { .. } => "no_balance",
        }
    }
}

/// A trader that passed preflight, with everything its cycles need.
pub struct Ready {
    pub trader: Trader,
    pub strategy: Strategy,
    pub model: Model,
    pub venue: Venue,
    pub decider: Box<dyn Decider>,
}

pub async fn preflight(
    store: Arc<Store>,
    user: &str,
    trader_ref: &str,
    clock: Arc<dyn Clock>,
) -> Result<Ready, PreflightError> {
    preflight_with(store, user, trader_ref, clock, Persistence::Save).await
}

/// [`preflight`], saying how the paper account's changes are kept (the engine's trader
/// saves them under its lease).
pub async fn preflight_with(
    store: Arc<Store>,
    user: &str,
    trader_ref: &str,
    clock: Arc<dyn Clock>,
    persistence: Persistence,
) -> Result<Ready, PreflightError> {
    let (ready, equity) = check_with(store.clone(), user, trader_ref, clock, persistence).await?;
    // Every start passes here: the first one on this account is what P&L is measured from.
    record_first_start(&store, user, &ready.trader, ready.venue.is_paper(), equity).await?;
    Ok(ready)
}

/// The checks of [`preflight`] and nothing else: a diagnosis ("why won't it start?") runs
/// them without recording a P&L baseline for a start that did not happen. Returns the
/// account's equity beside what the trader needs.
pub async fn check(
    store: Arc<Store>,
    user: &str,
    trader_ref: &str,
    clock: Arc<dyn Clock>,
) -> Result<(Ready, Decimal), PreflightError> {
    check_with(store, user, trader_ref, clock, Persistence::Save).await
}

async fn check_with(
    store: Arc<Store>,
    user: &str,
    trader_ref: &str,
    clock: Arc<dyn Clock>,
    persistence: Persistence,
) -> Result<(Ready, Decimal), PreflightError> {
    let trader = store.get_trader(user, trader_ref).await?;
    let spec = &trader.spec;
    let model = store.get_model(user, &spec.ai_model_id).await.ok();
    let exchange = store.get_exchange(user, &spec.exchange_id).await.ok();
    let strategy = store.get_strategy(user, &spec.strategy_id).await.ok();
    nofxi_domain::trader::start_problems(
        spec,
        model.as_ref(),
        exchange.as_ref(),
        strategy.as_ref(),
    )
    .map_err(PreflightError::Config)?;
    let (Some(model), Some(strategy)) = (model, strategy) else {
        // start_problems reports missing references; this is only reached if it changes.
        return Err(PreflightError::Store(StoreError::Corrupt {
            what: "trader references",
            detail: "a checked reference vanished".into(),
        }));
    };
    let decider = model_decider(&store, user, &model).await?;
    let account = PaperAccount::Trader {
        trader_id: trader.id.clone(),
        initial_balance: spec.initial_balance,
    };
    let venue = connect_with(
        store.clone(),
        user,
        &spec.exchange_id,
        account,
        clock,
        persistence,
    )
    .await?;
    let snapshot = venue.exchange.account().await.map_err(|e| match e.kind() {
        Some(_) => PreflightError::AccountRefused(e),
        None => PreflightError::AccountUnreachable(e),
    })?;
    if snapshot.equity <= Decimal::ZERO {
        return Err(PreflightError::NoBalance {
            equity: snapshot.equity,
        });
    }
    let ready = Ready {
        trader,
        strategy,
        model,
        venue,
        decider,
    };
    Ok((ready, snapshot.equity))
}

/// The decider of a stored model config, its key from the vault (none for the builtin rules):
/// what a start's preflight builds, and what a running trader builds again when its model
/// binding changes (see [`super::bound_model`]).
pub async fn model_decider(
    store: &Store,
    user: &str,
    model: &Model,
) -> Result<Box<dyn Decider>, PreflightError> {
    let key = if is_builtin(model) {
        None
    } else {
        store.model_api_key(user, &model.id).await?
    };
    decider_for(model, key)
}

/// The decider a model config stands for: the offline rules for `builtin`, otherwise REFERENCE
/// §2's prompt to the configured provider with `api_key` (from `Store::model_api_key`).
pub fn decider_for(
    model: &Model,
    api_key: Option<Secret>,
) -> Result<Box<dyn Decider>, PreflightError> {
    if is_builtin(model) {
        return Ok(Box::new(BuiltinDecider::new(BuiltinParams::default())));
    }
    let decider =
        LlmDecider::new(model_client(model, api_key)?).map_err(PreflightError::Decider)?;
    Ok(Box::new(decider))
}

/// A model config as a [`ModelClient`] (not for `builtin`, which has no endpoint).
pub fn model_client(
    model: &Model,
    api_key: Option<Secret>,
) -> Result<Arc<dyn ModelClient>, PreflightError> {
    let client = ProviderClient::for_model(&model.spec, api_key).map_err(|source| {
        PreflightError::ModelConnect {
            model: model.spec.name.clone(),
            source,
        }
    })?;
    Ok(Arc::new(client))
}

/// Whether a model config is the offline rules rather than an endpoint.
pub fn is_builtin(model: &Model) -> bool {
    model
        .spec
        .provider_spec()
        .is_some_and(|p| p.wire == nofxi_domain::WireFormat::Builtin)
}

/// A backtest's LLM decider: the model's answers come from the cache file at `cache` when the
/// same prompts were asked before, and from the model otherwise (then they are added to it).
/// `cache` (the [`AnswerCache`]) says afterwards how many calls were replayed and made.
pub struct ReplayDecider {
    pub decider: Box<dyn Decider>,
    pub cache: Arc<AnswerCache>,
}

pub fn replay_decider(
    model: &Model,
    api_key: Option<Secret>,
    cache: &Path,
) -> Result<ReplayDecider, PreflightError> {
    let client = model_client(model, api_key)?;
    let cache = AnswerCache::open(client, cache).map_err(|source| PreflightError::AnswerCache {
        path: cache.to_path_buf(),
        source,
    })?;
    let cache = Arc::new(cache);
    let decider = LlmDecider::new(cache.clone()).map_err(PreflightError::Decider)?;
    Ok(ReplayDecider {
        decider: Box::new(decider),
        cache,
    })
}

/// The cache file name for a model's answers: one per provider, endpoint and model name, since
/// the same prompt gets another answer from another model. The key plays no part (a rotated
/// key keeps the answers); the file holds prompts' hashes and answers, never a secret.
pub fn answer_cache_file_name(model: &Model) -> String {
    let spec = &model.spec;
    let base_url = spec.effective_base_url().unwrap_or_default();
    let model_name = spec.effective_model_name().unwrap_or_default();
    let endpoint = crate::decider::llm::prompt_hash(&base_url, &model_name);
    let readable: String = format!("{}-{model_name}", spec.provider)
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .take(64)
        .collect();
    format!(
        "{readable}-{}.jsonl",
        endpoint.get(..12).unwrap_or(&endpoint)
    )
}

/// Starting a trader, as every surface does it (CLI, chat, HTTP): the preflight at the clock
/// its account trades on (a paper account at the engine's timeline, see `view`), then the
/// trader marked running, for an engine to pick up. Returns the trader as marked and what the
/// preflight found ready (the venue, to report the equity).
pub async fn start_trader(
    store: &Arc<Store>,
    actor: &nofxi_domain::Actor,
    trader_ref: &str,
) -> Result<(Trader, Ready), PreflightError> {
    let trader = store.get_trader(&actor.user, trader_ref).await?;
    let exchange = store
        .get_exchange(&actor.user, &trader.spec.exchange_id)
        .await?;
    let clock = super::view::account_clock(store, &exchange).await;
    let ready = preflight(store.clone(), &actor.user, &trader.id, clock).await?;
    let trader = store.set_trader_running(actor, &trader.id, true).await?;
    Ok((trader, ready))
}
