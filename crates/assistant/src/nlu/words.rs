//! Dialogue words: confirmations, denials, cancels, references. These are about the
//! conversation itself, not about any task, so they live here and not in a skill file.
//! Everything task-specific (verbs, nouns, slot phrases, aliases) is read from the skills.

pub const CONFIRM: &[&str] = &[
    "确认",
    "确定",
    "好的",
    "好",
    "是",
    "是的",
    "对",
    "对的",
    "可以",
    "行",
    "没问题",
    "执行",
    "继续",
    "嗯",
    "要",
    "启用吧",
    "删吧",
    "删掉吧",
    "停吧",
    "停掉吧",
    "启动吧",
    "yes",
    "y",
    "ok",
    "okay",
    "sure",
    "confirm",
    "go ahead",
    "do it",
    "yep",
    "yeah",
    "proceed",
    "continue",
    "please do",
];

pub const DENY: &[&str] = &[
    "不",
    "不要",
    "不用",
    "否",
    "别",
    "先不",
    "不行",
    "no",
    "n",
    "nope",
    "nah",
    "don't",
    "do not",
    "not now",
    "not yet",
    "no thanks",
    "no, thanks",
];

pub const CANCEL: &[&str] = &[
    "取消",
    "算了",
    "不做了",
    "换个话题",
    "不弄了",
    "放弃",
    "cancel",
    "never mind",
    "nevermind",
    "forget it",
    "stop this",
    "abort",
];

pub const CANCEL_ALL: &[&str] = &[
    "全部取消",
    "都取消",
    "一起取消",
    "一并取消",
    "也取消",
    "cancel both",
    "cancel it too",
    "都不要了",
    "全都算了",
    "cancel all",
    "cancel everything",
];

/// "它", "that one": the current reference of the kind the task needs.
pub const REFERENCE: &[&str] = &[
    "它",
    "这个",
    "那个",
    "刚才那个",
    "刚才的",
    "刚创建的",
    "刚才创建的",
    "this one",
    "that one",
    "it",
    "this",
    "that",
    "the one",
];

/// Ordinals that pick from the last listed resources.
pub const ORDINALS: &[(&str, usize)] = &[
    ("第一个", 0),
    ("第二个", 1),
    ("第三个", 2),
    ("第四个", 3),
    ("第五个", 4),
    ("the first one", 0),
    ("the second one", 1),
    ("the third one", 2),
    ("the first", 0),
    ("the second", 1),
    ("the third", 2),
    ("first one", 0),
    ("second one", 1),
];

/// "back to the trader", "继续创建交易员": return to an interrupted task.
pub const RESUME: &[&str] = &[
    "回到",
    "继续",
    "接着",
    "get back to",
    "back to",
    "resume",
    "continue with",
    "continue the",
];

/// "use the defaults": accept proposed defaults for what is still missing.
pub const DEFAULTS: &[&str] = &[
    "默认",
    "用默认",
    "默认的",
    "defaults",
    "default",
    "use defaults",
];

/// Words that make a boolean slot false when they are the phrase that named it.
pub const NEGATIVE: &[&str] = &[
    "逐仓",
    "isolated",
    "停用",
    "禁用",
    "disabled",
    "disable",
    "关闭",
    "不启用",
    "不要启动",
    // Of testnet: the other network.
    "mainnet",
    "主网",
    "正式网",
];

/// Question markers: a message with one of these and a glossary match is a side question.
/// Words that say a message reports an error, so a bare code in it ("500") is one.
pub const ERROR_WORDS: &[&str] = &[
    "error",
    "errors",
    "failed",
    "fails",
    "failure",
    "code",
    "status",
    "http",
    "报错",
    "错误",
    "失败",
    "错误码",
    "返回",
];

pub const QUESTION: &[&str] = &[
    "?",
    "？",
    "吗",
    "什么",
    "为什么",
    "怎么",
    "如何",
    "区别",
    "what",
    "why",
    "how",
    "explain",
    "difference",
];

