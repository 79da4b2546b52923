//! What-if answers from data: "what happens if I delete btc-bot?", "如果我停了 alpha 会平仓吗",
//! "should I stop alpha?". Each action declares its effects in its SKILL.md (what happens to
//! positions, the trash, the traders that use a resource); the answer renders them for the
//! resource named, with the traders that use it read from the store, and does nothing. A task
//! in progress stays where it is.

use nofxi_protocol::{AnswerKind, Event};
use serde_json::{Map, Value};

use crate::act::lookup;
use crate::msg;
use crate::nlu::names::Resolution;
use crate::turn::Turn;

/// Answers what `skill.action` would do with `slots`, from the action's declared effects (its
/// description when it declares none).
pub fn explain(turn: &mut Turn<'_>, skill: &str, action: &str, slots: Map<String, Value>) {
    let lang = turn.lang;
    let library = turn.engine.library.clone();
    let Some(act) = library.action(skill, action) else {
        turn.say(crate::texts::cannot_handle(lang));
        return;
    };
    // The resource by its name now: the traders that use it come from the user's names.
    let target = slots.get("target").and_then(Value::as_str);
    let kind = act.slot("target").and_then(|s| s.ref_kind);
    let id = match (kind, target) {
        (Some(kind), Some(target)) => match turn.names.resolve(kind, target, None, false) {
            Resolution::Found(e) => Some(e.id),
            _ => None,
        },
        _ => None,
    };
    let mut vars = Map::new();
    let using = id.map_or_else(
        || msg(lang, "effects-no-traders", &[]),
        |id| crate::act::traders_using(lang, &turn.names, &id),
    );
    vars.insert("traders_using".into(), Value::String(using));
    let text = match &act.effects {
        Some(effects) => effects.render(lang, lookup(lang, &slots, &vars)),
        None => act.description.get(lang).to_string(),
    };
    turn.events.push(Event::Answered {
        kind: AnswerKind::Effects,
    });
    turn.say(text);
    turn.say(msg(lang, "effects-nothing-done", &[]));
}
