//! Examples: utterances with the expected action (or function) and slots. They are the rule
//! router's phrases, few-shot material for prompts, and the skill's own tests.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::ResourceKind;
use crate::text::Lang;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Example {
    pub user: String,
    /// For management skills: the action the utterance asks for. Exactly one of `action`,
    /// `function` and `knowledge` is set.
    #[serde(default)]
    pub action: Option<String>,
    /// The slots the utterance gives, as the router should extract them (before clamping).
    #[serde(default)]
    pub slots: BTreeMap<String, serde_json::Value>,
    /// For function skills (seed 003 format).
    #[serde(default)]
    pub function: Option<String>,
    #[serde(default)]
    pub params: BTreeMap<String, serde_json::Value>,
    #[serde(default)]
    pub parallel_calls: Vec<ExampleCall>,
    #[serde(default)]
    pub thought: Option<String>,
    /// For guidance and diagnosis skills: the knowledge entry the utterance asks about.
    #[serde(default)]
    pub knowledge: Option<String>,
    /// The conversation state the utterance is said in: a current reference ("它") or an
    /// active task (then the utterance continues or corrects it).
    #[serde(default)]
    pub context: Option<ExampleContext>,
}

impl Example {
    pub fn lang(&self) -> Lang {
        Lang::detect(&self.user)
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExampleCall {
    pub function: String,
    #[serde(default)]
    pub params: BTreeMap<String, serde_json::Value>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExampleContext {
    /// The resource each kind currently refers to ("它" / "that one").
    #[serde(default)]
    pub current: BTreeMap<ResourceKind, String>,
    #[serde(default)]
    pub task: Option<ExampleTask>,
}

/// The active task when the utterance is said; its slots are those already filled.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExampleTask {
    pub action: String,
    #[serde(default)]
    pub slots: BTreeMap<String, serde_json::Value>,
}
