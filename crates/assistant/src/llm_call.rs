//! The trace's record of one model call: purpose, tokens, latency, and the prompt itself for
//! debugging. The turn passes every record through the secret redactor before it is stored.

use nofxi_llm::{ChatRequest, Completion, LlmError, Provider, tokens};
use serde::Serialize;

#[derive(Debug, Clone, Serialize)]
pub struct LlmCallRecord {
    /// `understand` (the gateway) or `answer` (an open question).
    pub purpose: &'static str,
    pub model: String,
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    /// The token figures are nofxi's estimate, not the provider's.
    pub estimated: bool,
    pub latency_ms: u64,
    pub ok: bool,
    /// The typed error kind and message when the call failed.
    pub error: Option<String>,
    pub system: String,
    pub prompt: String,
    pub completion: String,
}

impl LlmCallRecord {
    pub fn new(
        purpose: &'static str,
        provider: &dyn Provider,
        request: &ChatRequest,
        result: &Result<Completion, LlmError>,
    ) -> LlmCallRecord {
        let prompt = request
            .messages
            .iter()
            .map(|m| m.content.as_str())
            .collect::<Vec<_>>()
            .join("\n");
        let (prompt_tokens, completion_tokens, estimated, latency_ms, ok, error, completion) =
            match result {
                Ok(c) => (
                    c.usage.prompt_tokens,
                    c.usage.completion_tokens,
                    c.usage.estimated,
                    c.latency_ms,
                    true,
                    None,
                    c.text.clone(),
                ),
                Err(e) => (
                    tokens::estimate_request(request),
                    0,
                    true,
                    0,
                    false,
                    Some(format!("{:?}: {}", e.kind, e.message)),
                    String::new(),
                ),
            };
        LlmCallRecord {
            purpose,
            model: provider.label(),
            prompt_tokens,
            completion_tokens,
            estimated,
            latency_ms,
            ok,
            error,
            system: request.system.clone(),
            prompt,
            completion,
        }
    }
}
