//! The three things a trader needs before it can be created — a paper exchange account, a model
//! config and a strategy — seeded in one call, so tests and benches say only where theirs differ.
//!
//! The defaults are the cheapest working set: a paper account `paper`, the `builtin` rules model
//! `rules` (no endpoint, no key) and an inactive strategy `default`. Fields are public: a test
//! that needs an active strategy, a real provider pointed at a mock, or a strategy with its own
//! prompt sections sets that field and keeps the rest.

use nofxi_domain::{
    Actor, Credentials, Exchange, ExchangeSpec, Model, ModelSpec, Secret, Strategy, StrategySpec,
};

use crate::Store;
use crate::error::StoreError;

/// What [`seed_paper_basics`] creates.
#[derive(Debug, Clone)]
pub struct PaperBasics {
    pub exchange: ExchangeSpec,
    pub model: ModelSpec,
    /// The model's API key; the builtin model needs none.
    pub model_key: Option<Secret>,
    pub strategy: StrategySpec,
}

impl PaperBasics {
    /// A paper account, a builtin model and an inactive strategy with these names.
    pub fn named(
        account: impl Into<String>,
        model: impl Into<String>,
        strategy: impl Into<String>,
    ) -> PaperBasics {
        PaperBasics {
            exchange: ExchangeSpec {
                exchange_type: "paper".into(),
                account_name: account.into(),
                enabled: true,
                testnet: false,
            },
            model: ModelSpec {
                name: model.into(),
                provider: "builtin".into(),
                enabled: true,
                base_url: None,
                model_name: None,
            },
            model_key: None,
            strategy: StrategySpec::new(strategy),
        }
    }
}

impl Default for PaperBasics {
    /// `paper`, `rules` and `default`.
    fn default() -> PaperBasics {
        PaperBasics::named("paper", "rules", "default")
    }
}

/// The records [`seed_paper_basics`] created; their ids go into a `TraderSpec`.
#[derive(Debug, Clone)]
pub struct SeededBasics {
    pub exchange: Exchange,
    pub model: Model,
    pub strategy: Strategy,
}

/// Creates the exchange, model and strategy of `basics` for `actor`'s user.
pub async fn seed_paper_basics(
    store: &Store,
    actor: &Actor,
    basics: PaperBasics,
) -> Result<SeededBasics, StoreError> {
    let exchange = store
        .create_exchange(actor, basics.exchange, Credentials::new())
        .await?;
    let model = store
        .create_model(actor, basics.model, basics.model_key)
        .await?;
    let strategy = store.create_strategy(actor, basics.strategy).await?;
    Ok(SeededBasics {
        exchange,
        model,
        strategy,
    })
}
