//! The active task's slot values before anything runs: references resolved (asking which one
//! on several matches, saying "not found" on none), values checked against the slot rules,
//! and one question for everything still missing.

use nofxi_protocol::{Event, ListEdit, TaskStatus};
use nofxi_skills::{Action, Lang, ResourceKind, SlotType};
use serde_json::{Map, Value};

use super::run::failed;
use super::{finish, restores};
use crate::conversation::Pending;
use crate::nlu::names::Resolution;
use crate::texts;
use crate::tools::ToolError;
use crate::turn::Turn;

/// A read that needs one resource the user has only one of ("what's my balance" with one
/// exchange account) reads that one: asking "which account? (you have: paper)" asks for
/// what cannot be otherwise. Never for a change, which names what it acts on; never once the
/// task has asked, so a name the user gave that matched nothing is not replaced.
pub(super) fn take_the_only_one(turn: &mut Turn<'_>, action: &Action) {
    if !action.risk.is_read_only() {
        return;
    }
    let Some(task) = turn.conv.top() else {
        return;
    };
    if !task.asked.is_empty() {
        return;
    }
    let fills: Vec<(String, String)> = action
        .slots
        .iter()
        .filter(|s| s.ty == SlotType::Ref && s.required && !task.slots.contains_key(&s.name))
        .filter_map(|s| {
            let kind = s.ref_kind?;
            let mut live = turn.names.of_kind(kind).filter(|e| !e.deleted);
            match (live.next(), live.next()) {
                (Some(only), None) => Some((s.name.clone(), only.name.clone())),
                _ => None,
            }
        })
        .collect();
    if let Some(task) = turn.conv.top_mut() {
        for (slot, name) in fills {
            task.slots.insert(slot, Value::String(name));
        }
    }
}

/// Resolves ref slots not yet resolved; false when the turn must stop (a choice is asked).
pub(super) fn resolve_refs(turn: &mut Turn<'_>, action: &Action) -> bool {
    let lang = turn.lang;
    report_choice(turn, action);
    let Some(task) = turn.conv.top() else {
        return false;
    };
    let todo: Vec<(String, ResourceKind, String)> = action
        .slots
        .iter()
        .filter(|s| s.ty == SlotType::Ref && !task.resolved.contains_key(&s.name))
        .filter_map(|s| {
            let said = task.slots.get(&s.name)?.as_str()?.to_string();
            Some((s.name.clone(), s.ref_kind?, said))
        })
        .collect();
    for (slot, kind, said) in todo {
        let lower = said.to_lowercase();
        let class = turn
            .engine
            .lexicon
            .class_in(kind, &lower)
            .map(|(c, _, _)| c.to_string());
        match turn
            .names
            .resolve(kind, &said, class.as_deref(), restores(action))
        {
            Resolution::Found(e) => {
                turn.conv.point_at(kind, e.id.clone());
                if let Some(task) = turn.conv.top_mut() {
                    task.resolved.insert(slot.clone(), e.id.clone());
                    task.slots.insert(slot, Value::String(e.name.clone()));
                }
            }
            Resolution::Ambiguous(options) => {
                let shown: Vec<String> = options.iter().map(|e| e.name.clone()).collect();
                let task_id = task_id(turn);
                // Not given until the user picks one; see `report_choice`.
                if let Some(task) = turn.conv.top_mut() {
                    task.given.remove(&slot);
                }
                turn.conv.pending = Some(Pending::Choose {
                    task_id,
                    slot,
                    options: options
                        .iter()
                        .map(|e| (e.name.clone(), e.id.clone()))
                        .collect(),
                });
                turn.events.push(Event::Clarification {
                    options: shown.clone(),
                });
                match shown.as_slice() {
                    [only] => {
                        let kind_word = texts::kind_word(lang, kind);
                        turn.say(texts::not_found(lang, &kind_word, &said));
                        turn.say(texts::did_you_mean(lang, only));
                    }
                    _ => turn.say(texts::which_one(lang, &shown)),
                }
                return false;
            }
            Resolution::NotFound
                if restores(action)
                    && matches!(
                        turn.names.resolve(kind, &said, class.as_deref(), false),
                        Resolution::Found(_)
                    ) =>
            {
                // "restore default" while default is live: nothing to restore, said as such.
                let mut shown = Map::new();
                shown.insert(slot, Value::String(said));
                let err = ToolError::new("not_deleted", "it is not deleted");
                failed(turn, action, err, &shown, Map::new());
                return false;
            }
            Resolution::NotFound => {
                let kind_word = texts::kind_word(lang, kind);
                turn.say(texts::not_found(lang, &kind_word, &said));
                // "do you support bybit", "test my okx" with no such account: the name is an
                // exchange type, so what nofxi does with that exchange is the answer too.
                if kind == ResourceKind::Exchange
                    && let Some(about) = texts::exchange_type_note(lang, &said)
                {
                    turn.say(about);
                }
                if let Some(task) = turn.conv.top_mut() {
                    task.slots.remove(&slot);
                    task.given.remove(&slot);
                }
                let optional = action.slot(&slot).is_some_and(|s| !s.required);
                // An optional reference of a change that names nothing ("a trader using the
                // scalper strategy") must not give way to the default unseen: it is asked.
                if optional && slot != "target" && !action.risk.is_read_only() {
                    if let Some(task) = turn.conv.top_mut()
                        && !task.asked.contains(&slot)
                    {
                        task.asked.push(slot);
                    }
                    continue;
                }
                // An optional reference that names nothing ("ghost-bot 现在怎么样") must not
                // fall back to the action without it (listing everything): the task ends here.
                if optional {
                    finish(turn, TaskStatus::Failed, Some("not_found".into()));
                    return false;
                }
            }
        }
    }
    true
}

