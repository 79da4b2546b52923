//! Words read once from the skill library, the only place the understanding gets words from:
//! - the lexicon files' word classes (`skills/lexicon/<lang>.yaml`: yes, no, cancel, "it",
//!   ordinals, negations …), every language at once, since a message may mix them;
//! - the enum aliases of each resource's defining slot (exchange types, providers), used to
//!   understand "币安账户" or "DeepSeek" as a reference to the user's one resource of that type.

use std::collections::BTreeMap;

use nofxi_skills::{Action, Library, ResourceKind, SkillKind, SlotType, WordClass};

use super::coverage::Vocabulary;
use super::numbers::{Number, NumberWords};
use super::reply_words::ReplyWords;
use super::words::{VerbGuards, find_phrase, is_exactly, starts_short, starts_with_word};

#[derive(Debug, Clone, Default)]
pub struct Lexicon {
    /// (kind, alias lower-cased, canonical value), longest alias first.
    class_aliases: Vec<(ResourceKind, String, String)>,
    /// Each class's words, lower-cased, in file order.
    words: BTreeMap<WordClass, Vec<String>>,
    /// (ordinal word, 0-based index), longest first: "the first one" before "the first".
    ordinals: Vec<(String, usize)>,
    /// Candle intervals said in one word ("日线", "daily") and their minutes, longest first.
    candle_intervals: Vec<(String, u64)>,
    /// Units, multipliers and numerals in words, and the patterns built from them.
    numbers: NumberWords,
    /// Every phrase nofxi knows, for [`super::coverage`].
    vocabulary: Vocabulary,
    /// What a short reply may say besides a yes or a no.
    reply_words: ReplyWords,
}

impl Lexicon {
    pub fn from_library(library: &Library) -> Lexicon {
        let mut class_aliases = Vec::new();
        for skill in library.skills() {
            if skill.meta.kind != SkillKind::Management {
                continue;
            }
            let Some(kind) = ResourceKind::parse(&skill.meta.domain) else {
                continue;
            };
            let Some(create) = skill.action("create") else {
                continue;
            };
            for slot in create.slots.iter().filter(|s| s.ty == SlotType::Enum) {
                for v in &slot.values {
                    class_aliases.push((kind, v.value.to_lowercase(), v.value.clone()));
                    for a in &v.aliases {
                        class_aliases.push((kind, a.to_lowercase(), v.value.clone()));
                    }
                }
            }
        }
        class_aliases.sort_by_key(|(_, a, _)| std::cmp::Reverse(a.len()));
        let lexicon = library.words();
        let words = WordClass::ALL
            .into_iter()
            .map(|c| (c, lexicon.of(c).iter().map(|w| w.text.clone()).collect()))
            .collect();
        let mut ordinals: Vec<(String, usize)> = lexicon
            .of(WordClass::Ordinal)
            .iter()
            .filter_map(|w| {
                Some((
                    w.text.clone(),
                    usize::try_from(w.value?.checked_sub(1)?).ok()?,
                ))
            })
            .collect();
        ordinals.sort_by_key(|(w, _)| std::cmp::Reverse(w.len()));
        let mut candle_intervals: Vec<(String, u64)> = lexicon
            .of(WordClass::CandleInterval)
            .iter()
            .filter_map(|w| Some((w.text.clone(), w.value?)))
            .collect();
        candle_intervals.sort_by_key(|(w, _)| std::cmp::Reverse(w.len()));
        let words: BTreeMap<WordClass, Vec<String>> = words;
        let create_verbs = words
            .get(&WordClass::CreateVerb)
            .map_or(&[][..], Vec::as_slice);
        let reply_words = ReplyWords::from_library(library, create_verbs);
        Lexicon {
            class_aliases,
            words,
            ordinals,
            candle_intervals,
            numbers: NumberWords::new(lexicon),
            vocabulary: Vocabulary::of_library(library),
            reply_words,
        }
    }

    /// What a short reply may say besides a yes or a no (see [`ReplyWords`]).
    pub fn reply_words(&self) -> &ReplyWords {
        &self.reply_words
    }

    /// Every phrase nofxi knows: what claims the words of a message (see [`super::coverage`]).
    pub fn vocabulary(&self) -> &Vocabulary {
        &self.vocabulary
    }

    /// The verbs that name `action`: its skill's own, and for a create the lexicon's create
    /// verbs, which every kind shares ("make me a", "建个").
    pub fn action_verbs<'a>(&'a self, action: &'a Action) -> impl Iterator<Item = &'a String> {
        let shared = match action.name.as_str() {
            "create" => self.words(WordClass::CreateVerb),
            _ => &[],
        };
        action.verbs.iter().chain(shared)
    }

