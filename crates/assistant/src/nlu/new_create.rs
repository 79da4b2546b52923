//! *Another create* (a named repair rule): "add binance account b2 …" while the create of b1
//! is still collecting is a request of its own, not a correction of b1's name. Read as values
//! for the open task it renamed b1's task to b2 and created b2 with b1's API key; a credential
//! must never cross from one account's task into another's. So a create, said with its verb,
//! that names a different resource than the open create of the same skill starts a new task
//! (the policy interrupts the open one, which resumes later with its own values). This holds
//! for every resource kind: the name is the create's name slot, found from the skill data.

use nofxi_protocol::{Command, CommandSource, Understanding};
use nofxi_skills::{Action, SlotType};

use super::route::Route;
use super::{Context, RuleUnderstander};

/// The slot that names what a create makes: `name`, or one ending in `_name`
/// (`account_name`), of type string.
pub fn name_slot(action: &Action) -> Option<&str> {
    action
        .slots
        .iter()
        .filter(|s| s.ty == SlotType::String)
        .map(|s| s.name.as_str())
        .find(|n| *n == "name" || n.ends_with("_name"))
}

/// A new task when `r` is the open create's own skill and action, said with its verb, and the
/// message names another resource than the one the open create makes.
pub fn another_create(
    rules: &RuleUnderstander,
    r: &Route,
    message: &str,
    cx: &Context<'_>,
) -> Option<Understanding> {
    let (skill, action, ..) = cx.top?;
    if skill != r.skill || action != r.action || r.action != "create" || !r.has_verb {
        return None;
    }
    let open = cx.top_name?;
    let slot = name_slot(cx.library.action(skill, action)?)?;
    let slots = rules.slots_for(skill, action, message, cx);
    let named = slots.get(slot)?.as_str()?;
    if named.trim().to_lowercase() == open.trim().to_lowercase() {
        return None;
    }
    Some(Understanding {
        commands: vec![Command::StartTask {
            skill: skill.to_string(),
            action: action.to_string(),
            slots: slots.into_iter().collect(),
        }],
        confidence: 0.9,
        source: CommandSource::Rules,
    })
}
