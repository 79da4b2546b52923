//! Values for the open task, and the last words on a message: "改成 4" with its lead-in, the
//! values a message gives what is being done ("500", "initial balance 500", "defaults"), and
//! a verb on a name nobody has ("delete nosuchbot"), said as such rather than not understood.

use nofxi_protocol::{Command, Understanding};
use nofxi_skills::WordClass;
use serde_json::Map;

use super::Input;
use crate::nlu::{
    Context, NOT_FOUND_REASON, OTHER_RESOURCE_REASON, RuleUnderstander, asks, extract, one, repair,
    route,
};

/// See [`repair::value_with_lead_in`].
pub fn value_with_lead_in(
    rules: &RuleUnderstander,
    input: &Input<'_>,
    cx: &Context<'_>,
) -> Option<Understanding> {
    repair::value_with_lead_in(rules, input.message, cx)
}

/// What the message gives the open task: its values, "defaults", or a yes to it.
pub fn answer_to_task(
    rules: &RuleUnderstander,
    input: &Input<'_>,
    cx: &Context<'_>,
) -> Option<Understanding> {
    let (message, lower) = (input.message, &input.lower);
    let (skill, action, ..) = cx.top?;
    // "is 4 minutes too fast?" while a change waits for its yes asks; it sets nothing.
    let asks = cx.top.is_some_and(|t| t.3) && asks::only_asks(lower, cx.lexicon);
    let mut slots = match asks {
        true => Map::new(),
        false => rules.values_for_top(message, cx),
    };
    // "start it" while a key rotation waits names a target, but with another action's verb: a
    // request of its own, which must not retarget the waiting task.
    let target_only = slots.len() == 1 && slots.contains_key("target");
    if target_only && route::has_foreign_verb(cx.library, lower, skill, action) {
        slots.clear();
    }
    if !slots.is_empty()
        && let Some(other) = another_resource_named(lower, cx, skill, action)
    {
        return Some(one(
            Command::CannotHandle {
                reason: format!("{OTHER_RESOURCE_REASON}{other}"),
            },
            0.5,
        ));
    }
    if !slots.is_empty() {
        return Some(one(
            Command::SetSlots {
                slots: slots.into_iter().collect(),
            },
            0.8,
        ));
    }
    if cx.lexicon.is(WordClass::Defaults, message)
        || cx.lexicon.starts(WordClass::Defaults, message, 10)
    {
        return Some(one(
            Command::SetSlots {
                slots: Default::default(),
            },
            0.7,
        ));
    }
    cx.lexicon
        .is(WordClass::Confirm, message)
        .then(|| one(Command::Confirm, 0.7))
}

/// "delete nosuchbot": a verb on a name no resource has. Said as such, not as a message that
/// was not understood. A made-up name anywhere beside a verb ("show journal for sol-bot",
/// "sol-bot的日志") is the one said; else the word right after the verb ("delete nosuchbot").
pub fn not_found(
    _: &RuleUnderstander,
    input: &Input<'_>,
    cx: &Context<'_>,
) -> Option<Understanding> {
    let lower = &input.lower;
    let made_up = extract::made_up_name(lower, cx.lexicon).filter(|_| {
        route::target_word_after_verb(cx.library, cx.lexicon, lower).is_some()
            || route::says_a_verb(cx.library, lower)
    });
    let word = made_up.or_else(|| route::target_word_after_verb(cx.library, cx.lexicon, lower))?;
    cx.names.entries.iter().all(|e| e.lower != word).then(|| {
        one(
            Command::CannotHandle {
                reason: format!("{NOT_FOUND_REASON}{word}"),
            },
            0.3,
        )
    })
}

/// A resource the message names that the open task is not about and cannot take as a value:
/// not its target or name, and of no kind its reference slots hold. Values said with it are
/// that resource's; a credential for one account must never land in another's task.
fn another_resource_named(
    lower: &str,
    cx: &Context<'_>,
    skill: &str,
    action: &str,
) -> Option<String> {
    let act = cx.library.action(skill, action)?;
    let own = cx.top_name.map(nofxi_domain::validation::name_key);
    cx.names
        .mentioned(lower)
        .into_iter()
        .map(|(e, _, _)| e)
        .find(|e| {
            own.as_deref() != Some(e.lower.as_str())
                && !act.slots.iter().any(|s| s.ref_kind == Some(e.kind))
        })
        .map(|e| e.name.clone())
}

/// A message about the user's resources that nothing else read, while a confirmation waits:
/// see [`crate::nlu::UNREAD_WHILE_WAITING_REASON`]. As unsure as "not understood", so a
/// configured model reads it first.
pub fn unread_while_waiting(
    _: &RuleUnderstander,
    input: &Input<'_>,
    cx: &Context<'_>,
) -> Option<Understanding> {
    let waiting = cx.top.is_some_and(|t| t.3);
    (waiting && !cx.names.mentioned(&input.lower).is_empty()).then(|| {
        one(
            Command::CannotHandle {
                reason: crate::nlu::UNREAD_WHILE_WAITING_REASON.into(),
            },
            0.2,
        )
    })
}

#[cfg(test)]
mod tests {
    use nofxi_protocol::Command;

    use super::super::testing::{Fixture, run};
    use crate::nlu::NOT_FOUND_REASON;

    const NONE: &[String] = &[];

    #[test]
    fn a_verb_on_a_name_nobody_has_is_said_not_found() {
        let f = Fixture::new();
        let cx = f.cx();
        let u = run("not_found", "delete nosuchbot", &cx).expect("not found");
        assert_eq!(
            u.commands,
            [Command::CannotHandle {
                reason: format!("{NOT_FOUND_REASON}nosuchbot")
            }]
        );
        assert!(run("not_found", "delete alpha", &cx).is_none());
    }

    #[test]
    fn defaults_answer_the_open_task_and_nothing_open_takes_no_answer() {
        let f = Fixture::new();
        let mut cx = f.cx();
        assert!(run("answer_to_task", "defaults", &cx).is_none());
        cx.top = Some(("exchange_management", "create", NONE, false));
        let u = run("answer_to_task", "defaults", &cx).expect("defaults");
        assert!(
            matches!(u.commands.as_slice(), [Command::SetSlots { .. }]),
            "{u:?}"
        );
    }
}
