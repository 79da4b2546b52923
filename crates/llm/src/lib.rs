//! LLM providers behind one trait.
//!
//! Three wire formats cover every provider nofxi knows (REFERENCE §1): OpenAI chat completions
//! (DeepSeek, Qwen, OpenAI, Grok, Kimi, MiniMax, Gemini's compatible endpoint, Ollama, any
//! custom URL), Anthropic messages, and Gemini native. Which provider uses which format is data
//! in `nofxi_domain::provider`; this crate only speaks the formats.
//!
//! Callers build a [`ChatRequest`], get a [`Provider`] from an [`Endpoint`], and receive either
//! a [`Completion`] or a typed [`LlmError`] that says what happened and what to do. A provider
//! never sees nofxi's state and never acts: the assistant turns its answer into typed commands
//! that deterministic code validates.

pub mod anthropic;
mod classify;
pub mod connect;
mod draft;
pub mod error;
pub mod gemini;
pub mod http;
pub mod openai;
mod provider;
mod sse;
pub mod tokens;
pub mod types;

pub use connect::{ConnectError, DEFAULT_TIMEOUT, Endpoint, connect};
pub use error::{LlmError, LlmErrorKind};
pub use http::RetryPolicy;
/// The one redactor, shared with the venue clients: `nofxi_llm::redact` stays its name here.
pub use nofxi_domain::redact;
pub use tokens::{estimate_request, estimate_tokens};
pub use types::{ChatRequest, Completion, Message, Role, StreamDelta, ToolCall, ToolSpec, Usage};

/// One model endpoint, ready to call. One implementation serves every wire format: an
/// HTTP provider generic over the format (`OpenAiProvider`, `AnthropicProvider`, `GeminiProvider`).
#[async_trait::async_trait]
pub trait Provider: Send + Sync {
    /// `deepseek:deepseek-chat`: provider id and model, for traces and journals.
    fn label(&self) -> String;

    /// One completion, whole.
    async fn complete(&self, request: &ChatRequest) -> Result<Completion, LlmError>;

    /// One completion streamed: `on_delta` sees text as it arrives; the return value is the
    /// same [`Completion`] that [`Provider::complete`] would give.
    async fn stream(
        &self,
        request: &ChatRequest,
        on_delta: &(dyn Fn(StreamDelta) + Send + Sync),
    ) -> Result<Completion, LlmError>;
}
