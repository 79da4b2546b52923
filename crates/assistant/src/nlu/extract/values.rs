//! Typed values: enum values and aliases (a negated one, "不是币安", is not the value),
//! candle intervals, numbers by phrase or unit, booleans by phrase (symbol lists: `lists`).

use nofxi_skills::{Action, Slot, SlotType};

use super::super::numbers::Number;
use serde_json::{Map, Value};

use nofxi_skills::WordClass;

use super::super::lexicon::Lexicon;
use super::super::words::{find_phrase, preceded_by};
use super::Scan;
use super::tokens::blank;

/// Every occurrence of `phrase` in `text` (whole words for ASCII).
pub(super) fn occurrences(text: &str, phrase: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(rel) = text.get(from..).and_then(|t| find_phrase(t, phrase)) {
        out.push(from + rel);
        from += rel + phrase.len().max(1);
    }
    out
}

/// Enum values by value or alias, the longest said wins; a negated mention is skipped.
///
/// The mentions of every enum slot are weighed together, longest first: a longer alias of one
/// slot takes its words before a shorter alias of another inside it, so in "a paper account on
/// binance prices" the market source takes "binance prices" and the exchange type "paper",
/// where slot by slot the type would have taken "binance". Each slot keeps its longest mention.
pub fn enums(action: &Action, scan: &mut Scan, lexicon: &Lexicon, slots: &mut Map<String, Value>) {
    // "1350 港元": a value word that is also a number's phrase stays for the number to bind
    // to (the currency said, and the price it names).
    let number_phrases: Vec<String> = action
        .slots
        .iter()
        .filter(|s| matches!(s.ty, SlotType::Integer | SlotType::Decimal))
        .flat_map(|s| s.phrases.iter().map(|p| p.to_lowercase()))
        .collect();
    let mut said = enum_mentions(action, scan, lexicon);
    // Stable: among mentions of one length, the earlier slot, value and alias win as before.
    said.sort_by_key(|m| std::cmp::Reverse(m.end - m.start));
    let mut taken: Vec<(usize, usize)> = Vec::new();
    for m in said {
        if slots.contains_key(&m.slot.name) || taken.iter().any(|(s, t)| m.start < *t && *s < m.end)
        {
            continue;
        }
        slots.insert(m.slot.name.clone(), Value::String(m.value.to_string()));
        taken.push((m.start, m.end));
        let word = scan
            .text
            .get(m.start..m.end)
            .unwrap_or_default()
            .to_string();
        if !number_phrases.contains(&word) {
            blank(&mut scan.text, m.start, m.end);
        }
    }
}

/// One enum value said: where, for which slot, which value.
struct Mention<'a> {
    start: usize,
    end: usize,
    slot: &'a Slot,
    value: &'a str,
}

/// Every mention of each value and alias of every enum slot that is not negated, in the order
/// of the slots, their values and aliases, then of the text.
fn enum_mentions<'a>(action: &'a Action, scan: &Scan, lexicon: &Lexicon) -> Vec<Mention<'a>> {
    let mut out = Vec::new();
    for slot in action.slots.iter().filter(|s| s.ty == SlotType::Enum) {
        for v in &slot.values {
            for word in std::iter::once(&v.value).chain(v.aliases.iter()) {
                let lw = word.to_lowercase();
                let said = occurrences(&scan.text, &lw)
                    .into_iter()
                    .filter(|at| !preceded_by(&scan.text, *at, lexicon.words(WordClass::NotValue)));
                out.extend(said.map(|at| Mention {
                    start: at,
                    end: at + lw.len(),
                    slot,
                    value: v.value.as_str(),
                }));
            }
        }
    }
    out
}

