//! The trader's side of `nofxi_llm`: a [`Provider`] behind the decider's [`ModelClient`], and
//! the step from a stored model config to a client that preflight, backtests and
//! `nofxi model test` share.
//!
//! A failed call becomes a [`ModelCallError`] in words a user can act on — the provider and
//! model, the HTTP status, the typed kind's advice and the provider's own message. Those texts
//! go to the journal and the trader's status, so the key is taken out once more here, on top
//! of the llm crate's own scrubbing: a key must never reach a place a user shares.

use std::sync::Arc;

use async_trait::async_trait;
use nofxi_domain::{ModelSpec, Secret, WireFormat};
use nofxi_llm::{ChatRequest, Completion, ConnectError, Endpoint, LlmError, Message, Provider};

use super::llm::{ModelCallError, ModelClient, ModelText};

/// A model provider as the LLM decider's client: one user message, the system prompt apart.
pub struct ProviderClient {
    provider: Arc<dyn Provider>,
    /// Kept only to mask it out of error texts.
    key: Option<Secret>,
    /// Asked for only where the wire format would otherwise cut the answer short.
    max_tokens: Option<u32>,
}

/// Room for a decision on every candidate with its reasoning. Only Anthropic's wire needs it
/// (it requires a limit and the llm crate's default of 1024 can cut a decision in half); other
/// providers keep their own default, which for reasoning models is far larger.
pub const ANTHROPIC_DECISION_MAX_TOKENS: u32 = 4096;

impl ProviderClient {
    pub fn new(provider: Arc<dyn Provider>, key: Option<Secret>) -> ProviderClient {
        ProviderClient {
            provider,
            key,
            max_tokens: None,
        }
    }

    /// The client for a stored model config: its endpoint (provider defaults applied, base
    /// URL checked) and the key. No IO happens here; a wrong key shows on the first call.
    pub fn for_model(
        spec: &ModelSpec,
        key: Option<Secret>,
    ) -> Result<ProviderClient, ConnectError> {
        let endpoint = Endpoint::from_model(spec, key.clone())?;
        let anthropic = endpoint.wire == WireFormat::Anthropic;
        let provider = nofxi_llm::connect(endpoint)?;
        let mut client = ProviderClient::new(provider, key);
        if anthropic {
            client.max_tokens = Some(ANTHROPIC_DECISION_MAX_TOKENS);
        }
        Ok(client)
    }

    /// One whole completion, the typed error kept (for probes that explain it themselves).
    pub async fn chat(&self, request: &ChatRequest) -> Result<Completion, LlmError> {
        self.provider.complete(request).await.map_err(|mut e| {
            e.message = nofxi_llm::redact(&e.message, self.key.as_ref());
            e
        })
    }
}

#[async_trait]
impl ModelClient for ProviderClient {
    fn label(&self) -> String {
        self.provider.label()
    }

    async fn complete(&self, system: &str, user: &str) -> Result<ModelText, ModelCallError> {
        let request = ChatRequest {
            system: system.to_string(),
            messages: vec![Message::user(user)],
            max_tokens: self.max_tokens,
            // The answer is reasoning then a JSON array, not a JSON object: no JSON mode.
            ..ChatRequest::default()
        };
        let completion = self
            .chat(&request)
            .await
            .map_err(|e| ModelCallError(call_error_text(&self.label(), &e)))?;
        // nofxi's own estimates are not the provider's counts; the journal keeps only those.
        let reported = |n: u64| (!completion.usage.estimated).then_some(n);
        Ok(ModelText {
            prompt_tokens: reported(completion.usage.prompt_tokens),
            completion_tokens: reported(completion.usage.completion_tokens),
            text: completion.text,
        })
    }
}

/// `deepseek:deepseek-chat: HTTP 401 bad_key — Check the model's API key: … (provider: …)`.
pub fn call_error_text(label: &str, error: &LlmError) -> String {
    let kind = kind_name(error);
    let status = error
        .status
        .map(|s| format!("HTTP {s} "))
        .unwrap_or_default();
    let said = error.message.trim();
    let said = if said.is_empty() {
        String::new()
    } else {
        format!(" (provider said: {said})")
    };
    format!("{label}: {status}{kind} — {}{said}", error.kind.advice())
}

/// The kind as its stable snake_case name (`bad_key`, `model_not_found`).
pub fn kind_name(error: &LlmError) -> String {
    serde_json::to_value(error.kind)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_else(|| format!("{:?}", error.kind))
}

#[cfg(test)]
mod tests {
    use super::*;
    use nofxi_llm::LlmErrorKind;

    #[test]
    fn the_error_text_names_status_kind_and_advice() {
        let mut e = LlmError::new(LlmErrorKind::BadKey, "Incorrect API key provided");
        e.status = Some(401);
        let text = call_error_text("deepseek:deepseek-chat", &e);
        assert!(
            text.starts_with(
                "deepseek:deepseek-chat: HTTP 401 bad_key — Check the model's API key"
            )
        );
        assert!(text.ends_with("(provider said: Incorrect API key provided)"));
    }
}
