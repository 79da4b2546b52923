//! One slip of the keyboard in a word the understanding knows ("deelte", "postiions",
//! "bictoin") is read as that word, before the rules look at the message.
//!
//! The vocabulary is data: every ASCII word of five letters or more in the skill library (the
//! lexicon's classes, each skill's nouns, verbs, slot phrases, enum values and aliases,
//! knowledge phrases; not the examples, whose words include made-up resource names) and the
//! coin names of `aliases.json`. A word is corrected
//! only when it is not itself a known word, is not one of the user's names, stands alone (no
//! digit, hyphen or underscore next to it: those are names, models and keys) and exactly one
//! known word lies one edit away (a letter changed, added, dropped, or two swapped). With two
//! candidates the word is left as typed: guessing between them would be confidently wrong. A
//! slip of one of the user's names is never corrected here: "stop alpah" must ask "did you
//! mean alpha?", not stop alpha.
//!
//! Time is linear in the message: each word is compared only with the known words whose length
//! is within one of its own, a fixed set.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

use nofxi_skills::{Library, SlotType, WordClass};

use super::names::Names;

/// Shorter words are too close to each other to correct safely ("stop" / "shop").
const MIN_LEN: usize = 5;
/// Longer words are no words of ours (keys, hashes): never compared.
const MAX_LEN: usize = 24;

#[derive(Debug, Clone, Default)]
pub struct Vocabulary {
    known: BTreeSet<String>,
    by_len: BTreeMap<usize, Vec<String>>,
    /// The last words of the phrases that lead a free-text value ("called", "named"): the
    /// word after one is a name the user makes up, never a slip.
    name_leads: BTreeSet<String>,
    /// The last words of a free-text value's phrases ("description", "prompt"): the rest of
    /// the message is the user's text, kept as typed.
    text_leads: BTreeSet<String>,
    /// The skills' nouns ("trader", "strategy") and the articles before them: after "a", a
    /// slip that is one edit from a noun and from another word ("tradr": trader, trade) is
    /// the noun, as a noun is what follows an article.
    nouns: BTreeSet<String>,
    articles: BTreeSet<String>,
}

impl Vocabulary {
    pub fn from_library(library: &Library) -> Vocabulary {
        let mut name_leads = BTreeSet::new();
        let mut text_leads = BTreeSet::new();
        for skill in library.skills() {
            for slot in skill.actions.iter().flat_map(|a| &a.slots) {
                if slot.ty != SlotType::String {
                    continue;
                }
                for phrase in &slot.phrases {
                    if let Some(last) = ascii_words(phrase).last() {
                        name_leads.insert(last.to_ascii_lowercase());
                        if slot.text {
                            text_leads.insert(last.to_ascii_lowercase());
                        }
                    }
                }
            }
        }
        let mut known = BTreeSet::new();
        let mut add = |text: &str| {
            for word in ascii_words(text) {
                if (MIN_LEN..=MAX_LEN).contains(&word.len()) {
                    known.insert(word.to_ascii_lowercase());
                }
            }
        };
        let words = library.words();
        for class in WordClass::ALL {
            for w in words.of(class) {
                add(&w.text);
            }
        }
        for skill in library.skills() {
            skill.meta.nouns.iter().for_each(|n| add(n));
            for k in &skill.meta.knowledge {
                k.phrases.iter().for_each(|p| add(p));
            }
            for action in &skill.actions {
                action.verbs.iter().for_each(|v| add(v));
                for slot in &action.slots {
                    slot.phrases.iter().for_each(|p| add(p));
                    if slot.ty == SlotType::Enum {
                        for v in &slot.values {
                            add(&v.value);
                            v.aliases.iter().for_each(|a| add(a));
                        }
                    }
                }
            }
        }
        for coin in nofxi_domain::market::known_symbols() {
            coin.names.iter().for_each(|n| add(n));
        }
        let nouns = library
            .skills()
            .iter()
            .flat_map(|s| s.meta.nouns.iter())
            .map(|n| n.to_lowercase())
            .filter(|n| known.contains(n))
            .collect();
        let articles = words
            .of(WordClass::Article)
            .iter()
            .map(|w| w.text.to_lowercase())
            .collect();
        let mut by_len: BTreeMap<usize, Vec<String>> = BTreeMap::new();
        for w in &known {
            by_len.entry(w.len()).or_default().push(w.clone());
        }
        Vocabulary {
            known,
            by_len,
            name_leads,
            text_leads,
            nouns,
            articles,
        }
    }

