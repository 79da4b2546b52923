//! Success texts that vary with the outcome: an action's `success_cases` are tried in order
//! and the first whose `when` holds is said instead of its `success`. A case looks at a slot
//! of the task or at a field the action's tools report about what they did (an exchange
//! account's `can_trade`), so a fact the code owns (which exchange types nofxi trades on) is
//! read, not copied into the skill file.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::ir::Condition;
use crate::text::Text;

/// The fields each tool reports besides the resource it touched, for `success_cases`. The
/// assistant fills exactly these (its tests check the two lists agree); the lint refuses a
/// field no step of the action reports.
pub const TOOL_FIELDS: &[(&str, &[&str])] = &[("exchange.create", &["can_trade"])];

/// The fields `tool` reports, empty for a tool that reports none.
pub fn tool_fields(tool: &str) -> &'static [&'static str] {
    TOOL_FIELDS
        .iter()
        .find(|(t, _)| *t == tool)
        .map_or(&[], |(_, fields)| fields)
}

/// One success text and when it is said.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(from = "CaseYaml", into = "CaseYaml")]
pub struct SuccessCase {
    pub when: OutcomeCondition,
    pub text: Text,
}

/// How a case is written: `{when: {...}, zh: …, en: …}`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseYaml {
    when: OutcomeCondition,
    zh: String,
    en: String,
}

impl From<CaseYaml> for SuccessCase {
    fn from(c: CaseYaml) -> Self {
        SuccessCase {
            when: c.when,
            text: Text::new(c.zh, c.en),
        }
    }
}

impl From<SuccessCase> for CaseYaml {
    fn from(c: SuccessCase) -> Self {
        CaseYaml {
            when: c.when,
            zh: c.text.zh,
            en: c.text.en,
        }
    }
}

/// A test on one value of the outcome: exactly one of `slot` (a slot of the task) or `field`
/// (a field a step's tool reported), and exactly one of `in`, `equals`, `is_set`, as in a
/// step's `when`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutcomeCondition {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slot: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    #[serde(default, rename = "in", skip_serializing_if = "Option::is_none")]
    pub one_of: Option<Vec<Value>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub equals: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_set: Option<bool>,
}

impl OutcomeCondition {
    /// The same test as a step condition on `name`, for evaluating and for checking.
    pub fn as_condition(&self, name: &str) -> Condition {
        Condition {
            slot: name.to_string(),
            one_of: self.one_of.clone(),
            equals: self.equals.clone(),
            is_set: self.is_set,
        }
    }

    /// Whether it holds for the task's `slots` and the fields the steps reported (`data`).
    pub fn holds(&self, slots: &Map<String, Value>, data: &Map<String, Value>) -> bool {
        match (&self.slot, &self.field) {
            (Some(slot), None) => self.as_condition(slot).holds(slots),
            (None, Some(field)) => self.as_condition(field).holds(data),
            _ => false,
        }
    }
}

/// The success text for this outcome: the first case that holds, else `success`.
pub fn success_text<'a>(
    success: &'a Text,
    cases: &'a [SuccessCase],
    slots: &Map<String, Value>,
    data: &Map<String, Value>,
) -> &'a Text {
    cases
        .iter()
        .find(|c| c.when.holds(slots, data))
        .map_or(success, |c| &c.text)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn the_first_case_that_holds_is_said() {
        let cases: Vec<SuccessCase> = yaml_serde::from_str(
            "- when: {field: can_trade, equals: false}\n  zh: 不能交易\n  en: cannot trade\n\
             - when: {slot: testnet, equals: true}\n  zh: 测试网\n  en: testnet\n",
        )
        .unwrap();
        let success = Text::new("已添加", "added");
        let data = |v: bool| {
            serde_json::json!({"can_trade": v})
                .as_object()
                .cloned()
                .unwrap()
        };
        let slots = serde_json::json!({"testnet": true})
            .as_object()
            .cloned()
            .unwrap();
        let none = Map::new();
        assert_eq!(
            success_text(&success, &cases, &none, &data(false)).en,
            "cannot trade"
        );
        assert_eq!(
            success_text(&success, &cases, &slots, &data(true)).en,
            "testnet"
        );
        assert_eq!(
            success_text(&success, &cases, &none, &data(true)).en,
            "added"
        );
        assert_eq!(success_text(&success, &cases, &none, &none).en, "added");
    }
}
