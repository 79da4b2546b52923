//! Turning a task's slots into tool calls: which steps run, with which arguments, and the
//! initial slots of a recovery sub-task. The dialogue engine calls these instead of
//! re-implementing the skill file's semantics.

use serde_json::{Map, Value};

use super::{Action, Recovery, Step};
use crate::text::render_template;

/// Render one template value. A string that is exactly `{name}` takes the slot's JSON value
/// as it is (a boolean stays a boolean); other strings are rendered as text; non-strings are
/// constants. `vars` supplies runtime values (`resource`, `id`, …) when no slot has the name.
fn render_value(
    value: &Value,
    slots: &Map<String, Value>,
    vars: &dyn Fn(&str) -> Option<String>,
) -> Value {
    let Value::String(s) = value else {
        return value.clone();
    };
    let lookup = |name: &str| -> Option<Value> {
        slots
            .get(name)
            .filter(|v| !v.is_null())
            .cloned()
            .or_else(|| vars(name).map(Value::String))
    };
    if let Some(name) = s.strip_prefix('{').and_then(|r| r.strip_suffix('}'))
        && !name.contains(['{', '}'])
        && let Some(v) = lookup(name)
    {
        return v;
    }
    Value::String(render_template(s, |name| {
        lookup(name).map(|v| match v {
            Value::String(s) => s,
            other => other.to_string(),
        })
    }))
}

impl Step {
    /// Whether the step runs for these slot values (`when`, if any, holds).
    pub fn applies(&self, slots: &Map<String, Value>) -> bool {
        self.when.as_ref().is_none_or(|c| c.holds(slots))
    }

    /// The tool's arguments: each `with` slot that has a value, under its own name, then
    /// every `set` entry rendered against the slots and runtime values.
    pub fn arguments(
        &self,
        slots: &Map<String, Value>,
        vars: &dyn Fn(&str) -> Option<String>,
    ) -> Map<String, Value> {
        let mut args = Map::new();
        for name in &self.with {
            if let Some(v) = slots.get(name).filter(|v| !v.is_null()) {
                args.insert(name.clone(), v.clone());
            }
        }
        for (k, v) in &self.set {
            args.insert(k.clone(), render_value(v, slots, vars));
        }
        args
    }
}

impl Action {
    /// The steps that run for these slots, in order.
    pub fn plan<'a>(&'a self, slots: &Map<String, Value>) -> Vec<&'a Step> {
        self.steps.iter().filter(|s| s.applies(slots)).collect()
    }
}

impl Recovery {
    /// The sub-task's first slots, rendered from the failed task's slots and the failure's
    /// runtime values (`resource`: the disabled exchange's name).
    pub fn initial_slots(
        &self,
        slots: &Map<String, Value>,
        vars: &dyn Fn(&str) -> Option<String>,
    ) -> Map<String, Value> {
        self.slots
            .iter()
            .map(|(k, v)| (k.clone(), render_value(v, slots, vars)))
            .collect()
    }
}