    /// The words of `class`.
    pub fn words(&self, class: WordClass) -> &[String] {
        self.words.get(&class).map_or(&[], Vec::as_slice)
    }

    /// The message is one word of `class`, or several in a row ("ok go ahead", "好，删吧").
    pub fn is(&self, class: WordClass, message: &str) -> bool {
        is_exactly(message, self.words(class))
    }

    /// The message is short (at most `max_chars`) and starts with a word of `class`.
    pub fn starts(&self, class: WordClass, message: &str, max_chars: usize) -> bool {
        starts_short(message, self.words(class), max_chars)
    }

    /// A word of `class` occurs in `lower` (lower-cased), as [`find_phrase`] counts it.
    pub fn any_in(&self, class: WordClass, lower: &str) -> bool {
        self.words(class)
            .iter()
            .any(|w| find_phrase(lower, w).is_some())
    }

    /// Every number in `text` with its unit, in order ("10倍", "$2,500", "两个小时").
    pub fn numbers(&self, text: &str) -> Vec<Number> {
        self.numbers.numbers(text)
    }

    /// What makes a verb no request, for [`super::words::find_verb`].
    pub fn verb_guards(&self) -> VerbGuards<'_> {
        VerbGuards {
            negations: self.words(WordClass::Negation),
            progressive: self.words(WordClass::Progressive),
            not_progressive: self.words(WordClass::NotProgressive),
            not_negations: self.words(WordClass::Hypothetical),
        }
    }

    /// `lower` (lower-cased) opens with a word of `class`, as a whole word when it is ASCII
    /// ("is alpha up", not "isolated").
    pub fn opens(&self, class: WordClass, lower: &str) -> bool {
        let t = lower.trim_start();
        self.words(class).iter().any(|w| starts_with_word(t, w))
    }

    /// `lower` ends with a word of `class`, spaces after it aside.
    pub fn ends(&self, class: WordClass, lower: &str) -> bool {
        let t = lower.trim_end();
        self.words(class).iter().any(|w| t.ends_with(w.as_str()))
    }

    /// The word of `class` that `lower` opens with, longest first ("actually, make it" before
    /// "actually"); raw prefixes, so a word may end in punctuation.
    pub fn opening(&self, class: WordClass, lower: &str) -> Option<&str> {
        self.words(class)
            .iter()
            .filter(|w| lower.starts_with(w.as_str()))
            .max_by_key(|w| w.len())
            .map(String::as_str)
    }

    /// The 0-based index an ordinal in `lower` picks ("the second one" → 1).
    pub fn ordinal_in(&self, lower: &str) -> Option<usize> {
        self.ordinals
            .iter()
            .find(|(w, _)| lower.contains(w.as_str()))
            .map(|(_, i)| *i)
    }

    /// The first candle interval said in one word in `lower` ("btc 日线" → 1440 minutes), with
    /// where it stands.
    pub fn candle_interval_in(&self, lower: &str) -> Option<(u64, usize, usize)> {
        self.candle_intervals
            .iter()
            .filter_map(|(w, minutes)| find_phrase(lower, w).map(|at| (*minutes, at, at + w.len())))
            .min_by_key(|(_, at, _)| *at)
    }

    /// The type or provider a phrase names, if any ("币安账户" → binance).
    pub fn class_in(&self, kind: ResourceKind, lower: &str) -> Option<(&str, usize, usize)> {
        self.class_aliases
            .iter()
            .filter(|(k, _, _)| *k == kind)
            .find_map(|(_, alias, value)| {
                find_phrase(lower, alias).map(|at| (value.as_str(), at, at + alias.len()))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn builtin() -> Lexicon {
        Lexicon::from_library(&Library::builtin().unwrap())
    }

    #[test]
    fn dialogue_words_come_from_the_lexicon_files_of_every_language() {
        let lx = builtin();
        assert!(lx.is(WordClass::Confirm, "好，删吧"));
        assert!(lx.is(WordClass::Confirm, "ok go ahead"));
        assert!(!lx.is(WordClass::Confirm, "ok delete beta"));
        assert!(lx.is(WordClass::Deny, "no, thanks"));
        assert!(lx.starts(WordClass::Cancel, "算了，名字叫 bot2", 12));
        assert!(lx.any_in(WordClass::Resume, "back to the trader"));
        assert!(!lx.any_in(WordClass::Reference, "bitcoin"));
    }

    #[test]
    fn ordinals_pick_by_position_longest_word_first() {
        let lx = builtin();
        assert_eq!(lx.ordinal_in("the second one"), Some(1));
        assert_eq!(lx.ordinal_in("第三个吧"), Some(2));
        assert_eq!(lx.ordinal_in("the last"), None);
    }
}
