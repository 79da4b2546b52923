//! One real call to a model config's endpoint, to tell whether it works and, when it does not,
//! what happened, why and what to do now. `nofxi model test` and the assistant's "test ds"
//! both run it, so both say the same.

use std::time::Duration;

use nofxi_domain::{Model, Secret};
use nofxi_llm::{ChatRequest, Endpoint, LlmError, Message, RetryPolicy};
use nofxi_skills::{Lang, Library};
use nofxi_store::{Store, StoreError};
use nofxi_trader::decider::provider_client::{ProviderClient, kind_name};
use nofxi_trader::runtime::preflight::is_builtin;
use serde::Serialize;

use crate::model_errors;
use crate::probed::Probed;
use crate::{msg, texts};

/// The probe's budget: enough for a slow endpoint to answer a few tokens, short enough that a
/// user waiting at the terminal is told about a dead one soon.
pub const PROBE_TIMEOUT: Duration = Duration::from_secs(30);

/// What a probe found; `nofxi model test --json` prints it as is.
#[derive(Debug, Serialize)]
pub struct ProbeReport {
    pub ok: bool,
    pub model: String,
    pub provider: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base_url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model_name: Option<String>,
    /// The model that answered, as the provider reported it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answered_by: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latency_ms: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reply: Option<String>,
    /// Said instead of a call when none is needed (the builtin rules).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<ProbeFailure>,
}

/// A failed probe as REFERENCE §3 wants it told: what happened, why, what to do now.
#[derive(Debug, Serialize)]
pub struct ProbeFailure {
    /// The llm crate's kind (`bad_key`, `model_not_found`), or `config` before any call.
    pub kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// The error-diagnosis entry the explanation comes from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diagnosis: Option<String>,
    pub what: String,
    pub why: String,
    pub fix: String,
    /// The provider's own words, keys removed.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub provider_message: String,
}

/// Probe the model config `reference` of `user`, explaining a failure in `lang`. Only a
/// missing config is an error here; a failed call is a report with `error` set.
pub async fn probe_model(
    store: &Store,
    user: &str,
    reference: &str,
    lang: Lang,
) -> Result<ProbeReport, StoreError> {
    let model = store.get_model(user, reference).await?;
    let mut report = ProbeReport {
        ok: false,
        model: model.spec.name.clone(),
        provider: model.spec.provider.clone(),
        base_url: model.effective_base_url.clone(),
        model_name: model.effective_model_name.clone(),
        answered_by: None,
        latency_ms: None,
        reply: None,
        note: None,
        error: None,
    };
    if is_builtin(&model) {
        report.ok = true;
        report.note = Some(msg(lang, "probe-builtin-model", &[]));
        return Ok(report);
    }
    let key = store.model_api_key(user, &model.id).await?;
    match call(&model, key, lang).await {
        Ok(done) => {
            report.ok = true;
            report.answered_by = Some(done.model);
            report.latency_ms = Some(done.latency_ms);
            report.reply = Some(done.text.trim().to_string());
        }
        Err(failure) => report.error = Some(failure),
    }
    Ok(report)
}

/// One tiny completion: no retries (the user is waiting, and asks again if they want).
async fn call(
    model: &Model,
    key: Option<Secret>,
    lang: Lang,
) -> Result<nofxi_llm::Completion, ProbeFailure> {
    let endpoint = Endpoint::from_model(&model.spec, key.clone())
        .map_err(|e| config_failure(e.to_string(), lang))?
        .with_retry(RetryPolicy::no_retry())
        .with_timeout(PROBE_TIMEOUT);
    let provider = nofxi_llm::connect(endpoint).map_err(|e| config_failure(e.to_string(), lang))?;
    let client = ProviderClient::new(provider, key);
    let request = ChatRequest {
        messages: vec![Message::user("Reply with the single word OK.")],
        max_tokens: Some(5),
        temperature: Some(0.0),
        ..ChatRequest::default()
    };
    client.chat(&request).await.map_err(|e| explain(&e, lang))
}

/// The model config cannot be called at all (no key, a bad URL): nothing was sent.
fn config_failure(message: String, lang: Lang) -> ProbeFailure {
    ProbeFailure {
        kind: "config".into(),
        status: None,
        diagnosis: None,
        what: msg(lang, "probe-model-not-callable", &[]),
        why: message.clone(),
        fix: message,
        provider_message: String::new(),
    }
}

/// The failure in the error-diagnosis skill's words (the same explainer the assistant uses
/// for a model error pasted into the chat).
fn explain(error: &LlmError, lang: Lang) -> ProbeFailure {
    let explanation = Library::builtin()
        .ok()
        .map(|library| model_errors::explain(error, &library, lang));
    let said = error.message.trim().to_string();
    ProbeFailure {
        kind: kind_name(error),
        status: error.status,
        diagnosis: explanation.as_ref().and_then(|e| e.diagnosis.clone()),
        what: explanation
            .as_ref()
            .map(|e| e.what.clone())
            .unwrap_or_else(|| msg(lang, "probe-model-failed", &[("kind", &kind_name(error))])),
        why: explanation
            .as_ref()
            .map(|e| e.why.clone())
            .unwrap_or_else(|| said.clone()),
        fix: explanation
            .map(|e| e.fix)
            .unwrap_or_else(|| error.kind.advice().to_string()),
        provider_message: said,
    }
}

/// The probe as the chat and the web app's Test button tell it (see [`Probed`]).
pub async fn probe_model_told(
    store: &Store,
    user: &str,
    reference: &str,
    lang: Lang,
) -> Result<Probed, StoreError> {
    let report = probe_model(store, user, reference, lang).await?;
    if let Some(failure) = &report.error {
        // A key, model name or base URL the provider refused is fixed in the config: the
        // skill offers that update for this code; a balance or a rate limit is not.
        let in_config = failure
            .diagnosis
            .as_deref()
            .is_some_and(|d| FIXED_IN_CONFIG.contains(&d));
        let code = if in_config {
            "config_rejected"
        } else {
            "test_failed"
        };
        return Ok(Probed::failed(report.model, code, failure.explained(lang)));
    }
    let text = match (&report.note, report.latency_ms) {
        (Some(note), _) => note.clone(),
        (None, latency) => {
            let ms = latency.unwrap_or_default();
            let by = report.answered_by.as_deref().unwrap_or("?");
            msg(
                lang,
                "probe-model-works",
                &[("name", &report.model), ("by", by), ("ms", &ms.to_string())],
            )
        }
    };
    Ok(Probed::passed(report.model, text))
}

/// The error-diagnosis entries of a model probe whose fix is a change to the model config.
const FIXED_IN_CONFIG: &[&str] = &[
    "model_auth",
    "model_not_found",
    "html_instead_of_json",
    "connection_failed",
];

impl ProbeFailure {
    /// What happened / why / what now, as the chat shows it.
    pub fn explained(&self, lang: Lang) -> String {
        let status = self
            .status
            .map(|s| format!("HTTP {s}, "))
            .unwrap_or_default();
        let what = msg(
            lang,
            "probe-failure-what",
            &[
                ("what", &self.what),
                ("status", &status),
                ("kind", &self.kind),
            ],
        );
        texts::what_why_fix(lang, Some(&what), Some(&self.why), Some(&self.fix)).unwrap_or_default()
    }
}
