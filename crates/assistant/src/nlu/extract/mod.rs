//! Slot values from a message, for one action, using only the skill's slot data: phrases,
//! units, enum values and aliases, types. Spans already used by one value are blanked so a
//! name like "paper-test" never also reads as the exchange type "paper"; only the phrase and
//! the value are blanked, never what lies between ("rename eth-bot to eth-main" keeps the
//! old name for the target).
//!
//! `tokens` reads words and names, `values` the typed values (enums, intervals, numbers,
//! booleans, symbol lists), `bare` answers to a question just asked.

mod bare;
pub(crate) mod dates;
pub(crate) mod except;
mod lists;
mod scoped;
pub(crate) mod tokens;
mod values;

pub use self::values::interval_of_minutes;

use nofxi_skills::{Action, ResourceKind, Slot, SlotType, WordClass};
use serde_json::{Map, Value};

pub use self::bare::bare_answer;
pub use self::tokens::made_up_name;
use self::tokens::{
    blank, cjk_between, key_after, token_after, token_after_names, word_after, word_beside,
};
use super::asks;
use super::lexicon::Lexicon;
use super::names::Names;
use super::words::find_phrase;

/// What a message gives: slot → value as said (refs as names/words, resolved later).
pub struct Extraction {
    pub slots: Map<String, Value>,
}

/// The message twice: as said, and lower-cased with used spans blanked (same byte layout).
pub(crate) struct Scan {
    pub original: String,
    pub text: String,
}

impl Scan {
    fn new(message: &str) -> Scan {
        let original = message.to_string();
        let mut text = message.to_lowercase();
        // Lower-casing may change byte lengths outside ASCII; CJK has no case, keep the layout.
        if text.len() != original.len() {
            text = original.clone();
        }
        Scan { original, text }
    }

    /// An ASCII word of `text` as the user wrote it (case kept).
    pub fn as_said(&self, word: &str) -> String {
        self.original
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
            .find(|w| w.to_lowercase() == word)
            .unwrap_or(word)
            .to_string()
    }

    /// The original text of a span of `text`.
    pub fn said(&self, s: usize, e: usize) -> String {
        self.original
            .get(s..e)
            .unwrap_or_default()
            .trim()
            .to_string()
    }
}

pub fn extract(
    action: &Action,
    nouns: &[String],
    message: &str,
    names: &Names,
    lexicon: &Lexicon,
    current: &dyn Fn(ResourceKind) -> Option<String>,
) -> Extraction {
    let mut slots = Map::new();
    let message = scoped::scoped_values(message, action, lexicon);
    let mut scan = Scan::new(&message);
    secrets(action, &mut scan, lexicon, &mut slots);
    instrument(action, &mut scan, &mut slots);
    dates::dates(action, &mut scan, &mut slots);
    strings(action, nouns, &mut scan, names, lexicon, &mut slots);
    values::intervals(action, &mut scan, lexicon, &mut slots);
    refs(
        action, nouns, &mut scan, names, lexicon, current, &mut slots,
    );
    values::enums(action, &mut scan, lexicon, &mut slots);
    values::numbers(action, &mut scan, lexicon, &mut slots);
    values::booleans(action, &scan, lexicon, &mut slots);
    lists::symbol_lists(action, &scan, lexicon, &mut slots);
    except::excepted(action, &scan, names, lexicon, &mut slots);
    said_names(action, nouns, &scan, lexicon, &mut slots);
    named_without_value(action, nouns, &scan, &mut slots);
    Extraction { slots }
}

