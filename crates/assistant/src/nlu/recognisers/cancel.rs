//! Cancels and take-backs: "cancel everything", "算了", "no wait, don't delete it", and a
//! change just made taken back. They come first: a message that takes something back is
//! never read as anything else it also says.

use nofxi_protocol::{CancelScope, Command, CommandSource, Understanding};
use nofxi_skills::WordClass;

use super::Input;
use crate::nlu::{Context, RuleUnderstander, one, route, sets_values, words};

/// "cancel everything", "全部取消".
pub fn cancel_all(
    _: &RuleUnderstander,
    input: &Input<'_>,
    cx: &Context<'_>,
) -> Option<Understanding> {
    let (lx, message) = (cx.lexicon, input.message);
    (lx.is(WordClass::CancelAll, message) || lx.starts(WordClass::CancelAll, message, 16)).then(
        || {
            one(
                Command::Cancel {
                    scope: CancelScope::All,
                },
                0.95,
            )
        },
    )
}

/// The change the last turn made, taken back (see [`takes_back_what_was_done`]).
pub fn take_back_done(
    _: &RuleUnderstander,
    input: &Input<'_>,
    cx: &Context<'_>,
) -> Option<Understanding> {
    takes_back_what_was_done(input.message, cx).then(|| {
        one(
            Command::Cancel {
                scope: CancelScope::Current,
            },
            0.9,
        )
    })
}

/// "cancel", "算了": the current task dropped; "算了，名字叫 bot2" gives another value instead.
pub fn cancel(
    rules: &RuleUnderstander,
    input: &Input<'_>,
    cx: &Context<'_>,
) -> Option<Understanding> {
    let (lx, message, lower) = (cx.lexicon, input.message, &input.lower);
    if !(lx.is(WordClass::Cancel, message) || lx.starts(WordClass::Cancel, message, 12)) {
        return None;
    }
    // "算了，名字叫 bot2": never mind the value said before, here is another one.
    let then_value = lx.words(WordClass::Cancel).iter().any(|w| {
        lower
            .trim_start()
            .strip_prefix(w)
            .is_some_and(|rest| rest.starts_with([',', '，']))
    });
    if then_value && let Some(u) = rules.values_as_correction(message, cx) {
        return Some(u);
    }
    Some(one(
        Command::Cancel {
            scope: CancelScope::Current,
        },
        0.95,
    ))
}

/// "delete omega" waits for its yes, then "hold on, don't delete it, just stop it", "等等 先别删
/// 把它停了就行", "nah cancel that": the waiting task is dropped, never confirmed, and whatever
/// else the message asks is read on its own.
pub fn take_back_waiting(
    rules: &RuleUnderstander,
    input: &Input<'_>,
    cx: &Context<'_>,
) -> Option<Understanding> {
    if !input.yes_no_pending(cx) {
        return None;
    }
    takes_back_waiting(rules, input.message, cx)
}

/// "stop btc-bot" done, then "actually no, leave it running", "算了不停了", "no wait,
/// cancel that", "change it back": with no task open, a message that opens with a retraction, a cancel or
/// a no, and asks for nothing but the change just made, takes that change back. It is a
/// cancel the policy answers with what was done and how to undo it; never another reading
/// of the same words (the trader's status, "nothing in progress").
fn takes_back_what_was_done(message: &str, cx: &Context<'_>) -> bool {
    if cx.top.is_some() || cx.just_done.is_empty() {
        return false;
    }
    let lx = cx.lexicon;
    let lower_message = message.to_lowercase();
    // "change it back", "改回去": asks for exactly the change just made to be reversed.
    if lx.any_in(WordClass::UndoRequest, &lower_message) {
        return true;
    }
    let opens = [WordClass::Retraction, WordClass::Cancel]
        .into_iter()
        .any(|class| lx.any_in(class, &lower_message))
        || lx.is(WordClass::Deny, message)
        || lx.starts(WordClass::Deny, message, 48);
    if !opens {
        return false;
    }
    let lower = message.to_lowercase();
    match route::route(cx.library, &lower, cx.names, cx.lexicon, None) {
        // "算了不停了" says the change again, negated; "no, start beta" is a new request.
        Some(r) if r.has_verb => {
            !r.has_name
                && cx
                    .just_done
                    .iter()
                    .any(|(skill, action)| *skill == r.skill && *action == r.action)
        }
        _ => true,
    }
}

