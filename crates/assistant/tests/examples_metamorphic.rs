#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Every example of every SKILL.md, said the ways a user would not think change anything — a
//! polite word, a greeting first, a trailing thanks, another sentence end, upper or title
//! case, full-width or half-width characters, other spacing, a filler word, one typo in a long
//! word — must read as the same skill, action and slots as the example says (issue: the
//! metamorphic test of the rules). `docs/metamorphic.md` holds the measured table and what
//! the failures are.
//!
//! How a message is read:
//! - an example said with no task in progress goes through [`Assistant::read_message`], the
//!   rules exactly as a turn runs them (width, spacing and a sentence's end folded first), on
//!   a store holding the resources the example names;
//! - an example said inside a conversation (`context:` a current resource or an open task)
//!   goes to [`RuleUnderstander::understand_now`] with that context built by hand:
//!   `read_message` always starts a new conversation. The folding before the rules is
//!   crate-private, so the rewrites that only the folding makes harmless (full width, double
//!   spaces, a closing `.` or `!`) are not tried there.
//!
//! The words of slot values are never rewritten: an upper-cased name is another name, a
//! full-width key another key. Numbers are rewritten (full-width digits are still digits).
//!
//! `cargo test -p nofxi-assistant --test examples_metamorphic -- --nocapture`

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::sync::Arc;

use nofxi_assistant::nlu::lexicon::Lexicon;
use nofxi_assistant::nlu::names::{NameEntry, Names};
use nofxi_assistant::nlu::new_create::name_slot;
use nofxi_assistant::nlu::{Context, RuleUnderstander};
use nofxi_assistant::{Assistant, AssistantOptions};
use nofxi_domain::validation::name_key;
use nofxi_domain::{Actor, Channel, Credentials, StrategySpec, TraderSpec};
use nofxi_protocol::{AnswerKind, Command, Understanding};
use nofxi_skills::{Example, Lang, Library, ResourceKind, Skill, SkillKind, SlotType};
use nofxi_store::test_support::{PaperBasics, TestStore, sqlite_store};
use rust_decimal::Decimal;
use serde_json::{Map, Value};

// ---------------------------------------------------------------------------------------------
// What a message is read as
// ---------------------------------------------------------------------------------------------

/// One command of an understanding, as far as the comparison cares.
#[derive(Debug, Clone)]
enum Reading {
    /// A task started, or the open task's values set (then skill and action are the task's).
    Task {
        skill: String,
        action: String,
        slots: BTreeMap<String, Value>,
    },
    Answer {
        kind: AnswerKind,
        topic: String,
    },
    /// A market-data function called on a symbol, with the interval when one is said. The
    /// counts (levels, candles) are not compared: an example's comes from its thought ("US
    /// stocks have 1 level"), the chat's from what it shows.
    Call {
        function: String,
        symbol: String,
        interval: Option<String>,
    },
    /// Anything else (a clarification, a cancel, "cannot handle"): never what an example says.
    Other(String),
}

impl std::fmt::Display for Reading {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reading::Task {
                skill,
                action,
                slots,
            } => {
                let slots: Vec<String> = slots.iter().map(|(k, v)| format!("{k}={v}")).collect();
                write!(f, "{skill}.{action} {{{}}}", slots.join(", "))
            }
            Reading::Answer { kind, topic } => write!(f, "answer {kind:?} {topic}"),
            Reading::Call {
                function,
                symbol,
                interval,
            } => write!(f, "{function} {symbol} {interval:?}"),
            Reading::Other(s) => write!(f, "{s}"),
        }
    }
}

/// A market function's call as the comparison sees it.
fn call_reading(function: &str, args: &BTreeMap<String, Value>) -> Reading {
    let text = |name: &str| args.get(name).and_then(Value::as_str).map(str::to_string);
    Reading::Call {
        function: function.to_string(),
        symbol: text("symbol").unwrap_or_default(),
        interval: text("interval"),
    }
}

fn show(readings: &[Reading]) -> String {
    if readings.is_empty() {
        return "(nothing)".into();
    }
    readings
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" + ")
}

/// The readings of `u`; values set on the open task `top` (skill, action) are one task reading.
fn readings(u: &Understanding, top: Option<(&str, &str)>) -> Vec<Reading> {
    let mut out = Vec::new();
    let mut set: Option<BTreeMap<String, Value>> = None;
    for c in &u.commands {
        match (c, top) {
            (
                Command::StartTask {
                    skill,
                    action,
                    slots,
                },
                _,
            ) => out.push(Reading::Task {
                skill: skill.clone(),
                action: action.clone(),
                slots: slots.clone(),
            }),
            (Command::SetSlots { slots }, Some(_)) => {
                set.get_or_insert_default().extend(slots.clone());
            }
            (Command::CorrectSlot { slot, value }, Some(_)) => {
                set.get_or_insert_default()
                    .insert(slot.clone(), value.clone());
            }
            (Command::AnswerQuestion { kind, topic }, _) => out.push(Reading::Answer {
                kind: *kind,
                topic: topic.clone(),
            }),
            (Command::CallFunction { function, args }, _) => out.push(call_reading(function, args)),
            (other, _) => out.push(Reading::Other(
                serde_json::to_string(other).unwrap_or_default(),
            )),
        }
    }
    if let (Some(slots), Some((skill, action))) = (set, top) {
        out.insert(
            0,
            Reading::Task {
                skill: skill.into(),
                action: action.into(),
                slots,
            },
        );
    }
    out
}

