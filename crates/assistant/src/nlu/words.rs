//! How words are found in a message: whole replies made of words (`is_exactly`), a reply that
//! opens with one (`starts_short`), phrases as whole words (`find_phrase`), verbs that are not
//! negated or part of a longer term (`find_verb`). The words themselves are data: the dialogue
//! words (confirm, deny, cancel, references, negations …) come from the lexicon files through
//! [`super::lexicon::Lexicon`], everything task-specific from the skills.

/// A whole message equal (after trimming punctuation) to one of `words`.
/// Whether the message is one of `words`, or several of them in a row ("ok go ahead",
/// "sure, do it", "好，删吧"): a reply made of nothing else.
pub fn is_exactly<W: AsRef<str>>(message: &str, words: &[W]) -> bool {
    let m = trim_punct(message).to_lowercase();
    if words.iter().any(|w| m == w.as_ref()) {
        return true;
    }
    let mut rest = m.as_str();
    let separators = |c: char| c.is_whitespace() || ",，、!！.。~～".contains(c);
    while !rest.is_empty() {
        // The longest word that opens the rest, ending at a word's end when it is ASCII.
        let Some(w) = words
            .iter()
            .map(AsRef::as_ref)
            .filter(|w: &&str| {
                rest.starts_with(*w)
                    && (!w.is_ascii()
                        || !rest[w.len()..].starts_with(|c: char| c.is_ascii_alphanumeric()))
            })
            .max_by_key(|w| w.len())
        else {
            return false;
        };
        rest = rest[w.len()..].trim_start_matches(separators);
    }
    true
}

/// `text` read as phrases of `lists` and nothing else (spaces and punctuation between them
/// skipped; an ASCII phrase only as a whole word): for each phrase read, the index of its
/// list and where it is in `text`; `None` when no reading covers all of it. Of the readings,
/// the one taking the longest phrase at each step that still lets the rest be read ("先不弄了"
/// is 先 + 不弄了 when 先不 + 弄了 reads no further), the earlier list on a tie. Only the
/// places a phrase can start from are tried, so it costs the phrases tried times the words
/// said, not times every character.
pub fn cover_by<W: AsRef<str>>(
    text: &str,
    lists: &[&[W]],
) -> Option<Vec<(usize, std::ops::Range<usize>)>> {
    let separators = |c: char| c.is_whitespace() || ",，、!！.。~～?？;；".contains(c);
    // The next phrase's start after `at`: separators skipped.
    let skip = |at: usize| text.len() - text[at..].trim_start_matches(separators).len();
    // Every phrase that starts at a place reached from the start: (from, list, phrase end).
    let mut steps: Vec<(usize, usize, usize)> = Vec::new();
    let mut reached = std::collections::BTreeSet::from([skip(0)]);
    let mut places = vec![skip(0)];
    while let Some(from) = places.pop() {
        if from == text.len() {
            continue;
        }
        let rest = &text[from..];
        for (list, words) in lists.iter().enumerate() {
            for w in words.iter().map(AsRef::as_ref) {
                if w.is_empty() || !starts_with_word(rest, w) {
                    continue;
                }
                let next = skip(from + w.len());
                steps.push((from, list, from + w.len()));
                if reached.insert(next) {
                    places.push(next);
                }
            }
        }
    }
    if !reached.contains(&text.len()) {
        return None;
    }
    // finishes: the places from which the rest can be read to the end, last place first.
    let mut finishes = std::collections::BTreeSet::from([text.len()]);
    for &from in reached.iter().rev() {
        if steps
            .iter()
            .any(|&(f, _, end)| f == from && finishes.contains(&skip(end)))
        {
            finishes.insert(from);
        }
    }
    let mut read = Vec::new();
    let mut at = skip(0);
    while at < text.len() {
        let &(_, list, end) = steps
            .iter()
            .filter(|&&(f, _, end)| f == at && finishes.contains(&skip(end)))
            .max_by_key(|&&(_, list, end)| (end, std::cmp::Reverse(list)))?;
        read.push((list, at..end));
        at = skip(end);
    }
    Some(read)
}

