//! What-if answers from data: "what happens if I delete btc-bot?", "如果我停了 alpha 会平仓吗",
//! "should I stop alpha?". Each action declares its effects in its SKILL.md (what happens to
//! positions, the trash, the traders that use a resource); the answer renders them for the
//! resource named, with the traders that use it read from the store, and does nothing. A task
//! in progress stays where it is.

use nofxi_protocol::{AnswerKind, Event};
use nofxi_skills::{Lang, ResourceKind};
use serde_json::{Map, Value};

use crate::act::lookup;
use crate::msg;
use crate::turn::Turn;

/// Answers what `skill.action` would do with `slots`, from the action's declared effects (its
/// description when it declares none).
pub async fn explain(turn: &mut Turn<'_>, skill: &str, action: &str, slots: Map<String, Value>) {
    let lang = turn.lang;
    let library = turn.engine.library.clone();
    let Some(act) = library.action(skill, action) else {
        turn.say(crate::texts::cannot_handle(lang));
        return;
    };
    let target = slots
        .get("target")
        .and_then(Value::as_str)
        .map(str::to_string);
    let kind = act.slot("target").and_then(|s| s.ref_kind);
    let mut vars = Map::new();
    let using = match (kind, &target) {
        (Some(kind), Some(target)) => traders_using(turn, kind, target).await,
        _ => Vec::new(),
    };
    let using = match using.is_empty() {
        true => msg(lang, "effects-no-traders", &[]),
        false => using.join(", "),
    };
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

/// The traders that use the `kind` resource named `reference` (running ones said so), or
/// nothing for a trader (it uses others, none use it).
async fn traders_using(turn: &Turn<'_>, kind: ResourceKind, reference: &str) -> Vec<String> {
    if kind == ResourceKind::Trader {
        return Vec::new();
    }
    let store = &turn.engine.store;
    let Ok(found) = store
        .resource_version(turn.user, kind.into(), reference)
        .await
    else {
        return Vec::new();
    };
    let Ok(traders) = store.list_traders(turn.user, false).await else {
        return Vec::new();
    };
    traders
        .into_iter()
        .filter(|t| {
            let bound = match kind {
                ResourceKind::Exchange => &t.spec.exchange_id,
                ResourceKind::Model => &t.spec.ai_model_id,
                ResourceKind::Strategy => &t.spec.strategy_id,
                ResourceKind::Trader => return false,
            };
            *bound == found.id
        })
        .map(|t| match t.is_running {
            true => running(turn.lang, &t.spec.name),
            false => t.spec.name,
        })
        .collect()
}

fn running(lang: Lang, name: &str) -> String {
    msg(lang, "effects-running-trader", &[("name", name)])
}
