#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The metamorphic measure of the rule understanding (issue 24): every example of every
//! management SKILL.md (those said with no task in progress), rewritten ten ways a user would
//! not think changes anything — politeness, a greeting first, punctuation, full-width letters,
//! case, spacing, a trailing thanks, one typo in a long word — must read as the same skill,
//! action and slots as the example itself. The words of slot values are never rewritten
//! (an upper-cased name is another name).
//!
//! `cargo run --release -p nofxi-assistant --example metamorphic [-- --failures N] [--unlabelled]`
//!
//! Prints, per rewrite, how many variants keep the original's reading, and how many originals
//! are read as their example says. A measurement, not a test yet: it becomes one when it passes.

use std::collections::BTreeMap;
use std::sync::Arc;

use nofxi_assistant::{Assistant, AssistantOptions};
use nofxi_protocol::Command;
use nofxi_skills::{Lang, Library, SkillKind};
use nofxi_store::test_support::sqlite_store;
use serde_json::Value;

/// (skill, action, slots) of a reading; `None` when it starts no task.
type Reading = Option<(String, String, BTreeMap<String, Value>)>;

fn reading(commands: &[Command]) -> Reading {
    commands.iter().find_map(|c| match c {
        Command::StartTask {
            skill,
            action,
            slots,
        } => Some((skill.clone(), action.clone(), slots.clone())),
        _ => None,
    })
}