/// A whole message equal (after trimming punctuation) to one of `words`.
/// Whether the message is one of `words`, or several of them in a row ("ok go ahead",
/// "sure, do it", "好，删吧"): a reply made of nothing else.
pub fn is_exactly(message: &str, words: &[&str]) -> bool {
    let m = trim_punct(message).to_lowercase();
    if words.iter().any(|w| m == *w) {
        return true;
    }
    let mut rest = m.as_str();
    let separators = |c: char| c.is_whitespace() || ",，、!！.。~～".contains(c);
    while !rest.is_empty() {
        // The longest word that opens the rest, ending at a word's end when it is ASCII.
        let Some(w) = words
            .iter()
            .filter(|w| {
                rest.starts_with(**w)
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

/// A message that starts with one of `words` and is short (a reply, not a new request).
pub fn starts_short(message: &str, words: &[&str], max_chars: usize) -> bool {
    let m = trim_punct(message).to_lowercase();
    m.chars().count() <= max_chars && words.iter().any(|w| starts_with_word(&m, w))
}

fn starts_with_word(m: &str, w: &str) -> bool {
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

/// `phrase` occurs in `text` (both lower-case); ASCII phrases only as whole words.
pub fn find_phrase(text: &str, phrase: &str) -> Option<usize> {
    phrase_positions(text, phrase).next()
}

/// Where `verb` occurs in `text` outside every longer term of `terms` that contains it:
/// "测试" is no verb in "主账户在测试网上吗" (the testnet), nor "test" in "the test network".
/// `terms` (lower-case) is called only when the verb occurs: most verbs are not in the message.
pub fn find_verb(text: &str, verb: &str, terms: impl FnOnce() -> Vec<String>) -> Option<usize> {
    let mut positions = phrase_positions(text, verb).peekable();
    positions.peek()?;
    let terms = terms();
    let covering: Vec<&String> = terms
        .iter()
        .filter(|t| t.len() > verb.len() && t.contains(verb))
        .collect();
    positions.find(|&at| {
        !progressive(text, at, verb)
            && !negated(text, at)
            && !covering.iter().any(|term| {
                phrase_positions(text, term)
                    .any(|t_at| t_at <= at && at + verb.len() <= t_at + term.len())
            })
    })
}

/// "don't stop alpha", "不要删除 beta", "never start it": the verb is what must not happen.
fn negated(text: &str, at: usize) -> bool {
    preceded_by(text, at, NEGATIONS)
}

/// Words that say what follows must not happen ("don't", "不要").
pub const NEGATIONS: &[&str] = &[
    "don't",
    "dont",
    "do not",
    "never",
    "not",
    "no need to",
    "不要",
    "别",
    "不用",
    "不必",
    "勿",
];

/// Whether one of `words` ends right before `at` (spaces between allowed; an ASCII word only
/// as a whole word: "not" is not the end of "cannot").
pub fn preceded_by(text: &str, at: usize, words: &[&str]) -> bool {
    let before = text[..at].trim_end();
    words.iter().any(|w| {
        before.ends_with(w)
            && (!w.is_ascii()
                || before[..before.len() - w.len()]
                    .chars()
                    .next_back()
                    .is_none_or(|c| !c.is_ascii_alphanumeric()))
    })
}

/// "在运行", "正在运行": the verb says what something is doing, not what to do. "现在启动"
/// (start it now) is still a request.
fn progressive(text: &str, at: usize, verb: &str) -> bool {
    let before = text[..at].trim_end();
    !verb.is_ascii() && before.ends_with('在') && !before.ends_with("现在")
}

/// Every place `phrase` occurs in `text` as [`find_phrase`] counts it.
fn phrase_positions<'t>(text: &'t str, phrase: &'t str) -> impl Iterator<Item = usize> + 't {
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
