//! A reading accounts for the whole message (issue 24, "never confidently wrong").
//!
//! The router finds a verb and a name; the rest of the message may say the opposite of acting
//! on them: a question ("why did btc-bot stop"), a negation that governs the verb from afar
//! ("I don't want to stop btc-bot"), a retraction after it ("stop alpha… actually no"), a
//! condition or a time ("if the market crashes …", "remind me … tomorrow"), someone else's
//! words ("I was told to …"), a complaint ("一直启动不了"), or a yes in front of a new request
//! while a question waits. Each is a word class of the lexicon; this module finds the ones the
//! reading leaves unexplained (the user's names, quoted text and the action's own slot phrases
//! are the reading's, so "don't trade" as an exclusion list explains its "don't").
//!
//! [`account_for`] holds back any reading that would change something (an action whose risk
//! is not `query`) when such words are left: it becomes one question offering the readings,
//! with a confidence below the threshold, so a configured model is asked instead and, without
//! one, nothing runs and no confirmation is opened. A question about a named resource is still
//! answered with its status first (reading is never risky).

use std::collections::BTreeMap;

use nofxi_protocol::{Command, CommandSource, Understanding};
use nofxi_skills::{Lang, SlotType, WordClass};
use serde_json::Value;

use super::Context;
use super::route::{is_request_put_as_question, quoted_spans};
use super::words::{find_phrase, phrase_positions, trim_punct};
use crate::texts::{self, OtherReading};

/// What the message says beside the request, in the order a reply weighs them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Unexplained {
    /// A yes in front of a request while a question waits: which one is meant?
    YesBeforeRequest,
    Retraction,
    Negation,
    Reported,
    Condition,
    Complaint,
    Question,
}

/// Below [`super::CONFIDENCE_THRESHOLD`]: a model, when set, reads the message instead.
const HELD_BACK: f32 = 0.3;

/// The classes found anywhere in what the reading leaves, each with its kind.
const FOUND_ANYWHERE: [(WordClass, Unexplained); 4] = [
    (WordClass::Negation, Unexplained::Negation),
    (WordClass::Condition, Unexplained::Condition),
    (WordClass::Reported, Unexplained::Reported),
    (WordClass::Complaint, Unexplained::Complaint),
];

/// A reading of a message as a request: its skill, action and the slots it read.
pub type Reading<'r> = (&'r str, &'r str, &'r BTreeMap<String, Value>);

/// What `message` says that `reading` (when given) does not explain.
pub fn unexplained(
    message: &str,
    reading: Option<Reading<'_>>,
    cx: &Context<'_>,
) -> Vec<Unexplained> {
    let lower = message.to_lowercase();
    let text = unexplained_text(&lower, reading, cx);
    let lx = cx.lexicon;
    let mut out: Vec<Unexplained> = FOUND_ANYWHERE
        .iter()
        .filter(|(class, _)| {
            lx.words(*class)
                .iter()
                .any(|w| find_phrase(&text, w).is_some())
        })
        .map(|(_, kind)| *kind)
        .collect();
    if retracted(&text, cx) {
        out.push(Unexplained::Retraction);
    }
    if asks(&text, cx) {
        out.push(Unexplained::Question);
    }
    if yes_before_request(message, cx) {
        out.push(Unexplained::YesBeforeRequest);
    }
    out.sort();
    out
}

/// `lower` with what the reading explains blanked: the user's names, quoted text, a negation
/// of a yes/no setting the reading set ("don't enable bollinger" is bollinger off), the
/// action's slot phrases and the lexicon's off phrases ("不要启动" is a create's "no").
fn unexplained_text(lower: &str, reading: Option<Reading<'_>>, cx: &Context<'_>) -> String {
    let mut text = lower.to_string();
    let blank = super::extract::tokens::blank;
    for (_, from, to) in cx.names.mentioned(lower) {
        blank(&mut text, from, to);
    }
    for (from, to) in quoted_spans(lower) {
        blank(&mut text, from, to);
    }
    let action = reading.and_then(|(skill, action, _)| cx.library.action(skill, action));
    if let (Some(action), Some((_, _, slots))) = (action, reading) {
        blank_negations_off_the_verb(&mut text, action, slots, cx);
    }
    let slot_phrases = action
        .into_iter()
        .flat_map(|a| a.slots.iter())
        .flat_map(|s| s.phrases.iter())
        .map(|p| p.to_lowercase());
    let off = cx.lexicon.words(WordClass::OffPhrase).iter().cloned();
    let mut phrases: Vec<String> = slot_phrases.chain(off).collect();
    // The longest first: "don't trade" is blanked before a shorter phrase inside it.
    phrases.sort_by_key(|p| std::cmp::Reverse(p.len()));
    for p in phrases {
        while let Some(at) = find_phrase(&text, &p) {
            blank(&mut text, at, at + p.len());
        }
    }
    text
}

