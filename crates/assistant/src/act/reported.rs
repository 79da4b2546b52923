//! The fields a successful step reports about what it did ([`nofxi_skills::TOOL_FIELDS`]),
//! read by an action's `success_cases`. They are facts the domain owns, so a skill file says
//! "when the account cannot trade" without listing which exchange types can.
//!
//! They are derived here from the step's own arguments, which the tool has just accepted:
//! the tool output carries no structured data yet. When it does, this is where it is read.

use nofxi_domain::ExchangeType;
use serde_json::{Map, Value};

/// What `tool`, called with `args`, reports once it succeeded.
pub(super) fn reported(tool: &str, args: &Map<String, Value>) -> Map<String, Value> {
    let mut out = Map::new();
    if tool == "exchange.create"
        && let Some(kind) = args
            .get("exchange_type")
            .and_then(Value::as_str)
            .and_then(|t| t.parse::<ExchangeType>().ok())
    {
        out.insert("can_trade".into(), Value::Bool(kind.can_trade()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(kind: &str) -> Map<String, Value> {
        let mut m = Map::new();
        m.insert("exchange_type".into(), Value::String(kind.into()));
        m
    }

    /// What the skills lint lets a `when: {field: …}` name is exactly what is filled here.
    #[test]
    fn every_declared_field_is_reported() {
        for (tool, fields) in nofxi_skills::TOOL_FIELDS {
            let got = reported(tool, &args("okx"));
            let mut names: Vec<&str> = got.keys().map(String::as_str).collect();
            names.sort_unstable();
            let mut want = fields.to_vec();
            want.sort_unstable();
            assert_eq!(names, want, "{tool}");
        }
    }

    #[test]
    fn can_trade_follows_the_domain() {
        for kind in ExchangeType::ALL {
            let got = reported("exchange.create", &args(kind.as_str()));
            assert_eq!(got.get("can_trade"), Some(&Value::Bool(kind.can_trade())));
        }
        assert!(reported("exchange.update", &args("okx")).is_empty());
    }
}
