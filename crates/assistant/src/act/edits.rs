//! Before an update is checked or confirmed: what its target holds now for the fields it
//! changes (shown as "(was …)"), and list edits applied to that ("also exclude SHIB" keeps
//! DOGE excluded). A create's list edit applies to the slot's default.

use nofxi_protocol::{Event, ListEdit};
use nofxi_skills::{Action, Risk};
use serde_json::{Map, Value};

use crate::turn::Turn;
use crate::{msg, texts};

/// Reads the current values once per field and applies the task's list edits. An edit that
/// changes nothing (removing a coin that is not there) is said and dropped. An edit whose
/// list cannot be known yet (no target) waits. False when an update has nothing left to
/// change after that: the task ends there, its reason said.
pub(super) async fn read_before_and_apply_edits(turn: &mut Turn<'_>, action: &Action) -> bool {
    let Some(task) = turn.conv.top() else {
        return false;
    };
    let unread: Vec<String> = task
        .given
        .iter()
        .filter(|k| *k != "target" && !task.before.contains_key(*k))
        .filter(|k| !task.secret_slots.contains(*k) && !task.resolved.contains_key(*k))
        .cloned()
        .collect();
    let edits: Vec<(String, ListEdit)> = task
        .slots
        .iter()
        .filter_map(|(k, v)| ListEdit::from_value(v).map(|e| (k.clone(), e)))
        .collect();
    let target = task.resolved.get("target").cloned();
    let updates = action.risk == Risk::Update;
    if unread.is_empty() && edits.is_empty() {
        return true;
    }
    let mut read = Map::new();
    if let (true, Some(target), Some(step)) = (updates, &target, action.steps.first())
        && !unread.is_empty()
    {
        let tool = step.tool.to_string();
        read = turn
            .engine
            .tools
            .current_values(&tool, target, turn.user, &unread)
            .await;
    }
    let lang = turn.lang;
    let mut said = Vec::new();
    let mut events = Vec::new();
    let Some(task) = turn.conv.top_mut() else {
        return false;
    };
    task.before.extend(read);
    for (name, edit) in edits {
        let base = if updates {
            match task.before.get(&name) {
                Some(Value::Array(list)) => list.clone(),
                // No target yet: it is asked first, and the edit applies once it is known.
                _ if target.is_none() => continue,
                _ => Vec::new(),
            }
        } else {
            match action.slot(&name).and_then(|s| s.default.as_ref()) {
                Some(Value::Array(list)) => list.clone(),
                _ => Vec::new(),
            }
        };
        let after = edit.apply(&base, same_item);
        if after == base {
            let label = action
                .slot(&name)
                .map_or_else(|| name.clone(), |s| s.label().get(lang).to_string());
            said.push(unchanged(lang, &label, &edit, &base));
            task.slots.remove(&name);
            task.given.remove(&name);
        } else {
            task.edits.insert(name.clone(), edit.to_value());
            let value = Value::Array(after);
            events.push(Event::SlotSet {
                task_id: task.id.clone(),
                slot: name.clone(),
                value: value.clone(),
                adjusted: None,
            });
            task.slots.insert(name, value);
        }
    }
    turn.events.extend(events);
    let nothing_left = !said.is_empty() && updates && !task.given.iter().any(|k| k != "target");
    for line in said {
        turn.say(line);
    }
    !nothing_left
}

/// Whether two list items are the same: symbols compare without case and without a USDT
/// quote ("sol" is SOLUSDT), anything else as it is.
pub(crate) fn same_item(a: &Value, b: &Value) -> bool {
    match (a.as_str(), b.as_str()) {
        (Some(a), Some(b)) => {
            let base = |s: &str| {
                let upper = s.trim().to_uppercase();
                match upper.strip_suffix("USDT") {
                    Some(coin) if !coin.is_empty() => coin.to_string(),
                    _ => upper,
                }
            };
            base(a) == base(b)
        }
        _ => a == b,
    }
}

fn unchanged(lang: nofxi_skills::Lang, label: &str, edit: &ListEdit, base: &[Value]) -> String {
    let (items, adding) = match edit {
        ListEdit::Add(items) => (items, true),
        ListEdit::Remove(items) => (items, false),
    };
    let items = texts::value(lang, &Value::Array(items.clone()));
    let now = texts::value(lang, &Value::Array(base.to_vec()));
    let now = if now.is_empty() {
        msg(lang, "edit-list-empty", &[])
    } else {
        now
    };
    let id = if adding {
        "edit-already-in"
    } else {
        "edit-not-in"
    };
    msg(
        lang,
        id,
        &[("label", label), ("items", &items), ("now", &now)],
    )
}