/// Blanks each negation that does not govern the reading's verb: one whose clause goes on
/// without a verb of the action ("stop alpha, not beta"), or with a phrase of a yes/no slot
/// the reading set ("don't enable bollinger" is bollinger off). "I don't want to stop
/// btc-bot" keeps its "don't": the stop is what it negates.
fn blank_negations_off_the_verb(
    text: &mut String,
    action: &nofxi_skills::Action,
    slots: &BTreeMap<String, Value>,
    cx: &Context<'_>,
) {
    let settings: Vec<String> = action
        .slots
        .iter()
        .filter(|s| s.ty == SlotType::Boolean && slots.get(&s.name).is_some_and(Value::is_boolean))
        .flat_map(|s| s.phrases.iter().map(|p| p.to_lowercase()))
        .collect();
    let verbs: Vec<String> = action.verbs.iter().map(|v| v.to_lowercase()).collect();
    let in_clause =
        |clause: &str, words: &[String]| words.iter().any(|w| find_phrase(clause, w).is_some());
    let mut explained = Vec::new();
    for negation in cx.lexicon.words(WordClass::Negation) {
        for at in phrase_positions(text, negation) {
            let end = at + negation.len();
            let clause_end = text[end..]
                .find(ends_clause)
                .map_or(text.len(), |i| end + i);
            let clause = &text[end..clause_end];
            if in_clause(clause, &settings) || !in_clause(clause, &verbs) {
                explained.push((at, end));
            }
        }
    }
    for (from, to) in explained {
        super::extract::tokens::blank(text, from, to);
    }
}

/// Where a clause ends: what splits "stop btc-bot? no." into a request and its retraction.
fn ends_clause(c: char) -> bool {
    matches!(
        c,
        ',' | '.' | '!' | '?' | ';' | '，' | '。' | '！' | '？' | '；' | '…' | '、'
    )
}

/// A retraction word after the start, or a later clause that is only a no or a cancel.
fn retracted(text: &str, cx: &Context<'_>) -> bool {
    let lx = cx.lexicon;
    let start = text.len() - text.trim_start().len();
    let later_word = lx
        .words(WordClass::Retraction)
        .iter()
        .any(|w| find_phrase(text, w).is_some_and(|at| at > start));
    let later_clause = text
        .split(ends_clause)
        .map(trim_punct)
        .filter(|c| !c.is_empty())
        .skip(1)
        .any(|c| lx.is(WordClass::Deny, c) || lx.is(WordClass::Cancel, c));
    later_word || later_clause
}

/// A question word, or a question mark; a request put politely as a question ("can you stop
/// alpha?", "能帮我停掉 alpha 吗") keeps its closing mark or particle, it still asks for the action.
fn asks(text: &str, cx: &Context<'_>) -> bool {
    let polite = is_request_put_as_question(text);
    let closing = trim_punct(text);
    cx.lexicon.words(WordClass::Question).iter().any(|w| {
        let Some(at) = find_phrase(text, w) else {
            return false;
        };
        let mark = w.chars().all(|c| !c.is_alphanumeric());
        let particle_at_end = closing.ends_with(w.as_str()) && !w.is_ascii();
        // "stop btc-bot? no.": a mark before more words asks, however politely.
        let mark_inside = mark && text[at + w.len()..].chars().any(char::is_alphanumeric);
        !polite || mark_inside || !(mark || particle_at_end)
    })
}

