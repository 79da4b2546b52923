//! A yes or a no: to the question that waits ("yes", "不对，我说的是 btc-pro", "可以，不过改成
//! 20吧"), or said bare with nothing asked. A yes confirms only when it is all the message
//! says: "是啊，一直启动不了" is a complaint, "yes, and stop btc-bot" another request.

use nofxi_protocol::{CancelScope, Command, Understanding};
use nofxi_skills::{Library, WordClass};

use super::Input;
use crate::nlu::reply_tone::{self, Tone};
use crate::nlu::words::trim_punct;
use crate::nlu::{Context, RuleUnderstander, one, sets_values, unexplained};

/// "可以，不过改成20吧", "yes but make it 20 instead": the yes comes with a new value, which
/// replaces the one waiting; the change is confirmed anew with it.
pub fn yes_but_new_value(
    rules: &RuleUnderstander,
    input: &Input<'_>,
    cx: &Context<'_>,
) -> Option<Understanding> {
    let lx = cx.lexicon;
    if !input.yes_no_pending(cx) || lx.is(WordClass::Confirm, input.message) {
        return None;
    }
    let rest = after_word(&input.lower, lx.words(WordClass::Confirm))?;
    let rest = after_word(rest, lx.words(WordClass::Contrast))?;
    new_values_for_top(rules, rest, cx)
}

/// A yes or a no to the question that waits; a no that carries a new value corrects it.
pub fn yes_no_to_waiting(
    rules: &RuleUnderstander,
    input: &Input<'_>,
    cx: &Context<'_>,
) -> Option<Understanding> {
    let (lx, message) = (cx.lexicon, input.message);
    if !input.yes_no_pending(cx) {
        return None;
    }
    let waiting = cx.top.map(|(s, a, ..)| (s, a));
    let tone = reply_tone::tone(message, waiting, cx);
    // "嗯 先不停", "ok but don't": a no after a word that is also a yes is a no.
    if tone == Some(Tone::No) {
        return Some(one(Command::Deny, 0.9));
    }
    // A yes and nothing else: "是啊，一直启动不了" is a complaint, "yes, and stop
    // btc-bot" another request; neither confirms what waits, nor does a yes with a no in it.
    if lx.is(WordClass::Confirm, message)
        || lx.starts(WordClass::Confirm, message, 10)
            && !says_a_no(message, cx)
            && unexplained::only_a_yes(message, cx)
    {
        return Some(one(Command::Confirm, 0.95));
    }
    if lx.is(WordClass::Deny, message) {
        return Some(one(Command::Deny, 0.95));
    }
    if lx.starts(WordClass::Deny, message, 24) {
        // "不对，我说的是 btc-pro": a denial that carries a new value is a correction.
        if let Some(u) = rules.values_as_correction(message, cx) {
            return Some(u);
        }
        return Some(one(Command::Deny, 0.9));
    }
    // "ok yes stop", "ok then go": a yes in several words.
    (tone == Some(Tone::Yes)).then(|| one(Command::Confirm, 0.9))
}

/// Whether a no, a cancel or a negation is said anywhere in `message`.
fn says_a_no(message: &str, cx: &Context<'_>) -> bool {
    let lower = message.to_lowercase();
    [WordClass::Deny, WordClass::Cancel, WordClass::Negation]
        .into_iter()
        .any(|class| cx.lexicon.any_in(class, &lower))
}

/// "那不删了", "不用 知道了", "yes go" with no yes/no question waiting: a no drops the task
/// that is open (or says nothing is in progress), a yes is told what it can confirm. Not
/// when the open task asks a yes/no value ("no" is then that value).
pub fn reply_without_question(
    _: &RuleUnderstander,
    input: &Input<'_>,
    cx: &Context<'_>,
) -> Option<Understanding> {
    if input.yes_no_pending(cx) || asks_a_yes_no_value(cx) {
        return None;
    }
    match reply_tone::tone(input.message, cx.top.map(|(s, a, ..)| (s, a)), cx)? {
        Tone::No => Some(one(
            Command::Cancel {
                scope: CancelScope::Current,
            },
            0.8,
        )),
        Tone::Yes => Some(one(Command::Confirm, 0.6)),
    }
}

/// Whether the open task's question is for a yes/no value ("start it right away?").
fn asks_a_yes_no_value(cx: &Context<'_>) -> bool {
    cx.top
        .is_some_and(|(skill, action, asked, _)| asks_yes_no(cx.library, skill, action, asked))
}

