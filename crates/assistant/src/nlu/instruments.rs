//! A security named in a message ("成都银行", "Tencent", "600519", "AAPL.US"), for the skills
//! with an `instrument` slot. Which one it is stays the tool's to decide (the portfolio's
//! confidence ladder, with the user's records); this only finds where one is said, so the
//! message can be routed and the words taken as the slot's value. The names are data: the
//! portfolio crate's `names/instruments.yaml`, never a list here.

use std::sync::OnceLock;

use nofxi_portfolio::names::{Directory, find_word, looks_like_code};
use nofxi_skills::{Library, SkillKind, SlotType, WordClass};

use super::lexicon::Lexicon;
use super::names::Names;
use super::words::find_phrase;

/// Every spelling of a known security, longest first.
fn spellings() -> &'static [String] {
    static SPELLINGS: OnceLock<Vec<String>> = OnceLock::new();
    SPELLINGS.get_or_init(|| {
        Directory::embedded()
            .map(|d| d.spellings())
            .unwrap_or_default()
    })
}

/// The words a part of a security's name may sit inside without being one: the nouns of the
/// built-in skills without a security slot (交易员, 交易所, strategy) and every action's verbs
/// (交易记录, 成交记录). "交易" of 香港交易所 inside 交易员 or 交易记录 is that word's.
fn other_words() -> &'static [String] {
    static WORDS: OnceLock<Vec<String>> = OnceLock::new();
    WORDS.get_or_init(|| {
        let Ok(library) = Library::builtin() else {
            return Vec::new();
        };
        let skills = library.skills();
        let nouns = skills
            .iter()
            .filter(|s| {
                !s.actions
                    .iter()
                    .flat_map(|a| a.slots.iter())
                    .any(|slot| slot.ty == SlotType::Instrument)
            })
            .flat_map(|s| s.meta.nouns.iter());
        let verbs = skills
            .iter()
            .flat_map(|s| s.actions.iter())
            .flat_map(|a| a.verbs.iter());
        nouns.chain(verbs).map(|w| w.to_lowercase()).collect()
    })
}

/// Whether `from..to` lies inside another word said in `lower` without covering it.
fn inside_a_word(lower: &str, from: usize, to: usize) -> bool {
    other_words().iter().any(|noun| {
        lower.match_indices(noun.as_str()).any(|(at, _)| {
            let end = at + noun.len();
            let overlaps = from < end && at < to;
            let covers = from <= at && end <= to;
            overlaps && !covers
        })
    })
}

/// The byte span of the first security said in `lower` (lower-cased, other names blanked);
/// at one position the longest spelling ("贵州茅台" over "茅台").
pub fn find(lower: &str) -> Option<(usize, usize)> {
    let mut best: Option<(usize, usize)> = None;
    let mut take = |at: usize, end: usize| {
        if inside_a_word(lower, at, end) {
            return;
        }
        let better = match best {
            None => true,
            Some((b, e)) => at < b || (at == b && end > e),
        };
        if better {
            best = Some((at, end));
        }
    };
    for spelling in spellings() {
        if let Some(at) = find_word(lower, spelling) {
            take(at, at + spelling.len());
        }
    }
    // A code of the user's own that the names file lacks: `601xxx.sh`, `sz000001`, `hk02020`.
    for (at, token) in code_tokens(lower) {
        if looks_like_code(token) {
            take(at, at + token.len());
        }
    }
    best
}

/// "它的成本是多少", "what about its P&L" right after a question about 成都银行: the message
/// with its "it" replaced by the security in focus, so it is read like "成都银行的成本是多少".
/// `None` when the message names a security, a resource or another skill's subject of its
/// own ("它的策略" is about a strategy), or has no "it".
pub fn with_focus(
    message: &str,
    focus: Option<&str>,
    library: &Library,
    lexicon: &Lexicon,
    names: &Names,
) -> Option<String> {
    let focus = focus?;
    let lower = message.to_lowercase();
    if lower.len() != message.len() || find(&lower).is_some() || !names.mentioned(&lower).is_empty()
    {
        return None;
    }
    let other_subject = library
        .skills()
        .iter()
        .filter(|s| s.meta.kind == SkillKind::Management)
        .filter(|s| {
            !s.actions
                .iter()
                .flat_map(|a| a.slots.iter())
                .any(|slot| slot.ty == SlotType::Instrument)
        })
        .flat_map(|s| s.meta.nouns.iter())
        .any(|n| find_phrase(&lower, &n.to_lowercase()).is_some());
    if other_subject {
        return None;
    }
    let (at, len) = lexicon
        .words(WordClass::Reference)
        .iter()
        .filter_map(|w| find_phrase(&lower, w).map(|at| (at, w.len())))
        .min_by_key(|(at, len)| (*at, std::cmp::Reverse(*len)))?;
    Some(format!(
        "{} {focus} {}",
        &message[..at],
        &message[at + len..]
    ))
}

/// ASCII words made of letters, digits and dots, with where each starts.
fn code_tokens(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let part = |c: char| c.is_ascii_alphanumeric() || c == '.';
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text
        .char_indices()
        .chain(std::iter::once((text.len(), ' ')))
    {
        match (part(c), start) {
            (true, None) => start = Some(i),
            (false, Some(from)) => {
                out.push((from, text[from..i].trim_end_matches('.')));
                start = None;
            }
            _ => {}
        }
    }
    out.into_iter()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said(text: &str) -> Option<&str> {
        let lower = text.to_lowercase();
        find(&lower).map(|(a, b)| &text[a..b])
    }

    #[test]
    fn names_and_codes_are_found() {
        assert_eq!(said("今天买了 100 股成都银行，15.2 元"), Some("成都银行"));
        assert_eq!(said("贵州茅台的成本是多少"), Some("贵州茅台"));
        assert_eq!(said("how many Tencent shares do I have"), Some("Tencent"));
        assert_eq!(said("sold 10 AAPL at 190"), Some("AAPL"));
        assert_eq!(said("601838.SH 的成本"), Some("601838.SH"));
        assert_eq!(said("bought 200 of 688001.SH"), Some("688001.SH"));
    }

    #[test]
    fn a_part_of_a_name_inside_another_skills_noun_is_not() {
        assert_eq!(said("所有交易员总收益"), None);
        assert_eq!(said("香港交易所的成本"), Some("香港交易所"));
    }

    #[test]
    fn numbers_and_words_inside_words_are_not() {
        assert_eq!(said("bought 700 shares"), None);
        assert_eq!(said("metadata and applesauce"), None);
        assert_eq!(said("initial balance 100000"), None);
    }
}