/// While a yes/no question waits, a message that opens with a yes and goes on with more.
fn yes_before_request(message: &str, cx: &Context<'_>) -> bool {
    let waits = cx.engine_question || cx.top.is_some_and(|t| t.3);
    let lx = cx.lexicon;
    waits
        && lx.starts(WordClass::Confirm, message, usize::MAX)
        && !lx.is(WordClass::Confirm, message)
}

/// Whether `message`, opening with a yes while a question waits, is that yes and nothing else:
/// no word the yes leaves unexplained, no name (another target) and no other action's verb.
/// "是啊，一直启动不了" is a complaint, "yes, and stop btc-bot" another request.
pub fn only_a_yes(message: &str, cx: &Context<'_>) -> bool {
    let lower = message.to_lowercase();
    let foreign = cx.top.is_some_and(|(skill, action, ..)| {
        super::route::has_foreign_verb(cx.library, &lower, skill, action)
    });
    let others = unexplained(message, None, cx);
    others.iter().all(|u| *u == Unexplained::YesBeforeRequest)
        && cx.names.mentioned(&lower).is_empty()
        && !foreign
}

/// The reading, or, when it would change something the message leaves in doubt, one question
/// offering the readings (after the status of the named resource, for a question).
pub fn account_for(u: Understanding, message: &str, cx: &Context<'_>) -> Understanding {
    let Some((skill, action, slots)) = u.commands.iter().find_map(|c| changes(c, cx)) else {
        return u;
    };
    let target = slots.get("target").and_then(Value::as_str);
    let found = unexplained(message, Some((skill, action, slots)), cx);
    let Some(&first) = found.first() else {
        return u;
    };
    let lang = Lang::detect(message);
    let act = act_phrase(cx, skill, action, target, lang);
    let other = match first {
        Unexplained::YesBeforeRequest => OtherReading::EarlierQuestion,
        Unexplained::Retraction | Unexplained::Negation | Unexplained::Reported => {
            OtherReading::LeaveIt
        }
        Unexplained::Condition => OtherReading::NotNow,
        Unexplained::Complaint | Unexplained::Question => OtherReading::LookFirst,
    };
    let mut commands = Vec::new();
    let mut options = vec![act.clone()];
    // "why did btc-bot stop": the question is answered with the status; only acting waits.
    if other == OtherReading::LookFirst
        && cx.top.is_none()
        && let Some(target) = target
        && cx.library.action(skill, "query").is_some()
    {
        let slots = [("target".to_string(), Value::String(target.to_string()))];
        commands.push(Command::StartTask {
            skill: skill.to_string(),
            action: "query".into(),
            slots: slots.into_iter().collect(),
        });
    }
    if let Some(look) =
        target.and_then(|t| verb_of(cx, skill, "query", lang).map(|v| format!("{v} {t}")))
    {
        options.push(look);
    }
    let question = texts::other_reading(lang, &act, other);
    commands.push(Command::Clarify { question, options });
    Understanding {
        commands,
        confidence: HELD_BACK.min(u.confidence),
        source: CommandSource::Rules,
    }
}

/// The reading of a command that would change something.
fn changes<'c>(c: &'c Command, cx: &Context<'_>) -> Option<Reading<'c>> {
    let Command::StartTask {
        skill,
        action,
        slots,
    } = c
    else {
        return None;
    };
    let risky = cx
        .library
        .action(skill, action)
        .is_some_and(|a| !a.risk.is_read_only());
    risky.then_some((skill.as_str(), action.as_str(), slots))
}

/// "start live-bot", "启动 live1": the action's first verb in `lang`, then its target; the
/// action's label when there is no target.
fn act_phrase(
    cx: &Context<'_>,
    skill: &str,
    action: &str,
    target: Option<&str>,
    lang: Lang,
) -> String {
    match (verb_of(cx, skill, action, lang), target) {
        (Some(verb), Some(target)) => format!("{verb} {target}"),
        _ => texts::task_label(cx.library, skill, action, lang),
    }
}

fn verb_of(cx: &Context<'_>, skill: &str, action: &str, lang: Lang) -> Option<String> {
    cx.library
        .action(skill, action)?
        .verbs
        .iter()
        .find(|v| Lang::detect(v) == lang)
        .cloned()
}

