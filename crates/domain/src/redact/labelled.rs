//! Values written after a field named like a credential: JSON (`{"api_key":"…"}`,
//! `{"passphrase": 8675309424242}`), a Python dict (`{'secret': '…'}`), an environment or
//! config line (`BYBIT_API_SECRET="…"`, `X-MBX-APIKEY: …`), a Chinese label (`私钥：“…”`).
//! The field says what the value is, so a value with no key shape (a passphrase the user
//! chose, a number) is found too.
//!
//! A quoted value is taken whole, whatever it holds (spaces included); an unquoted one when
//! it could be a credential (see [`could_be_value`]); a number of four digits or more.
//! Masks already made (`sk-…a1b2`, `••••`, `[redacted]`) are left as they are. One pass: each
//! `:` or `=` looks back over at most one name, and the scan goes on after a value it took.

use std::ops::Range;

use super::REDACTED;

/// A value found after a credential field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Labelled {
    pub span: Range<usize>,
    /// Signing material (a secret, a passphrase, a private key): shown only as set, never in
    /// part; otherwise an identifier (an API key, a token), which a mask may show the end of.
    pub signing: bool,
}

/// Chinese names of a credential, longest first where one contains another.
const CJK_NAMES: &[(&str, bool)] = &[
    ("密码短语", true),
    ("助记词", true),
    ("私钥", true),
    ("秘钥", true),
    ("密码", true),
    ("口令", true),
    ("密钥", false),
];

/// The longest field name looked back over.
const MAX_NAME: usize = 64;

/// Every value after a credential field in `text`, in order, not overlapping.
pub fn labelled_values(text: &str) -> Vec<Labelled> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(rel) = text[from..].find([':', '=', '：']) {
        let at = from + rel;
        let sep_len = text[at..].chars().next().map_or(1, char::len_utf8);
        from = at + sep_len;
        let Some(signing) = credential_name_before(&text[..at]) else {
            continue;
        };
        if let Some(span) = value_after(text, at + sep_len, signing) {
            from = span.end.max(from);
            out.push(Labelled { span, signing });
        }
    }
    out
}

/// Whether the text just before a `:`/`=` ends with a credential's field name (quoted or
/// not, then spaces), and if so whether it names signing material.
fn credential_name_before(before: &str) -> Option<bool> {
    let before = before.trim_end_matches([' ', '\t']);
    let before = before
        .strip_suffix(['"', '\'', '`', '”', '’', '」'])
        .unwrap_or(before);
    if let Some((_, signing)) = CJK_NAMES.iter().find(|(n, _)| before.ends_with(n)) {
        return Some(*signing);
    }
    let name_start = before
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        .take(MAX_NAME)
        .last()
        .map(|(i, _)| i)?;
    let name: String = before[name_start..]
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    let signing = [
        "secret",
        "passphrase",
        "password",
        "passwd",
        "pwd",
        "private",
        "mnemonic",
    ]
    .iter()
    .any(|w| name.contains(w));
    let identifier = ["key", "token", "signature"]
        .iter()
        .any(|w| name.ends_with(w));
    (signing || identifier).then_some(signing)
}

/// The value starting after the separator at `start` (spaces skipped), if there is one.
fn value_after(text: &str, start: usize, signing: bool) -> Option<Range<usize>> {
    let rest = &text[start..];
    let lead = rest.len() - rest.trim_start_matches([' ', '\t']).len();
    let from = start + lead;
    let mut chars = text[from..].chars();
    let first = chars.next()?;
    let span = if let Some(close) = closing_quote(first) {
        let inner = from + first.len_utf8();
        inner..quoted_end(text, inner, close)
    } else {
        let end = from
            + text[from..]
                .find(|c: char| c.is_whitespace() || ",;}])\"'，。；、）".contains(c))
                .unwrap_or(text.len() - from);
        let word = &text[from..end];
        // A number is a value when it is long enough not to be a count or a flag (a numeric
        // passphrase); a word when it could be a credential.
        let number = word.chars().all(|c| c.is_ascii_digit() || c == '.');
        let taken = if number {
            word.len() >= 4
        } else {
            could_be_value(word, signing)
        };
        if !taken {
            return None;
        }
        from..end
    };
    let value = &text[span.clone()];
    let is_mask = value.contains('…') || value.contains('•') || value.contains(REDACTED);
    (!value.trim().is_empty() && !is_mask).then_some(span)
}

