//! Deserializing an enum written as a bare word (`never`) or a one-key map (`when: [...]`).
//! The map's value is read as JSON and converted, so nested errors name the key they are under.

use std::fmt;
use std::marker::PhantomData;

use serde::Deserializer;
use serde::de::{self, DeserializeOwned, MapAccess, Visitor};
use serde_json::Value;

/// `word` maps a bare word to a value; `keys` are the allowed map keys and `value` builds the
/// result from one key and its value. Anything else is an error naming what was expected.
pub(crate) fn deserialize<'de, D, T, W, V>(
    d: D,
    expected: &'static str,
    word: W,
    keys: &'static [&'static str],
    value: V,
) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    W: Fn(&str) -> Option<T>,
    V: Fn(&str, Value) -> Result<T, String>,
{
    d.deserialize_any(KeyedVisitor {
        expected,
        word,
        keys,
        value,
        marker: PhantomData,
    })
}

/// Convert a map value, prefixing errors with the key.
pub(crate) fn convert<T: DeserializeOwned>(key: &str, v: Value) -> Result<T, String> {
    serde_json::from_value(v).map_err(|e| format!("in `{key}`: {e}"))
}

struct KeyedVisitor<T, W, V> {
    expected: &'static str,
    word: W,
    keys: &'static [&'static str],
    value: V,
    marker: PhantomData<T>,
}

impl<'de, T, W, V> Visitor<'de> for KeyedVisitor<T, W, V>
where
    W: Fn(&str) -> Option<T>,
    V: Fn(&str, Value) -> Result<T, String>,
{
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.expected)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        (self.word)(v)
            .ok_or_else(|| E::custom(format!("unknown variant `{v}`, expected {}", self.expected)))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
        let Some(key) = map.next_key::<String>()? else {
            return Err(de::Error::custom(format!(
                "empty map, expected {}",
                self.expected
            )));
        };
        if !self.keys.contains(&key.as_str()) {
            return Err(de::Error::custom(format!(
                "unknown variant `{key}`, expected {}",
                self.expected
            )));
        }
        let raw: Value = map.next_value()?;
        let out = (self.value)(&key, raw).map_err(de::Error::custom)?;
        if let Some(extra) = map.next_key::<String>()? {
            return Err(de::Error::custom(format!(
                "unexpected second key `{extra}`, expected {}",
                self.expected
            )));
        }
        Ok(out)
    }
}