#[cfg(test)]
mod tests {
    use nofxi_skills::{Library, ResourceKind};

    use super::*;
    use crate::nlu::RuleUnderstander;
    use crate::nlu::lexicon::Lexicon;
    use crate::nlu::names::{NameEntry, Names};

    fn trader(name: &str) -> NameEntry {
        NameEntry {
            kind: ResourceKind::Trader,
            id: format!("id-{name}"),
            name: name.into(),
            lower: name.into(),
            class: None,
            enabled: true,
            live: false,
            testnet: false,
            running: true,
            deleted: false,
        }
    }

    /// How the rules read `message` with no task open, on traders btc-bot and alpha.
    fn read(message: &str, awaiting: bool) -> Understanding {
        let library = Library::builtin().unwrap();
        let lexicon = Lexicon::from_library(&library);
        let names = Names::new(vec![trader("btc-bot"), trader("alpha")]);
        let none = |_| None;
        let asked: Vec<String> = Vec::new();
        let cx = Context {
            library: &library,
            lexicon: &lexicon,
            names: &names,
            top: awaiting.then_some(("trader_management", "delete", asked.as_slice(), true)),
            top_name: None,
            engine_question: false,
            current: &none,
            it_kind: None,
            interrupted: Vec::new(),
        };
        RuleUnderstander.understand_now(message, &cx)
    }

    fn held_back(u: &Understanding) -> bool {
        u.confidence < crate::nlu::CONFIDENCE_THRESHOLD
            && u.commands
                .iter()
                .any(|c| matches!(c, Command::Clarify { .. }))
            && !u.commands.iter().any(|c| {
                matches!(c, Command::Confirm)
                    || matches!(c, Command::StartTask { action, .. } if action != "query")
            })
    }

    #[test]
    fn each_kind_of_unexplained_word_holds_a_stop_back() {
        for message in [
            "I don't want to stop btc-bot",
            "stop btc-bot? no.",
            "stop btc-bot, just kidding",
            "if the market crashes stop btc-bot",
            "remind me to stop btc-bot tomorrow",
            "I was told to stop btc-bot but I disagree",
            "why did btc-bot stop",
            "停止 btc-bot？算了",
            "停止alpha……算了不停了",
        ] {
            let u = read(message, false);
            assert!(held_back(&u), "{message}: {u:?}");
        }
    }

    #[test]
    fn a_question_is_answered_with_the_status_and_the_action_offered() {
        let u = read("why did btc-bot stop", false);
        let [
            Command::StartTask { action, slots, .. },
            Command::Clarify { options, .. },
        ] = u.commands.as_slice()
        else {
            panic!("{u:?}");
        };
        assert_eq!(action, "query");
        assert_eq!(slots.get("target"), Some(&Value::String("btc-bot".into())));
        assert_eq!(options, &["stop btc-bot", "show btc-bot"]);
    }

    #[test]
    fn a_plain_or_polite_request_and_a_negation_of_something_else_still_act() {
        for message in [
            "stop btc-bot",
            "can you stop btc-bot?",
            "能帮我停掉 btc-bot 吗？",
            "stop alpha, not btc-bot",
        ] {
            let u = read(message, false);
            assert!(!held_back(&u), "{message}: {u:?}");
            assert!(
                u.confidence >= crate::nlu::CONFIDENCE_THRESHOLD,
                "{message}"
            );
        }
    }

    #[test]
    fn a_yes_is_a_yes_only_alone() {
        assert_eq!(read("yes", true).commands, [Command::Confirm]);
        assert_eq!(read("好的，删吧", true).commands, [Command::Confirm]);
        for message in [
            "是啊，一直启动不了",
            "yes, and stop btc-bot",
            "ok stop alpha",
        ] {
            let u = read(message, true);
            assert!(!u.commands.contains(&Command::Confirm), "{message}: {u:?}");
            assert!(
                !u.commands
                    .iter()
                    .any(|c| matches!(c, Command::StartTask { action, .. } if action != "query")),
                "{message}: {u:?}"
            );
        }
    }
}
