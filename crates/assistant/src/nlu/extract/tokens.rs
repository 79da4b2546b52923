//! Token-level reading shared by the slot extractors: the value after a phrase (skipping
//! connective words), credential-looking runs, names beside a noun, and blanking the spans a
//! value used so later extractors do not read them again.

use nofxi_skills::WordClass;

use super::super::lexicon::Lexicon;
use super::super::names::Names;
use super::super::words::{find_phrase, starts_with_word};

/// Signs between a phrase and its value ("name: X", "key=X"); the words are the lexicon's
/// `value_lead`. A quote opens a value read to its closing quote.
const LEAD_SIGNS: &[&str] = &[":", "：", "=", "\"", "「", "'"];
/// Opening quotes among the lead signs, with their closing ones.
const QUOTES: &[(&str, char)] = &[("\"", '"'), ("「", '」'), ("'", '\'')];

/// Punctuation that ends a token; the lexicon's `possessive` and `softener` words end one too
/// ("alpha的日志", "就叫 alpha 吧").
const STOP: &[char] = &[
    ' ', '，', ',', '。', '"', '」', '\'', '；', ';', '、', '）', ')',
];

/// The longest lead (sign or `value_lead` word) `text` opens with; a word that is ASCII only
/// as a whole word ("to x", not "token").
fn lead_at<'l>(text: &str, lexicon: &'l Lexicon) -> Option<&'l str> {
    let words = lexicon
        .words(WordClass::ValueLead)
        .iter()
        .map(String::as_str);
    LEAD_SIGNS
        .iter()
        .copied()
        .filter(|s| text.starts_with(s))
        .chain(words.filter(|w| starts_with_word(text, w)))
        .max_by_key(|w| w.len())
}

/// Where a token that starts `rest` ends: at a stop sign, a possessive or a softener.
fn token_end(rest: &str, lexicon: &Lexicon) -> usize {
    let ends = [WordClass::Possessive, WordClass::Softener];
    let word_end = ends
        .iter()
        .flat_map(|c| lexicon.words(*c))
        .filter_map(|w| rest.find(w.as_str()))
        .min();
    let sign_end = rest.find(STOP);
    [word_end, sign_end]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(rest.len())
}

/// Replaces `start..end` of `text` with spaces (byte layout kept), if it is a char span.
pub fn blank(text: &mut String, start: usize, end: usize) {
    if start < end
        && end <= text.len()
        && text.is_char_boundary(start)
        && text.is_char_boundary(end)
    {
        let spaces = " ".repeat(end - start);
        text.replace_range(start..end, &spaces);
    }
}

/// The token after `at`, skipping connective words; (value, start, end) in `text`.
pub fn token_after(text: &str, at: usize, lexicon: &Lexicon) -> Option<(String, usize, usize)> {
    let mut i = at;
    let mut closing = None;
    loop {
        let rest = text.get(i..)?;
        let trimmed = rest.trim_start();
        i += rest.len() - trimmed.len();
        match lead_at(trimmed, lexicon) {
            Some(s) => {
                i += s.len();
                closing = QUOTES
                    .iter()
                    .find(|(open, _)| *open == s)
                    .map(|(_, close)| *close);
            }
            None => break,
        }
    }
    let rest = text.get(i..)?;
    // A quoted value is read to its closing quote, spaces and all: rename to "my bot".
    let end = closing
        .and_then(|close| rest.find(close))
        .unwrap_or_else(|| token_end(rest, lexicon));
    let value = rest[..end].trim();
    (!value.is_empty()).then(|| (value.to_string(), i, i + end))
}

/// `token` without a sentence's closing mark when the rest is shaped like an API key (16 or
/// more of `[A-Za-z0-9_-]`): "… key sk-abc…XYZW." ends a sentence. A shorter credential keeps
/// it: a passphrase may well end in "!".
pub fn without_sentence_end(token: &str) -> &str {
    let rest = token.trim_end_matches(['.', '!', '?', '。', '！', '？']);
    let key_shaped = rest.len() >= 16
        && rest
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if key_shaped { rest } else { token }
}

/// The first credential-looking token after a phrase ("rotate the API key on main to
/// ak-987654321"): six or more characters with a digit, `-` or `_`, within a few words; or,
/// right after the phrase, any unbroken run of eight or more ("secret AbCdEfGhIjKl").
pub fn key_after(text: &str, at: usize, lexicon: &Lexicon) -> Option<(usize, usize)> {
    let mut pos = at;
    for word in 0..6 {
        let (_, s, e) = token_after(text, pos, lexicon)?;
        let token = &text[s..e];
        let keyish = token.chars().count() >= 6
            && token
                .chars()
                .any(|c| c.is_ascii_digit() || c == '-' || c == '_');
        let long_run = word == 0 && token.len() >= 8 && token.chars().all(|c| c.is_ascii_graphic());
        let looks_like_key = (keyish || long_run) && !token.starts_with("http");
        if looks_like_key {
            return Some((s, s + without_sentence_end(token).len()));
        }
        pos = e;
    }
    None
}