/// "change the api key of main", "change the maximum positions of default": a change that
/// names fields and gives none a value. Each named field is given as `null` (named, value
/// not said), so the task asks for exactly those rather than listing everything it can
/// change.
fn named_without_value(
    action: &Action,
    nouns: &[String],
    scan: &Scan,
    slots: &mut Map<String, Value>,
) {
    if action.slot("target").is_none() || slots.keys().any(|k| k != "target") {
        return;
    }
    // Longest phrases first, each blanked once read: "key" inside "secret key" is no API key.
    let mut phrases: Vec<(&str, String)> = action
        .slots
        .iter()
        .filter(|s| s.name != "target" && s.ty != SlotType::Boolean)
        .flat_map(|s| {
            s.phrases
                .iter()
                .map(|p| (s.name.as_str(), p.to_lowercase()))
        })
        .filter(|(_, p)| p.chars().count() >= 3 && !nouns.iter().any(|n| n.eq_ignore_ascii_case(p)))
        .collect();
    phrases.sort_by_key(|(_, p)| std::cmp::Reverse(p.len()));
    let mut text = scan.text.clone();
    for (slot, phrase) in phrases {
        if let Some(at) = find_phrase(&text, &phrase) {
            blank(&mut text, at, at + phrase.len());
            slots.insert(slot.to_string(), Value::Null);
        }
    }
}

/// "今天买了 100 股成都银行": the security as said, before any number or name is read (the
/// "600519" of a code is no quantity); the tool resolves it.
fn instrument(action: &Action, scan: &mut Scan, slots: &mut Map<String, Value>) {
    let Some(slot) = action
        .slots
        .iter()
        .find(|s| s.ty == SlotType::Instrument && !slots.contains_key(&s.name))
    else {
        return;
    };
    if let Some((from, to)) = super::instruments::find(&scan.text) {
        slots.insert(slot.name.clone(), Value::String(scan.said(from, to)));
        blank(&mut scan.text, from, to);
    }
}

/// Secrets first: their values must never be read as anything else.
fn secrets(action: &Action, scan: &mut Scan, lexicon: &Lexicon, slots: &mut Map<String, Value>) {
    let mut secret_phrases: Vec<(&str, &str)> = action
        .slots
        .iter()
        .filter(|s| s.is_secret())
        .flat_map(|s| s.phrases.iter().map(move |p| (s.name.as_str(), p.as_str())))
        .collect();
    secret_phrases.sort_by_key(|(_, p)| std::cmp::Reverse(p.len()));
    for (slot, phrase) in secret_phrases {
        if slots.contains_key(slot) {
            continue;
        }
        let lower_phrase = phrase.to_lowercase();
        if let Some(at) = find_phrase(&scan.text, &lower_phrase)
            && let Some((s, e)) = key_after(&scan.text, at + lower_phrase.len(), lexicon)
        {
            let value = scan.original.get(s..e).unwrap_or_default().to_string();
            slots.insert(slot.to_string(), Value::String(value));
            blank(&mut scan.text, at, at + lower_phrase.len());
            blank(&mut scan.text, s, e);
        }
    }
}

/// Whether the slot holds a resource's own (new) name: the skills' schema calls such slots
/// `name` (a create) and `new_name` (a rename or copy).
fn holds_own_name(slot: &Slot) -> bool {
    matches!(slot.name.as_str(), "name" | "new_name")
}

