//! A message that may carry a credential no rule could read ("passphrase my secret pass
//! phrase", "密码短语是 我的口令abc", "secret p@ss w0rd"): the redactor masks only the values
//! it knows or whose shape gives them away, so what such a message keeps for the record (the
//! trace, the conversation's recent turns) is cut at the word that names a credential, and
//! an answer to a question for a secret is kept as a mask whole. Understanding still reads the
//! message as typed; this is only the form that is stored.

use crate::nlu::asks;
use crate::nlu::lexicon::Lexicon;

/// Words that name a credential, longest first where one contains another.
pub const CREDENTIAL_CUES: &[&str] = &[
    "passphrase",
    "password",
    "private",
    "secret",
    "token",
    "key",
    "密码短语",
    "密钥",
    "私钥",
    "秘钥",
    "密码",
    "口令",
];

/// What a hidden run of words is stored as.
const HIDDEN: &str = "••••";

/// `message` (already through the redactor) as it may be stored: everything after the first
/// word that names a credential is hidden, or all of it when `answers_secret` (the message
/// answers a question for a secret). Masks the redactor made are kept, so a stored message
/// still shows which key was given (`sk-…a1b2`). One pass per cue over the message.
pub fn stored_form(message: &str, answers_secret: bool, lexicon: &Lexicon) -> String {
    if answers_secret {
        return hide_words(message);
    }
    let Some(end) = first_cue_end(message) else {
        return message.to_string();
    };
    let (kept, rest) = message.split_at(end);
    // "how do I get a binance api key?" asks about a credential and gives none: a question
    // keeps its plain words, and only hides what could be a value (see `could_be_value`).
    let lower = message.to_lowercase();
    let asks = asks::is_question(&lower, lexicon) || asks::only_asks(&lower, lexicon);
    let hidden = if asks {
        hide_values(rest)
    } else {
        hide_words(rest)
    };
    if hidden.is_empty() {
        kept.to_string()
    } else if hidden.starts_with(HIDDEN) {
        format!("{kept} {hidden}")
    } else {
        // The question's own words, kept as they followed the cue ("key?").
        format!("{kept}{}", &rest[..rest.len() - rest.trim_start().len()]) + &hidden
    }
}

/// Whether `message` names a credential anywhere.
pub fn names_credential(message: &str) -> bool {
    first_cue_end(message).is_some()
}

/// The byte offset just after the first credential word (an ASCII cue runs on to the end of
/// its word: "keys", "secret_key").
fn first_cue_end(message: &str) -> Option<usize> {
    // ASCII lower-casing keeps every byte where it was; the CJK cues have no case.
    let lower = message.to_ascii_lowercase();
    let (at, cue) = CREDENTIAL_CUES
        .iter()
        .filter_map(|cue| lower.find(cue).map(|at| (at, *cue)))
        .min_by_key(|(at, cue)| (*at, std::cmp::Reverse(cue.len())))?;
    let mut end = at + cue.len();
    if cue.is_ascii() {
        end += lower[end..]
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
            .count();
    }
    Some(end)
}

/// A word that could be a credential's value: it holds a digit or a symbol (question marks
/// and sentence punctuation aside), or is long. Plain short words ("key", "怎么申请") are the
/// question's own.
fn could_be_value(word: &str) -> bool {
    let core = word.trim_matches(|c: char| "?？!！.。,，:：;；\"'“”()（）".contains(c));
    core.chars().count() >= 12
        || core
            .chars()
            .any(|c| c.is_ascii_digit() || (c.is_ascii_punctuation() && c != '-'))
}

/// The words of `text` that [`could_be_value`], each run of them replaced by one [`HIDDEN`].
fn hide_values(text: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    for word in text.split_whitespace() {
        let is_mask = word.contains('…') || word.contains('•');
        if is_mask || !could_be_value(word) {
            out.push(word);
        } else if out.last() != Some(&HIDDEN) {
            out.push(HIDDEN);
        }
    }
    out.join(" ")
}

/// The words of `text`, each run of them that is not a mask replaced by one [`HIDDEN`].
fn hide_words(text: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    for word in text.split_whitespace() {
        let is_mask = word.contains('…') || word.contains('•');
        if is_mask {
            out.push(word);
        } else if out.last() != Some(&HIDDEN) {
            out.push(HIDDEN);
        }
    }
    out.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lexicon() -> Lexicon {
        Lexicon::from_library(&nofxi_skills::Library::builtin().expect("builtin skills"))
    }

    #[test]
    fn the_words_after_a_credential_cue_are_hidden() {
        assert_eq!(
            stored_form("passphrase my secret pass phrase", false, &lexicon()),
            "passphrase ••••"
        );
        assert_eq!(
            stored_form("密码短语是 我的口令abc", false, &lexicon()),
            "密码短语 ••••"
        );
        assert_eq!(
            stored_form("Secret p@ss w0rd", false, &lexicon()),
            "Secret ••••"
        );
        assert_eq!(
            stored_form(
                "add binance b1 api key AKIA…4821 secret p@ss",
                false,
                &lexicon()
            ),
            "add binance b1 api key AKIA…4821 ••••"
        );
        assert_eq!(
            stored_form("list my traders", false, &lexicon()),
            "list my traders"
        );
        // A question about a credential keeps its words; a value in it is still hidden.
        assert_eq!(
            stored_form("how do I get a binance api key?", false, &lexicon()),
            "how do I get a binance api key?"
        );
        assert_eq!(
            stored_form("币安的 API key 怎么申请？", false, &lexicon()),
            "币安的 API key 怎么申请？"
        );
        assert_eq!(
            stored_form("is my api key AK12xyz99 right?", false, &lexicon()),
            "is my api key •••• right?"
        );
        assert_eq!(stored_form("my own pass phrase", true, &lexicon()), "••••");
        assert_eq!(stored_form("sk-…a1b2", true, &lexicon()), "sk-…a1b2");
    }
}
