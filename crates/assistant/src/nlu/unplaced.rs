//! Every number said is applied or named (issue 24): a number the reading did not place.
//!
//! "create a trader zeta on paper with builtin, give it 2.5k" reads as a create whose
//! initial balance has no phrase, and the create went on with the default 1000: money the
//! user set, silently replaced. A number of the message that no slot of the reading holds
//! is "unplaced"; [`unplaced`] finds them, and [`super::unexplained::account_for`] names
//! each one back with the settings it could be ("2.5k — the initial balance?") instead of
//! acting as if it had not been said.
//!
//! A number is placed when it lies in a name the user has, in quoted text, in a text value
//! the reading took (a new name "bot2"), right after a "from" word (the old value of "from 5
//! to 10"), or when its value is one the reading (or the open task) holds.

use std::collections::BTreeMap;

use nofxi_skills::{Action, Lang, SlotType, Unit, WordClass};
use rust_decimal::Decimal;
use serde_json::Value;

use super::Context;
use super::extract::interval_of_minutes;
use super::numbers::Number;
use super::route::quoted_spans;
use super::words::phrase_positions;

/// A number the reading left, with the settings of the action it could be.
#[derive(Debug, Clone, PartialEq)]
pub struct Unplaced {
    /// As the user wrote it ("2.5k", "两千五").
    pub said: String,
    /// The value in the unit's base ("2500").
    pub value: String,
    /// Numeric settings of the action the reading left unset whose unit fits the number.
    pub candidates: Vec<String>,
}

/// Numbers of `message` the reading of `action` with `slots` does not place.
pub fn unplaced(
    message: &str,
    action: &Action,
    slots: &BTreeMap<String, Value>,
    cx: &Context<'_>,
) -> Vec<Unplaced> {
    let lower = message.to_lowercase();
    // Lower-casing can move bytes outside ASCII; then spans would not line up.
    if lower.len() != message.len() {
        return Vec::new();
    }
    let covered = covered_spans(&lower, action, slots, cx);
    let intervals: Vec<&str> = slots.values().filter_map(Value::as_str).collect();
    let held: Vec<Decimal> = slots
        .values()
        .chain(cx.top_slots.into_iter().flat_map(|m| m.values()))
        .filter_map(as_decimal)
        .collect();
    cx.lexicon
        .numbers(message)
        .into_iter()
        .filter(|n| !covered.iter().any(|&(a, b)| a <= n.start && n.end <= b))
        .filter(|n| !after_from_word(&lower, n.start, cx))
        .filter(|n| !holds(&held, n))
        // "周期改成 1 小时" took 1h: the hour is the interval held.
        .filter(|n| {
            n.unit != Some(Unit::Minutes)
                || interval_of_minutes(&n.text).is_none_or(|code| !intervals.contains(&code))
        })
        .map(|n| Unplaced {
            said: message[n.start..n.end].trim().to_string(),
            candidates: candidates(action, slots, &n),
            value: n.text,
        })
        .collect()
}

/// What a user would say to set `slot` to `value`: the slot's first phrase in `lang` and the
/// value ("initial balance 2500", "初始资金 2500"), which the rules read as that setting.
pub fn setting_said(action: &Action, slot: &str, value: &str, lang: Lang) -> Option<String> {
    let phrase = action
        .slot(slot)?
        .phrases
        .iter()
        .find(|p| Lang::detect(p) == lang)?;
    Some(format!("{phrase} {value}"))
}

/// Spans the reading explains: the user's names, quoted text and the text values it took.
fn covered_spans(
    lower: &str,
    action: &Action,
    slots: &BTreeMap<String, Value>,
    cx: &Context<'_>,
) -> Vec<(usize, usize)> {
    let mut spans: Vec<(usize, usize)> = cx
        .names
        .mentioned(lower)
        .into_iter()
        .map(|(_, a, b)| (a, b))
        .collect();
    spans.extend(quoted_spans(lower));
    spans.extend(super::extract::dates::day_spans(action, lower));
    let texts = slots
        .values()
        .flat_map(|v| match v {
            Value::String(s) => vec![s.to_lowercase()],
            Value::Array(items) => items
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_lowercase)
                .collect(),
            _ => Vec::new(),
        })
        .filter(|s| s.chars().any(|c| !c.is_ascii_digit() && c != '.'));
    for text in texts {
        let len = text.len();
        spans.extend(phrase_positions(lower, &text).map(|at| (at, at + len)));
    }
    spans
}

