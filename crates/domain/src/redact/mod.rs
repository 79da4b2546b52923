//! Keys out of every error message a model provider or a venue sends back, and out of
//! everything the chat stores or shows: the one detector of credential-shaped text.
//!
//! Providers echo keys back in their errors, whole or in part ("Incorrect API key provided:
//! sk-abc***xyz"), a venue or a proxy in front of it may quote the request (its `X-MBX-APIKEY`
//! header, its signed query string), and transport errors carry the URL, where a user may have
//! pasted a key. So every such message is passed through this one redactor where the error is
//! made, by the client that holds the credentials (nofxi-llm for models, the venue clients for
//! exchanges): the exact credentials go first, then anything shaped like a key. The chat's
//! scrubber (`nofxi_assistant::scrub`) finds credentials with the same functions
//! ([`replace_credentials`]), adding only what the user's sentence says ("my api key is …").
//!
//! What is found: values after a field named like a credential ([`labelled`]: JSON, env
//! lines, headers), tokens shaped like the keys the supported exchanges and providers issue
//! ([`shapes`]), partial keys with `***` in them, and credentials inside URLs. Model names
//! (`gemini-2.5-flash-preview-05-20`), nofxi's own ids (UUID v7), numbers, URLs and ordinary
//! words survive.

mod disguised;
pub mod labelled;
pub mod shapes;

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use crate::Secret;

pub use labelled::{Labelled, labelled_values};
pub use shapes::key_spans;

/// What a removed key is replaced with.
pub const REDACTED: &str = "[redacted]";

/// A key shown with its middle starred out: `abc***xyz`, `***wxyz`, `sk-pro****1234`.
static STARRED_KEY: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"[A-Za-z0-9_\-]+\*{3,}[A-Za-z0-9_\-]*|\*{3,}[A-Za-z0-9_\-]+").ok()
});

/// A URL's user info (`https://user:password@host`, also typed with backslashes), which is a
/// credential wherever it is.
static URL_USERINFO: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"(?i)\b([a-z][a-z0-9+.\-]*:[/\\]{2})[^/\\\s@?#]+@").ok());

/// The value of a query or form parameter named like a credential (`?api_key=…`, `&token=…`).
static CREDENTIAL_PARAM: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"(?i)([?&;](?:api[_-]?key|key|token|access[_-]?token|secret|password|passwd|pwd|signature|sig)=)[^&\s#]+").ok()
});

/// `text` with `key` (when given) and every key-shaped run replaced by [`REDACTED`].
pub fn redact(text: &str, key: Option<&Secret>) -> String {
    redact_values(text, key.map(Secret::expose).as_slice())
}

/// `text` with each of `values` (the credentials a client signs with: an API key, a secret, a
/// request's signature) and every key-shaped run replaced by [`REDACTED`]. Values shorter than
/// four characters are not searched for: they would match ordinary words.
pub fn redact_values(text: &str, values: &[&str]) -> String {
    let mut out = crate::seed_phrase::hide_seed_phrases(text).into_owned();
    let mut values: Vec<&str> = values.iter().copied().filter(|k| k.len() >= 4).collect();
    // Longest first, so a value containing another is replaced whole.
    values.sort_by_key(|v| std::cmp::Reverse(v.len()));
    for value in &values {
        out = out.replace(value, REDACTED);
    }
    // What exact matching misses: the value cased, reversed, spread out or cut in pieces.
    for (from, to) in disguised::disguised_spans(&out, &values).into_iter().rev() {
        out.replace_range(from..to, REDACTED);
    }
    if let Some(re) = STARRED_KEY.as_ref() {
        out = re.replace_all(&out, REDACTED).into_owned();
    }
    out = hide_url_credentials(&out);
    replace_credentials(&out, |_, _| REDACTED.to_string(), |_| REDACTED.to_string())
}

/// `text` with every credential the detector finds replaced: each value after a credential
/// field by `labelled(value, signing)` (`signing`: a secret, passphrase or private key, not
/// an identifier such as an API key), then each key-shaped token by `bare(token)`. Linear in
/// the text.
pub fn replace_credentials(
    text: &str,
    labelled: impl Fn(&str, bool) -> String,
    bare: impl Fn(&str) -> String,
) -> String {
    let found = labelled_values(text);
    let out = replace_spans(
        text,
        found.iter().map(|l| (l.span.clone(), l.signing)),
        |v, s| labelled(v, s),
    );
    replace_spans(
        &out,
        key_spans(&out).into_iter().map(|r| (r, false)),
        |v, _| bare(v),
    )
}

