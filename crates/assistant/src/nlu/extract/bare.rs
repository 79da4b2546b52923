//! A bare answer to the slots just asked ("btc-bot", "主账户, DeepSeek", "use gpt-4.1"): each
//! part fills the first asked slot it fits.

use nofxi_skills::{Action, Slot, SlotType, WordClass};
use serde_json::{Map, Value};

use super::super::lexicon::Lexicon;
use super::super::names::Names;
use super::super::words::{strip_end_words, strip_start_words, trim_punct};

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
    // Each part as said (a credential keeps its closing "!": a passphrase may end in one)
    // and without its punctuation (everything else).
    let parts: Vec<(&str, &str)> = message
        .split(['，', ',', '、', '；', ';', '\n'])
        .map(|p| (p.trim(), trim_punct(p)))
        .filter(|(_, p)| !p.is_empty())
        .collect();
    let secret_asked = asked
        .iter()
        .any(|n| action.slot(n).is_some_and(|s| s.is_secret()));
    for (said, part) in parts {
        // "用 binance", "就叫 alpha 吧": the lead and the softener are not the value.
        let part = strip_start_words(part, lexicon.words(WordClass::AnswerLead));
        let part = strip_end_words(part, lexicon.words(WordClass::Softener));
        let lower = part.to_lowercase();
        // "paper" after "name, exchange and model?" is the exchange the phrases already read
        // it as, not also the trader's name.
        let used = already
            .values()
            .any(|v| v.as_str().is_some_and(|s| s.eq_ignore_ascii_case(part)));
        if used {
            continue;
        }
        for name in asked {
            if out.contains_key(name) || already.contains_key(name) {
                continue;
            }
            let Some(slot) = action.slot(name) else {
                continue;
            };
            let fits = fits(slot, part, &lower, names, lexicon, secret_asked);
            if fits {
                let value = value_of(slot, part, said, lexicon);
                // Asked slots that share a phrase with this one are one setting said once
                // ("leverage" is both leverages): the number answers them all.
                if matches!(slot.ty, SlotType::Integer | SlotType::Decimal) {
                    for other in asked.iter().filter(|o| *o != name) {
                        if action.slot(other).is_some_and(|o| {
                            o.ty == slot.ty
                                && o.phrases
                                    .iter()
                                    .any(|p| slot.phrases.iter().any(|q| q.eq_ignore_ascii_case(p)))
                        }) {
                            out.insert(other.clone(), value.clone());
                        }
                    }
                }
                out.insert(name.clone(), value);
                break;
            }
        }
    }
    out
}

/// Whether `part` (`lower`, lower-cased) fits `slot` as its value.
fn fits(
    slot: &Slot,
    part: &str,
    lower: &str,
    names: &Names,
    lexicon: &Lexicon,
    secret_asked: bool,
) -> bool {
    match slot.ty {
        SlotType::Ref => slot.ref_kind.is_some_and(|k| {
            names.mentioned(lower).iter().any(|(e, _, _)| e.kind == k)
                || lexicon.class_in(k, lower).is_some()
        }),
        SlotType::Enum => slot.canonical_value(part).is_some(),
        SlotType::Integer | SlotType::Decimal => {
            part.parse::<f64>().is_ok()
                || lexicon.numbers(part).len() == 1
                    && lexicon.numbers(part).iter().all(|n| n.unit.is_some())
        }
        SlotType::Boolean => false,
        // A credential is one run of printable ASCII: a reply like "不是币安，是 OKX"
        // to the api-key question is a correction, never the key.
        _ if slot.is_secret() => looks_like_credential(part),
        // A pasted key is never a name, even when the name is asked first.
        _ => {
            let pasted_key = secret_asked && crate::scrub::scrub(part) != part;
            !part.contains(' ') && !pasted_key
        }
    }
}

/// `part` as the value of `slot`; `said` is the part as typed.
fn value_of(slot: &Slot, part: &str, said: &str, lexicon: &Lexicon) -> Value {
    match slot.ty {
        SlotType::Enum => Value::String(slot.canonical_value(part).unwrap_or(part).to_string()),
        SlotType::Integer | SlotType::Decimal => lexicon
            .numbers(part)
            .first()
            .map(|n| {
                // "90%" for a setting kept as a fraction is 0.9.
                let text = super::values::as_fraction(&n.text, n.unit, slot.max);
                text.parse::<i64>()
                    .map(Value::from)
                    .unwrap_or(Value::String(text))
            })
            .unwrap_or(Value::String(part.to_string())),
        // As said, but for quotes and a sentence's end after a key-shaped value.
        _ if slot.is_secret() => {
            let said = said.trim_matches(['"', '\'', '“', '”', '「', '」', '`']);
            Value::String(super::tokens::without_sentence_end(said).to_string())
        }
        _ => Value::String(part.to_string()),
    }
}

/// API keys, secrets, passphrases and private keys are printable ASCII without whitespace;
/// anything else answering a credential question is something else (a correction, a question).
fn looks_like_credential(text: &str) -> bool {
    text.chars().count() >= 4 && text.chars().all(|c| c.is_ascii_graphic())
}
