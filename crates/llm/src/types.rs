//! The provider-neutral request and answer shapes.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    User,
    Assistant,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    pub role: Role,
    pub content: String,
}

impl Message {
    pub fn user(content: impl Into<String>) -> Message {
        Message {
            role: Role::User,
            content: content.into(),
        }
    }

    pub fn assistant(content: impl Into<String>) -> Message {
        Message {
            role: Role::Assistant,
            content: content.into(),
        }
    }
}

/// A function the model may call; `parameters` is a JSON Schema object.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    pub name: String,
    pub description: String,
    pub parameters: serde_json::Value,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ChatRequest {
    /// The system prompt (Anthropic's `system`, Gemini's `systemInstruction`).
    pub system: String,
    pub messages: Vec<Message>,
    pub tools: Vec<ToolSpec>,
    /// Ask for a JSON object answer (OpenAI `response_format`, Gemini `responseMimeType`;
    /// Anthropic has no switch, so the prompt must say it).
    pub json_output: bool,
    pub max_tokens: Option<u32>,
    pub temperature: Option<f32>,
}

/// A tool call the model asked for. nofxi never runs it directly: the caller maps it onto a
/// typed command and validates it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    pub arguments: serde_json::Value,
}

/// Token counts: the provider's own when it reported them, else a local estimate.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    /// True when the figures are nofxi's estimate, not the provider's.
    pub estimated: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Completion {
    pub text: String,
    pub tool_calls: Vec<ToolCall>,
    pub usage: Usage,
    /// The model that answered, as the provider reported it (or as requested).
    pub model: String,
    pub finish_reason: Option<String>,
    /// Wall time of the call including retries, in milliseconds.
    pub latency_ms: u64,
}

/// A piece of a streamed answer.
#[derive(Debug, Clone, PartialEq)]
pub enum StreamDelta {
    Text(String),
    /// A tool call, once its arguments are complete.
    ToolCall(ToolCall),
}