/// `text` with each span (in order, not overlapping) replaced by what `with` makes of it.
fn replace_spans<T>(
    text: &str,
    spans: impl IntoIterator<Item = (Range<usize>, T)>,
    with: impl Fn(&str, T) -> String,
) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (span, tag) in spans {
        out.push_str(&text[at..span.start]);
        out.push_str(&with(&text[span.clone()], tag));
        at = span.end;
    }
    out.push_str(&text[at..]);
    out
}

/// `text` with the credentials URLs carry — user info (`https://user:password@host`) and
/// credential-named parameters (`?api_key=…`, `&token=…`) — replaced by [`REDACTED`]. The chat
/// applies it to everything it stores or shows, as the error paths do through [`redact`].
pub fn hide_url_credentials(text: &str) -> String {
    let mut out = text.to_string();
    if let Some(re) = URL_USERINFO.as_ref() {
        out = re
            .replace_all(&out, format!("${{1}}{REDACTED}@"))
            .into_owned();
    }
    if let Some(re) = CREDENTIAL_PARAM.as_ref() {
        out = re
            .replace_all(&out, format!("${{1}}{REDACTED}"))
            .into_owned();
    }
    out
}

/// Whether `text` is shaped like a key (what [`redact`] would remove from it): a name such as
/// `sk-abcdefghijklmnopqrstu` is refused by the name validator, since every reply masks it.
pub fn looks_like_key(text: &str) -> bool {
    redact_values(text, &[]) != text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_key_goes_even_when_it_does_not_look_like_one() {
        let key = Secret::new("plainwordkey");
        assert_eq!(
            redact("bad key plainwordkey here", Some(&key)),
            "bad key [redacted] here"
        );
    }

    #[test]
    fn every_given_value_goes() {
        let out = redact_values(
            "msg: X-MBX-APIKEY=plainkey query=a=1&signature=sigvalue",
            &["plainkey", "sigvalue", "ab"],
        );
        assert_eq!(
            out,
            "msg: X-MBX-APIKEY=[redacted] query=a=1&signature=[redacted]"
        );
    }

    #[test]
    fn partial_echoes_go() {
        for msg in [
            "Incorrect API key provided: sk-abc***xyz. You can find your API key at https://platform.openai.com/account/api-keys.",
            "Incorrect API key provided: sk-proj-********************************************abcd.",
            "key abcd****wxyz is invalid",
            "key ****wxyz is invalid",
        ] {
            let out = redact(msg, None);
            assert!(!out.contains("***"), "{out}");
            assert!(!out.contains("xyz"), "{out}");
            assert!(out.contains(REDACTED), "{out}");
        }
    }

    #[test]
    fn prefixed_and_long_keys_go() {
        let out = redact(
            "keys sk-ant-api03-AbCdEf123456 and AIzaSyA1b2C3d4E5f6G7h8I9j0 and xai-Q1w2E3r4T5y6 and 0123456789abcdef0123456789abcdef",
            None,
        );
        assert_eq!(
            out,
            "keys [redacted] and [redacted] and [redacted] and [redacted]"
        );
    }

    #[test]
    fn credentials_in_urls_go() {
        let out = redact(
            "error sending request for url (https://user:URLPASSWORD123@api.example.com/v1?api_key=QSECRET456&x=1)",
            None,
        );
        assert!(
            !out.contains("URLPASSWORD123") && !out.contains("user:"),
            "{out}"
        );
        assert!(!out.contains("QSECRET456"), "{out}");
        assert!(
            out.contains("https://[redacted]@api.example.com/v1?api_key=[redacted]&x=1"),
            "{out}"
        );
        let backslashed = redact("got https:\\\\frank:Backslash1@llm.example.com", None);
        assert_eq!(backslashed, "got https:\\\\[redacted]@llm.example.com");
    }

    #[test]
    fn ordinary_text_stays() {
        for msg in [
            "models/gemini-2.5-flash-preview-05-20 is not found for API version v1beta",
            "The model `claude-3-5-sonnet-20241022` does not exist",
            "error sending request for url (https://generativelanguage.googleapis.com/v1beta/models)",
            "Rate limit reached for gpt-4o in organization on tokens per min (TPM): Limit 30000",
            "scan_interval_minutes=5 and risk-reward-ratio",
            "error sending request for url (https://127.0.0.1:37411/chat/completions)",
            "Insufficient Balance",
        ] {
            assert_eq!(redact(msg, None), msg);
        }
    }
}
