//! Coverage: the words of a message that nothing nofxi knows explains.
//!
//! A rule reading is sure only of what it explains. The router finds a verb and a name and
//! proposes a command; words around them may say the opposite ("你觉得该不该启动 eth-bot",
//! "would it be smart to start eth-bot"). Lists of such marker words ([`super::unexplained`])
//! catch the markers someone thought of; coverage turns the test around: every word must be
//! claimed by something nofxi knows — a word of the lexicon (any class: the marker classes are
//! weighed by `unexplained`), a skill's verb, noun, slot phrase or enum value, a coin, a
//! number with its unit, one of the user's names, quoted text — and a word nothing claims makes
//! the reading unsure. An unsure change is held back (asked about, or read by the model).
//!
//! The vocabulary is one Aho-Corasick automaton built when the lexicon loads, so claiming is
//! one pass over the message whatever the size of the lexicon.

use std::collections::HashSet;

use aho_corasick::{AhoCorasick, MatchKind};
use nofxi_skills::{Lang, Library};

use super::Context;
use super::route::quoted_spans;

/// The confidence of a reading that leaves words unexplained: below the threshold at which a
/// configured model reads the message instead.
pub const UNSURE: f32 = 0.45;

/// Every phrase nofxi knows, as one automaton.
#[derive(Debug, Clone, Default)]
pub struct Vocabulary {
    automaton: Option<AhoCorasick>,
    /// Per pattern: whether it starts and ends with an ASCII letter or digit (then it claims
    /// only whole words: "to" claims nothing of "token").
    edges: Vec<(bool, bool)>,
    /// The patterns that are one ASCII word, for the inflections of a known word ("scanning"
    /// of "scan", "alts" of "alt").
    words: HashSet<String>,
    /// The kinds' nouns in ASCII ("trader", "bot"): a word one letter from one is that noun
    /// mistyped ("bott", "tradr"), as the router reads it.
    nouns: Vec<String>,
    /// The lexicon's inflection endings ("ing", "s"): a known word with one is known.
    endings: Vec<String>,
}

impl Vocabulary {
    /// From `phrases` (any case; lower-cased here). Empty phrases are skipped.
    pub fn new(phrases: impl IntoIterator<Item = String>) -> Vocabulary {
        let mut patterns: Vec<String> = phrases
            .into_iter()
            .map(|p| p.trim().to_lowercase())
            .filter(|p| !p.is_empty())
            .collect();
        patterns.sort_unstable();
        patterns.dedup();
        let edges = patterns
            .iter()
            .map(|p| (starts_alnum(p), ends_alnum(p)))
            .collect();
        let automaton = AhoCorasick::builder()
            .match_kind(MatchKind::Standard)
            .build(&patterns)
            .ok();
        let words = patterns
            .iter()
            .filter(|p| p.chars().all(|c| c.is_ascii_alphanumeric()))
            .cloned()
            .collect();
        Vocabulary {
            automaton,
            edges,
            words,
            nouns: Vec::new(),
            endings: Vec::new(),
        }
    }

    /// This vocabulary, with `endings` for the forms of a known word.
    fn with_endings(mut self, endings: impl IntoIterator<Item = String>) -> Vocabulary {
        self.endings = endings.into_iter().collect();
        self
    }

    /// This vocabulary, with `nouns` for the typos of a noun.
    fn with_nouns(mut self, nouns: impl IntoIterator<Item = String>) -> Vocabulary {
        self.nouns = nouns
            .into_iter()
            .map(|n| n.to_lowercase())
            .filter(|n| n.len() >= 3 && n.chars().all(|c| c.is_ascii_alphabetic()))
            .collect();
        self
    }