/// Candle intervals ("15m candles", "4h 周期"): by the nearest phrase, else the first
/// interval slot still empty.
pub fn intervals(
    action: &Action,
    scan: &mut Scan,
    lexicon: &Lexicon,
    slots: &mut Map<String, Value>,
) {
    let interval_slots: Vec<_> = action
        .slots
        .iter()
        .filter(|s| s.ty == SlotType::Interval)
        .collect();
    if interval_slots.is_empty() {
        return;
    }
    let mut said: Vec<(usize, usize, String)> = nofxi_skills::validate::INTERVALS
        .iter()
        .filter_map(|i| find_phrase(&scan.text, i).map(|at| (at, at + i.len(), i.to_string())))
        .collect();
    // "15 分钟", "1 小时", "four hours": a duration that is a candle interval, as said.
    for n in lexicon.numbers(&scan.text) {
        let spoken = n.unit == Some(nofxi_skills::Unit::Minutes)
            && !said
                .iter()
                .any(|(at, end, _)| n.start < *end && *at < n.end);
        if let Some(code) = spoken.then(|| interval_of_minutes(&n.text)).flatten() {
            said.push((n.start, n.end, code.to_string()));
        }
    }
    for (at, end, interval) in said {
        // The gap between a slot's phrase and the interval, then the longer phrase: in
        // "longer timeframe 1d", "longer timeframe" (longer_timeframe) and "timeframe"
        // (primary_timeframe) end at the same place, and the longer one is meant.
        let near = |s: &&nofxi_skills::Slot| {
            s.phrases
                .iter()
                .filter_map(|p| {
                    let lp = p.to_lowercase();
                    let from = find_phrase(&scan.text, &lp)?;
                    let to = from + lp.len();
                    let gap = if to <= at {
                        at - to
                    } else {
                        from.saturating_sub(end)
                    };
                    Some((gap.min(64), std::cmp::Reverse(lp.len())))
                })
                .min()
                .unwrap_or((64, std::cmp::Reverse(0)))
        };
        let chosen = interval_slots
            .iter()
            .filter(|s| !slots.contains_key(&s.name))
            .min_by_key(|s| near(s))
            .map(|s| s.name.clone());
        if let Some(name) = chosen {
            slots.insert(name, Value::String(interval));
            blank(&mut scan.text, at, end);
        }
    }
}

/// The candle interval a duration in minutes is ("60" → 1h), if it is one.
pub fn interval_of_minutes(minutes: &str) -> Option<&'static str> {
    let m: u32 = minutes.parse().ok()?;
    let code = match m {
        1 => "1m",
        3 => "3m",
        5 => "5m",
        15 => "15m",
        30 => "30m",
        60 => "1h",
        120 => "2h",
        240 => "4h",
        360 => "6h",
        720 => "12h",
        1440 => "1d",
        _ => return None,
    };
    Some(code)
}

/// Numbers: by the nearest preceding slot phrase, else a phrase right after, else by unit.
pub fn numbers(
    action: &Action,
    scan: &mut Scan,
    lexicon: &Lexicon,
    slots: &mut Map<String, Value>,
) {
    let text = &scan.text;
    let numeric: Vec<_> = action
        .slots
        .iter()
        .filter(|s| matches!(s.ty, SlotType::Integer | SlotType::Decimal))
        .collect();
    let found = lexicon.numbers(text);
    // Each look-around below reads a bounded window, never the whole text again: per number
    // that would be quadratic in a long message.
    let longest = numeric
        .iter()
        .flat_map(|s| s.phrases.iter().map(String::len))
        .max()
        .unwrap_or(0);
    let other_setting_end = first_other_setting_end(text, lexicon);
    for (k, n) in found.iter().enumerate() {
        // "最低信心度从 78 调到 60", "from 1000 to 500": the first is what it was.
        if is_old_value(
            text,
            lexicon,
            n.start,
            found.get(k + 1).map(|next| next.start),
        ) {
            continue;
        }
        let before = phrase_before(text, n, &numeric, slots);
        let nearest = before.as_ref().map_or(usize::MAX, |b| b.1);
        let (mut chosen, mut chosen_phrase) =
            before.map_or((None, None), |(name, _, lp)| (Some(name), Some(lp)));
        // A phrase right after the number binds tighter than one further before it:
        // "15m candles and at most 3 positions".
        let after = window_after(&text[n.end..], longest);
        let right_after = phrase_right_after(after, n, &numeric, slots);
        if let Some((at, name, lp)) = right_after
            && at < nearest
        {
            chosen = Some(name);
            chosen_phrase = Some(lp);
        }
        let next_start = found.get(k + 1).map(|next| next.start);
        if chosen.is_none() {
            chosen = phrase_further_on(after, n, next_start, &numeric, slots);
        }
        // "bought 10 AAPL at 190": a number no phrase claims is the next positional slot's.
        if chosen.is_none() {
            chosen = numeric
                .iter()
                .filter(|s| fits_unit(n, s))
                .find(|s| s.positional && !slots.contains_key(&s.name))
                .map(|s| s.name.as_str());
        }
        // By unit alone only when one open slot has that unit: "3 个" could be positions or
        // candles, and changing the wrong setting is worse than asking which one. Not when
        // the number belongs to a setting nofxi has no slot for: "stop loss 2%" is no
        // minimum confidence of 2%.
        if chosen.is_none()
            && let Some(unit) = n.unit
            && other_setting_end.is_none_or(|end| end > n.start)
        {
            let mut by_unit = numeric
                .iter()
                .filter(|s| s.unit == Some(unit) && !slots.contains_key(&s.name));
            chosen = match (by_unit.next(), by_unit.next()) {
                (Some(only), None) => Some(only.name.as_str()),
                _ => None,
            };
        }
        if let Some(name) = chosen {
            set_number(action, n, name, chosen_phrase.as_deref(), &numeric, slots);
        }
    }
}