/// A message that starts with one of `words` and is short (a reply, not a new request).
pub fn starts_short<W: AsRef<str>>(message: &str, words: &[W], max_chars: usize) -> bool {
    let m = trim_punct(message).to_lowercase();
    m.chars().count() <= max_chars && words.iter().any(|w| starts_with_word(&m, w.as_ref()))
}

/// `m` starts with `w`, as a whole word when `w` is ASCII.
pub fn starts_with_word(m: &str, w: &str) -> bool {
    if !m.starts_with(w) {
        return false;
    }
    if !w.is_ascii() {
        return true;
    }
    m[w.len()..]
        .chars()
        .next()
        .is_none_or(|c| !c.is_ascii_alphanumeric())
}

/// `s` without surrounding punctuation and spaces; a `%` or `$` stays, as part of the value
/// ("90%" is not 90, "$3k" not 3k).
pub fn trim_punct(s: &str) -> &str {
    s.trim().trim_matches(|c: char| {
        (c.is_ascii_punctuation() && c != '%' && c != '$')
            || "，。！？、；：～…".contains(c)
            || c.is_whitespace()
    })
}

/// `s` without one of `words` at its end (as a whole word when ASCII), trimmed: "alpha 吧"
/// → "alpha", "4 instead" → "4".
pub fn strip_end_words<'a, W: AsRef<str>>(s: &'a str, words: &[W]) -> &'a str {
    for w in words.iter().map(AsRef::as_ref) {
        if let Some(rest) = s.strip_suffix(w) {
            let whole = !w.is_ascii() || !rest.ends_with(|c: char| c.is_ascii_alphanumeric());
            if whole {
                return rest.trim_end();
            }
        }
    }
    s
}

/// `s` without the words of `words` it opens with, as many as there are ("就叫 alpha" →
/// "alpha", "but and x" → "x"); a word that is ASCII only as a whole word, its spaces trimmed.
pub fn strip_start_words<'a, W: AsRef<str>>(mut s: &'a str, words: &[W]) -> &'a str {
    loop {
        let opened = words
            .iter()
            .map(|w| w.as_ref().trim())
            .filter(|w| !w.is_empty() && starts_with_word(s, w))
            .max_by_key(|w| w.len());
        match opened {
            Some(w) => s = s[w.len()..].trim_start(),
            None => return s,
        }
    }
}

/// `text` cut at every place one of `words` occurs (as [`find_phrase`] counts it), the words
/// themselves left out: "a but b" → ["a ", " b"].
pub fn split_at_words<'a, W: AsRef<str>>(text: &'a str, words: &[W]) -> Vec<&'a str> {
    let lower = text.to_lowercase();
    // Lower-casing may move bytes outside ASCII; then the text is cut as it is.
    let haystack = if lower.len() == text.len() {
        lower.as_str()
    } else {
        text
    };
    let mut cuts: Vec<(usize, usize)> = words
        .iter()
        .map(|w| w.as_ref().trim())
        .filter(|w| !w.is_empty())
        .flat_map(|w| phrase_positions(haystack, w).map(move |at| (at, at + w.len())))
        .collect();
    cuts.sort_unstable();
    let mut parts = Vec::new();
    let mut from = 0;
    for (at, end) in cuts {
        if at >= from {
            parts.push(&text[from..at]);
            from = end;
        }
    }
    parts.push(&text[from..]);
    parts
}

/// `phrase` occurs in `text` (both lower-case); ASCII phrases only as whole words.
pub fn find_phrase(text: &str, phrase: &str) -> Option<usize> {
    phrase_positions(text, phrase).next()
}