    /// Whether an ASCII word nothing claimed is still a known word: an inflection of one
    /// ("scanning", "scans", "stopped"), or a noun mistyped by one letter ("bott").
    fn knows(&self, word: &str) -> bool {
        let stems = self
            .endings
            .iter()
            .filter_map(|end| word.strip_suffix(end.as_str()))
            .filter(|stem| stem.len() >= 2);
        let known = |w: &str| self.words.contains(w);
        for stem in stems {
            // "scanning" → "scann" → "scan"; "stopped" → "stopp" → "stop"; "closes" → "clos" → "close".
            let undoubled = stem
                .len()
                .checked_sub(1)
                .filter(|&i| stem.as_bytes().get(i) == stem.as_bytes().get(i.wrapping_sub(1)))
                .map(|i| &stem[..i]);
            if known(stem) || undoubled.is_some_and(known) || known(&format!("{stem}e")) {
                return true;
            }
        }
        // Two letters swapped in a long word ("tetsnet", "acocunt") is that word mistyped;
        // rarely another word, unlike a letter changed ("smart" is not "start").
        let swapped = word.len() >= 5
            && (0..word.len() - 1).any(|i| {
                let mut b = word.as_bytes().to_vec();
                b.swap(i, i + 1);
                std::str::from_utf8(&b).is_ok_and(known)
            });
        swapped || self.nouns.iter().any(|n| one_edit(n, word))
    }

    /// The vocabulary of a skill library: its lexicon, every skill's verbs, nouns, slot
    /// phrases, labels and enum values with their aliases, and the coins of the alias table.
    pub fn of_library(library: &Library) -> Vocabulary {
        let lexicon = library.words();
        let mut phrases: Vec<String> = nofxi_skills::WordClass::ALL
            .into_iter()
            .flat_map(|c| lexicon.of(c).iter().map(|w| w.text.clone()))
            .collect();
        let mut nouns = Vec::new();
        for skill in library.skills() {
            phrases.extend(skill.meta.nouns.iter().cloned());
            nouns.extend(skill.meta.nouns.iter().cloned());
            // The names a skill gives values ("苹果" for AAPL.US, "gold" for XAUUSD.FX).
            phrases.extend(skill.meta.value_aliases.keys().cloned());
            for action in &skill.actions {
                phrases.extend(action.verbs.iter().cloned());
                for slot in &action.slots {
                    phrases.extend(slot.phrases.iter().cloned());
                    // Each word of a phrase of several ("leverage for alts": "alts").
                    phrases.extend(slot.phrases.iter().flat_map(|p| words_of(p)));
                    for v in &slot.values {
                        phrases.push(v.value.clone());
                        phrases.extend(v.aliases.iter().cloned());
                    }
                    // A setting's own label, and each English word of it ("cross margin":
                    // "margin" alone is that setting's word too).
                    for label in [slot.label().get(Lang::En), slot.label().get(Lang::Zh)] {
                        phrases.push(label.to_string());
                        phrases.extend(words_of(label));
                    }
                }
            }
        }
        for coin in nofxi_domain::market::known_symbols() {
            phrases.push(coin.symbol.clone());
            phrases.push(coin.base.clone());
            phrases.extend(coin.names.iter().cloned());
        }
        let endings = lexicon
            .of(nofxi_skills::WordClass::Inflection)
            .iter()
            .map(|w| w.text.clone());
        Vocabulary::new(phrases)
            .with_nouns(nouns)
            .with_endings(endings)
    }

    /// Marks in `claimed` (one flag per byte of `lower`) every occurrence of a known phrase.
    fn claim(&self, lower: &str, claimed: &mut [bool]) {
        let Some(automaton) = &self.automaton else {
            return;
        };
        let bytes = lower.as_bytes();
        for m in automaton.find_overlapping_iter(lower) {
            let (starts, ends) = self
                .edges
                .get(m.pattern().as_usize())
                .copied()
                .unwrap_or((false, false));
            let open_before = m.start() > 0 && bytes[m.start() - 1].is_ascii_alphanumeric();
            let open_after = bytes.get(m.end()).is_some_and(u8::is_ascii_alphanumeric);
            if (starts && open_before) || (ends && open_after) {
                continue;
            }
            claimed[m.start()..m.end()].fill(true);
        }
    }
}

