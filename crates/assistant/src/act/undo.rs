//! Undo of the change just made: "把paper停用" … "算了 还是启用吧", "oops, bring it back",
//! "改回去". When a change completes, the task that takes it back is kept with it: an update's
//! inverse is itself with the values it replaced (read before the change, see `edits`);
//! another action's is declared in its SKILL.md (`undo:` — restore after a delete, start after a
//! stop, delete after a create). A retraction on the next turn offers it; a yes runs it through
//! its own confirmation rule.

use nofxi_skills::{Action, Lang, Risk};
use serde_json::{Map, Value};

use crate::act::lookup;
use crate::conversation::{Inverse, Task};
use crate::{msg, texts};

/// The task that takes `task` (just completed) back, with its offer in both languages; `None`
/// when nothing does (a key rotated: the old one is not kept, and never should be).
pub(crate) fn inverse_of(action: &Action, task: &Task) -> Option<Inverse> {
    if action.risk == Risk::Update {
        return restore_values(action, task);
    }
    let undo = action.undo.as_ref()?;
    let offer = |lang: Lang| {
        undo.offer
            .render(lang, lookup(lang, &task.slots, &Map::new()))
    };
    Some(Inverse {
        task: undo.task.clone(),
        slots: undo.initial_slots(&task.slots, &|_| None),
        offer_zh: offer(Lang::Zh),
        offer_en: offer(Lang::En),
    })
}

/// An update back to the values it replaced, on the same resource by id (a rename would
/// leave the old name naming nothing).
fn restore_values(action: &Action, task: &Task) -> Option<Inverse> {
    let target = task
        .resolved
        .get("target")
        .map(|id| Value::String(id.clone()))
        .or_else(|| task.slots.get("target").cloned())?;
    let mut slots = Map::new();
    for key in task.given.iter().filter(|k| *k != "target") {
        // Every value it changed must be known, or the undo would be half of one.
        slots.insert(key.clone(), task.before.get(key)?.clone());
    }
    if slots.is_empty() {
        return None;
    }
    let name = task
        .slots
        .get("target")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let offer = |lang: Lang| {
        let changes: Vec<String> = slots
            .iter()
            .map(|(k, v)| {
                let label = action
                    .slot(k)
                    .map_or_else(|| k.clone(), |s| s.label().get(lang).to_string());
                format!("{label} → {}", texts::value(lang, v))
            })
            .collect();
        msg(
            lang,
            "undo-offer-values",
            &[("name", name), ("changes", &changes.join(", "))],
        )
    };
    let offer_zh = offer(Lang::Zh);
    let offer_en = offer(Lang::En);
    slots.insert("target".into(), target);
    Some(Inverse {
        task: format!("{}.{}", task.skill, task.action),
        slots,
        offer_zh,
        offer_en,
    })
}
