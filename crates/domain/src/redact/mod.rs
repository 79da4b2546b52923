//! Keys out of every error message a model provider or a venue sends back.
//!
//! Providers echo keys back in their errors, whole or in part ("Incorrect API key provided:
//! sk-abc***xyz"), a venue or a proxy in front of it may quote the request (its `X-MBX-APIKEY`
//! header, its signed query string), and transport errors carry the URL, where a user may have
//! pasted a key. So every such message is passed through this one redactor where the error is
//! made, by the client that holds the credentials (nofxi-llm for models, the venue clients for
//! exchanges): the exact credentials go first, then anything shaped like a key.
//!
//! Model names (`gemini-2.5-flash-preview-05-20`), URLs and ordinary words survive: a run is
//! only taken for a key when it is long and mixes letters with digits, or carries a known key
//! prefix, or is a partial key with `***` in it.

mod disguised;

use std::sync::LazyLock;

use regex::Regex;

use crate::Secret;

/// What a removed key is replaced with.
pub const REDACTED: &str = "[redacted]";

/// `sk-…`, `sk-ant-…`, `sk-proj-…`, xAI's `xai-…`, Groq's `gsk_…`, Google's `AIza…`.
static PREFIXED_KEY: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"\b(?:(?:sk|pk|rk|xai)-[A-Za-z0-9_\-*]{6,}|gsk_[A-Za-z0-9_\-]{8,}|AIza[A-Za-z0-9_\-]{16,})")
        .ok()
});

/// A key shown with its middle starred out: `abc***xyz`, `***wxyz`, `sk-pro****1234`.
static STARRED_KEY: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"[A-Za-z0-9_\-]+\*{3,}[A-Za-z0-9_\-]*|\*{3,}[A-Za-z0-9_\-]+").ok()
});

/// Base64- or hex-like runs of 20+ characters; only taken for keys when letters and digits mix.
/// No `_` or `-`, so identifiers and model names are left alone, and no `/`, so a URL's port
/// and path (`37411/chat/completions`) are not one run.
static LONG_RUN: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"[A-Za-z0-9+]{20,}={0,2}").ok());

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
    for re in [&PREFIXED_KEY, &STARRED_KEY]
        .into_iter()
        .flat_map(|r| r.as_ref())
    {
        out = re.replace_all(&out, REDACTED).into_owned();
    }
    out = hide_url_credentials(&out);
    if let Some(re) = LONG_RUN.as_ref() {
        out = re
            .replace_all(&out, |c: &regex::Captures| {
                let run = &c[0];
                let digits = run.chars().any(|ch| ch.is_ascii_digit());
                let letters = run.chars().any(|ch| ch.is_ascii_alphabetic());
                if digits && letters {
                    REDACTED.to_string()
                } else {
                    run.to_string()
                }
            })
            .into_owned();
    }
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