/// Two slot values are the same value: names and words ignoring case (and width, as names are
/// compared), numbers by value whether said as numbers or as digits.
fn same_value(a: &Value, b: &Value) -> bool {
    let number = |v: &Value| match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse::<f64>().ok(),
        _ => None,
    };
    match (a, b) {
        (Value::String(x), Value::String(y)) => name_key(x) == name_key(y),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_value(x, y))
        }
        (Value::Number(_), _) | (_, Value::Number(_)) => {
            number(a).is_some() && number(a) == number(b)
        }
        _ => a == b,
    }
}

fn same_reading(expected: &Reading, got: &Reading) -> bool {
    match (expected, got) {
        (
            Reading::Task {
                skill,
                action,
                slots,
            },
            Reading::Task {
                skill: s,
                action: a,
                slots: got,
            },
        ) => {
            skill == s
                && action == a
                && slots.len() == got.len()
                && slots
                    .iter()
                    .all(|(k, v)| got.get(k).is_some_and(|g| same_value(v, g)))
        }
        (Reading::Answer { kind, topic }, Reading::Answer { kind: k, topic: t }) => {
            kind == k && topic.eq_ignore_ascii_case(t)
        }
        (
            Reading::Call {
                function,
                symbol,
                interval,
            },
            Reading::Call {
                function: f,
                symbol: s,
                interval: i,
            },
        ) => {
            function == f && symbol.eq_ignore_ascii_case(s) && (interval.is_none() || interval == i)
        }
        _ => false,
    }
}

fn same_readings(expected: &[Reading], got: &[Reading]) -> bool {
    expected.len() == got.len() && expected.iter().zip(got).all(|(e, g)| same_reading(e, g))
}

// ---------------------------------------------------------------------------------------------
// The examples
// ---------------------------------------------------------------------------------------------

/// A resource of the user's that an example names.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Owned {
    kind: ResourceKind,
    name: String,
    /// In the trash (what a restore names).
    deleted: bool,
}

/// One example, with what it must read as and what the user has when saying it.
struct Case<'a> {
    skill: &'a Skill,
    example: &'a Example,
    expected: Vec<Reading>,
    /// Why the example is not measured, when it is not.
    skipped: Option<String>,
    world: Vec<Owned>,
    /// Texts the rewrites leave as they are (slot values, names).
    protected: Vec<String>,
}

impl Case<'_> {
    fn open_task(&self) -> Option<(&str, &str)> {
        let task = self.example.context.as_ref()?.task.as_ref()?;
        Some((self.skill.id.as_str(), task.action.as_str()))
    }

    fn in_conversation(&self) -> bool {
        self.example.context.is_some()
    }
}

/// The example's slots with enum aliases written as the values they stand for ("币安" →
/// `binance`), as the understanding reports them.
fn canonical(
    skill: &Skill,
    action: &str,
    slots: &BTreeMap<String, Value>,
) -> BTreeMap<String, Value> {
    let mut out = slots.clone();
    let Some(action) = skill.action(action) else {
        return out;
    };
    for (name, value) in out.iter_mut() {
        if let (Some(slot), Value::String(text)) = (action.slot(name), &*value)
            && let Some(v) = slot.canonical_value(text)
        {
            *value = Value::String(v.to_string());
        }
    }
    out
}

/// Whether a slot's words are the user's own and must not be rewritten.
fn keeps_its_words(ty: SlotType) -> bool {
    matches!(
        ty,
        SlotType::Ref
            | SlotType::String
            | SlotType::Secret
            | SlotType::Url
            | SlotType::Interval
            | SlotType::Instrument
            | SlotType::Date
    )
}

fn strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|i| strings(i, out)),
        _ => {}
    }
}

