//! Slot values from a message, for one action, using only the skill's slot data: phrases,
//! units, enum values and aliases, types. Spans already used by one value are blanked so a
//! name like "paper-test" never also reads as the exchange type "paper".

use nofxi_skills::{Action, ResourceKind, SlotType, Unit};
use serde_json::{Map, Value};

use super::lexicon::Lexicon;
use super::names::Names;
use super::numbers::numbers;
use super::words::{NEGATIVE, REFERENCE, find_phrase, trim_punct};

/// What a message gives: slot → value as said (refs as names/words, resolved later).
pub struct Extraction {
    pub slots: Map<String, Value>,
}

const SKIP: &[&str] = &[
    "改成",
    "改为",
    "换成",
    "设为",
    "设成",
    "叫做",
    "命名为",
    "是",
    "为",
    "成",
    "叫",
    "用",
    ":",
    "：",
    "=",
    "to ",
    "of ",
    "as ",
    "is ",
    "\"",
    "「",
    "'",
];
const STOP: &[char] = &[
    ' ', '，', ',', '。', '的', '"', '」', '\'', '；', ';', '、', '吧', '）', ')',
];

fn blank(text: &mut String, start: usize, end: usize) {
    if start < end
        && end <= text.len()
        && text.is_char_boundary(start)
        && text.is_char_boundary(end)
    {
        let spaces = " ".repeat(end - start);
        text.replace_range(start..end, &spaces);
    }
}