/// "10 分钟" never fills a USDT slot, whatever phrase is near.
fn fits_unit(n: &Number, s: &Slot) -> bool {
    n.unit.is_none() || s.unit.is_none_or(|u| Some(u) == n.unit)
}

/// The open slot whose phrase comes nearest before the number (at one distance the longer
/// phrase: "altcoin leverage 3" is not "leverage 3"): (slot, distance, phrase).
fn phrase_before<'a>(
    text: &str,
    n: &Number,
    numeric: &[&'a Slot],
    slots: &Map<String, Value>,
) -> Option<(&'a str, usize, String)> {
    let mut best: Option<(&'a str, usize, String)> = None;
    let mut nearest_len = 0;
    for s in numeric.iter().filter(|s| fits_unit(n, s)) {
        for p in &s.phrases {
            let lp = p.to_lowercase();
            let from = text.floor_char_boundary(n.start.saturating_sub(BEFORE + lp.len()));
            if let Some(at) = text[from..n.start].rfind(&lp).map(|at| from + at) {
                let dist = n.start - (at + lp.len());
                let nearest = best.as_ref().map_or(usize::MAX, |b| b.1);
                let closer = dist < nearest || (dist == nearest && lp.len() > nearest_len);
                if closer && dist <= BEFORE && !slots.contains_key(&s.name) {
                    nearest_len = lp.len();
                    best = Some((&s.name, dist, lp.clone()));
                }
            }
        }
    }
    best
}

/// The open slot whose phrase comes right after the number: (where, slot, phrase).
fn phrase_right_after<'a>(
    after: &str,
    n: &Number,
    numeric: &[&'a Slot],
    slots: &Map<String, Value>,
) -> Option<(usize, &'a str, String)> {
    numeric
        .iter()
        .filter(|s| fits_unit(n, s))
        .filter(|s| !slots.contains_key(&s.name))
        .filter_map(|s| {
            s.phrases
                .iter()
                .filter_map(|p| {
                    let lp = p.to_lowercase();
                    find_phrase(after, &lp).map(|at| (at, std::cmp::Reverse(lp.len()), lp))
                })
                // Right after: a space or two between ("10  shares"), never a word
                // blanked out before ("10 MSFT @ 190" is not "10 @").
                .filter(|(at, ..)| *at <= RIGHT_AFTER_GAP && after[..*at].trim().is_empty())
                .min()
                .map(|(at, _, lp)| (at, s.name.as_str(), lp))
        })
        .min_by_key(|(at, _, lp)| (*at, std::cmp::Reverse(lp.len())))
}

/// A phrase a little further on ("3 positions" said as "3 open positions"), unless it is the
/// next number's own ("at 15 with a fee of 1": the fee is the 1). Nor across the next number:
/// "50 Tencent at 400 HKD" prices the 400, not the 50.
fn phrase_further_on<'a>(
    after: &str,
    n: &Number,
    next_start: Option<usize>,
    numeric: &[&'a Slot],
    slots: &Map<String, Value>,
) -> Option<&'a str> {
    let owned_by_next = |at: usize, len: usize| {
        let phrase_end = n.end + at + len;
        next_start.is_some_and(|s| s < phrase_end || s - phrase_end <= BEFORE)
    };
    numeric
        .iter()
        .filter(|s| fits_unit(n, s))
        .filter(|s| !slots.contains_key(&s.name))
        .filter_map(|s| {
            s.phrases
                .iter()
                .filter_map(|p| {
                    let lp = p.to_lowercase();
                    find_phrase(after, &lp).map(|at| (at, lp.len()))
                })
                .filter(|&(at, len)| at <= AFTER && !owned_by_next(at, len))
                .map(|(at, _)| at)
                .min()
                .map(|at| (at, s.name.as_str()))
        })
        .min_by_key(|(at, _)| *at)
        .map(|(_, name)| name)
}