/// The waiting task taken back: its own verb negated ("don't delete", "别删"), or a
/// retraction or cancel word anywhere ("wait no", "nah cancel that"). A cancel, then what
/// the rest of the message asks when it is a request of its own.
fn takes_back_waiting(
    rules: &RuleUnderstander,
    message: &str,
    cx: &Context<'_>,
) -> Option<Understanding> {
    let (skill, action, ..) = cx.top?;
    let lx = cx.lexicon;
    let lower = message.to_lowercase();
    let act = cx.library.action(skill, action)?;
    let negations = lx.words(WordClass::Negation);
    let negated_verb = lx.action_verbs(act).any(|v| {
        let v = v.to_lowercase();
        // "别删" for 删除: a Chinese verb is said by its first character too.
        let short: String = v.chars().take(1).collect();
        let forms = match v.is_ascii() {
            true => vec![v.clone()],
            false => vec![v.clone(), short],
        };
        forms.iter().any(|form| {
            words::phrase_positions(&lower, form)
                .any(|at| words::preceded_by(&lower, at, negations))
        })
    });
    let retracts = [WordClass::Retraction, WordClass::Cancel]
        .into_iter()
        .any(|class| lx.any_in(class, &lower));
    if !negated_verb && !retracts {
        return None;
    }
    // "no wait, make it 20": taking back a value, not the task.
    if !negated_verb
        && let Some(u) = rules.values_as_correction(message, cx)
        && sets_values(&u)
    {
        return Some(u);
    }
    let mut commands = vec![Command::Cancel {
        scope: CancelScope::Current,
    }];
    let free = Context {
        top: None,
        top_name: None,
        top_slots: None,
        engine_question: false,
        interrupted: Vec::new(),
        just_done: Vec::new(),
        last_read: None,
        ..*cx
    };
    let rest = rules.understand_single(message, &free);
    let another = |c: &Command| matches!(c, Command::StartTask { skill: s, action: a, .. } if !(s == skill && a == action));
    if rest.commands.iter().all(another) && !rest.commands.is_empty() {
        commands.extend(rest.commands);
    }
    Some(Understanding {
        commands,
        confidence: 0.9,
        source: CommandSource::Rules,
    })
}

#[cfg(test)]
mod tests {
    use nofxi_protocol::{CancelScope, Command};

    use super::super::testing::{Fixture, run};

    const NONE: &[String] = &[];

    #[test]
    fn cancel_all_claims_only_a_cancel_of_everything() {
        let f = Fixture::new();
        let cx = f.cx();
        let u = run("cancel_all", "cancel everything", &cx);
        assert!(matches!(
            u.map(|u| u.commands).as_deref(),
            Some([Command::Cancel {
                scope: CancelScope::All
            }])
        ),);
        assert!(run("cancel_all", "cancel", &cx).is_none());
    }

    #[test]
    fn a_change_just_made_is_taken_back_only_when_one_was_made() {
        let f = Fixture::new();
        let mut cx = f.cx();
        assert!(run("take_back_done", "算了不停了", &cx).is_none());
        cx.just_done = vec![("trader_management", "stop")];
        assert!(run("take_back_done", "算了不停了", &cx).is_some());
        // "no, start beta" is a new request, not a take-back.
        assert!(run("take_back_done", "no, start alpha", &cx).is_none());
    }

    #[test]
    fn a_bare_cancel_drops_the_current_task() {
        let f = Fixture::new();
        let cx = f.cx();
        let u = run("cancel", "算了", &cx).expect("a cancel");
        assert_eq!(
            u.commands,
            [Command::Cancel {
                scope: CancelScope::Current
            }]
        );
        assert!(run("cancel", "stop alpha", &cx).is_none());
    }

    #[test]
    fn a_waiting_delete_is_dropped_and_the_rest_read_on_its_own() {
        let f = Fixture::new();
        let mut cx = f.cx();
        assert!(run("take_back_waiting", "don't delete it, just stop it", &cx).is_none());
        cx.top = Some(("trader_management", "delete", NONE, true));
        let u = run(
            "take_back_waiting",
            "hold on, don't delete alpha, just stop it",
            &cx,
        )
        .expect("a take-back");
        assert!(
            matches!(u.commands.first(), Some(Command::Cancel { .. })),
            "{u:?}"
        );
        assert!(run("take_back_waiting", "yes", &cx).is_none());
    }
}