/// The token after `at`, skipping connective words; (value, start, end) in `text`.
fn token_after(text: &str, at: usize) -> Option<(String, usize, usize)> {
    let mut i = at;
    loop {
        let rest = &text[i..];
        let trimmed = rest.trim_start();
        i += rest.len() - trimmed.len();
        match SKIP.iter().find(|s| trimmed.starts_with(**s)) {
            Some(s) => i += s.len(),
            None => break,
        }
    }
    let rest = &text[i..];
    let end = rest.find(STOP).unwrap_or(rest.len());
    let value = rest[..end].trim();
    (!value.is_empty()).then(|| (value.to_string(), i, i + end))
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
    // Work on a lower-cased copy with the original's byte layout for ASCII; CJK has no case.
    let original = message.to_string();
    let mut text = message.to_lowercase();
    if text.len() != original.len() {
        text = original.clone();
    }

    // Secrets first: their values must never be read as anything else.
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
        if let Some(at) = find_phrase(&text, &lower_phrase)
            && let Some((s, e)) = key_after(&text, at + lower_phrase.len())
        {
            let value = original.get(s..e).unwrap_or_default().to_string();
            slots.insert(slot.to_string(), Value::String(value));
            blank(&mut text, at, e);
        }
    }

    // Strings named by a phrase ("叫 btc-bot", "called eth-scalper").
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
            if lp.is_ascii() && lp.ends_with('e') && find_phrase(&text, &lp).is_none() {
                lp.push('d');
            }
            if let Some(at) = find_phrase(&text, &lp)
                && let Some((_, s, e)) = token_after_names(&text, at + lp.len(), names)
            {
                let value = original.get(s..e).unwrap_or_default().trim().to_string();
                let ok = slot.compiled_pattern().is_none_or(|re| re.is_match(&value));
                if ok && !value.is_empty() {
                    slots.insert(slot.name.clone(), Value::String(value));
                    blank(&mut text, at, e);
                    break;
                }
            }
        }
    }

    // Names of the user's resources, for ref slots.
    for slot in action.slots.iter().filter(|s| s.ty == SlotType::Ref) {
        let Some(kind) = slot.ref_kind else { continue };
        let hit = names
            .mentioned(&text)
            .into_iter()
            .find(|(e, _, _)| e.kind == kind)
            .map(|(e, s, t)| (e.name.clone(), s, t));
        if let Some((name, s, t)) = hit {
            slots.insert(slot.name.clone(), Value::String(name));
            blank(&mut text, s, t);
            continue;
        }
        if let Some((value, s, t)) = lexicon.class_in(kind, &text) {
            slots.insert(slot.name.clone(), Value::String(value.to_string()));
            blank(&mut text, s, t);
            continue;
        }
        if slot.name == "target"
            && REFERENCE.iter().any(|w| find_phrase(&text, w).is_some())
            && let Some(name) = current(kind)
        {
            slots.insert(slot.name.clone(), Value::String(name));
            continue;
        }
        if slot.name == "target"
            && let Some((word, _)) = names.partial(&text, kind)
        {
            slots.insert(slot.name.clone(), Value::String(word));
            continue;
        }
        let said_nouns: Vec<&String> = if slot.name == "target" {
            nouns.iter().collect()
        } else {
            slot.phrases.iter().collect()
        };
        if let Some(word) = word_beside(&text, &said_nouns) {
            slots.insert(slot.name.clone(), Value::String(word));
        }
    }

    // Enum values by value or alias.
    for slot in action.slots.iter().filter(|s| s.ty == SlotType::Enum) {
        let mut best: Option<(usize, &str, usize, usize)> = None;
        for v in &slot.values {
            for word in std::iter::once(&v.value).chain(v.aliases.iter()) {
                let lw = word.to_lowercase();
                if let Some(at) = find_phrase(&text, &lw)
                    && best.is_none_or(|(len, ..)| lw.len() > len)
                {
                    best = Some((lw.len(), v.value.as_str(), at, at + lw.len()));
                }
            }
        }
        if let Some((_, value, s, t)) = best {
            slots.insert(slot.name.clone(), Value::String(value.to_string()));
            blank(&mut text, s, t);
        }
    }

    // Numbers: by the nearest preceding slot phrase, else by unit.
    let numeric: Vec<_> = action
        .slots
        .iter()
        .filter(|s| matches!(s.ty, SlotType::Integer | SlotType::Decimal))
        .collect();
    for n in numbers(&text) {
        let mut chosen: Option<&str> = None;
        let mut nearest = usize::MAX;
        for s in &numeric {
            for p in &s.phrases {
                let lp = p.to_lowercase();
                if let Some(at) = text[..n.start].rfind(&lp) {
                    let dist = n.start - (at + lp.len());
                    if dist < nearest && dist <= 24 && !slots.contains_key(&s.name) {
                        nearest = dist;
                        chosen = Some(&s.name);
                    }
                }
            }
        }
        if chosen.is_none() {
            let after = &text[n.end..];
            chosen = numeric
                .iter()
                .filter(|s| !slots.contains_key(&s.name))
                .filter_map(|s| {
                    s.phrases
                        .iter()
                        .filter_map(|p| find_phrase(after, &p.to_lowercase()))
                        .filter(|at| *at <= 16)
                        .min()
                        .map(|at| (at, s.name.as_str()))
                })
                .min_by_key(|(at, _)| *at)
                .map(|(_, name)| name);
        }
        if chosen.is_none()
            && let Some(unit) = n.unit
        {
            chosen = numeric
                .iter()
                .find(|s| s.unit == Some(unit) && !slots.contains_key(&s.name))
                .map(|s| s.name.as_str());
        }
        if let Some(name) = chosen {
            let value = match n.text.parse::<i64>() {
                Ok(i) => Value::from(i),
                Err(_) => Value::String(n.text.clone()),
            };
            slots.insert(name.to_string(), value);
        }
    }

    // Booleans named by a phrase; a negative phrase (逐仓, 停用) means false.
    for slot in action.slots.iter().filter(|s| s.ty == SlotType::Boolean) {
        let mut phrases: Vec<&String> = slot.phrases.iter().collect();
        phrases.sort_by_key(|p| std::cmp::Reverse(p.len()));
        for phrase in phrases {
            let lp = phrase.to_lowercase();
            if let Some(at) = find_phrase(&text, &lp) {
                let before = &text[..at];
                let negated = NEGATIVE.contains(&lp.as_str())
                    || before.ends_with('不')
                    || before.ends_with("不要")
                    || before.trim_end().ends_with("no")
                    || before.trim_end().ends_with("not");
                slots.insert(slot.name.clone(), Value::Bool(!negated));
                break;
            }
        }
    }

    // Lists of symbols after their phrase ("币种 BTC、ETH").
    for slot in action
        .slots
        .iter()
        .filter(|s| s.list && s.ty == SlotType::Symbol)
    {
        for p in &slot.phrases {
            let lp = p.to_lowercase();
            if let Some(at) = find_phrase(&text, &lp) {
                let coins: Vec<Value> = original
                    .get(at + lp.len()..)
                    .unwrap_or_default()
                    .split(|c: char| !c.is_ascii_alphanumeric())
                    .filter(|w| {
                        (2..=10).contains(&w.len()) && w.chars().all(|c| c.is_ascii_alphabetic())
                    })
                    .take_while(|w| !matches!(w.to_lowercase().as_str(), "and" | "with"))
                    .map(|w| Value::String(w.to_uppercase()))
                    .collect();
                if !coins.is_empty() {
                    slots.insert(slot.name.clone(), Value::Array(coins));
                    break;
                }
            }
        }
    }
    Extraction { slots }
}