/// "from 5 to 10": the 5 is the old value, said to be replaced.
fn after_from_word(lower: &str, at: usize, cx: &Context<'_>) -> bool {
    let before = lower[..at].trim_end();
    cx.lexicon
        .words(WordClass::FromValue)
        .iter()
        .any(|w| before.ends_with(w.as_str()))
}

/// Whether a value held is the number, as said or as a fraction of a percent setting.
fn holds(held: &[Decimal], n: &Number) -> bool {
    let Ok(value) = Decimal::from_str_exact(&n.text) else {
        return true;
    };
    let as_fraction = (n.unit == Some(Unit::Percent)).then(|| value / Decimal::ONE_HUNDRED);
    held.iter().any(|h| *h == value || Some(*h) == as_fraction)
}

fn as_decimal(v: &Value) -> Option<Decimal> {
    match v {
        Value::Number(n) => Decimal::from_str_exact(&n.to_string()).ok(),
        Value::String(s) => Decimal::from_str_exact(s.trim()).ok(),
        _ => None,
    }
}

/// Numeric settings the reading left unset that could take the number: its unit fits (any
/// for a bare number, those of its unit for "5 minutes" or "10x") and it lies in their range
/// (2500 is no scan interval of 3–60 minutes).
fn candidates(action: &Action, slots: &BTreeMap<String, Value>, n: &Number) -> Vec<String> {
    let value = Decimal::from_str_exact(&n.text).ok();
    let bound = |b: Option<f64>| b.and_then(|b| Decimal::try_from(b).ok());
    let in_range = |s: &&nofxi_skills::Slot| {
        let Some(v) = value else {
            return false;
        };
        let low = s.unit == Some(Unit::Percent) && n.unit == Some(Unit::Percent);
        // A percent setting kept as a fraction takes "90%" as 0.9.
        let v = match (low, s.max.is_some_and(|m| m <= 1.0)) {
            (true, true) => v / Decimal::ONE_HUNDRED,
            _ => v,
        };
        bound(s.min).is_none_or(|m| v >= m) && bound(s.max).is_none_or(|m| v <= m)
    };
    action
        .slots
        .iter()
        .filter(|s| matches!(s.ty, SlotType::Integer | SlotType::Decimal))
        .filter(|s| !slots.contains_key(&s.name))
        .filter(|s| n.unit.is_none() || s.unit == n.unit)
        // A setting that clamps takes any number said in its unit ("2 minutes" → 3).
        .filter(|s| in_range(s) || s.clamp && n.unit.is_some())
        .map(|s| s.name.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use nofxi_skills::Library;
    use serde_json::json;

    use super::*;
    use crate::nlu::lexicon::Lexicon;
    use crate::nlu::names::Names;

    /// The unplaced numbers of `message` read as a trader create holding `slots`.
    fn left(message: &str, slots: Value) -> Vec<Unplaced> {
        let library = Library::builtin().unwrap();
        let lexicon = Lexicon::from_library(&library);
        let names = Names::new(Vec::new());
        let none = |_| None;
        let cx = Context {
            library: &library,
            lexicon: &lexicon,
            names: &names,
            top: None,
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
        let action = library.action("trader_management", "create").unwrap();
        let slots: BTreeMap<String, Value> = serde_json::from_value(slots).unwrap();
        unplaced(message, action, &slots, &cx)
    }

    #[test]
    fn a_sum_no_slot_holds_is_unplaced_with_the_settings_it_fits() {
        let found = left("create zeta, give it 2.5k", json!({"name": "zeta"}));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].said, "2.5k");
        assert_eq!(found[0].value, "2500");
        assert!(found[0].candidates.contains(&"initial_balance".to_string()));
        // 2500 minutes is no scan interval (3–60 minutes, in its unit only).
        assert!(
            !found[0]
                .candidates
                .contains(&"scan_interval_minutes".to_string())
        );
    }

    #[test]
    fn a_number_a_slot_holds_is_placed() {
        let slots = json!({"name": "zeta", "initial_balance": 2500});
        assert!(left("create zeta with initial balance 2,500", slots).is_empty());
    }

    #[test]
    fn a_number_inside_a_name_taken_is_placed() {
        assert!(left("create a trader called bot2", json!({"name": "bot2"})).is_empty());
    }

    #[test]
    fn the_old_value_after_from_is_placed() {
        let slots = json!({"initial_balance": 10});
        assert!(left("change it from 5 to 10", slots).is_empty());
    }

    #[test]
    fn a_number_with_a_unit_fits_only_settings_of_that_unit() {
        let found = left("create zeta every 5 minutes", json!({"name": "zeta"}));
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].candidates,
            vec!["scan_interval_minutes".to_string()]
        );
    }
}