/// The resources an example's slots and context name, the words to keep, and what it reads as.
fn case<'a>(skill: &'a Skill, example: &'a Example) -> Case<'a> {
    let mut world: BTreeSet<Owned> = BTreeSet::new();
    let mut protected = Vec::new();
    let mut skipped = None;
    let context = example.context.as_ref();
    if let Some(cx) = context {
        for (kind, name) in &cx.current {
            world.insert(Owned {
                kind: *kind,
                name: name.clone(),
                deleted: false,
            });
            protected.push(name.clone());
        }
    }
    let expected = if let Some(action_name) = &example.action {
        let action = skill.action(action_name);
        let mut slot_sets = vec![(action_name.as_str(), &example.slots)];
        if let Some(task) = context.and_then(|c| c.task.as_ref()) {
            slot_sets.push((task.action.as_str(), &task.slots));
        }
        for (action_name, slots) in slot_sets {
            let Some(action) = skill.action(action_name) else {
                continue;
            };
            for (name, value) in slots {
                let Some(slot) = action.slot(name) else {
                    continue;
                };
                if keeps_its_words(slot.ty) {
                    strings(value, &mut protected);
                }
                if let (SlotType::Ref, Some(kind), Value::String(v)) =
                    (slot.ty, slot.ref_kind, value)
                {
                    world.insert(Owned {
                        kind,
                        name: v.clone(),
                        deleted: action_name == "restore",
                    });
                }
            }
        }
        if action.is_none() {
            skipped = Some(format!("no action {action_name} in {}", skill.id));
        }
        vec![Reading::Task {
            skill: skill.id.clone(),
            action: action_name.clone(),
            slots: canonical(skill, action_name, &example.slots),
        }]
    } else if let Some(id) = &example.knowledge {
        let kind = match skill.meta.kind {
            SkillKind::Diagnosis => AnswerKind::ErrorExplanation,
            _ => AnswerKind::Glossary,
        };
        vec![Reading::Answer {
            kind,
            topic: id.clone(),
        }]
    } else if let Some(function) = &example.function {
        let calls = std::iter::once((function, &example.params)).chain(
            example
                .parallel_calls
                .iter()
                .map(|c| (&c.function, &c.params)),
        );
        let mut out = Vec::new();
        for (function, params) in calls {
            let symbol = params.get("symbol").and_then(Value::as_str).unwrap_or("");
            if function == "get_realtime_price" {
                out.push(Reading::Answer {
                    kind: AnswerKind::Market,
                    topic: symbol.to_string(),
                });
            } else {
                out.push(call_reading(function, params));
            }
        }
        out
    } else {
        skipped = Some("names no action, function or knowledge".into());
        Vec::new()
    };
    // A trader is made with an exchange, a model and a strategy: the user has one of each.
    let mut world: Vec<Owned> = world.into_iter().collect();
    if world.iter().any(|o| o.kind == ResourceKind::Trader) {
        for kind in [
            ResourceKind::Exchange,
            ResourceKind::Model,
            ResourceKind::Strategy,
        ] {
            if !world.iter().any(|o| o.kind == kind && !o.deleted) {
                world.push(Owned {
                    kind,
                    name: format!("spare-{kind}"),
                    deleted: false,
                });
            }
        }
    }
    world.sort();
    protected.extend(world.iter().map(|o| o.name.clone()));
    protected.retain(|p| !p.trim().is_empty());
    protected.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
    protected.dedup();
    Case {
        skill,
        example,
        expected,
        skipped,
        world,
        protected,
    }
}

// ---------------------------------------------------------------------------------------------
// Reading a message: through the assistant, or through the rules with a conversation's context
// ---------------------------------------------------------------------------------------------

fn domain_kind(kind: ResourceKind) -> nofxi_domain::ResourceKind {
    match kind {
        ResourceKind::Trader => nofxi_domain::ResourceKind::Trader,
        ResourceKind::Exchange => nofxi_domain::ResourceKind::Exchange,
        ResourceKind::Model => nofxi_domain::ResourceKind::Model,
        ResourceKind::Strategy => nofxi_domain::ResourceKind::Strategy,
    }
}

/// A store holding `world` (paper accounts, builtin models, default strategies, stopped
/// traders; the deleted ones in the trash), and an assistant on it.
async fn assistant_on(library: &Arc<Library>, world: &[Owned]) -> (TestStore, Assistant) {
    let ts = sqlite_store().await.unwrap();
    let actor = Actor::new("default", Channel::Cli, true);
    let mut ids: BTreeMap<ResourceKind, String> = BTreeMap::new();
    let mut remember = |kind, id: String, deleted: bool| {
        if !deleted {
            ids.entry(kind).or_insert(id);
        }
    };
    for o in world.iter().filter(|o| o.kind != ResourceKind::Trader) {
        let basics = PaperBasics::named(o.name.as_str(), o.name.as_str(), o.name.as_str());
        let id = match o.kind {
            ResourceKind::Exchange => {
                ts.create_exchange(&actor, basics.exchange, Credentials::new())
                    .await
                    .unwrap_or_else(|e| panic!("exchange {}: {e}", o.name))
                    .id
            }
            ResourceKind::Model => {
                ts.create_model(&actor, basics.model, None)
                    .await
                    .unwrap_or_else(|e| panic!("model {}: {e}", o.name))
                    .id
            }
            _ => {
                ts.create_strategy(&actor, StrategySpec::new(o.name.as_str()))
                    .await
                    .unwrap_or_else(|e| panic!("strategy {}: {e}", o.name))
                    .id
            }
        };
        remember(o.kind, id, o.deleted);
    }
    for o in world.iter().filter(|o| o.kind == ResourceKind::Trader) {
        let spec = TraderSpec::new(
            o.name.as_str(),
            ids[&ResourceKind::Model].clone(),
            ids[&ResourceKind::Exchange].clone(),
            ids[&ResourceKind::Strategy].clone(),
            Decimal::from(1000),
        );
        ts.create_trader(&actor, spec)
            .await
            .unwrap_or_else(|e| panic!("trader {}: {e}", o.name));
    }
    for o in world.iter().filter(|o| o.deleted) {
        ts.delete(&actor, domain_kind(o.kind), &o.name)
            .await
            .unwrap_or_else(|e| panic!("deleting {}: {e}", o.name));
    }
    let assistant = Assistant::open(
        ts.store.clone(),
        library.clone(),
        AssistantOptions::default(),
    )
    .await
    .unwrap();
    (ts, assistant)
}