    /// `message` with each lone mistyped word replaced by the one known word it is a slip of;
    /// the message itself when nothing is corrected.
    pub fn correct<'a>(&self, message: &'a str, names: &Names) -> Cow<'a, str> {
        let mut out: Option<String> = None;
        let mut copied = 0;
        let mut previous: Option<&str> = None;
        for (at, word) in ascii_word_spans(message) {
            let lead = previous.map(str::to_ascii_lowercase);
            // "description to hello world": free text runs to the end and is the user's own.
            if lead.as_ref().is_some_and(|p| self.text_leads.contains(p)) {
                break;
            }
            let named = lead.as_ref().is_some_and(|p| self.name_leads.contains(p));
            let after_article = lead.as_ref().is_some_and(|p| self.articles.contains(p));
            previous = Some(word);
            if named {
                continue;
            }
            let Some(fix) = self.fix(message, (at, word), after_article, names) else {
                continue;
            };
            let buf = out.get_or_insert_with(|| String::with_capacity(message.len()));
            buf.push_str(&message[copied..at]);
            buf.push_str(&fix);
            copied = at + word.len();
        }
        match out {
            Some(mut buf) => {
                buf.push_str(&message[copied..]);
                Cow::Owned(buf)
            }
            None => Cow::Borrowed(message),
        }
    }

    fn fix(
        &self,
        message: &str,
        (at, word): (usize, &str),
        after_article: bool,
        names: &Names,
    ) -> Option<String> {
        if !(MIN_LEN..=MAX_LEN).contains(&word.len()) {
            return None;
        }
        let before = message[..at].chars().next_back();
        let after = message[at + word.len()..].chars().next();
        let glued = |c: Option<char>| {
            c.is_some_and(|c| c.is_ascii_digit() || "-_./@:\"'“”‘’「」".contains(c))
        };
        if glued(before) || glued(after) {
            return None;
        }
        let lower = word.to_ascii_lowercase();
        if self.known.contains(&lower) {
            return None;
        }
        let mut found: Vec<&String> = Vec::new();
        for len in word.len() - 1..=word.len() + 1 {
            for candidate in self.by_len.get(&len).into_iter().flatten() {
                if strsim::osa_distance(&lower, candidate) == 1
                    && !names.entries.iter().any(|e| e.lower == *candidate)
                {
                    found.push(candidate);
                }
            }
        }
        if found.len() > 1 && after_article {
            found.retain(|c| self.nouns.contains(*c));
        }
        let [fix] = found.as_slice() else {
            return None;
        };
        // Checked last, as it is the costly part with many names: a slip of one of the user's
        // names is theirs to settle ("did you mean alpha?").
        let near_a_name = names.entries.iter().any(|e| {
            e.lower.len().abs_diff(lower.len()) <= 1 && strsim::osa_distance(&e.lower, &lower) <= 1
        });
        (!near_a_name).then(|| same_case(word, fix))
    }
}

/// `fix` in the case `typed` was written in (all upper, capitalised, or lower).
fn same_case(typed: &str, fix: &str) -> String {
    if typed.chars().all(|c| c.is_ascii_uppercase()) {
        fix.to_ascii_uppercase()
    } else if typed.starts_with(|c: char| c.is_ascii_uppercase()) {
        let mut out = fix.to_string();
        if let Some(first) = out.get_mut(..1) {
            first.make_ascii_uppercase();
        }
        out
    } else {
        fix.to_string()
    }
}

fn ascii_words(text: &str) -> impl Iterator<Item = &str> {
    ascii_word_spans(text).map(|(_, w)| w)
}

/// Runs of ASCII letters with their byte offsets.
fn ascii_word_spans(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut spans = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        match (c.is_ascii_alphabetic(), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                spans.push((s, &text[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        spans.push((s, &text[s..]));
    }
    spans.into_iter()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vocabulary() -> Vocabulary {
        let library = Library::builtin().unwrap_or_default();
        Vocabulary::from_library(&library)
    }

    #[test]
    fn one_slip_in_a_known_word_is_read_as_it() {
        let v = vocabulary();
        let none = Names::new(Vec::new());
        assert_eq!(
            v.correct("deelte the strategy s1", &none),
            "delete the strategy s1"
        );
        assert_eq!(
            v.correct("what's bictoin trading at", &none),
            "what's bitcoin trading at"
        );
        assert_eq!(v.correct("Retsore it", &none), "Restore it");
    }

    #[test]
    fn after_an_article_a_slip_near_a_noun_and_another_word_is_the_noun() {
        let v = vocabulary();
        let none = Names::new(Vec::new());
        // "tradr" is one edit from "trader" and from "trade": a noun follows "a".
        assert_eq!(v.correct("creat a tradr", &none), "create a trader");
        // Without the article the two stay a guess, left as typed.
        assert_eq!(v.correct("tradr now", &none), "tradr now");
    }

    #[test]
    fn names_keys_and_short_words_are_left_as_typed() {
        let v = vocabulary();
        let none = Names::new(Vec::new());
        for message in [
            "create a trader called btc-bot",
            "create a trader called quoted",
            "rename it to \"quoted\"",
            "use model deepseek-chat",
            "set the api key to sk-abcdefgh12345",
            "stpo alpha",
            "a完全不同的消息",
        ] {
            assert_eq!(v.correct(message, &none), message);
        }
    }
}