/// The number as `name`'s value, and as the value of every open slot that shares the phrase it
/// was said with.
fn set_number(
    action: &Action,
    n: &Number,
    name: &str,
    chosen_phrase: Option<&str>,
    numeric: &[&Slot],
    slots: &mut Map<String, Value>,
) {
    let text = as_fraction(&n.text, n.unit, action.slot(name).and_then(|s| s.max));
    let value = match text.parse::<i64>() {
        Ok(i) => Value::from(i),
        Err(_) => Value::String(text),
    };
    // A phrase two settings share sets both: "杠杆 3 倍", "max leverage 20" is the
    // leverage of BTC/ETH and of altcoins; "BTC 杠杆" or "altcoin leverage" is one.
    let sharing = numeric.iter().filter(|s| fits_unit(n, s)).filter(|s| {
        s.name != name
            && !slots.contains_key(&s.name)
            && chosen_phrase
                .as_ref()
                .is_some_and(|lp| s.phrases.iter().any(|p| p.to_lowercase() == *lp))
    });
    let shared: Vec<String> = sharing.map(|s| s.name.clone()).collect();
    for other in shared {
        slots.insert(other, value.clone());
    }
    slots.insert(name.to_string(), value);
}

/// Where the first mention of a setting no slot holds (`other_setting`: a stop loss comes
/// with each decision, REFERENCE §2) ends: a number after it may belong to that setting.
/// Computed once per message, not once per number.
fn first_other_setting_end(text: &str, lexicon: &Lexicon) -> Option<usize> {
    lexicon
        .words(WordClass::OtherSetting)
        .iter()
        .filter_map(|w| text.find(w).map(|at| at + w.len()))
        .min()
}

/// How far before a number its slot phrase may end ("leverage 3", "杠杆 设为 3").
const BEFORE: usize = 24;
/// The most blank bytes between a number and a phrase that binds right after it: spaces
/// as typed, not the blanks a word read before (a security, a date) leaves behind.
const RIGHT_AFTER_GAP: usize = 3;
/// How far after a number a slot phrase may start ("3 positions", "15m 的 K 线").
const AFTER: usize = 16;

/// The part of `after` (the text from a number's end) a phrase right after it can be in: the
/// blanks that follow, then [`AFTER`] bytes and the longest phrase, and two bytes more for the
/// word-boundary check (a plural "s" and the byte after it).
fn window_after(after: &str, longest: usize) -> &str {
    let blanks = after.len() - after.trim_start().len();
    let end = blanks.max(AFTER) + longest + 2;
    &after[..after.ceil_char_boundary(end.min(after.len()))]
}

/// "80%" for a setting kept as a fraction (margin usage 0.01–1) is 0.8; a percent for any
/// other setting is the figure itself.
pub(super) fn as_fraction(
    text: &str,
    unit: Option<nofxi_skills::Unit>,
    max: Option<f64>,
) -> String {
    let fraction_slot = max.is_some_and(|m| m <= 1.0);
    match (
        unit,
        fraction_slot,
        rust_decimal::Decimal::from_str_exact(text),
    ) {
        (Some(nofxi_skills::Unit::Percent), true, Ok(v)) => (v
            / rust_decimal::Decimal::ONE_HUNDRED)
            .normalize()
            .to_string(),
        _ => text.to_string(),
    }
}

/// Whether the value at `at` is the old one of "from A to B": right after a from-word, with
/// a to-word between it and the next value at `next`.
fn is_old_value(text: &str, lexicon: &Lexicon, at: usize, next: Option<usize>) -> bool {
    let Some(next) = next else {
        return false;
    };
    let before = text[..at].trim_end();
    let after_from = lexicon.words(WordClass::FromValue).iter().any(|w| {
        before.ends_with(w)
            && before[..before.len() - w.len()]
                .chars()
                .next_back()
                .is_none_or(|c| !c.is_ascii_alphanumeric())
    });
    after_from
        && text.get(at..next).is_some_and(|gap| {
            let to = lexicon.words(WordClass::ToValue);
            to.iter().any(|w| find_phrase(gap, w).is_some())
        })
}