/// The quote that closes one opened by `open`, if `open` is a quote.
fn closing_quote(open: char) -> Option<char> {
    match open {
        '"' => Some('"'),
        '\'' => Some('\''),
        '`' => Some('`'),
        '“' => Some('”'),
        '‘' => Some('’'),
        '「' => Some('」'),
        _ => None,
    }
}

/// Where a quoted value starting at `inner` ends: at its closing quote (a backslash escapes
/// one), or, when it is never closed (a paste cut short), at the end of the line.
fn quoted_end(text: &str, inner: usize, close: char) -> usize {
    let mut escaped = false;
    for (i, c) in text[inner..].char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '\n' => return inner + i,
            c if c == close => return inner + i,
            _ => {}
        }
    }
    text.len()
}

/// An unquoted word after a credential field that could be its value: for signing material
/// any word of four characters or more (a passphrase may be a plain word); for a key, one of
/// six or more with a digit, both cases or a symbol ("api_key: invalid" names no value).
fn could_be_value(word: &str, signing: bool) -> bool {
    let first_ok = word
        .chars()
        .next()
        .is_some_and(|c| c.is_alphanumeric() || "!@#$%^&*+/_-".contains(c));
    if !first_ok {
        return false;
    }
    let n = word.chars().count();
    if signing {
        return n >= 4;
    }
    let digit = word.chars().any(|c| c.is_ascii_digit());
    let cases = word.chars().any(|c| c.is_ascii_uppercase())
        && word.chars().any(|c| c.is_ascii_lowercase());
    let symbol = word.chars().any(|c| c.is_ascii_punctuation());
    n >= 6 && (digit || cases || symbol)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(text: &str) -> Vec<&str> {
        labelled_values(text)
            .into_iter()
            .map(|l| &text[l.span])
            .collect()
    }

    #[test]
    fn values_after_credential_fields_are_found() {
        assert_eq!(values(r#"{"api_key":"abc def ghi"}"#), ["abc def ghi"]);
        assert_eq!(
            values(r#"{"apiKey": "K1", "secretKey": "my pass", "label": "main"}"#),
            ["K1", "my pass"]
        );
        assert_eq!(
            values(r#"{"passphrase": 8675309424242}"#),
            ["8675309424242"]
        );
        assert_eq!(values("{'secret': 'plain words'}"), ["plain words"]);
        assert_eq!(
            values("export BYBIT_API_SECRET=\"abc\"\nOKX_PASSPHRASE=hunter2"),
            ["abc", "hunter2"]
        );
        assert_eq!(values("X-MBX-APIKEY: Zq81mnbvcx"), ["Zq81mnbvcx"]);
        assert_eq!(values("私钥：“a b c”，密码: hunter"), ["a b c", "hunter"]);
        assert_eq!(values(r#"{"token":"ab\"cd"}"#), [r#"ab\"cd"#]);
        // Cut short: up to the end of the line.
        assert_eq!(values("{\"secret\":\"abcdef\nnext"), ["abcdef"]);
        let signing: Vec<bool> = labelled_values(r#"{"api_key":"a","secret":"b"}"#)
            .iter()
            .map(|l| l.signing)
            .collect();
        assert_eq!(signing, [false, true]);
    }

    #[test]
    fn other_fields_plain_words_and_masks_are_left() {
        for text in [
            r#"{"label": "main", "has_api_key": true, "api_key_masked": "sk-…a1b2"}"#,
            r#"{"secret_slots": ["api_key"], "max_tokens": 700, "api_key_index": 3}"#,
            "api_key: invalid, secret: ••••, key=[redacted]",
            "Rate limit reached (TPM): Limit 30000; scan_interval_minutes=5",
            "https://api.deepseek.com/v1 time: 2026-12-07 10:30:00",
            r#"{"passphrase": ""}"#,
        ] {
            assert!(values(text).is_empty(), "{text}: {:?}", values(text));
        }
    }

    #[test]
    fn many_separators_are_read_once() {
        let n = 16 * 1024;
        assert!(labelled_values(&":".repeat(n)).is_empty());
        assert!(labelled_values(&"a:".repeat(n / 2)).is_empty());
        assert_eq!(
            labelled_values(&format!("key=\"{}", ":".repeat(n))).len(),
            1
        );
    }
}
