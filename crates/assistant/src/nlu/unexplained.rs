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

use super::route::DIAGNOSE;
use std::collections::BTreeMap;

use nofxi_protocol::{Command, CommandSource, Understanding};
use nofxi_skills::{Lang, Risk, SlotType, WordClass};
use serde_json::Value;

use super::Context;
use super::asks::is_request_put_as_question;
use super::route::quoted_spans;
use super::words::{find_phrase, phrase_positions, trim_punct};
use crate::phrasing::{self, OtherReading, msg};

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
    Deliberation,
    /// Words nothing nofxi knows explains ([`super::coverage`]): what they add is unknown.
    Unclaimed,
}

/// Below [`super::CONFIDENCE_THRESHOLD`]: a model, when set, reads the message instead.
const HELD_BACK: f32 = 0.3;

/// The classes found anywhere in what the reading leaves, each with its kind.
const FOUND_ANYWHERE: [(WordClass, Unexplained); 5] = [
    (WordClass::Condition, Unexplained::Condition),
    (WordClass::Reported, Unexplained::Reported),
    (WordClass::Deliberation, Unexplained::Deliberation),
    // "would it be smart to start eth-bot", "该不该删": asks about the change, never for it.
    (WordClass::Hypothetical, Unexplained::Deliberation),
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
    let scan = Scan::new(&message.to_lowercase(), reading, cx);
    let mut out: Vec<Unexplained> = FOUND_ANYWHERE
        .iter()
        .filter(|(class, _)| scan.words_of(*class).next().is_some())
        .map(|(_, kind)| *kind)
        .collect();
    if scan.negates_the_verb() {
        out.push(Unexplained::Negation);
    }
    if scan.retracted() {
        out.push(Unexplained::Retraction);
    }
    if scan.asks() {
        out.push(Unexplained::Question);
    }
    if yes_before_request(message, cx) {
        out.push(Unexplained::YesBeforeRequest);
    }
    out.sort();
    out
}

/// The message as the reading leaves it: the user's names and quoted text blanked, and the
/// spans the reading's own words cover (its action's slot phrases, the answers to what was
/// asked, the
/// lexicon's off phrases: "don't trade" is an exclusion list, "不要启动" a create's "no"). A word of a class
/// inside such a span is explained; a phrase inside a word of a class ("叫" in "有人叫") is not.
struct Scan<'a> {
    text: String,
    explained: Vec<(usize, usize)>,
    action: Option<&'a nofxi_skills::Action>,
    slots: Option<&'a BTreeMap<String, Value>>,
    cx: &'a Context<'a>,
}

impl<'a> Scan<'a> {
    fn new(lower: &str, reading: Option<Reading<'a>>, cx: &'a Context<'a>) -> Scan<'a> {
        let mut text = lower.to_string();
        let blank = super::extract::tokens::blank;
        for (_, from, to) in cx.names.mentioned(lower) {
            blank(&mut text, from, to);
        }
        for (from, to) in quoted_spans(lower) {
            blank(&mut text, from, to);
        }
        let action = reading.and_then(|(skill, action, _)| cx.library.action(skill, action));
        let slot_phrases = action
            .into_iter()
            .flat_map(|a| a.slots.iter())
            .flat_map(|s| s.phrases.iter())
            .map(|p| p.to_lowercase());
        let off = cx.lexicon.words(WordClass::OffPhrase).iter().cloned();
        // The answer to what the task asked is its own: "later" given as the key asked for
        // is a (refused) key, not a time. A value read from a request is not: "create
        // strategy if" names nothing "if".
        let asked = cx.top.map_or(&[][..], |t| t.2);
        let values = reading
            .into_iter()
            .flat_map(|(_, _, slots)| slots.iter())
            .filter(|(name, _)| asked.contains(name))
            .filter_map(|(_, v)| v.as_str())
            .map(str::to_lowercase);
        let explained = slot_phrases
            .chain(off)
            .chain(values)
            .flat_map(|p| {
                let len = p.len();
                phrase_positions(&text, &p)
                    .map(|at| (at, at + len))
                    .collect::<Vec<_>>()
            })
            .collect();
        Scan {
            text,
            explained,
            action,
            slots: reading.map(|(_, _, slots)| slots),
            cx,
        }
    }

    /// Where the words of `class` occur outside what the reading explains: (start, word).
    fn words_of(&self, class: WordClass) -> impl Iterator<Item = (usize, &str)> + '_ {
        self.cx.lexicon.words(class).iter().flat_map(move |w| {
            phrase_positions(&self.text, w)
                .filter(move |&at| {
                    !self
                        .explained
                        .iter()
                        .any(|&(from, to)| from <= at && at + w.len() <= to)
                })
                .map(move |at| (at, w.as_str()))
        })
    }