/// Strings named by a phrase ("叫 btc-bot", "called eth-scalper", "call it momentum").
fn strings(
    action: &Action,
    nouns: &[String],
    scan: &mut Scan,
    names: &Names,
    lexicon: &Lexicon,
    slots: &mut Map<String, Value>,
) {
    // "rename strategy default to trend": the noun before one of the user's names is not the
    // value. A noun that is the value stays one ("a trader called bot").
    let value_after = |text: &str, at: usize| {
        let found = token_after_names(text, at, names, lexicon)?;
        let is_noun = nouns.iter().any(|n| n.eq_ignore_ascii_case(&found.0));
        let name_follows = token_after(text, found.2, lexicon).is_some_and(|(next, ..)| {
            let next = next.to_lowercase();
            names.entries.iter().any(|n| n.lower == next)
        });
        match is_noun && name_follows {
            true => token_after_names(text, found.2, names, lexicon),
            false => Some(found),
        }
    };
    for slot in action
        .slots
        .iter()
        .filter(|s| matches!(s.ty, SlotType::String | SlotType::Url))
    {
        let mut phrases: Vec<&String> = slot.phrases.iter().collect();
        phrases.sort_by_key(|p| std::cmp::Reverse(p.len()));
        for phrase in phrases {
            let mut lp = phrase.to_lowercase();
            // "name" also reads "named" ("an account named bybit-2").
            if lp.is_ascii() && lp.ends_with('e') && find_phrase(&scan.text, &lp).is_none() {
                lp.push('d');
            }
            if let Some(at) = find_phrase(&scan.text, &lp)
                && !noun_after_a_name(&scan.text, at, &lp, nouns, names)
                && let Some((_, s, e)) = value_after(&scan.text, at + lp.len())
            {
                // Free text runs to the end: "提示词改成：只做多，不做空", "description to hello
                // world" (a closing quote and a full stop are not part of it).
                let e = if slot.text { scan.text.len() } else { e };
                let mut value = scan.said(s, e);
                if slot.text {
                    value = value
                        .trim_end_matches(['"', '」', '\'', '。', '.'])
                        .trim()
                        .to_string();
                }
                // In a change, a name the user already has is the target, not a new value:
                // "disable model ds" changes ds, it does not set a model name "ds". A new name
                // that is taken ("duplicate scalper as swing") is still the new name, and its
                // taker is said so.
                let names_target = action.slot("target").is_some()
                    && !holds_own_name(slot)
                    && names
                        .entries
                        .iter()
                        .any(|n| n.lower == value.to_lowercase());
                // "the model name of ds is wrong": "name" is a word of the field's own phrase
                // ("model name"), not its value.
                let own_word = slot
                    .phrases
                    .iter()
                    .any(|p| p.split_whitespace().any(|w| w.eq_ignore_ascii_case(&value)));
                if names_target || own_word {
                    continue;
                }
                let ok = slot.compiled_pattern().is_none_or(|re| re.is_match(&value));
                if ok && !value.is_empty() {
                    slots.insert(slot.name.clone(), Value::String(value));
                    blank(&mut scan.text, at, at + lp.len());
                    blank(&mut scan.text, s, e);
                    break;
                }
            }
        }
    }
}

/// "the rules model to rb": a phrase that is also the skill's noun, right after one of the
/// user's names, is that noun ("the model rules"), not the field it also names (a model's
/// model name).
fn noun_after_a_name(text: &str, at: usize, phrase: &str, nouns: &[String], names: &Names) -> bool {
    let is_noun = nouns.iter().any(|n| n.eq_ignore_ascii_case(phrase));
    let before = text[..at].trim_end();
    is_noun
        && names
            .entries
            .iter()
            .any(|n| !n.lower.is_empty() && before.ends_with(n.lower.as_str()))
}

/// Names of the user's resources, for ref slots; else a type said for the one resource of
/// that type, "it", part of a name, or a word beside the noun.
#[allow(clippy::too_many_arguments)]
fn refs(
    action: &Action,
    nouns: &[String],
    scan: &mut Scan,
    names: &Names,
    lexicon: &Lexicon,
    current: &dyn Fn(ResourceKind) -> Option<String>,
    slots: &mut Map<String, Value>,
) {
    for slot in action.slots.iter().filter(|s| s.ty == SlotType::Ref) {
        let Some(kind) = slot.ref_kind else { continue };
        if slots.contains_key(&slot.name) {
            continue;
        }
        let text = &scan.text;
        let mentioned = names.mentioned(text);
        let hit = named_ref(slot, kind, &mentioned, slots);
        if let Some((name, s, t)) = hit {
            slots.insert(slot.name.clone(), Value::String(name));
            blank(&mut scan.text, s, t);
            continue;
        }
        // A type said for the one resource of that type ("the deepseek model", "ds"): kept
        // as said, so resolution can tell the type's name from a short form of it.
        if let Some((_, s, t)) = lexicon.class_in(kind, text) {
            slots.insert(slot.name.clone(), Value::String(text[s..t].to_string()));
            blank(&mut scan.text, s, t);
            continue;
        }
        if slot.name == "target"
            && lexicon.any_in(WordClass::Reference, text)
            && let Some(name) = current(kind)
        {
            slots.insert(slot.name.clone(), Value::String(name));
            continue;
        }
        // A part of a name; the kind's own noun only where a name begins with it: "delete
        // bot" with bot1 and bot2 asks which, "my bot" with btc-bot names no bot.
        if slot.name == "target"
            && let Some((word, _)) = names.partial(text, kind)
            && (!nouns.iter().any(|n| n.eq_ignore_ascii_case(&word))
                || names.begins_a_name(&word, kind))
        {
            slots.insert(slot.name.clone(), Value::String(word));
            continue;
        }
        // A word beside the noun is a weak reading: it names a resource only where one is
        // required ("delete the kraken account"), never for an optional look-up
        // ("which strategies do I have?"). An optional reference said with its own phrase
        // ("using the agressive strategy") is kept as said, so a misspelt or missing name is
        // reported instead of the default taking its place unseen.
        if !slot.required {
            let phrases: Vec<&String> = slot.phrases.iter().collect();
            if slot.name != "target"
                && let Some(word) = word_beside(text, &phrases, lexicon)
                && !lexicon.words(WordClass::Descriptor).contains(&word)
            {
                slots.insert(slot.name.clone(), Value::String(word));
            }
            continue;
        }
        let said_nouns: Vec<&String> = if slot.name == "target" {
            nouns.iter().collect()
        } else {
            slot.phrases.iter().collect()
        };
        if let Some(word) = word_beside(text, &said_nouns, lexicon) {
            slots.insert(slot.name.clone(), Value::String(word));
        }
    }
}

