//! The model a running trader decides with. The trader is read again before every cycle; when
//! it is bound to another model config, or that config changed since the decider was built
//! (its `updated_at`: a new model name, endpoint, key, or disabled), the decider is built again
//! the way the start's preflight builds it. So the next cycle decides with what the trader is
//! bound to, and its journal record names that model.
//!
//! A model that cannot decide (deleted, disabled, an endpoint that cannot be built) fails the
//! cycle with the reason: the decider built for the old binding is dropped, never used in its
//! place.

use nofxi_domain::{Model, Problem, Trader, ValidationError};
use nofxi_store::Store;

use super::preflight::{PreflightError, model_decider};
use crate::cycle::ModelUsed;
use crate::decider::Decider;

pub struct BoundModel {
    used: ModelUsed,
    /// The config's `updated_at` when the decider was built.
    version: i64,
    /// `None` after a rebuild failed: the cycle fails until the binding can decide again.
    decider: Option<Box<dyn Decider>>,
}

impl BoundModel {
    /// The decider preflight built for `model`.
    pub fn new(model: &Model, decider: Box<dyn Decider>) -> BoundModel {
        BoundModel {
            used: used(model),
            version: model.updated_at,
            decider: Some(decider),
        }
    }

    /// The model the decider stands for (or stood for, until a rebuild failed).
    pub fn used(&self) -> &ModelUsed {
        &self.used
    }

    /// The decider for `trader`'s next cycle and the model it stands for: the one built, or a
    /// new one when the trader's model binding or the model's config changed since. `Err`
    /// says why the model the trader is bound to cannot decide.
    pub async fn refresh(
        &mut self,
        store: &Store,
        user: &str,
        trader: &Trader,
    ) -> Result<(&ModelUsed, &mut dyn Decider), PreflightError> {
        let model = store.get_model(user, &trader.spec.ai_model_id).await?;
        if model.id != self.used.id || model.updated_at != self.version {
            self.decider = None;
            self.used = used(&model);
            self.version = model.updated_at;
        }
        let decider = match self.decider.take() {
            Some(decider) => decider,
            None => {
                let decider = build(store, user, &model).await?;
                tracing::info!(
                    trader = %trader.spec.name,
                    model = %model.spec.name,
                    "the trader decides with the model it is bound to now"
                );
                decider
            }
        };
        Ok((&self.used, self.decider.insert(decider).as_mut()))
    }
}

fn used(model: &Model) -> ModelUsed {
    ModelUsed {
        id: model.id.clone(),
        name: model.spec.name.clone(),
    }
}

/// A model's decider as preflight builds it: refused when the model is disabled, with its key
/// from the vault unless it is the builtin rules.
async fn build(
    store: &Store,
    user: &str,
    model: &Model,
) -> Result<Box<dyn Decider>, PreflightError> {
    if !model.spec.enabled {
        return Err(PreflightError::Config(ValidationError::single(
            "ai_model_id",
            Problem::Disabled {
                kind: "model".into(),
                name: model.spec.name.clone(),
            },
        )));
    }
    model_decider(store, user, model).await
}