/// The names the engine would load for `world`.
fn names_of(world: &[Owned]) -> Names {
    Names::new(
        world
            .iter()
            .map(|o| NameEntry {
                kind: o.kind,
                id: format!("{}-{}", o.kind, o.name),
                name: o.name.clone(),
                lower: name_key(&o.name),
                class: match o.kind {
                    ResourceKind::Exchange => Some("paper".into()),
                    ResourceKind::Model => Some("builtin".into()),
                    _ => None,
                },
                enabled: true,
                live: false,
                testnet: false,
                running: false,
                deleted: o.deleted,
                uses: Vec::new(),
            })
            .collect(),
    )
}

/// How the rules read `message` said in the example's conversation: its current resources and
/// its open task (collecting the required values it lacks).
fn read_in_conversation(
    library: &Library,
    lexicon: &Lexicon,
    case: &Case<'_>,
    message: &str,
) -> Understanding {
    let names = names_of(&case.world);
    let context = case.example.context.as_ref();
    let current_of: BTreeMap<ResourceKind, String> =
        context.map(|c| c.current.clone()).unwrap_or_default();
    let it_kind = current_of.keys().next().copied();
    let current = move |kind: ResourceKind| current_of.get(&kind).cloned();
    let task = context.and_then(|c| c.task.as_ref());
    let task_slots: Option<Map<String, Value>> =
        task.map(|t| t.slots.clone().into_iter().collect());
    let action = task.and_then(|t| case.skill.action(&t.action));
    let asked: Vec<String> = match (action, &task_slots) {
        (Some(a), Some(slots)) => a
            .slots
            .iter()
            .filter(|s| s.is_required(slots) && !slots.contains_key(&s.name))
            .map(|s| s.name.clone())
            .collect(),
        _ => Vec::new(),
    };
    let top_name = action.zip(task_slots.as_ref()).and_then(|(a, slots)| {
        slots
            .get(name_slot(a).unwrap_or("target"))
            .and_then(Value::as_str)
    });
    let cx = Context {
        library,
        lexicon,
        names: &names,
        top: task.map(|t| {
            (
                case.skill.id.as_str(),
                t.action.as_str(),
                asked.as_slice(),
                false,
            )
        }),
        top_name,
        top_slots: task_slots.as_ref(),
        engine_question: false,
        current: &current,
        it_kind,
        interrupted: Vec::new(),
        just_done: Vec::new(),
        last_read: None,
        last_request: None,
    };
    RuleUnderstander.understand_now(message, &cx)
}

// ---------------------------------------------------------------------------------------------
// The rewrites
// ---------------------------------------------------------------------------------------------

/// The text as runs that may be rewritten (`true`) and runs of protected words.
fn spans(text: &str, protected: &[String]) -> Vec<(bool, String)> {
    let lower = text.to_lowercase();
    let mut keep = vec![false; text.len()];
    // Lower-casing keeps byte offsets for the examples' ASCII and CJK text; an offset that is
    // not a boundary of the original is skipped rather than guessed.
    if lower.len() == text.len() {
        for value in protected {
            let v = value.to_lowercase();
            for (at, _) in lower.match_indices(&v) {
                if text.is_char_boundary(at) && text.is_char_boundary(at + v.len()) {
                    keep[at..at + v.len()].iter_mut().for_each(|k| *k = true);
                }
            }
        }
    }
    let mut out: Vec<(bool, String)> = Vec::new();
    for (i, c) in text.char_indices() {
        let free = !keep[i];
        match out.last_mut() {
            Some((f, s)) if *f == free => s.push(c),
            _ => out.push((free, c.to_string())),
        }
    }
    out
}

/// `text` with `f` applied to its free runs; `None` when nothing changes.
fn map_free(text: &str, protected: &[String], f: impl Fn(&str) -> String) -> Option<String> {
    let out: String = spans(text, protected)
        .into_iter()
        .map(|(free, s)| if free { f(&s) } else { s })
        .collect();
    (out != text).then_some(out)
}

fn is_cjk(c: char) -> bool {
    matches!(c, '\u{4E00}'..='\u{9FFF}' | '\u{3400}'..='\u{4DBF}')
}

/// Whether the example asks something (its sentence-end and politeness forms differ).
fn is_question(text: &str, zh: bool) -> bool {
    let t = text.trim();
    if t.ends_with(['?', '？']) {
        return true;
    }
    if zh {
        ["吗", "什么", "哪", "怎么", "多少", "有没有"]
            .iter()
            .any(|w| t.contains(w))
    } else {
        let first = t.split_whitespace().next().unwrap_or("").to_lowercase();
        [
            "what", "what's", "which", "how", "is", "are", "do", "does", "any", "who", "where",
            "why", "can",
        ]
        .contains(&first.as_str())
    }
}

fn to_full_width(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '!'..='~' => char::from_u32(c as u32 - 0x21 + 0xFF01).unwrap_or(c),
            _ => c,
        })
        .collect()
}

