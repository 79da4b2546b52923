//! Secrets typed in chat. They are held in memory only, keyed by conversation, task and slot,
//! until the tool that seals them into the vault runs; everything persisted or shown carries
//! the mask instead. The same list of known clear values feeds the redactor, which replaces
//! any occurrence in any text (reply, event, trace, recent turns) by the mask.
//!
//! A restart loses the in-memory values on purpose: the task then asks for the credential
//! again rather than keeping it outside the vault.

use std::collections::HashMap;
use std::sync::Mutex;

use nofxi_domain::{ExchangeType, Secret};
use nofxi_skills::ResourceKind;
use serde_json::{Map, Value};

use crate::nlu::names::Names;

#[derive(Default)]
pub struct SecretCache {
    values: Mutex<HashMap<(String, String, String), Secret>>,
    known: Mutex<Vec<(String, String)>>,
}

impl SecretCache {
    /// Keeps a secret typed for `slot` and returns its mask. `account` is the type of the
    /// exchange account the task is about, when known: there a field may hold a private key
    /// whatever it is called (Hyperliquid's `api_key`), and then none of it is shown.
    pub fn put(
        &self,
        conversation: &str,
        task: &str,
        slot: &str,
        value: &str,
        account: Option<ExchangeType>,
    ) -> String {
        let secret = Secret::new(value.to_string());
        // A secret key or passphrase shows only that it is set, as `exchange show` does.
        let mask = match account {
            Some(t) if t.holds_private_key(slot) => Secret::new("").mask(),
            _ => nofxi_domain::shown_mask(slot, &secret),
        };
        self.know(value, &mask);
        if let Ok(mut values) = self.values.lock() {
            values.insert(
                (conversation.to_string(), task.to_string(), slot.to_string()),
                secret,
            );
        }
        mask
    }

    /// Masks `value` wherever it appears from now on, as `mask`: a stored credential, so
    /// that pasting it again shows nobody the clear value.
    pub fn know(&self, value: &str, mask: &str) {
        if let Ok(mut known) = self.known.lock()
            && !known.iter().any(|(v, _)| v == value)
        {
            known.push((value.to_string(), mask.to_string()));
            // Longest first, so a secret containing another is replaced whole.
            known.sort_by_key(|(v, _)| std::cmp::Reverse(v.len()));
        }
    }

    pub fn get(&self, conversation: &str, task: &str, slot: &str) -> Option<String> {
        let values = self.values.lock().ok()?;
        values
            .get(&(conversation.to_string(), task.to_string(), slot.to_string()))
            .map(|s| s.expose().to_string())
    }

    /// Drops a finished task's secrets.
    pub fn forget_task(&self, conversation: &str, task: &str) {
        if let Ok(mut values) = self.values.lock() {
            values.retain(|(c, t, _), _| !(c == conversation && t == task));
        }
    }

    /// Whether `value` is a secret seen so far, in any case.
    pub fn is_known(&self, value: &str) -> bool {
        let value = value.trim().to_ascii_lowercase();
        self.known.lock().is_ok_and(|known| {
            known
                .iter()
                .any(|(v, _)| v.len() >= 4 && v.to_ascii_lowercase() == value)
        })
    }

    /// `text` with every secret seen so far replaced by its mask, and anything else that is
    /// shaped like a secret too ([`crate::scrub`]). A credential found here is seen from now
    /// on: said again without its label (or repeated by a model), it is still masked.
    pub fn redact(&self, text: &str) -> String {
        let mut out = text.to_string();
        if let Ok(known) = self.known.lock() {
            for (value, mask) in known.iter().filter(|(v, _)| v.len() >= 4) {
                out = replace_ignoring_case(&out, value, mask);
            }
        }
        let (mut out, found) = crate::scrub::scrub_found(&out);
        for (value, mask) in found.iter().filter(|(v, _)| worth_knowing(v)) {
            // Where the same text said it before its label ("X — that is my passphrase: X").
            out = replace_ignoring_case(&out, value, mask);
            self.know(value, mask);
        }
        out
    }