/// A bare answer to the slots just asked: "btc-bot", "主账户, DeepSeek". Each part fills the
/// first asked slot it fits; refs by the user's names, enums by alias, numbers by type.
pub fn bare_answer(
    action: &Action,
    asked: &[String],
    message: &str,
    names: &Names,
    lexicon: &Lexicon,
    already: &Map<String, Value>,
) -> Map<String, Value> {
    let mut out = Map::new();
    let parts: Vec<&str> = message
        .split(['，', ',', '、', '；', ';', '\n'])
        .map(trim_punct)
        .filter(|p| !p.is_empty())
        .collect();
    for part in parts {
        let part = part
            .trim_start_matches("用")
            .trim_start_matches("叫")
            .trim_start_matches("就")
            .trim_end_matches('吧')
            .trim();
        let lower = part.to_lowercase();
        for name in asked {
            if out.contains_key(name) || already.contains_key(name) {
                continue;
            }
            let Some(slot) = action.slot(name) else {
                continue;
            };
            let fits = match slot.ty {
                SlotType::Ref => slot.ref_kind.is_some_and(|k| {
                    names.mentioned(&lower).iter().any(|(e, _, _)| e.kind == k)
                        || lexicon.class_in(k, &lower).is_some()
                }),
                SlotType::Enum => slot.canonical_value(part).is_some(),
                SlotType::Integer | SlotType::Decimal => {
                    part.parse::<f64>().is_ok()
                        || numbers(part).len() == 1
                            && numbers(part).iter().all(|n| n.unit.is_some())
                }
                SlotType::Boolean => false,
                // A credential is one run of printable ASCII: a reply like "不是币安，是 OKX"
                // to the api-key question is a correction, never the key.
                _ if slot.is_secret() => looks_like_credential(part),
                _ => !part.contains(' '),
            };
            if fits {
                let value = match slot.ty {
                    SlotType::Enum => {
                        Value::String(slot.canonical_value(part).unwrap_or(part).to_string())
                    }
                    SlotType::Integer | SlotType::Decimal => numbers(part)
                        .first()
                        .map(|n| {
                            n.text
                                .parse::<i64>()
                                .map(Value::from)
                                .unwrap_or(Value::String(n.text.clone()))
                        })
                        .unwrap_or(Value::String(part.to_string())),
                    _ => Value::String(part.to_string()),
                };
                out.insert(name.clone(), value);
                break;
            }
        }
    }
    out
}

/// Whether a message names this unit anywhere (used by tests and the router's confidence).
pub fn has_unit(message: &str, unit: Unit) -> bool {
    numbers(message).iter().any(|n| n.unit == Some(unit))
}

/// Words that sit next to a noun without naming anything.
const NOT_NAMES: &[&str] = &[
    "the", "my", "a", "an", "on", "with", "called", "named", "to", "for", "it", "that", "this",
    "and", "using", "use", "of", "in", "new", "all", "your", "one", "is", "be",
];

/// An ASCII word right after or right before a noun ("the model mistral", "the kraken
/// account"): what the user called a resource that may not exist. Resolution then says
/// "not found" with that word instead of asking as if nothing was said.
fn word_beside(text: &str, nouns: &[&String]) -> Option<String> {
    let is_name = |w: &str| {
        !w.is_empty()
            && w.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            && !NOT_NAMES.contains(&w)
    };
    for noun in nouns {
        let n = noun.to_lowercase();
        if !n.is_ascii() {
            continue;
        }
        let Some(at) = find_phrase(text, &n) else {
            continue;
        };
        let after = text[at + n.len()..].trim_start_matches('s');
        if let Some(w) = after
            .split_whitespace()
            .next()
            .map(|w| w.trim_matches(|c: char| !c.is_ascii_alphanumeric() && c != '-'))
            && is_name(w)
        {
            return Some(w.to_string());
        }
        if let Some(w) = text[..at].split_whitespace().last()
            && is_name(w)
        {
            return Some(w.to_string());
        }
    }
    None
}

/// The first credential-looking token after a phrase ("rotate the API key on main to
/// ak-987654321"): six or more characters with a digit, `-` or `_`, within a few words.
fn key_after(text: &str, at: usize) -> Option<(usize, usize)> {
    let mut pos = at;
    for _ in 0..6 {
        let (_, s, e) = token_after(text, pos)?;
        let token = &text[s..e];
        let looks_like_key = token.chars().count() >= 6
            && token
                .chars()
                .any(|c| c.is_ascii_digit() || c == '-' || c == '_')
            && !token.starts_with("http");
        if looks_like_key {
            return Some((s, e));
        }
        pos = e;
    }
    None
}

/// Like `token_after`, but passes over the user's existing names: in "rename eth-bot to
/// eth-main" the new name is the word after the old one.
fn token_after_names(text: &str, at: usize, names: &Names) -> Option<(String, usize, usize)> {
    let mut pos = at;
    for _ in 0..3 {
        let (value, s, e) = token_after(text, pos)?;
        let known = names
            .entries
            .iter()
            .any(|n| n.lower == value.to_lowercase());
        let rest = text[e..].trim_start();
        let renames = ["to ", "改成", "改为", "成", "为", "as "]
            .iter()
            .any(|w| rest.starts_with(w));
        if !(known && renames) {
            return Some((value, s, e));
        }
        pos = e;
    }
    None
}

/// API keys, secrets, passphrases and private keys are printable ASCII without whitespace;
/// anything else answering a credential question is something else (a correction, a question).
fn looks_like_credential(text: &str) -> bool {
    text.chars().count() >= 4 && text.chars().all(|c| c.is_ascii_graphic())
}