/// Like `token_after`, but passes over the user's existing names: in "rename eth-bot to
/// eth-main" the new name is the word after the old one.
pub fn token_after_names(
    text: &str,
    at: usize,
    names: &Names,
    lexicon: &Lexicon,
) -> Option<(String, usize, usize)> {
    let rename_words = lexicon.words(WordClass::RenameTo);
    let renames = |rest: &str| rename_words.iter().any(|w| starts_with_word(rest, w));
    let mut pos = at;
    for _ in 0..4 {
        let (value, s, e) = token_after(text, pos, lexicon)?;
        // "rename the paper exchange to sim": an article names nothing.
        if lexicon
            .words(WordClass::Article)
            .contains(&value.to_lowercase())
        {
            pos = e;
            continue;
        }
        let known = names
            .entries
            .iter()
            .any(|n| n.lower == value.to_lowercase());
        let rest = text[e..].trim_start();
        if known && renames(rest) {
            pos = e;
            continue;
        }
        // "…the paper exchange to sim": the old name, then its noun, then the new name.
        let after_word = token_after(text, e, lexicon)
            .filter(|(word, ..)| !rename_words.contains(word))
            .filter(|(.., word_end)| renames(text[*word_end..].trim_start()));
        match (known, after_word) {
            (true, Some((.., word_end))) => pos = word_end,
            _ => return Some((value, s, e)),
        }
    }
    None
}

/// An ASCII word that can be a name: letters (with digits, `-`, `_`), and not a word that
/// sits next to a noun without naming anything (the lexicon's `not_a_name`: "the", "with").
fn is_name_word(w: &str, lexicon: &Lexicon) -> bool {
    !w.is_empty()
        && w.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        && w.chars().any(|c| c.is_ascii_alphabetic())
        && !lexicon.words(WordClass::NotAName).iter().any(|n| n == w)
}

/// A word that is itself one of the nouns, or its plural ("accounts").
fn is_noun(w: &str, nouns: &[&String]) -> bool {
    let singular = w.strip_suffix('s').unwrap_or(w);
    nouns
        .iter()
        .any(|n| n.eq_ignore_ascii_case(w) || n.eq_ignore_ascii_case(singular))
}

/// Nouns longest first, so "exchange account kraken" reads past the whole noun.
fn longest_first<'a>(nouns: &[&'a String]) -> Vec<&'a String> {
    let mut sorted = nouns.to_vec();
    sorted.sort_by_key(|n| std::cmp::Reverse(n.len()));
    sorted
}

/// The word right after a noun: an ASCII word ("交易员 alpha2", "the model mistral"), or a
/// word set off by a colon or a space ("新建策略：保守", "新建交易员 稳健一号").
pub fn word_after(text: &str, nouns: &[&String], lexicon: &Lexicon) -> Option<String> {
    for noun in longest_first(nouns) {
        let n = noun.to_lowercase();
        let Some(at) = find_phrase(text, &n) else {
            continue;
        };
        if let Some(w) = word_set_off(&text[at + n.len()..], lexicon)
            && !is_noun(w, nouns)
        {
            return Some(w.to_string());
        }
        let after = text[at + n.len()..].trim_start_matches('s');
        if let Some(w) = after
            .split_whitespace()
            .next()
            .map(|w| w.trim_matches(|c: char| !c.is_ascii_alphanumeric() && c != '-'))
            && is_name_word(w, lexicon)
            && !is_noun(w, nouns)
        {
            return Some(w.to_string());
        }
    }
    None
}