/// The words of a phrase of several, split at spaces and punctuation: ASCII words of three
/// letters or more, and other runs of two characters or more.
fn words_of(phrase: &str) -> Vec<String> {
    phrase
        .split(|c: char| c.is_whitespace() || (c.is_ascii_punctuation() && c != '\''))
        .filter(|w| {
            if w.is_ascii() {
                w.len() > 2
            } else {
                w.chars().count() > 1
            }
        })
        .filter(|w| *w != phrase)
        .map(str::to_string)
        .collect()
}

/// Whether `typed` is `word` with one letter added, left out or changed.
fn one_edit(word: &str, typed: &str) -> bool {
    let (a, b) = (word.as_bytes(), typed.as_bytes());
    if a.len().abs_diff(b.len()) > 1 || a == b {
        return false;
    }
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let (ra, rb) = (&a[prefix..], &b[prefix..]);
    match ra.len().cmp(&rb.len()) {
        std::cmp::Ordering::Equal => ra.get(1..) == rb.get(1..),
        std::cmp::Ordering::Less => ra == rb.get(1..).unwrap_or_default(),
        std::cmp::Ordering::Greater => ra.get(1..).unwrap_or_default() == rb,
    }
}

fn starts_alnum(p: &str) -> bool {
    p.chars().next().is_some_and(|c| c.is_ascii_alphanumeric())
}

fn ends_alnum(p: &str) -> bool {
    p.chars().last().is_some_and(|c| c.is_ascii_alphanumeric())
}

/// The runs of words of `message` nothing claims, in order ("该不该", "smart"): empty when
/// every word is explained by the vocabulary, a name of the user's, a number, quoted text, or
/// one of the `values` the reading took from the message (a new name, a key, a model name).
pub fn unclaimed(message: &str, values: &[&str], cx: &Context<'_>) -> Vec<String> {
    let lower = message.to_lowercase();
    let mut claimed = vec![false; lower.len()];
    cx.lexicon.vocabulary().claim(&lower, &mut claimed);
    Vocabulary::new(values.iter().map(|v| v.to_string())).claim(&lower, &mut claimed);
    let mut mark = |from: usize, to: usize| {
        if let Some(span) = claimed.get_mut(from..to) {
            span.fill(true);
        }
    };
    for (_, from, to) in cx.names.mentioned(&lower) {
        mark(from, to);
    }
    for (from, to) in quoted_spans(&lower) {
        mark(from, to);
    }
    for n in cx.lexicon.numbers(&lower) {
        mark(n.start, n.end);
    }
    for (from, to) in super::extract::dates::written_date_spans(&lower) {
        mark(from, to);
    }
    runs(&lower, &claimed, cx.lexicon.vocabulary())
}

/// The text values `commands` carry (slot values, list items), for [`unclaimed`].
pub fn values_of(commands: &[nofxi_protocol::Command]) -> Vec<&str> {
    use nofxi_protocol::Command;
    let mut out = Vec::new();
    for c in commands {
        let slots = match c {
            Command::StartTask { slots, .. } | Command::SetSlots { slots } => slots,
            Command::CallFunction { args, .. } => args,
            _ => continue,
        };
        for v in slots.values() {
            collect_text(v, &mut out);
        }
    }
    out
}

fn collect_text<'a>(v: &'a serde_json::Value, out: &mut Vec<&'a str>) {
    match v {
        serde_json::Value::String(s) => out.push(s),
        serde_json::Value::Array(items) => items.iter().for_each(|i| collect_text(i, out)),
        serde_json::Value::Object(map) => map.values().for_each(|i| collect_text(i, out)),
        _ => {}
    }
}

/// The words of `lower` (ASCII words whole, other letters one by one) with an unclaimed byte,
/// adjacent ones joined into one run. A word shaped like a value rather than a word of a
/// language — letters with digits ("b1", "gpt5", "w0rd") or with symbols inside ("p@ss",
/// "llm.example.com") — is a value the reading took or refused, never a word that changes the
/// request.
fn runs(lower: &str, claimed: &[bool], vocabulary: &Vocabulary) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut open = false;
    for (from, to) in units(lower) {
        let unit = &lower[from..to];
        let free = claimed.get(from..to).is_some_and(|c| c.iter().any(|b| !b))
            && !value_shaped(unit)
            && !(unit.is_ascii() && vocabulary.knows(unit));
        match (free, open, out.last_mut()) {
            (true, true, Some(last)) => {
                if lower[from..to].is_ascii() {
                    last.push(' ');
                }
                last.push_str(&lower[from..to]);
            }
            (true, _, _) => out.push(lower[from..to].to_string()),
            (false, _, _) => {}
        }
        open = free;
    }
    out
}

