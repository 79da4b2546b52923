//! What every tool call returns: one typed shape (the tools' output schema), read from the
//! events of the turn that ran it, and its MCP result (text for the model, the same as
//! structured content for programs, `isError` when nothing was done).

use nofxi_protocol::{Event, TurnResponse};
use rmcp::model::{CallToolResult, ContentBlock};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

/// How a call ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// It ran: `reply` says what happened.
    Done,
    /// Nothing was done yet: show `summary` to the person, and only if they agree call the
    /// same tool again with the same arguments and `"confirm": pending_id`.
    ConfirmationRequired,
    /// Nothing was done: fields are missing, or a reference fits more than one object.
    NeedsInput,
    /// Nothing was done, or it failed part way: `reply` says what happened, why, what now.
    Failed,
}

/// The result of one tool call.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Outcome {
    pub status: Status,
    /// What nofxi says, in full: the result, the question, or what went wrong and what to do.
    pub reply: String,
    /// The risky action waiting for the person's agreement (with `status:
    /// confirmation_required`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// Send back as `confirm` to act; bound to these arguments, good for five minutes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending_id: Option<String>,
    /// Fields still needed (with `status: needs_input`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<String>,
    /// What a reference could mean (with `status: needs_input`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<String>,
    /// The object created or changed, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_id: Option<String>,
    /// The conversation the call ran in (`nofxi_chat` continues it).
    pub conversation_id: String,
    /// `nofxi trace show ID`: the record of the turn.
    pub trace_id: String,
}

impl Outcome {
    /// The outcome of a turn, read from its events (the last ones decide).
    pub fn of_turn(response: &TurnResponse) -> Outcome {
        let mut outcome = Outcome {
            status: Status::Done,
            reply: response.reply.clone(),
            summary: None,
            pending_id: None,
            missing: Vec::new(),
            options: Vec::new(),
            resource_id: None,
            conversation_id: response.conversation_id.clone(),
            trace_id: response.trace_id.clone(),
        };
        for event in &response.events {
            match event {
                Event::ConfirmationRequested { summary, .. } => {
                    outcome.status = Status::ConfirmationRequired;
                    outcome.summary = Some(summary.clone());
                }
                Event::Asked { slots, .. } => {
                    outcome.status = Status::NeedsInput;
                    outcome.missing = slots.clone();
                }
                Event::Clarification { options } => {
                    outcome.status = Status::NeedsInput;
                    outcome.options = options.clone();
                }
                Event::TaskFailed { .. } | Event::TaskCancelled { .. } => {
                    outcome.status = Status::Failed;
                }
                Event::TaskCompleted { .. } | Event::Answered { .. } => {
                    outcome.status = Status::Done;
                }
                Event::ToolExecuted {
                    resource_id: Some(id),
                    ok: true,
                    ..
                } => outcome.resource_id = Some(id.clone()),
                _ => {}
            }
        }
        // A turn that started no task and answered nothing did not do what was asked.
        let acted = response.events.iter().any(|e| {
            matches!(
                e,
                Event::TaskStarted { .. } | Event::Answered { .. } | Event::Confirmed { .. }
            )
        });
        if !acted && outcome.status == Status::Done {
            outcome.status = Status::Failed;
        }
        outcome
    }

    /// A call refused before any turn ran (bad arguments, a missing scope, a stale
    /// confirmation): nothing was done.
    pub fn refused(reply: String) -> Outcome {
        Outcome {
            status: Status::Failed,
            reply,
            summary: None,
            pending_id: None,
            missing: Vec::new(),
            options: Vec::new(),
            resource_id: None,
            conversation_id: String::new(),
            trace_id: String::new(),
        }
    }

    /// As MCP returns it: the reply as text (what a model reads), the whole outcome as
    /// structured content, and `isError` unless it was done or waits for a confirmation.
    pub fn into_result(self) -> CallToolResult {
        let is_error = matches!(self.status, Status::NeedsInput | Status::Failed);
        let text = self.reply.clone();
        let structured = serde_json::to_value(&self).unwrap_or(Value::Null);
        let mut result = match is_error {
            true => CallToolResult::error(vec![ContentBlock::text(text)]),
            false => CallToolResult::success(vec![ContentBlock::text(text)]),
        };
        result.structured_content = Some(structured);
        result
    }

    /// The output schema every tool declares.
    pub fn schema() -> Value {
        serde_json::to_value(schemars::schema_for!(Outcome)).unwrap_or(Value::Null)
    }
}