/// Booleans named by a phrase; a negative phrase (逐仓, 停用) or a negation before it
/// ("turn off bollinger", "不要启动") means false.
pub fn booleans(action: &Action, scan: &Scan, lexicon: &Lexicon, slots: &mut Map<String, Value>) {
    let text = &scan.text;
    // Each boolean slot's longest phrase said: (slot, start, end, phrase).
    let mut said: Vec<(&str, usize, usize, String)> = Vec::new();
    for slot in action.slots.iter().filter(|s| s.ty == SlotType::Boolean) {
        let mut phrases: Vec<&String> = slot.phrases.iter().collect();
        phrases.sort_by_key(|p| std::cmp::Reverse(p.len()));
        let hits: Vec<(&str, usize, usize, String)> = phrases
            .into_iter()
            .filter_map(|p| {
                let lp = p.to_lowercase();
                find_phrase(text, &lp).map(|at| (slot.name.as_str(), at, at + lp.len(), lp))
            })
            .collect();
        // "从全仓改成逐仓": of two phrases of one setting, the one after 从 is what it was.
        let latest = hits.iter().map(|h| h.1).max();
        let hit = hits
            .iter()
            .find(|h| !is_old_value(text, lexicon, h.1, latest.filter(|l| *l > h.1)))
            .or(hits.first());
        said.extend(hit.cloned());
    }
    // In the order said, so "disable RSI and MACD" can hand the off on along the list.
    said.sort_by_key(|(_, at, ..)| *at);
    let words = |class| lexicon.words(class);
    let (turn_off, turn_on) = (words(WordClass::TurnOff), words(WordClass::TurnOn));
    let mut previous: Option<(usize, bool)> = None;
    for (slot, at, end, lp) in &said {
        // "disable testnet", "禁用 main 的测试网": the word turns testnet off; it does not
        // disable the account.
        let negates_another = (turn_off.contains(lp) || turn_on.contains(lp))
            && said
                .iter()
                .any(|(other, from, ..)| other != slot && near_before(text, *end, *from));
        if negates_another {
            continue;
        }
        // A negative phrase turned off is on: "should not use isolated margin" is cross.
        let turned_off = preceded_by(text, *at, turn_off)
            || words(WordClass::TurnOffVerb).iter().any(|w| {
                text[..*at]
                    .rfind(w)
                    .is_some_and(|i| near_before(text, i + w.len(), *at))
            })
            || followed_by(text, *end, words(WordClass::SetFalse))
            || words(WordClass::SetFalseLater).iter().any(|w| {
                text[*end..]
                    .find(w)
                    .is_some_and(|i| near_before(text, *end, *end + i))
            });
        // "disable RSI and MACD", "关闭 RSI 和 MACD": a phrase joined to the one before it
        // takes that one's switch when nothing of its own turns it.
        let joined_off = previous.is_some_and(|(prev_end, off)| {
            off && text.get(prev_end..*at).is_some_and(|gap| {
                words(WordClass::SettingJoin)
                    .iter()
                    .any(|j| j == gap.trim())
            })
        });
        let turned_off = turned_off || joined_off;
        let negated = lexicon.words(WordClass::OffPhrase).contains(lp) != turned_off;
        previous = Some((*end, turned_off));
        slots.insert(slot.to_string(), Value::Bool(!negated));
    }
}

/// At most this many bytes between a turn-off word and the phrase it turns off ("禁用 main 的
/// 测试网", "turn off main's testnet"), or a phrase and its false ("testnet of main to false").
const NEAR: usize = 16;

/// Whether `to` follows `from` closely, in the same clause.
fn near_before(text: &str, from: usize, to: usize) -> bool {
    to >= from
        && to - from <= NEAR
        && text
            .get(from..to)
            .is_some_and(|gap| !gap.contains([',', '，', ';', '；']) && !gap.contains(" and "))
}

fn followed_by(text: &str, end: usize, words: &[String]) -> bool {
    let after = text.get(end..).unwrap_or_default().trim_start();
    words.iter().any(|w| {
        after.starts_with(w)
            && after[w.len()..]
                .chars()
                .next()
                .is_none_or(|c| !c.is_ascii_alphanumeric())
    })
}