/// Letters with digits, or with a symbol inside: a value, not a word of a language.
fn value_shaped(unit: &str) -> bool {
    let digits = unit.chars().any(|c| c.is_ascii_digit());
    let letters = unit.chars().any(|c| c.is_ascii_alphabetic());
    let symbols = unit.chars().any(|c| VALUE_SYMBOLS.contains(c));
    (digits && letters) || symbols
}

/// Symbols that join the parts of one value (a key, a host, a password) rather than words.
const VALUE_SYMBOLS: &str = "@#$%&*+=/:~^";

/// The word units of `lower`: runs of ASCII letters and digits (with `-`, `_` or `.` inside,
/// or a symbol of a value), and each other letter on its own (a CJK character is a unit);
/// punctuation, spaces and symbols are no unit. An apostrophe ends a word ("bybit-test's":
/// the name, then the possessive "s").
fn units(lower: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut chars = lower.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if c.is_ascii_alphanumeric() {
            let mut end = at + 1;
            while let Some(&(next_at, next)) = chars.peek() {
                let joiner = matches!(next, '-' | '_' | '.') || VALUE_SYMBOLS.contains(next);
                let inner = joiner
                    && lower[next_at + 1..]
                        .chars()
                        .next()
                        .is_some_and(|n| n.is_ascii_alphanumeric());
                if next.is_ascii_alphanumeric() || inner {
                    end = next_at + next.len_utf8();
                    chars.next();
                } else {
                    break;
                }
            }
            out.push((at, end));
        } else if c.is_alphabetic() {
            out.push((at, at + c.len_utf8()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vocab(words: &[&str]) -> Vocabulary {
        Vocabulary::new(words.iter().map(|w| w.to_string()))
    }

    fn left(v: &Vocabulary, text: &str) -> Vec<String> {
        let mut claimed = vec![false; text.len()];
        v.claim(text, &mut claimed);
        runs(text, &claimed, v)
    }

    #[test]
    fn only_whole_ascii_words_are_claimed() {
        let v = vocab(&["to", "stop"]);
        assert_eq!(left(&v, "stop token"), ["token"]);
        assert_eq!(left(&v, "stopwatch to"), ["stopwatch"]);
        assert!(left(&v, "stop, to!").is_empty());
    }

    #[test]
    fn chinese_characters_are_claimed_one_by_one_and_runs_join() {
        let v = vocab(&["启动", "你觉得"]);
        assert_eq!(left(&v, "你觉得现在该不该启动"), ["现在该不该"]);
        assert_eq!(left(&v, "would it be smart"), ["would it be smart"]);
    }

    #[test]
    fn names_inside_words_keep_their_inner_punctuation() {
        assert_eq!(units("btc-bot's p&l"), [(0, 7), (8, 9), (10, 13)]);
    }

    #[test]
    fn inflections_of_known_words_and_slips_of_nouns_are_known() {
        let endings = ["ing", "ed", "es", "s"].map(String::from);
        let v = vocab(&["scan", "stop", "close", "alt", "testnet"])
            .with_nouns(["bot".to_string()])
            .with_endings(endings);
        assert!(left(&v, "scanning scans stopped closes alts bott tetsnet").is_empty());
        assert_eq!(left(&v, "smart should"), ["smart should"]);
        assert!(
            one_edit("trader", "tradr") && one_edit("bot", "bott") && !one_edit("bot", "bat s")
        );
    }

    #[test]
    fn values_are_never_unclaimed_words() {
        let v = vocab(&["secret"]);
        assert!(left(&v, "secret p@ss w0rd").is_empty());
        assert_eq!(left(&v, "secret should b1"), ["should"]);
    }
}
