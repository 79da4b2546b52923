//! Numbers with units as people write them: 10倍, 20x, 5分钟, every 15 minutes, 100u, 1000 USDT.

use std::sync::LazyLock;

use nofxi_skills::Unit;
use regex::Regex;

#[derive(Debug, Clone, PartialEq)]
pub struct Number {
    pub text: String,
    pub unit: Option<Unit>,
    pub start: usize,
    pub end: usize,
}

static NUMBER: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(
        r"(?i)(-?\d+(?:\.\d+)?)\s*(分钟|分|minutes|minute|mins|min|倍|x|usdt|u|刀|美元|%|个)?",
    )
    .ok()
});

pub fn numbers(text: &str) -> Vec<Number> {
    let Some(re) = NUMBER.as_ref() else {
        return Vec::new();
    };
    let bytes = text.as_bytes();
    re.captures_iter(text)
        .filter_map(|c| {
            let whole = c.get(0)?;
            let num = c.get(1)?;
            // A digit glued to letters (btc-bot2, ak-123456) is part of a name, not a number.
            let glued_before = num.start() > 0
                && bytes
                    .get(num.start() - 1)
                    .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'-' || *b == b'_');
            if glued_before {
                return None;
            }
            let unit_text = c.get(2).map(|m| m.as_str().to_lowercase());
            // A unit letter glued to more letters (5 mins is fine, 5 xrp is not a leverage).
            if let Some(m) = c.get(2)
                && m.as_str().is_ascii()
                && bytes
                    .get(m.end())
                    .is_some_and(|b| b.is_ascii_alphanumeric())
            {
                return Some(Number {
                    text: num.as_str().to_string(),
                    unit: None,
                    start: num.start(),
                    end: num.end(),
                });
            }
            let unit = unit_text.as_deref().and_then(|u| match u {
                "分钟" | "分" | "minutes" | "minute" | "mins" | "min" => Some(Unit::Minutes),
                "倍" | "x" => Some(Unit::Times),
                "usdt" | "u" | "刀" | "美元" => Some(Unit::Usdt),
                "%" => Some(Unit::Percent),
                "个" => Some(Unit::Count),
                _ => None,
            });
            Some(Number {
                text: num.as_str().to_string(),
                unit,
                start: whole.start(),
                end: whole.end(),
            })
        })
        .collect()
}
