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
    /// Begin a skill action, with whatever slots the message already gave. A slot given as
    /// `null` was named without a value ("change the api key of main"): the task asks for it.
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
    /// What doing a skill action would do, answered from the effects its skill declares and
    /// the resources it names; nothing is done ("what happens if I delete btc-bot?", "如果我
    /// 停了 alpha 会平仓吗").
    ExplainEffects {
        skill: String,
        action: String,
        #[serde(default)]
        slots: BTreeMap<String, serde_json::Value>,
    },
    /// Call a function of a function-style skill with these arguments ("eth order book" is
    /// `get_order_book` with `{"symbol": "ETHUSDT"}`), answered beside any task. The arguments
    /// are checked against the function's schema before anything is sent; one the message did
    /// not give (the symbol of "show me the order book") is asked for.
    CallFunction {
        function: String,
        #[serde(default)]
        args: BTreeMap<String, serde_json::Value>,
    },
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
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
    /// A symbol's quote from market data; the topic is the symbol (`BTCUSDT`).
    Market,
    /// How an action is done ("how do I add an exchange?"): what it needs and how to say
    /// it, with an offer to start; the topic is `skill.action`.
    HowTo,
    /// What an action would do, from its skill's declared effects (see
    /// [`Command::ExplainEffects`]).
    Effects,
}

/// Who produced a set of commands; traces and benchmarks count the model's share.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CommandSource {
    Rules,
    Llm,
    /// A client that speaks in commands (an MCP tool call).
    Client,
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

/// A change to a list slot relative to the list it changes ("also exclude SHIB", "remove ETH
/// from default"). In `StartTask`, `SetSlots` and `CorrectSlot` a list slot's value is either
/// the whole new list or one of these, as `{"add": [...]}` or `{"remove": [...]}`; the engine
/// applies it to the value the task or the stored resource has, before anything is checked or
/// confirmed, so "also" never silently drops what was there.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ListEdit {
    Add(Vec<serde_json::Value>),
    Remove(Vec<serde_json::Value>),
}

impl ListEdit {
    /// The edit a slot value holds, if it is one.
    pub fn from_value(value: &serde_json::Value) -> Option<ListEdit> {
        serde_json::from_value(value.clone())
            .ok()
            .filter(|_| value.is_object())
    }

    pub fn to_value(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }

    /// `base` with the edit applied; items are the same when `same` says so (case, a quote
    /// currency left out). Adding keeps the order and puts new items last.
    pub fn apply(
        &self,
        base: &[serde_json::Value],
        same: impl Fn(&serde_json::Value, &serde_json::Value) -> bool,
    ) -> Vec<serde_json::Value> {
        match self {
            ListEdit::Add(items) => {
                let mut out = base.to_vec();
                for item in items {
                    if !out.iter().any(|x| same(x, item)) {
                        out.push(item.clone());
                    }
                }
                out
            }
            ListEdit::Remove(items) => base
                .iter()
                .filter(|x| !items.iter().any(|item| same(x, item)))
                .cloned()
                .collect(),
        }
    }

    /// Two edits said one after the other, as one: adds add up, removes add up, and a
    /// different kind replaces the earlier one.
    pub fn then(self, next: ListEdit) -> ListEdit {
        match (self, next) {
            (ListEdit::Add(mut a), ListEdit::Add(b)) => {
                a.extend(b);
                ListEdit::Add(a)
            }
            (ListEdit::Remove(mut a), ListEdit::Remove(b)) => {
                a.extend(b);
                ListEdit::Remove(a)
            }
            (_, next) => next,
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::ListEdit;

    #[test]
    fn a_list_edit_is_an_add_or_remove_object_and_nothing_else() {
        let add = json!({"add": ["SOLUSDT"]});
        assert_eq!(
            ListEdit::from_value(&add),
            Some(ListEdit::Add(vec![json!("SOLUSDT")]))
        );
        assert_eq!(ListEdit::from_value(&add).map(|e| e.to_value()), Some(add));
        assert_eq!(ListEdit::from_value(&json!(["SOLUSDT"])), None);
        assert_eq!(ListEdit::from_value(&json!("add")), None);
        assert_eq!(ListEdit::from_value(&json!({"put": ["SOLUSDT"]})), None);
    }

    #[test]
    fn adding_keeps_what_was_there_and_removing_drops_only_the_items_named() {
        let base = [json!("BTCUSDT"), json!("ETHUSDT")];
        let same = |a: &serde_json::Value, b: &serde_json::Value| a == b;
        let added = ListEdit::Add(vec![json!("SOLUSDT"), json!("BTCUSDT")]).apply(&base, same);
        assert_eq!(
            added,
            [json!("BTCUSDT"), json!("ETHUSDT"), json!("SOLUSDT")]
        );
        let removed = ListEdit::Remove(vec![json!("BTCUSDT")]).apply(&base, same);
        assert_eq!(removed, [json!("ETHUSDT")]);
        let both = ListEdit::Add(vec![json!("A")]).then(ListEdit::Add(vec![json!("B")]));
        assert_eq!(both, ListEdit::Add(vec![json!("A"), json!("B")]));
    }
}