/// A name set off after a noun: any word after a colon ("：保守", ": alpha"), or a Chinese
/// word after a space ("交易员 稳健一号"), up to the next stop. Not a connective ("：用
/// binance" names nothing), not a particle, short as names are; a Chinese word after a mere
/// space must also not read as part of a sentence ("交易员 我想要稳健的").
fn word_set_off<'t>(after: &'t str, lexicon: &Lexicon) -> Option<&'t str> {
    let trimmed = after.trim_start();
    let (rest, colon) = match trimmed
        .strip_prefix('：')
        .or_else(|| trimmed.strip_prefix(':'))
    {
        Some(rest) => (rest, true),
        None if trimmed.len() < after.len() => (trimmed, false),
        None => return None,
    };
    let rest = rest.trim_start().trim_start_matches(['"', '「', '\'']);
    let word = &rest[..token_end(rest, lexicon)];
    let connective = lead_at(word, lexicon).is_some_and(|l| !l.is_ascii() || l == word);
    let not_a_name = lexicon.words(WordClass::NotAName).iter().any(|n| n == word);
    let sentence = || {
        lexicon
            .words(WordClass::SentenceChar)
            .iter()
            .any(|c| word.contains(c.as_str()))
    };
    let chars = word.chars().count();
    let named = if word.is_ascii() {
        colon && is_name_word(word, lexicon)
    } else if colon {
        (1..=12).contains(&chars) && !not_a_name
    } else {
        (1..=8).contains(&chars)
            && !not_a_name
            && !word.contains(|c: char| c.is_ascii())
            && !sentence()
    };
    (named && !connective).then_some(word)
}

/// An ASCII word right after or right before a noun ("the model mistral", "the kraken
/// account"): what the user called a resource that may not exist. Resolution then says
/// "not found" with that word instead of asking as if nothing was said.
pub fn word_beside(text: &str, nouns: &[&String], lexicon: &Lexicon) -> Option<String> {
    if let Some(w) = word_after(text, nouns, lexicon) {
        return Some(w);
    }
    for noun in longest_first(nouns) {
        let n = noun.to_lowercase();
        if !n.is_ascii() {
            continue;
        }
        let Some(at) = find_phrase(text, &n) else {
            continue;
        };
        if let Some(w) = text[..at].split_whitespace().last()
            && is_name_word(w, lexicon)
            && !is_noun(w, nouns)
        {
            return Some(w.to_string());
        }
    }
    None
}

/// A Chinese name said between a verb and the noun ("激活网格策略" → 网格): what the user
/// called a resource that may not exist.
pub fn cjk_between(
    text: &str,
    verbs: &[String],
    nouns: &[&String],
    lexicon: &Lexicon,
) -> Option<String> {
    let not_names = lexicon.words(WordClass::NotAName);
    let possessives = lexicon.words(WordClass::Possessive);
    for noun in longest_first(nouns) {
        let Some(at) = find_phrase(text, noun) else {
            continue;
        };
        let before = &text[..at];
        let run_start = before
            .char_indices()
            .rev()
            .take_while(|(_, c)| {
                !c.is_whitespace() && !c.is_ascii() && !"，。、；：！？".contains(*c)
            })
            .last()
            .map(|(i, _)| i)?;
        let run = &before[run_start..];
        // The verb must open the run: "激活网格策略", not "现在用的是哪个策略".
        let verb = verbs
            .iter()
            .filter(|v| !v.is_ascii() && run.starts_with(v.as_str()))
            .max_by_key(|v| v.len())?;
        let mut said = &run[verb.len()..];
        // Particles and determiners between the verb and the noun name nothing ("激活我的策略").
        for w in not_names.iter().filter(|w| !w.is_ascii()) {
            said = said.trim_start_matches(w.as_str());
            for p in possessives {
                said = said.trim_end_matches(p.as_str());
            }
        }
        let chars = said.chars().count();
        if (1..=12).contains(&chars) && !not_names.iter().any(|n| n == said) {
            return Some(said.to_string());
        }
    }
    None
}

/// A word that can only be a name the user made up: ASCII with a `-` or `_` joining letters
/// ("grid-master", "ghost-bot"), not a URL, not a number. It ends wherever ASCII does
/// ("sol-bot的日志" says sol-bot).
pub fn made_up_name(text: &str, lexicon: &Lexicon) -> Option<String> {
    let word_char = |c: char| c.is_ascii_alphanumeric() || "-_.:/@".contains(c);
    text.split(|c: char| !word_char(c))
        .map(|w| w.trim_matches(|c: char| c == '.' || c == ':'))
        .find(|w| {
            is_name_word(w, lexicon)
                && (w.contains('-') || w.contains('_'))
                && w.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
                && w.chars().filter(|c| c.is_ascii_alphabetic()).count() >= 3
                // A pasted key (sk-…, ak-…) is a value, never the name of something.
                && crate::scrub::scrub(w) == *w
        })
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::without_sentence_end;

    #[test]
    fn a_sentence_end_leaves_keys_but_not_passphrases() {
        assert_eq!(
            without_sentence_end("sk-test-abcdef1234567890XYZW."),
            "sk-test-abcdef1234567890XYZW"
        );
        assert_eq!(without_sentence_end("Okx2024Pass!"), "Okx2024Pass!");
        assert_eq!(without_sentence_end("Pass1234word."), "Pass1234word.");
    }
}