/// Where `verb` occurs in `text` outside every longer term of `terms` that contains it:
/// "测试" is no verb in "主账户在测试网上吗" (the testnet), nor "test" in "the test network".
/// `terms` (lower-case) is called only when the verb occurs: most verbs are not in the message.
/// A verb right after one of `negations` ("don't stop alpha", "不要删除 beta") is what must not
/// happen, so it is no verb either.
pub fn find_verb(
    text: &str,
    verb: &str,
    guards: &VerbGuards<'_>,
    terms: impl FnOnce() -> Vec<String>,
) -> Option<usize> {
    let mut positions = phrase_positions(text, verb).peekable();
    positions.peek()?;
    let terms = terms();
    let covering: Vec<&String> = terms
        .iter()
        .filter(|t| t.len() > verb.len() && t.contains(verb))
        .collect();
    positions.find(|&at| {
        !progressive(text, at, verb, guards)
            && (!preceded_by(text, at, guards.negations)
                || preceded_by(text, at, guards.not_negations))
            && !covering.iter().any(|term| {
                phrase_positions(text, term)
                    .any(|t_at| t_at <= at && at + verb.len() <= t_at + term.len())
            })
    })
}

/// What makes a verb found in a message no request (the lexicon's words): a negation right
/// before it ("don't stop"), or a progressive marker ("在运行").
pub struct VerbGuards<'a> {
    pub negations: &'a [String],
    pub progressive: &'a [String],
    /// Words that end like a progressive marker and are none ("现在").
    pub not_progressive: &'a [String],
    /// Words that end in a negation and are none: the question "要不要停掉" asks about the
    /// stop, it does not forbid it.
    pub not_negations: &'a [String],
}

/// Whether one of `words` ends right before `at` (spaces between allowed; an ASCII word only
/// as a whole word: "not" is not the end of "cannot").
pub fn preceded_by<W: AsRef<str>>(text: &str, at: usize, words: &[W]) -> bool {
    let before = text[..at].trim_end();
    words.iter().map(AsRef::as_ref).any(|w| {
        before.ends_with(w)
            && (!w.is_ascii()
                || before[..before.len() - w.len()]
                    .chars()
                    .next_back()
                    .is_none_or(|c| !c.is_ascii_alphanumeric()))
    })
}

/// "在运行", "正在运行": the verb says what something is doing, not what to do. "现在启动"
/// (start it now) is still a request: a word that only ends like a progressive marker is none.
fn progressive(text: &str, at: usize, verb: &str, guards: &VerbGuards<'_>) -> bool {
    let before = text[..at].trim_end();
    !verb.is_ascii()
        && guards
            .progressive
            .iter()
            .any(|m| before.ends_with(m.as_str()))
        && !guards
            .not_progressive
            .iter()
            .any(|w| before.ends_with(w.as_str()))
}

/// Every place `phrase` occurs in `text` as [`find_phrase`] counts it.
pub(crate) fn phrase_positions<'t>(
    text: &'t str,
    phrase: &'t str,
) -> impl Iterator<Item = usize> + 't {
    let bytes = text.as_bytes();
    // `-` and `_` join words: "scalper" is not a word of "eth-scalper".
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'-';
    let occurrences = (!phrase.is_empty()).then(|| text.match_indices(phrase));
    occurrences
        .into_iter()
        .flatten()
        .map(|(at, _)| at)
        .filter(move |&at| {
            if !phrase.is_ascii() {
                return true;
            }
            let pb = phrase.as_bytes();
            let before_ok =
                !pb.first().is_some_and(|b| word(*b)) || at == 0 || !word(bytes[at - 1]);
            let end = at + phrase.len();
            let ends_word = pb.last().is_some_and(|b| b.is_ascii_alphabetic());
            // A plural ("bots", "models") still names the noun.
            let plural = ends_word
                && bytes.get(end) == Some(&b's')
                && bytes.get(end + 1).is_none_or(|b| !word(*b));
            let after_ok = !pb.last().is_some_and(|b| word(*b))
                || bytes.get(end).is_none_or(|b| !word(*b))
                || plural;
            before_ok && after_ok
        })
}