    /// Where a known secret may begin at the end of `text`, cut short by a stream: the offset
    /// of the longest tail of `text` that starts a known value (in any case); `text.len()`
    /// when no tail does.
    fn unfinished_known(&self, text: &str) -> usize {
        let Ok(known) = self.known.lock() else {
            return text.len();
        };
        let lower = text.to_ascii_lowercase();
        let mut at = text.len();
        for (value, _) in known.iter() {
            let value = value.to_ascii_lowercase();
            let from = lower.len().saturating_sub(value.len().saturating_sub(1));
            if let Some(p) =
                (from..at).find(|&p| lower.is_char_boundary(p) && value.starts_with(&lower[p..]))
            {
                at = p;
            }
        }
        at
    }

    /// A JSON value with every string redacted.
    pub fn redact_json(&self, value: &Value) -> Value {
        match value {
            Value::String(s) => Value::String(self.redact(s)),
            Value::Array(items) => {
                Value::Array(items.iter().map(|v| self.redact_json(v)).collect())
            }
            Value::Object(map) => Value::Object(
                map.iter()
                    .map(|(k, v)| (k.clone(), self.redact_json(v)))
                    .collect(),
            ),
            other => other.clone(),
        }
    }
}

/// Text streamed to a client, redacted as it arrives. Redacting each piece alone lets a
/// credential cut in two by the stream through a piece at a time, so text is let out only up
/// to its last character that no key is written with (a blank, punctuation, any Chinese
/// character), and a line that names a credential ("passphrase: my pass phrase") is held to
/// its end, so its value is read with its label. What is held comes out with
/// [`RedactedStream::finish`].
pub struct RedactedStream<'a> {
    cache: &'a SecretCache,
    held: Mutex<String>,
}

impl<'a> RedactedStream<'a> {
    pub fn new(cache: &'a SecretCache) -> RedactedStream<'a> {
        RedactedStream {
            cache,
            held: Mutex::new(String::new()),
        }
    }

    /// Takes the next piece; returns what may be shown now, redacted.
    pub fn push(&self, piece: &str) -> Option<String> {
        let mut held = self.held.lock().ok()?;
        held.push_str(piece);
        let line_start = held.rfind('\n').map_or(0, |i| i + 1);
        let cut = if crate::secret_message::names_credential(&held[line_start..]) {
            line_start
        } else {
            held.rfind(|c: char| !in_a_key(c)).map_or(0, |i| {
                i + held[i..].chars().next().map_or(1, char::len_utf8)
            })
        };
        // A known secret may hold such characters ("A!b2 c3d4"): its start is held too.
        let cut = self.cache.unfinished_known(&held[..cut]);
        if cut == 0 {
            return None;
        }
        let ready: String = held.drain(..cut).collect();
        Some(self.cache.redact(&ready))
    }

    /// What is still held, redacted, once the stream has ended.
    pub fn finish(&self) -> Option<String> {
        let mut held = self.held.lock().ok()?;
        let rest = std::mem::take(&mut *held);
        (!rest.is_empty()).then(|| self.cache.redact(&rest))
    }
}

/// The exchange type a task's secrets belong to: the `exchange_type` it is given (creating an
/// account), or the type of the account its `target` names (updating one). `given` are the
/// values arriving now, `slots` those the task already holds.
pub fn account_type(
    given: &Map<String, Value>,
    slots: &Map<String, Value>,
    names: &Names,
) -> Option<ExchangeType> {
    let value = |key: &str| {
        given
            .get(key)
            .or_else(|| slots.get(key))
            .and_then(Value::as_str)
    };
    if let Some(t) = value("exchange_type") {
        return t.parse().ok();
    }
    let target = value("target")?.to_lowercase();
    names
        .entries
        .iter()
        .find(|e| e.kind == ResourceKind::Exchange && (e.lower == target || e.id == target))
        .and_then(|e| e.class.as_deref()?.parse().ok())
}

/// Whether `c` can be part of a key as the detector knows keys (base64, JWTs, prefixes).
fn in_a_key(c: char) -> bool {
    c.is_ascii_alphanumeric() || "-_+/=.".contains(c)
}

/// Whether a value the scrubber masked is kept as a known secret: long enough, and not a word
/// of the language ("passphrase: required" in a reply masks a word, which must not be masked
/// everywhere after) — it holds a digit, a symbol or a capital past its first letter.
fn worth_knowing(value: &str) -> bool {
    let value = value.trim();
    let shaped = value.chars().enumerate().any(|(i, c)| {
        c.is_ascii_digit() || c.is_ascii_punctuation() || (i > 0 && c.is_ascii_uppercase())
    });
    value.chars().count() >= 8 && shaped && !value.contains('…') && !value.contains('•')
}

/// `text` with every occurrence of `value` replaced by `mask`, whatever the case of its ASCII
/// letters: a secret echoed lower-cased ("nothing is called \"s3cr3t…\"") is still that secret.
fn replace_ignoring_case(text: &str, value: &str, mask: &str) -> String {
    // ASCII lower-casing keeps every byte where it was, so offsets carry over to `text`.
    let (lower, needle) = (text.to_ascii_lowercase(), value.to_ascii_lowercase());
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    while let Some(rel) = lower.get(from..).and_then(|rest| rest.find(&needle)) {
        let at = from + rel;
        out.push_str(&text[from..at]);
        out.push_str(mask);
        from = at + needle.len();
    }
    out.push_str(&text[from..]);
    out
}

#[cfg(test)]
mod tests {
    use super::SecretCache;

