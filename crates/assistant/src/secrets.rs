//! Secrets typed in chat. They are held in memory only, keyed by conversation, task and slot,
//! until the tool that seals them into the vault runs; everything persisted or shown carries
//! the mask instead. The same list of known clear values feeds the redactor, which replaces
//! any occurrence in any text (reply, event, trace, recent turns) by the mask.
//!
//! A restart loses the in-memory values on purpose: the task then asks for the credential
//! again rather than keeping it outside the vault.

use std::collections::HashMap;
use std::sync::Mutex;

use nofxi_domain::Secret;
use serde_json::Value;

#[derive(Default)]
pub struct SecretCache {
    values: Mutex<HashMap<(String, String, String), Secret>>,
    known: Mutex<Vec<(String, String)>>,
}

impl SecretCache {
    pub fn put(&self, conversation: &str, task: &str, slot: &str, value: &str) -> String {
        let secret = Secret::new(value.to_string());
        // A secret key or passphrase shows only that it is set, as `exchange show` does.
        let mask = nofxi_domain::shown_mask(slot, &secret);
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
    /// shaped like a secret too ([`crate::scrub`]).
    pub fn redact(&self, text: &str) -> String {
        let Ok(known) = self.known.lock() else {
            return crate::scrub::scrub(text);
        };
        let mut out = text.to_string();
        for (value, mask) in known.iter().filter(|(v, _)| v.len() >= 4) {
            out = replace_ignoring_case(&out, value, mask);
        }
        crate::scrub::scrub(&out)
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
        let mask = cache.put("c", "t", "secret_key", "s3cr3tS3cr3tS3cr3t");
        let out = cache.redact("Nothing is called \"s3cr3ts3cr3ts3cr3t\"; S3CR3TS3CR3TS3CR3T.");
        assert!(!out.to_lowercase().contains("s3cr3ts3cr3t"), "{out}");
        assert_eq!(out.matches(&mask).count(), 2, "{out}");
    }
}
