//! What a message looks like to the rules: the same words however they were typed. Letters and
//! digits typed full-width (an IME left in full-width mode: `ｓｔｏｐ ａｌｐｈａ`) are read as
//! ASCII, runs of spaces as one, and the full stops and exclamation marks that end a sentence
//! are not part of its last value (`called main.` names `main`). Chinese punctuation stays as
//! typed — the lexicon's words include it — and so does a question mark, which says what the
//! message is.
//!
//! A command line pasted from the README or a shell (`nofxi exchange add --type paper --name
//! main`) reads as the request it is: the program's name goes and each `--flag` is its words
//! (`type paper name main`). Read as prose, its verb was taken for the name ("add").

use std::borrow::Cow;

/// `message` with a pasted command line's program name and flag dashes gone; the message
/// itself when it has neither. Values are left as typed (a credential may follow a flag).
pub fn command_words(message: &str) -> Cow<'_, str> {
    let body = strip_program(message);
    let has_flag = body.split(' ').any(|w| flag_words(w).is_some());
    if body.len() == message.len() && !has_flag {
        return Cow::Borrowed(message);
    }
    let words: Vec<Cow<'_, str>> = body
        .split(' ')
        .map(|w| flag_words(w).map_or(Cow::Borrowed(w), Cow::Owned))
        .collect();
    Cow::Owned(words.join(" "))
}

/// The message after a leading `nofxi ` (any case), as a pasted command starts.
fn strip_program(message: &str) -> &str {
    let trimmed = message.trim_start();
    match trimmed.get(..6) {
        Some(head) if head.eq_ignore_ascii_case("nofxi ") => trimmed[6..].trim_start(),
        _ => message,
    }
}

/// `--api-key` → `api key`: a long flag's words; `None` for any other word.
fn flag_words(word: &str) -> Option<String> {
    let name = word.strip_prefix("--")?;
    let valid = name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    valid.then(|| name.replace('-', " "))
}

/// `message` as the rules read it; the message itself when nothing changes. One pass.
pub fn plain(message: &str) -> Cow<'_, str> {
    let trimmed = message.trim_end_matches(|c: char| sentence_end(c) || decoration(c));
    let trimmed = if trimmed.is_empty() { message } else { trimmed };
    let needs_work = trimmed.len() != message.len()
        || trimmed.contains("  ")
        || trimmed
            .chars()
            .any(|c| full_width_ascii(c).is_some() || c == '\u{3000}');
    if !needs_work {
        return Cow::Borrowed(message);
    }
    let mut out = String::with_capacity(trimmed.len());
    for c in trimmed.chars() {
        let c = full_width_ascii(c).unwrap_or(if c == '\u{3000}' { ' ' } else { c });
        if c == ' ' && out.ends_with(' ') {
            continue;
        }
        out.push(c);
    }
    Cow::Owned(out)
}

/// A message carrying a credential keeps its characters as typed (width, spaces, an ASCII
/// `!` may be the key's own); only a Chinese sentence end (`。`, `！`), which no key holds, goes.
pub fn sentence_end_only(message: &str) -> &str {
    let trimmed = message.trim_end_matches(['。', '！']);
    if trimmed.is_empty() { message } else { trimmed }
}

/// Ends a sentence without being a word: full stops, exclamation marks, spaces.
fn sentence_end(c: char) -> bool {
    matches!(c, '.' | '。' | '!' | '！' | ' ')
}

/// Said after a request for tone, never part of a value: a wave dash (`主账户～`), an emoji
/// (`🙏`, `👍`) and the joiners and selectors emoji are built with.
fn decoration(c: char) -> bool {
    matches!(c, '～' | '~' | '\u{200D}' | '\u{FE0F}')
        || matches!(u32::from(c), 0x2600..=0x27BF | 0x1F300..=0x1FAFF)
}

/// The ASCII character a full-width one stands for: letters, digits, and the symbols a name,
/// a number or an error code is written with (`－１０２１`, `ｂｔｃ＿ｂｏｔ`). Chinese
/// sentence punctuation (，。？！：；（）) stays: the lexicon's words include it.
fn full_width_ascii(c: char) -> Option<char> {
    match c {
        '\u{FF10}'..='\u{FF19}'
        | '\u{FF21}'..='\u{FF3A}'
        | '\u{FF41}'..='\u{FF5A}'
        | '＃'
        | '＄'
        | '％'
        | '＆'
        | '＊'
        | '＋'
        | '－'
        | '．'
        | '／'
        | '＝'
        | '＠'
        | '＿' => char::from_u32(c as u32 - 0xFF01 + 0x21),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn width_spacing_and_the_sentence_end_are_not_words() {
        assert_eq!(plain("ｓｔｏｐ ａｌｐｈａ２"), "stop alpha2");
        assert_eq!(
            plain("set  up  a  paper   account"),
            "set up a paper account"
        );
        assert_eq!(
            plain("add a Binance account called main."),
            "add a Binance account called main"
        );
        assert_eq!(plain("名字叫主账户！"), "名字叫主账户");
        assert_eq!(plain("名字叫主账户～"), "名字叫主账户");
        assert_eq!(plain("建一个模拟盘账户 🙏"), "建一个模拟盘账户");
        assert_eq!(plain("报错 －１０２１"), "报错 -1021");
        assert_eq!(plain("stop it!!"), "stop it");
        assert_eq!(plain("启动\u{3000}alpha"), "启动 alpha");
    }

    #[test]
    fn a_pasted_command_line_reads_as_its_words() {
        assert_eq!(
            command_words("nofxi exchange add --type paper --name main"),
            "exchange add type paper name main"
        );
        assert_eq!(
            command_words("NOFXI model add --name ds --api-key sk-A1b2--c3"),
            "model add name ds api key sk-A1b2--c3"
        );
        for prose in [
            "add a paper exchange called main",
            "nofxing around",
            "a -- b",
        ] {
            assert_eq!(command_words(prose), prose);
        }
    }

    #[test]
    fn a_credential_keeps_its_ascii_ending() {
        assert_eq!(sentence_end_only("key 是 sk-abc123！"), "key 是 sk-abc123");
        assert_eq!(sentence_end_only("secret p@ss w0rd!"), "secret p@ss w0rd!");
    }

    #[test]
    fn questions_chinese_punctuation_and_plain_text_stay() {
        for text in [
            "stop btc-bot?",
            "停止 btc-bot？算了",
            "把 default 的 BTC 3倍，山寨币 2倍",
            "list traders",
            "...",
            "!",
        ] {
            assert_eq!(plain(text), text, "{text}");
            assert!(matches!(plain(text), Cow::Borrowed(_)), "{text}");
        }
    }
}