    /// A negation that governs the reading's verb: its clause goes on with a verb of the
    /// action and without a phrase of a yes/no slot the reading set. "stop alpha, not beta"
    /// negates no verb; "don't enable bollinger" is bollinger off; "I don't want to stop
    /// btc-bot" negates the stop. Without a reading, every negation counts.
    fn negates_the_verb(&self) -> bool {
        let Some(action) = self.action else {
            return self.words_of(WordClass::Negation).next().is_some();
        };
        let set = |name: &str| {
            self.slots
                .and_then(|s| s.get(name))
                .is_some_and(Value::is_boolean)
        };
        let settings: Vec<String> = action
            .slots
            .iter()
            .filter(|s| s.ty == SlotType::Boolean && set(&s.name))
            .flat_map(|s| s.phrases.iter().map(|p| p.to_lowercase()))
            .collect();
        let verbs: Vec<String> = action.verbs.iter().map(|v| v.to_lowercase()).collect();
        let said =
            |clause: &str, words: &[String]| words.iter().any(|w| find_phrase(clause, w).is_some());
        self.words_of(WordClass::Negation).any(|(at, w)| {
            let end = at + w.len();
            let clause_end = self.text[end..]
                .find(ends_clause)
                .map_or(self.text.len(), |i| end + i);
            let clause = &self.text[end..clause_end];
            said(clause, &verbs) && !said(clause, &settings)
        })
    }

    /// A retraction word after the start, or a later clause that is only a no or a cancel.
    fn retracted(&self) -> bool {
        let lx = self.cx.lexicon;
        let start = self.text.len() - self.text.trim_start().len();
        let later_word = self
            .words_of(WordClass::Retraction)
            .any(|(at, _)| at > start);
        let later_clause = self
            .text
            .split(ends_clause)
            .map(trim_punct)
            .filter(|c| !c.is_empty())
            .skip(1)
            .any(|c| lx.is(WordClass::Deny, c) || lx.is(WordClass::Cancel, c));
        later_word || later_clause
    }

    /// A question word, or a question mark; a request put politely as a question ("can you
    /// stop alpha?", "能帮我停掉 alpha 吗") keeps its closing mark or particle, it still asks
    /// for the action.
    fn asks(&self) -> bool {
        let text = self.text.as_str();
        let polite = is_request_put_as_question(text, self.cx.lexicon);
        let closing = trim_punct(text);
        // "can" of "can you stop alpha" is the polite request's, not a question of its own.
        let polite_spans: Vec<(usize, usize)> = self
            .words_of(WordClass::PoliteRequest)
            .map(|(at, w)| (at, at + w.len()))
            .collect();
        let in_polite = |at: usize| polite_spans.iter().any(|&(from, to)| from <= at && at < to);
        self.words_of(WordClass::Question).any(|(at, w)| {
            if in_polite(at) {
                return false;
            }
            let mark = w.chars().all(|c| !c.is_alphanumeric());
            let particle_at_end = closing.ends_with(w) && !w.is_ascii();
            // "stop btc-bot? no.": a mark before more words asks, however politely.
            let mark_inside = mark && text[at + w.len()..].chars().any(char::is_alphanumeric);
            !polite || mark_inside || !(mark || particle_at_end)
        })
    }
}

