//! Events: what happened during a turn, in order. Clients render them; tests assert on them.

use serde::{Deserialize, Serialize};

pub use crate::command::AnswerKind;
use crate::task::TaskId;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    TaskStarted {
        task_id: TaskId,
        skill: String,
        action: String,
    },
    SlotSet {
        task_id: TaskId,
        slot: String,
        /// Masked when the slot is secret.
        value: serde_json::Value,
        /// Set when a rule changed the value the user gave (leverage 100 → 20) and why.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        adjusted: Option<String>,
    },
    Asked {
        task_id: TaskId,
        slots: Vec<String>,
    },
    ConfirmationRequested {
        task_id: TaskId,
        /// Exactly what will happen if the user confirms; the confirmation is bound to it.
        summary: String,
        /// Names this showing of the confirmation; a client's yes carries it back
        /// (`TurnRequest::seen_confirmation`), or the yes is not taken.
        #[serde(default)]
        binding: String,
    },
    Confirmed {
        task_id: TaskId,
    },
    Denied {
        task_id: TaskId,
    },
    ToolExecuted {
        task_id: TaskId,
        tool: String,
        ok: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        resource_id: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        error: Option<String>,
    },
    TaskCompleted {
        task_id: TaskId,
    },
    TaskFailed {
        task_id: TaskId,
        error: String,
    },
    TaskCancelled {
        task_id: TaskId,
    },
    TaskInterrupted {
        task_id: TaskId,
    },
    TaskResumed {
        task_id: TaskId,
    },
    Clarification {
        options: Vec<String>,
    },
    Answered {
        kind: AnswerKind,
    },
    /// A piece of a streamed reply; the full text is still in `TurnResponse::reply`.
    Delta {
        text: String,
    },
}

impl Event {
    /// The task an event is about, when it is about one.
    pub fn task_id(&self) -> Option<&TaskId> {
        match self {
            Event::TaskStarted { task_id, .. }
            | Event::SlotSet { task_id, .. }
            | Event::Asked { task_id, .. }
            | Event::ConfirmationRequested { task_id, .. }
            | Event::Confirmed { task_id }
            | Event::Denied { task_id }
            | Event::ToolExecuted { task_id, .. }
            | Event::TaskCompleted { task_id }
            | Event::TaskFailed { task_id, .. }
            | Event::TaskCancelled { task_id }
            | Event::TaskInterrupted { task_id }
            | Event::TaskResumed { task_id } => Some(task_id),
            Event::Clarification { .. } | Event::Answered { .. } | Event::Delta { .. } => None,
        }
    }
}