/// The first name of `kind` said, for `slot`: (name, start, end).
fn named_ref(
    slot: &nofxi_skills::Slot,
    kind: ResourceKind,
    mentioned: &[(&super::names::NameEntry, usize, usize)],
    slots: &Map<String, Value>,
) -> Option<(String, usize, usize)> {
    // "rename trader alpha to beta" with a strategy also called alpha: the one mention
    // of the name is the target, not also a new strategy for it.
    let is_target_again = |name: &str| {
        slot.name != "target"
            && slots
                .get("target")
                .and_then(Value::as_str)
                .is_some_and(|t| t.eq_ignore_ascii_case(name))
            && mentioned
                .iter()
                .filter(|(e, ..)| e.lower == name.to_lowercase())
                .map(|(_, s, _)| s)
                .collect::<std::collections::BTreeSet<_>>()
                .len()
                < 2
    };
    mentioned
        .iter()
        .find(|(e, _, _)| e.kind == kind && !is_target_again(&e.name))
        .map(|(e, s, t)| (e.name.clone(), *s, *t))
}

/// Names said without a phrase, read last, from what no other value used:
/// - a new resource's name right after the noun ("新建一个交易员 alpha2");
/// - the target of a change as a made-up word ("set min confidence on grid-master to 90") or
///   a Chinese word between the verb and the noun ("激活网格策略"), so resolution can say
///   "not found" with the user's word instead of asking as if nothing was said.
fn said_names(
    action: &Action,
    nouns: &[String],
    scan: &Scan,
    lexicon: &Lexicon,
    slots: &mut Map<String, Value>,
) {
    let nouns: Vec<&String> = nouns.iter().collect();
    let creates = action.slot("target").is_none();
    // "what models do I have?" while a model is created names nothing new: "do" is no name.
    let asks_what_exists = asks::asks_what_exists(&scan.text, lexicon);
    if creates
        && !asks_what_exists
        && let Some(slot) = action
            .slots
            .iter()
            .find(|s| s.required && s.ty == SlotType::String)
        && !slots.contains_key(&slot.name)
        && let Some(word) = word_after(&scan.text, &nouns, lexicon)
        && !nouns.iter().any(|n| n.to_lowercase() == word)
    {
        slots.insert(slot.name.clone(), Value::String(scan.as_said(&word)));
    }
    if let Some(target) = action.slot("target")
        && !slots.contains_key("target")
    {
        let word = made_up_name(&scan.text, lexicon).or_else(|| {
            target
                .required
                .then(|| cjk_between(&scan.text, &action.verbs, &nouns, lexicon))
                .flatten()
        });
        if let Some(word) = word {
            slots.insert("target".into(), Value::String(scan.as_said(&word)));
        }
    }
}
