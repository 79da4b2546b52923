//! A task is one running skill action in a conversation; the stack of them is what a client shows.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

/// Opaque task id, unique within a conversation (a UUID v7 string in practice).
#[derive(
    Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(transparent)]
pub struct TaskId(pub String);

impl fmt::Display for TaskId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Where a task is in its life. The order of the variants is the usual order of events;
/// `interrupted` tasks sit below the active one and can be resumed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TaskStatus {
    Identified,
    Collecting,
    AwaitingConfirmation,
    Executing,
    Completed,
    Failed,
    Interrupted,
    Cancelled,
}

impl TaskStatus {
    /// A finished task leaves the stack; only unfinished ones are shown and resumed.
    pub fn is_finished(self) -> bool {
        matches!(
            self,
            TaskStatus::Completed | TaskStatus::Failed | TaskStatus::Cancelled
        )
    }
}

/// One stack entry as the client sees it. `slots` holds confirmed values only (secrets
/// masked); `missing` names the required slots still to ask for, in the skill file's names.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TaskView {
    pub task_id: TaskId,
    pub skill: String,
    pub action: String,
    pub status: TaskStatus,
    #[serde(default)]
    pub slots: BTreeMap<String, serde_json::Value>,
    #[serde(default)]
    pub missing: Vec<String>,
}