/// The text split into spans that may be rewritten (`true`) and slot values kept as they are.
fn spans(text: &str, protected: &[String]) -> Vec<(bool, String)> {
    let lower = text.to_lowercase();
    let mut keep = vec![false; text.len()];
    for value in protected.iter().filter(|v| !v.is_empty()) {
        let v = value.to_lowercase();
        let mut from = 0;
        while let Some(at) = lower[from..].find(&v) {
            let start = from + at;
            // Lower-casing keeps byte offsets for the ASCII and CJK text of the examples; an
            // offset that is not a boundary of the original is skipped rather than guessed.
            if text.is_char_boundary(start) && text.is_char_boundary(start + v.len()) {
                keep[start..start + v.len()]
                    .iter_mut()
                    .for_each(|k| *k = true);
            }
            from = start + v.len().max(1);
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

fn map_free(text: &str, protected: &[String], f: impl Fn(&str) -> String) -> String {
    spans(text, protected)
        .into_iter()
        .map(|(free, s)| if free { f(&s) } else { s })
        .collect()
}

fn full_width(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '!'..='~' => char::from_u32(c as u32 - 0x21 + 0xFF01).unwrap_or(c),
            _ => c,
        })
        .collect()
}

/// Two adjacent letters swapped in the longest free ASCII word of 6+ letters, if any.
fn typo(text: &str, protected: &[String]) -> Option<String> {
    let mut best: Option<(usize, usize)> = None;
    let mut offset = 0;
    for (free, s) in spans(text, protected) {
        if free {
            for (at, word) in s.match_indices(|c: char| c.is_ascii_alphabetic()).fold(
                Vec::<(usize, String)>::new(),
                |mut words, (at, ch)| {
                    match words.last_mut() {
                        Some((start, w)) if *start + w.len() == at => w.push_str(ch),
                        _ => words.push((at, ch.to_string())),
                    }
                    words
                },
            ) {
                if word.len() >= 6 && best.is_none_or(|(_, len)| word.len() > len) {
                    best = Some((offset + at, word.len()));
                }
            }
        }
        offset += s.len();
    }
    let (at, len) = best?;
    let mut bytes = text.as_bytes().to_vec();
    // Swap the two letters in the middle of the word: the first letter stays, as in real typos.
    let i = at + len / 2;
    bytes.swap(i - 1, i);
    String::from_utf8(bytes).ok()
}

/// The ten rewrites: (name, the variant or `None` when it does not apply).
fn variants(text: &str, lang: Lang, protected: &[String]) -> Vec<(&'static str, Option<String>)> {
    let zh = lang == Lang::Zh;
    let trimmed = text.trim_end_matches(['.', '。', '!', '！', '?', '？']);
    vec![
        (
            "politeness",
            Some(if zh {
                format!("请{text}")
            } else {
                format!("please {text}")
            }),
        ),
        (
            "greeting",
            Some(if zh {
                format!("你好，{text}")
            } else {
                format!("hi, {text}")
            }),
        ),
        (
            "full stop",
            Some(if zh {
                format!("{trimmed}。")
            } else {
                format!("{trimmed}.")
            }),
        ),
        (
            "exclamation",
            Some(if zh {
                format!("{trimmed}！")
            } else {
                format!("{trimmed}!")
            }),
        ),
        ("full width", Some(map_free(text, protected, full_width))),
        (
            "case",
            Some(map_free(text, protected, |s| s.to_uppercase())),
        ),
        (
            "spacing",
            Some(map_free(text, protected, |s| s.replace(' ', "  "))),
        ),
        (
            "thanks",
            Some(if zh {
                format!("{trimmed}，谢谢")
            } else {
                format!("{trimmed}, thanks")
            }),
        ),
        (
            "could you",
            Some(if zh {
                format!("麻烦{text}")
            } else {
                format!("could you {text}")
            }),
        ),
        ("typo", typo(text, protected)),
    ]
}

/// An example's slots with enum aliases written as the values they stand for ("币安" →
/// `binance`), as the understanding reports them.
fn canonical(
    action: Option<&nofxi_skills::Action>,
    slots: &BTreeMap<String, Value>,
) -> BTreeMap<String, Value> {
    let mut out = slots.clone();
    let Some(action) = action else { return out };
    for (name, value) in out.iter_mut() {
        let (Some(slot), Value::String(text)) = (action.slot(name), &*value) else {
            continue;
        };
        let lower = text.to_lowercase();
        if let Some(v) = slot.values.iter().find(|v| {
            v.value.to_lowercase() == lower || v.aliases.iter().any(|a| a.to_lowercase() == lower)
        }) {
            *value = Value::String(v.value.clone());
        }
    }
    out
}

/// Slot values as strings, to keep them out of the rewrites.
fn protected(slots: &BTreeMap<String, Value>) -> Vec<String> {
    fn walk(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::String(s) => out.push(s.clone()),
            Value::Number(n) => out.push(n.to_string()),
            Value::Array(items) => items.iter().for_each(|i| walk(i, out)),
            Value::Object(map) => map.values().for_each(|i| walk(i, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    slots.values().for_each(|v| walk(v, &mut out));
    out
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let show: usize = std::env::args()
        .skip_while(|a| a != "--failures")
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(20);
    let ts = sqlite_store().await.unwrap();
    let library = Arc::new(Library::builtin().unwrap());
    let assistant = Assistant::open(
        ts.store.clone(),
        library.clone(),
        AssistantOptions::default(),
    )
    .await
    .unwrap();
    let mut per_kind: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let (mut originals, mut as_labelled) = (0, 0);
    let mut failures = Vec::new();
    let mut unlabelled = Vec::new();
    for skill in library
        .skills()
        .iter()
        .filter(|s| s.meta.kind == SkillKind::Management)
    {
        for example in skill.examples.iter().filter(|e| e.context.is_none()) {
            let Some(action) = &example.action else {
                continue;
            };
            originals += 1;
            let base = reading(
                &assistant
                    .read_message("default", &example.user)
                    .await
                    .unwrap()
                    .commands,
            );
            let labelled = Some((
                skill.id.clone(),
                action.clone(),
                canonical(skill.action(action), &example.slots),
            ));
            if base == labelled {
                as_labelled += 1;
            } else {
                unlabelled.push(format!(
                    "{:?}\n    example:  {labelled:?}\n    read:     {base:?}",
                    example.user
                ));
            }
            let keep = protected(&example.slots);
            for (kind, variant) in variants(&example.user, example.lang(), &keep) {
                let Some(variant) = variant else { continue };
                let got = reading(
                    &assistant
                        .read_message("default", &variant)
                        .await
                        .unwrap()
                        .commands,
                );
                let entry = per_kind.entry(kind).or_default();
                entry.1 += 1;
                if got == base {
                    entry.0 += 1;
                } else {
                    failures.push(format!(
                        "[{kind}] {:?}\n    original: {base:?}\n    variant:  {got:?}",
                        variant
                    ));
                }
            }
        }
    }
    let (kept, total) = per_kind
        .values()
        .fold((0, 0), |(k, t), (a, b)| (k + a, t + b));
    println!("management examples said with no task in progress: {originals}");
    println!(
        "  read as their example says: {as_labelled} ({:.1} %)",
        pct(as_labelled, originals)
    );
    println!(
        "variants keeping the original's reading: {kept} / {total} ({:.1} %)",
        pct(kept, total)
    );
    for (kind, (k, t)) in &per_kind {
        println!("  {kind:<12} {k:>4} / {t:<4} {:>5.1} %", pct(*k, *t));
    }
    for f in failures.iter().take(show) {
        println!("{f}");
    }
    if std::env::args().any(|a| a == "--unlabelled") {
        println!("originals not read as their example says:");
        unlabelled.iter().for_each(|u| println!("{u}"));
    }
}

fn pct(a: usize, b: usize) -> f64 {
    if b == 0 {
        100.0
    } else {
        a as f64 * 100.0 / b as f64
    }
}