/// Where a clause ends: what splits "stop btc-bot? no." into a request and its retraction.
fn ends_clause(c: char) -> bool {
    matches!(
        c,
        ',' | '.' | '!' | '?' | ';' | '，' | '。' | '！' | '？' | '；' | '…' | '、'
    )
}

/// While a yes/no question waits, a message that opens with a yes and goes on with more.
fn yes_before_request(message: &str, cx: &Context<'_>) -> bool {
    let waits = cx.engine_question || cx.top.is_some_and(|t| t.3);
    let lx = cx.lexicon;
    waits
        && lx.starts(WordClass::Confirm, message, usize::MAX)
        && !lx.is(WordClass::Confirm, message)
        && !yes_but(message, cx)
}

/// "可以，不过改成20", "yes but make it 20": a yes with a contrast right after it says what
/// to change of what waits; the new value is confirmed anew, so the yes asks nothing.
fn yes_but(message: &str, cx: &Context<'_>) -> bool {
    let lx = cx.lexicon;
    let lower = super::words::trim_punct(message).to_lowercase();
    lx.words(WordClass::Confirm)
        .iter()
        .filter_map(|w| lower.strip_prefix(w.as_str()))
        .any(|rest| {
            let rest = super::words::trim_punct(rest);
            lx.words(WordClass::Contrast)
                .iter()
                .any(|c| rest.starts_with(c.as_str()))
        })
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

/// "ok go ahead and delete it", "是的，删掉它吧" while that delete waits for its yes: the
/// request after the yes is the one waiting, of the same resource and with no value of its
/// own, so the yes confirms it.
fn says_what_waits(
    cx: &Context<'_>,
    skill: &str,
    action: &str,
    slots: &BTreeMap<String, Value>,
) -> bool {
    let Some((top_skill, top_action, _, true)) = cx.top else {
        return false;
    };
    let waiting = cx
        .top_slots
        .and_then(|m| m.get("target"))
        .and_then(Value::as_str);
    let same_target = match slots.get("target").and_then(Value::as_str) {
        None => true,
        Some(t) => waiting.is_some_and(|w| w.eq_ignore_ascii_case(t)),
    };
    top_skill == skill && top_action == action && same_target && slots.keys().all(|k| k == "target")
}

/// The reading, or, when it would change something the message leaves in doubt, one question
/// offering the readings (after the status of the named resource, for a question).
pub fn account_for(u: Understanding, message: &str, cx: &Context<'_>) -> Understanding {
    // A waiting task taken back ("先别删 把它停了就行"): the negation and the retraction are
    // the cancel's words; what follows it is a request of its own.
    if matches!(u.commands.first(), Some(Command::Cancel { .. })) {
        return u;
    }
    let Some((skill, action, slots)) = u.commands.iter().find_map(|c| changes(c, cx)) else {
        return u;
    };
    let target = slots.get("target").and_then(Value::as_str);
    let mut found = unexplained(message, Some((skill, action, slots)), cx);
    let unclaimed = match found.is_empty() {
        true => super::coverage::unclaimed(message, &super::coverage::values_of(&u.commands), cx),
        false => Vec::new(),
    };
    if !unclaimed.is_empty() {
        found.push(Unexplained::Unclaimed);
    }
    let lang = Lang::detect(message);
    let Some(&first) = found.first() else {
        let reading = (skill.to_string(), action.to_string(), slots.clone());
        return name_unplaced(u, message, (&reading.0, &reading.1, &reading.2), cx);
    };
    if found == [Unexplained::YesBeforeRequest] && says_what_waits(cx, skill, action, slots) {
        return Understanding {
            commands: vec![Command::Confirm],
            confidence: 0.9,
            source: CommandSource::Rules,
        };
    }
    let act = act_phrase(cx, skill, action, target, lang);
    if cx.top.is_none() && asks_about_effects(&found, message, cx, skill, action) {
        return effects_then_ask(&u, (skill, action, slots), act, lang);
    }
    let other = match first {
        Unexplained::YesBeforeRequest => OtherReading::EarlierQuestion,
        Unexplained::Retraction
        | Unexplained::Negation
        | Unexplained::Reported
        | Unexplained::Deliberation => OtherReading::LeaveIt,
        Unexplained::Condition => OtherReading::NotNow,
        Unexplained::Complaint | Unexplained::Question => OtherReading::LookFirst,
        Unexplained::Unclaimed => OtherReading::Unsure,
    };
    let (mut commands, options) = look_first(cx, (skill, target), other, &act, lang);
    let question = match other {
        OtherReading::Unsure => msg(
            lang,
            "dialogue-unsure-words",
            &[("words", &unclaimed.join(" / ")), ("act", &act)],
        ),
        other => phrasing::other_reading(lang, &act, other),
    };
    commands.push(Command::Clarify { question, options });
    Understanding {
        commands,
        confidence: HELD_BACK.min(u.confidence),
        source: CommandSource::Rules,
    }
}

/// "what happens if I delete btc-bot?", "should I stop alpha?", "停了 alpha 会平仓吗": what the
/// change would do, from its skill's declared effects; then one question.
fn effects_then_ask(
    u: &Understanding,
    (skill, action, slots): Reading<'_>,
    act: String,
    lang: Lang,
) -> Understanding {
    let question = msg(lang, "dialogue-unsure", &[("act", &act)]);
    Understanding {
        commands: vec![
            Command::ExplainEffects {
                skill: skill.to_string(),
                action: action.to_string(),
                slots: slots.clone(),
            },
            Command::Clarify {
                question,
                options: vec![act],
            },
        ],
        confidence: HELD_BACK.min(u.confidence),
        source: CommandSource::Rules,
    }
}

/// What is done before asking (a question about a named resource looks at it first), and the
/// readings offered: the action, and a look at its target.
fn look_first(
    cx: &Context<'_>,
    (skill, target): (&str, Option<&str>),
    other: OtherReading,
    act: &str,
    lang: Lang,
) -> (Vec<Command>, Vec<String>) {
    let mut commands = Vec::new();
    let mut options = vec![act.to_string()];
    // "why did btc-bot stop": the question is answered by the resource's diagnosis where its
    // skill has one, else with its status; only acting waits.
    let look = Some(DIAGNOSE)
        .filter(|a| cx.library.action(skill, a).is_some())
        .or_else(|| cx.library.action(skill, "query").map(|_| "query"));
    if other == OtherReading::LookFirst
        && cx.top.is_none()
        && let Some(target) = target
        && let Some(look) = look
    {
        let slots = [("target".to_string(), Value::String(target.to_string()))];
        commands.push(Command::StartTask {
            skill: skill.to_string(),
            action: look.into(),
            slots: slots.into_iter().collect(),
        });
    }
    // "I am not sure what “pls” means. Do you want me to stop eth-bot?" asks yes or no: its one
    // option is what a yes does (the policy keeps it for the yes).
    if other != OtherReading::Unsure
        && let Some(look) =
            target.and_then(|t| verb_of(cx, skill, "query", lang).map(|v| format!("{v} {t}")))
    {
        options.push(look);
    }
    (commands, options)
}

/// Whether the message asks what a change would do rather than asking for it: an opinion
/// sought ("should I …", "你觉得该不该"), a what-if (a condition put as a question), or a
/// question that is not about why something happened; and the action declares its effects.
fn asks_about_effects(
    found: &[Unexplained],
    message: &str,
    cx: &Context<'_>,
    skill: &str,
    action: &str,
) -> bool {
    let declared = cx
        .library
        .action(skill, action)
        .is_some_and(|a| a.effects.is_some());
    let lower = message.to_lowercase();
    let asks = found.contains(&Unexplained::Question);
    let why = cx.lexicon.any_in(WordClass::CauseQuestion, &lower);
    // "要不要停掉 alpha" holds "不要": the question word, not a negation of the verb.
    let hypothetical = cx.lexicon.any_in(WordClass::Hypothetical, &lower);
    let blocked = found.iter().any(|u| match u {
        Unexplained::Negation => !hypothetical,
        Unexplained::Retraction | Unexplained::YesBeforeRequest => true,
        _ => false,
    });
    declared
        && !blocked
        && !why
        && (hypothetical || asks || found.contains(&Unexplained::Deliberation))
}

/// The reading, or, when a number of the message is not placed in it ("give it 2.5k" with no
/// phrase for the balance), one question naming that number and the settings it could be:
/// the money a user sets is never replaced by a default in silence. Each option is the
/// message again with the setting said, so a yes to a single option runs it.
fn name_unplaced(
    u: Understanding,
    message: &str,
    (skill, action, slots): Reading<'_>,
    cx: &Context<'_>,
) -> Understanding {
    let Some(act) = cx.library.action(skill, action) else {
        return u;
    };
    // A change that took no value at all ("set lev leverage to 500", "保守策略改成 3 个")
    // already asks what to change, listing what can: that says more than one number's guess.
    if act.risk == Risk::Update && slots.keys().all(|k| k == "target") {
        return u;
    }
    let Some(first) = super::unplaced::unplaced(message, act, slots, cx)
        .into_iter()
        .next()
    else {
        return u;
    };
    let lang = Lang::detect(message);
    let separator = msg(lang, "clause-separator", &[]);
    let options: Vec<String> = first
        .candidates
        .iter()
        .filter_map(|slot| super::unplaced::setting_said(act, slot, &first.value, lang))
        .map(|said| format!("{}{separator}{said}", super::words::trim_punct(message)))
        .collect();
    let label = |slot: &String| {
        act.slot(slot)
            .map_or(slot.clone(), |s| s.label().get(lang).to_string())
    };
    let question = match first.candidates.as_slice() {
        [one] => msg(
            lang,
            "unplaced-one",
            &[("number", &first.said), ("setting", &label(one))],
        ),
        some if (2..=MAX_OFFERED).contains(&some.len()) => {
            let settings: Vec<String> = some.iter().map(label).collect();
            let settings = settings.join(&msg(lang, "list-separator", &[]));
            msg(
                lang,
                "unplaced-some",
                &[("number", &first.said), ("settings", &settings)],
            )
        }
        _ => msg(lang, "unplaced-none", &[("number", &first.said)]),
    };
    let options = match options.len() {
        1..=MAX_OFFERED => options,
        _ => Vec::new(),
    };
    Understanding {
        commands: vec![Command::Clarify { question, options }],
        confidence: HELD_BACK.min(u.confidence),
        source: CommandSource::Rules,
    }
}

/// More settings than this for one number are not listed: the user names the one meant.
const MAX_OFFERED: usize = 4;

/// The reading of a command that would change something: a risky task started, or values
/// given to the active task when its action is risky ("yes, and start beta" while "start
/// delta" waits retargets that start to beta).
fn changes<'c>(c: &'c Command, cx: &'c Context<'_>) -> Option<Reading<'c>> {
    let (skill, action, slots) = match c {
        Command::StartTask {
            skill,
            action,
            slots,
        } => (skill.as_str(), action.as_str(), slots),
        Command::SetSlots { slots } => {
            let (skill, action, ..) = cx.top?;
            (skill, action, slots)
        }
        _ => return None,
    };
    let risky = cx
        .library
        .action(skill, action)
        .is_some_and(|a| !a.risk.is_read_only());
    risky.then_some((skill, action, slots))
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
        _ => phrasing::task_label(cx.library, skill, action, lang),
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
            uses: Vec::new(),
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
            top_slots: None,
            engine_question: false,
            current: &none,
            it_kind: None,
            interrupted: Vec::new(),
            just_done: Vec::new(),
            last_read: None,
            last_request: None,
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
                    || matches!(c, Command::StartTask { action, .. }
                        if action != "query" && action != "diagnose")
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
    fn a_question_is_answered_with_the_diagnosis_and_the_action_offered() {
        let u = read("why did btc-bot stop", false);
        let [
            Command::StartTask { action, slots, .. },
            Command::Clarify { options, .. },
        ] = u.commands.as_slice()
        else {
            panic!("{u:?}");
        };
        assert_eq!(action, "diagnose");
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