fn task_id(turn: &Turn<'_>) -> nofxi_protocol::TaskId {
    turn.conv
        .top()
        .map(|t| t.id.clone())
        .unwrap_or_else(|| nofxi_protocol::TaskId(String::new()))
}

/// Normalizes values by the slot rules; clamps are reported, invalid values dropped and said.
/// Returns the slots whose values were dropped: they must be asked again, even where a
/// default exists — the user asked for something else, and running on the default would
/// do what they did not say.
pub(super) fn check_values(turn: &mut Turn<'_>, action: &Action) -> Vec<String> {
    let lang = turn.lang;
    let mut rejected = Vec::new();
    let Some(task) = turn.conv.top() else {
        return rejected;
    };
    let id = task.id.clone();
    let checks: Vec<(String, Value)> = task
        .slots
        .iter()
        .filter(|(k, _)| !task.secret_slots.contains(*k) && !task.resolved.contains_key(*k))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    for (name, value) in checks {
        let Some(slot) = action.slot(&name) else {
            continue;
        };
        // A list edit waiting for its target's list is checked once applied.
        if slot.ty == SlotType::Ref || ListEdit::from_value(&value).is_some() {
            continue;
        }
        match slot.check_value(&value) {
            Ok((normalized, adjustment)) => {
                if let Some(adj) = adjustment {
                    let note = adj.message.get(lang).to_string();
                    turn.events.push(Event::SlotSet {
                        task_id: id.clone(),
                        slot: name.clone(),
                        value: normalized.clone(),
                        adjusted: Some(note.clone()),
                    });
                    turn.say(note);
                }
                if let Some(task) = turn.conv.top_mut() {
                    task.slots.insert(name, normalized);
                }
            }
            Err(err) => {
                turn.say(err.message.get(lang).to_string());
                // A refused value was never set: its `slot_set` would show what was refused
                // (a URL with a key in it, say) as if it had been taken.
                turn.events
                    .retain(|e| !matches!(e, Event::SlotSet { slot, .. } if *slot == name));
                if let Some(task) = turn.conv.top_mut() {
                    task.slots.remove(&name);
                    task.given.remove(&name);
                }
                rejected.push(name);
            }
        }
    }
    rejected
}

pub(super) fn ask(turn: &mut Turn<'_>, action: &Action, missing: Vec<String>) {
    let lang = turn.lang;
    let given = super::effective(turn, false);
    let mut lines: Vec<String> = missing
        .iter()
        .filter_map(|m| action.slot(m))
        .map(|s| {
            let question = s
                .question(&given)
                .map(|t| t.get(lang).to_string())
                .unwrap_or_else(|| texts::ask_by_label(lang, s.label().get(lang)));
            // A reference is answered by naming one that exists: list them, so a new user
            // with one exchange account sees its name instead of having to recall it.
            let existing: Vec<&str> = s
                .ref_kind
                .filter(|_| s.ty == SlotType::Ref)
                .map(|kind| {
                    let restoring = action.name == "restore";
                    turn.names
                        .of_kind(kind)
                        .filter(|e| e.deleted == restoring)
                        .map(|e| e.name.as_str())
                        .collect()
                })
                .unwrap_or_default();
            match texts::existing_note(lang, &existing) {
                Some(note) => format!("{question}{note}"),
                // None exists yet (a first session): asking "which one?" is a dead end; say
                // how to make one, and the task waits for it.
                None if action.name != "restore" => match s.ref_kind {
                    Some(kind) if s.ty == SlotType::Ref => {
                        let id = format!("none-yet-{}", kind.as_str());
                        let hint = nofxi_skills::Catalog::builtin().text(lang, &id, &[]);
                        let gap = if lang == Lang::Zh { "" } else { " " };
                        format!("{question}{gap}{hint}")
                    }
                    _ => question,
                },
                None => question,
            }
        })
        .collect();
    let Some(task) = turn.conv.top() else { return };
    let defaults: Vec<(String, String)> = action
        .slots
        .iter()
        .filter(|s| !task.slots.contains_key(&s.name) && !missing.contains(&s.name))
        .filter_map(|s| {
            s.default
                .as_ref()
                .map(|d| (s.label().get(lang).to_string(), texts::value(lang, d)))
        })
        .collect();
    if let Some(note) = texts::defaults_note(lang, &defaults) {
        lines.push(note);
    }
    let id = task.id.clone();
    if let Some(task) = turn.conv.top_mut() {
        task.status = TaskStatus::Collecting;
        task.asked = missing.clone();
    }
    turn.events.push(Event::Asked {
        task_id: id,
        slots: missing,
    });
    turn.say(lines.join("\n"));
}

/// A choice among ambiguous matches is answered outside the policy (the turn's `choose`
/// fills the slot and its id directly): the slot is resolved but was never `given`. Report
/// it as set, so the user sees which one was taken, and mark it given.
fn report_choice(turn: &mut Turn<'_>, action: &Action) {
    let Some(task) = turn.conv.top_mut() else {
        return;
    };
    let chosen: Vec<(String, Value)> = action
        .slots
        .iter()
        .filter(|s| s.ty == SlotType::Ref && task.resolved.contains_key(&s.name))
        .filter(|s| !task.given.contains(&s.name))
        .filter_map(|s| Some((s.name.clone(), task.slots.get(&s.name)?.clone())))
        .collect();
    let id = task.id.clone();
    for (slot, value) in chosen {
        task.given.insert(slot.clone());
        turn.events.push(Event::SlotSet {
            task_id: id.clone(),
            slot,
            value,
            adjusted: None,
        });
    }
}
