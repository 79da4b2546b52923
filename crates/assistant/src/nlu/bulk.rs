//! "stop btc-bot and alpha", "stop the running ones": several tasks of one action, each on one
//! named object, asked in one message. Where the skill has an action that does that action for
//! several objects at once (`bulk_of` in its SKILL.md: `stop_all` of `stop`), they become that
//! one task with the objects as its `targets`, so one confirmation names them all instead of
//! one after the other (each a yes, then a "continue", then a yes).

use std::collections::BTreeMap;

use nofxi_protocol::Command;
use nofxi_skills::Library;
use serde_json::Value;

/// `commands`, merged into the bulk action where every one is a task of the same action (or
/// of its bulk action, from a part merged already) on named objects and nothing else, and
/// the bulk action would act on each of them (`acts_on`): one it would leave out ("stop" of a
/// trader that is not running) keeps the tasks apart, so each is answered for itself.
pub(super) fn merged(
    commands: Vec<Command>,
    library: &Library,
    acts_on: &dyn Fn(&str) -> bool,
) -> Vec<Command> {
    let Some(Command::StartTask { skill, action, .. }) = commands.first() else {
        return commands;
    };
    // The first task's action is the single one, or the bulk one itself.
    let is_bulk_for = |a: &nofxi_skills::Action| {
        a.bulk_of.as_deref() == Some(action.as_str()) || (a.name == *action && a.bulk_of.is_some())
    };
    let Some(bulk) = library
        .get(skill)
        .and_then(|s| s.actions.iter().find(|a| is_bulk_for(a)))
    else {
        return commands;
    };
    let single = bulk.bulk_of.as_deref().unwrap_or_default();
    let mut targets: Vec<Value> = Vec::new();
    for command in &commands {
        let Command::StartTask {
            skill: s,
            action: a,
            slots,
        } = command
        else {
            return commands;
        };
        let named = match (a.as_str(), slots.len()) {
            (a, 1) if a == single => slots.get("target").cloned().into_iter().collect(),
            (a, 1) if a == bulk.name => match slots.get("targets") {
                Some(Value::Array(names)) => names.clone(),
                _ => return commands,
            },
            _ => return commands,
        };
        let all_acted_on = named.iter().all(|n| n.as_str().is_some_and(acts_on));
        if s != skill || named.is_empty() || !all_acted_on {
            return commands;
        }
        targets.extend(named);
    }
    if targets.len() < 2 {
        return commands;
    }
    vec![Command::StartTask {
        skill: skill.clone(),
        action: bulk.name.clone(),
        slots: BTreeMap::from([("targets".to_string(), Value::Array(targets))]),
    }]
}
