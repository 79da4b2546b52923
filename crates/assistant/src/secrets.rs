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
        let mask = secret.mask();
        if let Ok(mut known) = self.known.lock()
            && !known.iter().any(|(v, _)| v == value)
        {
            known.push((value.to_string(), mask.clone()));
            // Longest first, so a secret containing another is replaced whole.
            known.sort_by_key(|(v, _)| std::cmp::Reverse(v.len()));
        }
        if let Ok(mut values) = self.values.lock() {
            values.insert(
                (conversation.to_string(), task.to_string(), slot.to_string()),
                secret,
            );
        }
        mask
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

    /// `text` with every secret seen so far replaced by its mask, and anything else that is
    /// shaped like a secret too ([`crate::scrub`]).
    pub fn redact(&self, text: &str) -> String {
        let Ok(known) = self.known.lock() else {
            return crate::scrub::scrub(text);
        };
        let mut out = text.to_string();
        for (value, mask) in known.iter() {
            if value.len() >= 4 && out.contains(value.as_str()) {
                out = out.replace(value.as_str(), mask);
            }
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
