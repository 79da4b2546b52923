//! Calendar days for `date` slots: a date written out (`2026-03-05`, `2026/3/5`,
//! `2026年3月5日`), else one of the slot's words (今天, yesterday) as its value. Read before
//! the numbers, so a date's digits are never a quantity or a price.

use std::sync::LazyLock;

use nofxi_skills::{Action, SlotType};
use regex::Regex;
use serde_json::{Map, Value};

use super::Scan;
use super::tokens::blank;
use crate::nlu::words::find_phrase;

/// Month and day with the Chinese date signs and no year (3月12日, 3月12号): the last such
/// day on or before today.
static MONTH_DAY: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"(\d{1,2})\s*\x{6708}\s*(\d{1,2})\s*[\x{65E5}\x{53F7}]").ok());

/// Year, month, day separated by `-`, `/` or the Chinese date signs (年 月 日, written as
/// code points: they are the format's punctuation, not words).
static WRITTEN_DATE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"(\d{4})\s*[-/\x{5E74}]\s*(\d{1,2})\s*[-/\x{6708}]\s*(\d{1,2})\s*\x{65E5}?").ok()
});

/// Where `text` writes a date out (`2026-03-05`, `3月12日`): its spans, for coverage.
pub fn written_date_spans(text: &str) -> Vec<(usize, usize)> {
    [&*WRITTEN_DATE, &*MONTH_DAY]
        .into_iter()
        .flatten()
        .flat_map(|re| re.find_iter(text).map(|m| (m.start(), m.end())))
        .collect()
}

pub(super) fn dates(action: &Action, scan: &mut Scan, slots: &mut Map<String, Value>) {
    for slot in action.slots.iter().filter(|s| s.ty == SlotType::Date) {
        if slots.contains_key(&slot.name) {
            continue;
        }
        let written = WRITTEN_DATE
            .as_ref()
            .and_then(|re| re.captures(&scan.text))
            .and_then(|m| {
                let whole = m.get(0)?;
                let day = format!("{}-{:0>2}-{:0>2}", &m[1], &m[2], &m[3]);
                Some((day, whole.start(), whole.end()))
            });
        let written = written.or_else(|| {
            let m = MONTH_DAY.as_ref()?.captures(&scan.text)?;
            let whole = m.get(0)?;
            let day = last_on_or_before(m[1].parse().ok()?, m[2].parse().ok()?)?;
            Some((day, whole.start(), whole.end()))
        });
        if let Some((day, from, to)) = written {
            slots.insert(slot.name.clone(), Value::String(day));
            blank(&mut scan.text, from, to);
            continue;
        }
        // The longest word first: "day before yesterday" is not "yesterday".
        let mut words: Vec<(&str, String)> = slot
            .values
            .iter()
            .flat_map(|v| {
                std::iter::once(v.value.as_str())
                    .chain(v.aliases.iter().map(String::as_str))
                    .map(move |w| (v.value.as_str(), w.to_lowercase()))
            })
            .collect();
        words.sort_by_key(|(_, w)| std::cmp::Reverse(w.len()));
        for (value, word) in words {
            if let Some(at) = find_phrase(&scan.text, &word) {
                slots.insert(slot.name.clone(), Value::String(value.to_string()));
                blank(&mut scan.text, at, at + word.len());
                break;
            }
        }
        // "上周五", "last Friday", "March 12": a day said in a way not read here is asked
        // for, never replaced by the default.
        if slots.contains_key(&slot.name) {
            continue;
        }
        let said = slot.phrases.iter().find_map(|p| {
            let p = p.to_lowercase();
            find_phrase(&scan.text, &p).map(|at| (at, at + p.len()))
        });
        if let Some((from, to)) = said {
            // "March 1", "5号": the number with the word is the day's, never a quantity.
            let digits = with_its_number(&scan.text, to);
            blank(&mut scan.text, from, digits);
            slots.insert(slot.name.clone(), Value::Null);
        }
    }
}

/// `month`/`day` in this year, or last year's when this year's is still to come.
fn last_on_or_before(month: i8, day: i8) -> Option<String> {
    let today = jiff::ZonedDateTime::now().date();
    let this_year = jiff::civil::Date::new(today.year(), month, day).ok()?;
    let date = match this_year > today {
        true => jiff::civil::Date::new(today.year() - 1, month, day).ok()?,
        false => this_year,
    };
    Some(date.to_string())
}

/// Where a day is said in `text`: dates written out (either form above), and for `action`'s
/// date slots one of their words with its number ("March 1", "5号"). Their digits are the
/// day's, never numbers left unplaced.
pub(crate) fn day_spans(action: &Action, text: &str) -> Vec<(usize, usize)> {
    let mut spans: Vec<(usize, usize)> = [&WRITTEN_DATE, &MONTH_DAY]
        .into_iter()
        .filter_map(|re| re.as_ref())
        .flat_map(|re| re.find_iter(text).map(|m| (m.start(), m.end())))
        .collect();
    for slot in action.slots.iter().filter(|s| s.ty == SlotType::Date) {
        for phrase in &slot.phrases {
            let phrase = phrase.to_lowercase();
            if let Some(at) = find_phrase(text, &phrase) {
                spans.push((at, with_its_number(text, at + phrase.len())));
            }
        }
    }
    spans
}

/// Where the number right after `end` (spaces allowed) ends; `end` when none follows.
fn with_its_number(text: &str, end: usize) -> usize {
    text[end..]
        .char_indices()
        .find(|(_, c)| !(c.is_ascii_digit() || *c == ' '))
        .map_or(text.len(), |(i, _)| end + i)
}