    #[test]
    fn a_known_secret_is_masked_in_any_case() {
        let cache = SecretCache::default();
        let mask = cache.put("c", "t", "secret_key", "s3cr3tS3cr3tS3cr3t", None);
        let out = cache.redact("Nothing is called \"s3cr3ts3cr3ts3cr3t\"; S3CR3TS3CR3TS3CR3T.");
        assert!(!out.to_lowercase().contains("s3cr3ts3cr3t"), "{out}");
        assert_eq!(out.matches(&mask).count(), 2, "{out}");
    }

    /// Hyperliquid's `api_key` is a private key: typed in chat, none of it is shown, whatever
    /// its shape; a Binance `api_key` keeps its tail.
    #[test]
    fn a_private_key_typed_in_chat_shows_no_characters() {
        use nofxi_domain::ExchangeType;
        let cache = SecretCache::default();
        let key = "agent-4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f36";
        let mask = cache.put("c", "t", "api_key", key, Some(ExchangeType::Hyperliquid));
        assert_eq!(mask, "••••");
        let mask = cache.put("c", "t2", "api_key", key, Some(ExchangeType::Binance));
        assert!(mask.ends_with("3f36"), "{mask}");
    }

    /// A key cut in two by the stream is never let out a piece at a time, and a labelled
    /// value is read with its label.
    #[test]
    fn a_streamed_key_is_redacted_whole() {
        use super::RedactedStream;
        let cache = SecretCache::default();
        let stream = RedactedStream::new(&cache);
        let mut shown = String::new();
        for piece in [
            "You sent 0f1e2d3c4b5a",
            "69788796a5b4c3d2e1f0 and passph",
            "rase: hunt",
            "er2pw, fine\nok，",
            "已经收到",
        ] {
            shown.extend(stream.push(piece));
        }
        // Chinese text without blanks still streams as it comes.
        assert!(shown.ends_with("ok，已经收到"), "{shown}");
        // A known secret with characters no key shape has is not let out in pieces either.
        let known = "my Pass!w0rd";
        cache.know(known, "••••");
        for piece in [" and my Pa", "ss!w", "0rd too "] {
            shown.extend(stream.push(piece));
        }
        assert!(!shown.contains("Pa") && !shown.contains("w0rd"), "{shown}");
        assert!(shown.ends_with("and •••• too "), "{shown}");
        shown.extend(stream.finish());
        assert!(!shown.contains("0f1e2d3c"), "{shown}");
        assert!(!shown.contains("hunt"), "{shown}");
        assert!(shown.starts_with("You sent "), "{shown}");
    }
}