fn to_half_width_punct(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '，' => ',',
            '。' => '.',
            '？' => '?',
            '！' => '!',
            '：' => ':',
            '；' => ';',
            '（' => '(',
            '）' => ')',
            c => c,
        })
        .collect()
}

fn title_case(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut at_start = true;
    for c in s.chars() {
        if at_start && c.is_ascii_lowercase() {
            out.push(c.to_ascii_uppercase());
        } else {
            out.push(c);
        }
        at_start = !c.is_ascii_alphanumeric() && c != '\'';
    }
    out
}

/// Spaces between Chinese and Latin text removed, or, when there are none, put in.
fn toggle_cjk_spacing(text: &str, protected: &[String]) -> Option<String> {
    let chars: Vec<char> = text.chars().collect();
    let near_cjk = |i: usize| {
        chars[i] == ' '
            && (i > 0 && is_cjk(chars[i - 1]) || chars.get(i + 1).is_some_and(|c| is_cjk(*c)))
    };
    if (0..chars.len()).any(near_cjk) {
        let out: String = (0..chars.len())
            .filter(|i| !near_cjk(*i))
            .map(|i| chars[i])
            .collect();
        return Some(out);
    }
    let mut keep = Vec::new();
    for (free, s) in spans(text, protected) {
        keep.extend(std::iter::repeat_n(!free, s.chars().count()));
    }
    let mut out = String::new();
    for (i, c) in chars.iter().enumerate() {
        if i > 0 && !(keep[i] && keep[i - 1]) {
            let p = chars[i - 1];
            let boundary =
                is_cjk(p) && c.is_ascii_alphanumeric() || p.is_ascii_alphanumeric() && is_cjk(*c);
            if boundary {
                out.push(' ');
            }
        }
        out.push(*c);
    }
    (out != text).then_some(out)
}

/// Two adjacent inner letters swapped in the longest free ASCII word of six letters or more.
fn typo(text: &str, protected: &[String]) -> Option<String> {
    let mut best: Option<(usize, usize)> = None;
    let mut offset = 0;
    for (free, s) in spans(text, protected) {
        if free {
            let mut start = None;
            for (i, c) in s.char_indices().chain(std::iter::once((s.len(), ' '))) {
                match (c.is_ascii_alphabetic(), start) {
                    (true, None) => start = Some(i),
                    (false, Some(from)) => {
                        let len = i - from;
                        // A word glued to digits, a dash or an underscore is part of a value
                        // or a code (`context_length_exceeded`), not a word.
                        let joins = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
                        let glued = s[..from].ends_with(joins) || s[i..].starts_with(joins);
                        if len >= 6 && !glued && best.is_none_or(|(_, l)| len > l) {
                            best = Some((offset + from, len));
                        }
                        start = None;
                    }
                    _ => {}
                }
            }
        }
        offset += s.len();
    }
    let (at, len) = best?;
    let word = &text.as_bytes()[at..at + len];
    // The middle pair first, then outwards: the first and last letters stay, as in real typos.
    let mid = len / 2 - 1;
    let mut pairs: Vec<usize> = (1..len - 2).collect();
    pairs.sort_by_key(|i| i.abs_diff(mid));
    let pair = pairs.into_iter().find(|i| word[*i] != word[i + 1])?;
    let mut bytes = text.as_bytes().to_vec();
    bytes.swap(at + pair, at + pair + 1);
    String::from_utf8(bytes).ok()
}

/// The rewrites, in the order they are reported. `surface`: harmless only because the folding
/// before the rules undoes it (not tried on examples read at the rules' level).
struct Rewrite {
    name: &'static str,
    surface: bool,
    apply: fn(&str, bool, &[String]) -> Option<String>,
}

/// The text without its sentence end.
fn bare(text: &str) -> &str {
    text.trim_end_matches(['.', '。', '!', '！', '?', '？'])
}

