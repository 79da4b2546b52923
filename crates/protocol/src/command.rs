//! Commands: the only moves that understanding may propose (the Rasa CALM idea).
//!
//! Rules and the model both produce these; deterministic code applies them to the task stack.
//! A model never calls a tool or changes state by itself, so a wrong guess can at worst
//! produce a wrong *question*, which the confirmation step catches before anything runs.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::task::TaskId;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "command", rename_all = "snake_case")]
pub enum Command {
    /// Begin a skill action, with whatever slots the message already gave.
    StartTask {
        skill: String,
        action: String,
        #[serde(default)]
        slots: BTreeMap<String, serde_json::Value>,
    },
    /// Fill slots of the active task.
    SetSlots {
        slots: BTreeMap<String, serde_json::Value>,
    },
    /// Replace a value the user already gave ("no, 20 minutes").
    CorrectSlot {
        slot: String,
        value: serde_json::Value,
    },
    /// Approve the pending confirmation of the active task.
    Confirm,
    /// Decline the pending confirmation; the task stays so the user can change it.
    Deny,
    /// Drop the active task, or every task in the conversation.
    Cancel { scope: CancelScope },
    /// Return to an interrupted task (the most recent one when no id is given).
    Resume {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        task_id: Option<TaskId>,
    },
    /// Ask the user to choose; never guess between similar objects.
    Clarify {
        question: String,
        options: Vec<String>,
    },
    /// A side question answered without leaving the active task (glossary, error explanation).
    AnswerQuestion { kind: AnswerKind, topic: String },
    /// Nothing here can be handled; the reply says so and what would help.
    CannotHandle { reason: String },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CancelScope {
    Current,
    All,
}

/// What the answer to a question is grounded in; also reported in the `answered` event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AnswerKind {
    /// A term from the glossary ("cross vs isolated margin").
    Glossary,
    /// An error text or code explained as what happened / why / what now.
    ErrorExplanation,
    /// Read-only facts from tools (lists, status, balances).
    Facts,
    /// An open question answered by the model over a composed context.
    Open,
}

/// Who produced a set of commands; traces and benchmarks count the model's share.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CommandSource {
    Rules,
    Llm,
}

/// The output of understanding one message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Understanding {
    pub commands: Vec<Command>,
    /// 0.0–1.0. Below the engine's threshold, and with an assistant model configured, the
    /// one-pass gateway is asked instead.
    pub confidence: f32,
    pub source: CommandSource,
}
