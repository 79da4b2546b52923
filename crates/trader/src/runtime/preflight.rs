//! Everything a trader needs before it may start, checked in the order a user would fix it,
//! each failure typed so the assistant can explain it (what happened / why / what now).
//!
//! 1. the configuration: strategy, model and exchange exist, are enabled, credentials are
//!    complete (REFERENCE §1, `nofxi_domain::trader::start_problems`);
//! 2. the model can decide: its provider is one the engine runs;
//! 3. the account answers: the venue connects and reports an account;
//! 4. there is money to trade: equity above zero.

use std::sync::Arc;

use nofxi_domain::{Model, Strategy, Trader, ValidationError};
use nofxi_store::{Store, StoreError};
use nofxi_venues::{Clock, VenueError};
use rust_decimal::Decimal;

use super::connect::{ConnectError, PaperAccount, Venue, connect};
use crate::decider::Decider;
use crate::decider::builtin::{BuiltinDecider, BuiltinParams};

#[derive(Debug, thiserror::Error)]
pub enum PreflightError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Config(ValidationError),
    #[error(
        "model {model} uses provider {provider}, which the engine cannot call yet: use a model \
         with provider `builtin` (offline rules) for now"
    )]
    ProviderNotWired { model: String, provider: String },
    #[error("cannot connect to the exchange: {0}")]
    Connect(#[from] ConnectError),
    #[error("the exchange account does not answer: {0}")]
    AccountUnreachable(VenueError),
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
            PreflightError::ProviderNotWired { .. } => "provider_not_wired",
            PreflightError::Connect(_) => "connect",
            PreflightError::AccountUnreachable(_) => "account_unreachable",
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
    let decider = decider_for(&model)?;
    let account = PaperAccount::Trader {
        trader_id: trader.id.clone(),
        initial_balance: spec.initial_balance,
    };
    let venue = connect(store, user, &spec.exchange_id, account, clock).await?;
    let snapshot = venue
        .exchange
        .account()
        .await
        .map_err(PreflightError::AccountUnreachable)?;
    if snapshot.equity <= Decimal::ZERO {
        return Err(PreflightError::NoBalance {
            equity: snapshot.equity,
        });
    }
    Ok(Ready {
        trader,
        strategy,
        model,
        venue,
        decider,
    })
}

/// The decider a model config stands for. `builtin` needs no network; model providers are
/// wired in with the LLM providers.
pub fn decider_for(model: &Model) -> Result<Box<dyn Decider>, PreflightError> {
    match model.spec.provider.as_str() {
        "builtin" => Ok(Box::new(BuiltinDecider::new(BuiltinParams::default()))),
        other => Err(PreflightError::ProviderNotWired {
            model: model.spec.name.clone(),
            provider: other.to_string(),
        }),
    }
}