const REWRITES: &[Rewrite] = &[
    Rewrite {
        name: "polite",
        surface: false,
        apply: |t, zh, _| {
            Some(match (zh, is_question(t, zh)) {
                (true, false) => format!("请{t}"),
                (true, true) => format!("请问{t}"),
                (false, false) => format!("please {t}"),
                (false, true) => format!("please, {t}"),
            })
        },
    },
    Rewrite {
        name: "could you",
        surface: false,
        apply: |t, zh, _| {
            Some(match (zh, is_question(t, zh)) {
                (true, false) => format!("麻烦{t}"),
                (true, true) => format!("想问一下，{t}"),
                (false, false) => {
                    let mut c = t.chars();
                    let first = c.next().map(|f| f.to_lowercase().to_string());
                    format!("could you {}{}", first.unwrap_or_default(), c.as_str())
                }
                (false, true) => format!("can you tell me {t}"),
            })
        },
    },
    Rewrite {
        name: "greeting",
        surface: false,
        apply: |t, zh, _| {
            Some(if zh {
                format!("你好，{t}")
            } else {
                format!("hi, {t}")
            })
        },
    },
    Rewrite {
        name: "greeting 2",
        surface: false,
        apply: |t, zh, _| {
            Some(if zh {
                format!("哈喽，{t}")
            } else {
                format!("hey there! {t}")
            })
        },
    },
    Rewrite {
        name: "filler",
        surface: false,
        apply: |t, zh, _| {
            Some(if zh {
                format!("那个，{t}")
            } else {
                format!("um, {t}")
            })
        },
    },
    Rewrite {
        name: "lead-in",
        surface: false,
        apply: |t, zh, _| {
            Some(if zh {
                format!("好的，{t}")
            } else {
                format!("ok so {t}")
            })
        },
    },
    Rewrite {
        name: "thanks",
        surface: false,
        apply: |t, zh, _| {
            Some(match (zh, is_question(t, zh)) {
                (true, false) => format!("{}，谢谢", bare(t)),
                (true, true) => format!("{t}谢谢"),
                (false, false) => format!("{}, thanks", bare(t)),
                (false, true) => format!("{t} thanks"),
            })
        },
    },
    Rewrite {
        name: "particle",
        surface: false,
        apply: |t, zh, _| {
            (zh && !is_question(t, zh) && !bare(t).ends_with('吧'))
                .then(|| format!("{}吧", bare(t)))
        },
    },
    Rewrite {
        name: "tilde",
        surface: false,
        apply: |t, zh, _| zh.then(|| format!("{}～", bare(t))),
    },
    Rewrite {
        name: "emoji",
        surface: false,
        apply: |t, _, _| Some(format!("{t} 🙏")),
    },
    Rewrite {
        name: "exclamation",
        surface: true,
        apply: |t, zh, _| {
            Some(match (zh, is_question(t, zh)) {
                (true, false) => format!("{}！", bare(t)),
                (true, true) => format!("{}？？", bare(t)),
                (false, false) => format!("{}!", bare(t)),
                (false, true) => format!("{}??", bare(t)),
            })
        },
    },
    Rewrite {
        name: "sentence end",
        surface: true,
        apply: |t, zh, _| {
            let question = is_question(t, zh);
            let marked = t.trim_end().ends_with(['?', '？']);
            Some(match (zh, question) {
                (true, false) => format!("{}。", bare(t)),
                (false, false) => format!("{}.", bare(t)),
                // A question said without its mark, or with one.
                (_, true) if marked => bare(t).to_string(),
                (true, true) => format!("{t}？"),
                (false, true) => format!("{t}?"),
            })
        },
    },
    Rewrite {
        name: "upper case",
        surface: false,
        apply: |t, _, p| map_free(t, p, str::to_uppercase),
    },
    Rewrite {
        name: "title/lower case",
        surface: false,
        apply: |t, zh, p| {
            if zh {
                map_free(t, p, str::to_lowercase)
            } else {
                map_free(t, p, title_case)
            }
        },
    },
    Rewrite {
        name: "full width",
        surface: true,
        apply: |t, _, p| map_free(t, p, to_full_width),
    },
    Rewrite {
        name: "half width",
        surface: false,
        apply: |t, _, p| map_free(t, p, to_half_width_punct),
    },
    Rewrite {
        name: "double spaces",
        surface: true,
        apply: |t, _, p| map_free(t, p, |s| s.replace(' ', "  ")),
    },
    Rewrite {
        name: "cjk spacing",
        surface: false,
        apply: |t, zh, p| if zh { toggle_cjk_spacing(t, p) } else { None },
    },
    Rewrite {
        name: "typo",
        surface: false,
        apply: |t, _, p| typo(t, p),
    },
];

// ---------------------------------------------------------------------------------------------
// The measurement
// ---------------------------------------------------------------------------------------------

/// Examples the rules do not read as they say today, and why; each must still fail (a fixed
/// one comes off this list), every other example must pass. Their variants are not measured.
const KNOWN_UNREAD: &[(&str, &str)] = &[
    (
        "钱包地址是 0xabc123，私钥 0xdeadbeef",
        "unquoted 0x… values are YAML integers; 私钥 is the secret_key phrase, the example wants api_key (Hyperliquid)",
    ),
    (
        "recvWindow 要设多少",
        "a diagnosis entry's phrase wins over the glossary question",
    ),
    (
        "what is hedge mode",
        "a diagnosis entry's phrase wins over the glossary question",
    ),
    (
        "IP 白名单要填什么",
        "a diagnosis entry's phrase wins over the glossary question",
    ),
    (
        "腾讯的买一卖一是多少",
        "no price reading: 买一卖一 is not a market-data subject",
    ),
    (
        "add an OpenAI model called gpt with gpt-4o",
        "'with gpt-4o' is not read as the model name",
    ),
    (
        "sorry, the key is sk-new987654 not the old one",
        "'sorry' is read as the model name",
    ),
    (
        "帮我创建一个策略叫趋势跟踪，只做 BTC 和 ETH，10倍杠杆",
        "杠杆 is a phrase of both leverage slots; the example sets only btc_eth_max_leverage",
    ),
    (
        "新建一个保守策略，最低置信度 85，盈亏比至少 4",
        "a name said before the noun (保守策略) is not read",
    ),
    (
        "杠杆 100 倍",
        "杠杆 is a phrase of both leverage slots; the example sets only btc_eth_max_leverage",
    ),
    (
        "算了，还是 5 倍吧",
        "read as a cancel: the value after 算了，还是 is not found",
    ),
    (
        "把趋势跟踪的杠杆调到 20 倍",
        "杠杆 is a phrase of both leverage slots; the example sets only btc_eth_max_leverage",
    ),
    (
        "它不要交易 DOGE",
        "read as the list edit {add: [DOGEUSDT]}; the example predates list edits",
    ),
    (
        "rename that one to eth-main",
        "'one' of 'that one' is read as the new name",
    ),
];

