//! The assistant's own model: the model config asked where rules cannot decide.
//!
//! It is a per-user setting (`nofxi config set assistant.model NAME`), stored as a state
//! document that holds the model's *id*, so renaming the model keeps the setting and deleting
//! it turns the assistant back to rules only. None set means rules only: every management,
//! diagnosis and guidance task still works.

use std::sync::Arc;
use std::time::Duration;

use nofxi_domain::{Actor, Model};
use nofxi_llm::{Endpoint, Provider, RetryPolicy};
use nofxi_store::{Store, StoreError};
use serde_json::json;

const SCOPE: &str = "settings";
const KEY: &str = "assistant.model";

/// Why a model cannot serve as the assistant's model, in words that name the fix.
#[derive(Debug, thiserror::Error)]
pub enum AssistantModelError {
    #[error(
        "model `{0}` is the offline rule decider for traders and cannot hold a conversation: choose a model with an LLM provider (`nofxi model list`)"
    )]
    Builtin(String),
    #[error("model `{0}` is disabled: enable it first (`nofxi model enable {0}`)")]
    Disabled(String),
    #[error("model `{0}` has no API key: add one (`nofxi model update {0} --api-key …`)")]
    NoKey(String),
    #[error("model `{name}` cannot be reached as configured: {detail}")]
    Endpoint { name: String, detail: String },
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// The configured assistant model, if one is set and still exists.
pub async fn assistant_model(store: &Store, user: &str) -> Result<Option<Model>, StoreError> {
    let Some(doc) = store.get_state(user, SCOPE, KEY).await? else {
        return Ok(None);
    };
    let Some(id) = doc.get("model_id").and_then(|v| v.as_str()) else {
        return Ok(None);
    };
    match store.get_model(user, id).await {
        Ok(model) => Ok(Some(model)),
        Err(StoreError::NotFound { .. }) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Sets (or, with `None`, clears) the assistant model. The model must be usable now, so a
/// mistake shows here rather than as a failed chat turn later.
///
/// Audited like every other change: the audit shows who set it to which model, or cleared it.
pub async fn set_assistant_model(
    store: &Store,
    actor: &Actor,
    reference: Option<&str>,
) -> Result<Option<Model>, AssistantModelError> {
    let user = actor.user.as_str();
    let Some(reference) = reference else {
        store
            .put_setting(actor, SCOPE, KEY, &json!({}), "cleared".into())
            .await?;
        return Ok(None);
    };
    let model = store.get_model(user, reference).await?;
    check_usable(store, user, &model).await?;
    let detail = format!("{} ({})", model.spec.name, model.id);
    store
        .put_setting(actor, SCOPE, KEY, &json!({"model_id": model.id}), detail)
        .await?;
    Ok(Some(model))
}

/// Why `model` cannot serve as the assistant's model now, if it cannot (a settings page
/// greys it out with this reason).
pub async fn why_not_assistant(
    store: &Store,
    user: &str,
    model: &Model,
) -> Option<AssistantModelError> {
    check_usable(store, user, model).await.err()
}

async fn check_usable(
    store: &Store,
    user: &str,
    model: &Model,
) -> Result<Option<nofxi_domain::Secret>, AssistantModelError> {
    let name = model.spec.name.clone();
    let Some(spec) = model.spec.provider_spec() else {
        return Err(AssistantModelError::Endpoint {
            name,
            detail: format!("unknown provider `{}`", model.spec.provider),
        });
    };
    if spec.wire == nofxi_domain::WireFormat::Builtin {
        return Err(AssistantModelError::Builtin(name));
    }
    if !model.spec.enabled {
        return Err(AssistantModelError::Disabled(name));
    }
    let key = store.model_api_key(user, &model.id).await?;
    if spec.needs_api_key && key.as_ref().is_none_or(|k| k.is_empty()) {
        return Err(AssistantModelError::NoKey(name));
    }
    Ok(key)
}

/// A ready provider for the user's assistant model; `None` when none is set.
pub async fn connect_assistant_model(
    store: &Store,
    user: &str,
) -> Result<Option<Arc<dyn Provider>>, AssistantModelError> {
    let Some(model) = assistant_model(store, user).await? else {
        return Ok(None);
    };
    let key = check_usable(store, user, &model).await?;
    let endpoint_error = |detail: String| AssistantModelError::Endpoint {
        name: model.spec.name.clone(),
        detail,
    };
    let mut endpoint =
        Endpoint::from_model(&model.spec, key).map_err(|e| endpoint_error(e.to_string()))?;
    // A chat turn waits on this call: fail fast and let the user retry, rather than hang.
    endpoint.timeout = Duration::from_secs(30);
    endpoint.retry = RetryPolicy {
        max_attempts: 2,
        ..endpoint.retry
    };
    nofxi_llm::connect(endpoint)
        .map(Some)
        .map_err(|e| endpoint_error(e.to_string()))
}