/// A bare yes or no is no value ("create a trader" → "no" must not name the trader "no"),
/// unless a yes/no question is asked (start it right away?): no cancels the task, yes shows
/// what it still needs. With nothing open, the policy says nothing is in progress or waits
/// for a confirmation, which tells more than "not understood".
pub fn bare_yes_no(
    _: &RuleUnderstander,
    input: &Input<'_>,
    cx: &Context<'_>,
) -> Option<Understanding> {
    if asks_a_yes_no_value(cx) {
        return None;
    }
    if cx.lexicon.is(WordClass::Deny, input.message) {
        return Some(one(
            Command::Cancel {
                scope: CancelScope::Current,
            },
            0.8,
        ));
    }
    cx.lexicon
        .is(WordClass::Confirm, input.message)
        .then(|| one(Command::Confirm, 0.6))
}

/// What `rest` changes of the open task, read as the message it would be on its own
/// ("改成20分钟吧"): its values, or the same change of the same resource restated.
fn new_values_for_top(
    rules: &RuleUnderstander,
    rest: &str,
    cx: &Context<'_>,
) -> Option<Understanding> {
    let (skill, action, ..) = cx.top?;
    let u = rules.understand_single(rest, cx);
    if sets_values(&u) {
        return Some(u);
    }
    let slots = u.commands.iter().find_map(|c| match c {
        Command::StartTask {
            skill: s,
            action: a,
            slots,
        } if s == skill && a == action => Some(slots.clone()),
        _ => None,
    })?;
    let slots: std::collections::BTreeMap<String, serde_json::Value> =
        slots.into_iter().filter(|(k, _)| k != "target").collect();
    (!slots.is_empty()).then(|| one(Command::SetSlots { slots }, 0.85))
}

/// Whether one of the `asked` slots of the task takes a yes or a no (a boolean).
fn asks_yes_no(library: &Library, skill: &str, action: &str, asked: &[String]) -> bool {
    library.action(skill, action).is_some_and(|a| {
        asked
            .iter()
            .filter_map(|name| a.slot(name))
            .any(|slot| slot.ty == nofxi_skills::SlotType::Boolean)
    })
}

/// The message after the longest of `words` it starts with, without the punctuation between.
fn after_word<'m>(lower: &'m str, words: &[String]) -> Option<&'m str> {
    let m = trim_punct(lower);
    let word = words
        .iter()
        .filter(|w| m.starts_with(w.as_str()))
        .max_by_key(|w| w.len())?;
    let rest = trim_punct(&m[word.len()..]);
    (!rest.is_empty()).then_some(rest)
}

#[cfg(test)]
mod tests {
    use nofxi_protocol::{CancelScope, Command};

    use super::super::testing::{Fixture, run};

    const NONE: &[String] = &[];

    #[test]
    fn a_yes_confirms_what_waits_only_alone() {
        let f = Fixture::new();
        let mut cx = f.cx();
        assert!(run("yes_no_to_waiting", "yes", &cx).is_none());
        cx.top = Some(("trader_management", "delete", NONE, true));
        let yes = run("yes_no_to_waiting", "yes", &cx).expect("a yes");
        assert_eq!(yes.commands, [Command::Confirm]);
        let no = run("yes_no_to_waiting", "no", &cx).expect("a no");
        assert_eq!(no.commands, [Command::Deny]);
        assert!(run("yes_no_to_waiting", "是啊，一直启动不了", &cx).is_none());
    }

    #[test]
    fn a_yes_with_a_new_value_needs_a_contrast_after_the_yes() {
        let f = Fixture::new();
        let mut cx = f.cx();
        cx.top = Some(("trader_management", "update", NONE, true));
        assert!(run("yes_but_new_value", "yes", &cx).is_none());
        assert!(run("yes_but_new_value", "yes, and stop alpha", &cx).is_none());
    }

    #[test]
    fn a_bare_no_with_nothing_asked_cancels() {
        let f = Fixture::new();
        let cx = f.cx();
        let u = run("bare_yes_no", "no", &cx).expect("a no");
        assert_eq!(
            u.commands,
            [Command::Cancel {
                scope: CancelScope::Current
            }]
        );
        let u = run("bare_yes_no", "yes", &cx).expect("a yes");
        assert_eq!(u.commands, [Command::Confirm]);
        assert!(run("bare_yes_no", "stop alpha", &cx).is_none());
    }
}