/// The share of each rewrite's variants that must keep the example's reading: the measured
/// rate rounded down to a whole percent (136 originals, 1869 variants). Raise a floor when the
/// rules get better; a lower rate is a regression.
const FLOORS: &[(&str, f64)] = &[
    ("polite", 100.0),
    ("could you", 100.0),
    ("greeting", 100.0),
    ("greeting 2", 100.0),
    ("filler", 100.0),
    ("lead-in", 100.0),
    ("thanks", 100.0),
    ("particle", 100.0),
    ("tilde", 94.0),
    ("emoji", 100.0),
    ("exclamation", 99.0),
    ("sentence end", 99.0),
    ("upper case", 100.0),
    ("title/lower case", 100.0),
    ("full width", 98.0),
    ("half width", 100.0),
    ("double spaces", 100.0),
    ("cjk spacing", 97.0),
    ("typo", 87.0),
];
const OVERALL_FLOOR: f64 = 99.0;
/// Each measured example is said at least this many ways.
const MIN_VARIANTS: usize = 10;

#[derive(Default)]
struct Tally {
    tried: usize,
    kept: usize,
}

impl Tally {
    fn rate(&self) -> f64 {
        if self.tried == 0 {
            100.0
        } else {
            self.kept as f64 * 100.0 / self.tried as f64
        }
    }
}

struct Failure {
    rewrite: &'static str,
    message: String,
    expected: String,
    got: String,
}

/// What reads the examples: one assistant per set of resources an example needs, and the
/// rules with a hand-built context for examples said inside a conversation.
struct Readers<'a> {
    library: &'a Library,
    lexicon: Lexicon,
    assistants: BTreeMap<Vec<Owned>, (TestStore, Assistant)>,
}

impl<'a> Readers<'a> {
    async fn new(library: &'a Arc<Library>, cases: &[Case<'_>]) -> Readers<'a> {
        let mut assistants = BTreeMap::new();
        for c in cases {
            if c.skipped.is_none() && !c.in_conversation() && !assistants.contains_key(&c.world) {
                let made = assistant_on(library, &c.world).await;
                assistants.insert(c.world.clone(), made);
            }
        }
        Readers {
            library,
            lexicon: Lexicon::from_library(library),
            assistants,
        }
    }

    async fn read(&self, c: &Case<'_>, message: &str) -> Vec<Reading> {
        let u = if c.in_conversation() {
            read_in_conversation(self.library, &self.lexicon, c, message)
        } else {
            let (_, assistant) = &self.assistants[&c.world];
            assistant.read_message("default", message).await.unwrap()
        };
        readings(&u, c.open_task())
    }
}

fn all_cases(library: &Library) -> Vec<Case<'_>> {
    library
        .skills()
        .iter()
        .flat_map(|s| s.examples.iter().map(move |e| case(s, e)))
        .collect()
}

