//! One turn: a message in, a reply with events and the task stack out.

use serde::{Deserialize, Serialize};

use crate::event::Event;
use crate::task::TaskView;

/// Where a turn came from; recorded in traces and in the audit row of any mutation it causes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Channel {
    Cli,
    Chat,
    Api,
    /// An MCP client: its tool calls and `nofxi_chat` messages.
    Mcp,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TurnRequest {
    /// Absent on the first turn of a new conversation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conversation_id: Option<String>,
    pub user: String,
    pub message: String,
    pub channel: Channel,
    /// The binding of the last confirmation this client was shown
    /// ([`TurnResponse::confirmation_binding`]). A yes confirms only that confirmation: two
    /// clients on one conversation cannot confirm what the other was asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seen_confirmation: Option<String>,
    /// The message's length in bytes as the client received it, when the client kept only its
    /// start (a line far past the assistant's cap is not held whole): what the refusal says.
    /// Absent when `message` is all that was received.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub received_bytes: Option<usize>,
}

/// A line a client sent that could not become a turn (its bytes are not UTF-8 text): the
/// client writes this in place of a [`TurnResponse`], and the session goes on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "error")]
pub struct LineError {
    /// `invalid_utf8`.
    pub code: String,
    pub message: String,
}

/// Model usage within one turn; all zeros on the rules-only path.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
pub struct LlmUsage {
    pub calls: u32,
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
}

/// `stack` lists unfinished tasks bottom first; the active task is last.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TurnResponse {
    pub conversation_id: String,
    pub reply: String,
    pub events: Vec<Event>,
    pub stack: Vec<TaskView>,
    pub llm: LlmUsage,
    pub trace_id: String,
}

impl TurnResponse {
    /// The task the next message continues, if any.
    pub fn active_task(&self) -> Option<&TaskView> {
        self.stack.last()
    }

    /// The binding of the confirmation this turn showed, if it showed one: what the client
    /// sends back as `seen_confirmation` with its next messages.
    pub fn confirmation_binding(&self) -> Option<&str> {
        self.events.iter().rev().find_map(|e| match e {
            Event::ConfirmationRequested { binding, .. } if !binding.is_empty() => {
                Some(binding.as_str())
            }
            _ => None,
        })
    }
}