#[tokio::test(flavor = "current_thread")]
async fn every_skill_example_reads_the_same_however_it_is_typed() {
    let library = Arc::new(Library::builtin().unwrap());
    let cases = all_cases(&library);
    let readers = Readers::new(&library, &cases).await;

    let mut originals = Tally::default();
    let mut skipped = Vec::new();
    let mut known = Vec::new();
    let mut problems = Vec::new();
    let mut per_rewrite: BTreeMap<&str, Tally> = BTreeMap::new();
    let mut failures = Vec::new();
    // METAMORPHIC_VARIANTS=1 prints every variant tried and whether it kept the reading.
    let every_variant = std::env::var_os("METAMORPHIC_VARIANTS").is_some();
    for c in &cases {
        let user = &c.example.user;
        if let Some(why) = &c.skipped {
            skipped.push(format!("{} {user:?}: {why}", c.skill.id));
            continue;
        }
        let got = readers.read(c, user).await;
        let read_right = same_readings(&c.expected, &got);
        let why_not = KNOWN_UNREAD
            .iter()
            .find(|(u, _)| u == user)
            .map(|(_, w)| *w);
        match (read_right, why_not) {
            (true, None) => {}
            (false, Some(why)) => {
                known.push(format!(
                    "{} {user:?} ({why})\n    example: {}\n    read:    {}",
                    c.skill.id,
                    show(&c.expected),
                    show(&got)
                ));
                continue;
            }
            (true, Some(_)) => problems.push(format!(
                "{user:?} is read right now: take it off KNOWN_UNREAD"
            )),
            (false, None) => problems.push(format!(
                "{} {user:?} is not read as its example says\n    example: {}\n    read:    {}",
                c.skill.id,
                show(&c.expected),
                show(&got)
            )),
        }
        originals.tried += 1;
        originals.kept += usize::from(read_right);
        if !read_right {
            continue;
        }
        let zh = c.example.lang() == Lang::Zh;
        let mut variants = 0;
        for rewrite in REWRITES {
            if rewrite.surface && c.in_conversation() {
                continue;
            }
            let Some(message) = (rewrite.apply)(user, zh, &c.protected) else {
                continue;
            };
            variants += 1;
            let got = readers.read(c, &message).await;
            let tally = per_rewrite.entry(rewrite.name).or_default();
            tally.tried += 1;
            let kept = same_readings(&c.expected, &got);
            if every_variant {
                println!(
                    "{:<16} {} {message:?}",
                    rewrite.name,
                    if kept { "ok  " } else { "FAIL" }
                );
            }
            if kept {
                tally.kept += 1;
            } else {
                failures.push(Failure {
                    rewrite: rewrite.name,
                    message,
                    expected: show(&c.expected),
                    got: show(&got),
                });
            }
        }
        if variants < MIN_VARIANTS {
            problems.push(format!("{user:?} is said only {variants} ways"));
        }
    }

    let all = per_rewrite.values().fold(Tally::default(), |a, t| Tally {
        tried: a.tried + t.tried,
        kept: a.kept + t.kept,
    });
    let mut report = String::new();
    let w = &mut report;
    writeln!(
        w,
        "examples: {} in {} skills; {} not measured",
        cases.len(),
        library.skills().len(),
        skipped.len()
    )
    .unwrap();
    writeln!(
        w,
        "originals read as their example says: {} / {} ({:.1} %); {} more on KNOWN_UNREAD",
        originals.kept,
        originals.tried,
        originals.rate(),
        known.len()
    )
    .unwrap();
    writeln!(
        w,
        "variants keeping the reading: {} / {} ({:.1} %, floor {OVERALL_FLOOR} %)\n",
        all.kept,
        all.tried,
        all.rate()
    )
    .unwrap();
    writeln!(w, "| rewrite | variants | same reading | rate | floor |").unwrap();
    writeln!(w, "|---|---:|---:|---:|---:|").unwrap();
    for r in REWRITES {
        let t = per_rewrite.get(r.name).unwrap_or(&Tally::default()).rate();
        let tally = per_rewrite.get(r.name);
        let floor = FLOORS
            .iter()
            .find(|(n, _)| *n == r.name)
            .map_or(100.0, |f| f.1);
        writeln!(
            w,
            "| {} | {} | {} | {t:.1} % | {floor} % |",
            r.name,
            tally.map_or(0, |t| t.tried),
            tally.map_or(0, |t| t.kept),
        )
        .unwrap();
        if t < floor {
            problems.push(format!("{}: {t:.1} % is below its floor {floor} %", r.name));
        }
    }
    if all.rate() < OVERALL_FLOOR {
        problems.push(format!(
            "all variants: {:.1} % is below the floor {OVERALL_FLOOR} %",
            all.rate()
        ));
    }
    println!("{report}");
    println!("not measured:");
    skipped.iter().for_each(|s| println!("  {s}"));
    println!("known unread originals:");
    known.iter().for_each(|s| println!("  {s}"));
    // The first failures, at most five of each rewrite, so every kind shows.
    let shown = std::env::var("METAMORPHIC_FAILURES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(30);
    println!("variant failures ({}), the first {shown}:", failures.len());
    let mut per_kind: BTreeMap<&str, usize> = BTreeMap::new();
    let picked = failures.iter().filter(|f| {
        let n = per_kind.entry(f.rewrite).or_default();
        *n += 1;
        *n <= 5 || shown > 30
    });
    for f in picked.take(shown) {
        println!(
            "  [{}] {:?}\n    expected: {}\n    got:      {}",
            f.rewrite, f.message, f.expected, f.got
        );
    }
    for (user, _) in KNOWN_UNREAD {
        if !cases.iter().any(|c| c.example.user == *user) {
            problems.push(format!("KNOWN_UNREAD names no example: {user:?}"));
        }
    }
    assert!(
        originals.tried > 100,
        "too few examples measured: {}",
        originals.tried
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The hand-built conversation context is the engine's: on the examples said with no task in
/// progress, the rules read through it exactly as the assistant reads them.
#[tokio::test(flavor = "current_thread")]
async fn the_hand_built_context_reads_as_the_assistant_does() {
    let library = Arc::new(Library::builtin().unwrap());
    let cases = all_cases(&library);
    let readers = Readers::new(&library, &cases).await;
    let mut compared = 0;
    for c in cases
        .iter()
        .filter(|c| c.skipped.is_none() && !c.in_conversation())
    {
        let user = &c.example.user;
        let (_, assistant) = &readers.assistants[&c.world];
        let by_assistant = assistant.read_message("default", user).await.unwrap();
        let by_rules = read_in_conversation(&library, &readers.lexicon, c, user);
        assert_eq!(by_rules.commands, by_assistant.commands, "{user:?}");
        compared += 1;
    }
    println!("{compared} examples read alike by the assistant and the hand-built context");
    assert!(compared > 100, "{compared}");
}
