//! Reading numbers out of the JSON feeds (Eastmoney, Binance) as exact decimals.
//!
//! Binance sends prices as strings, which parse exactly. Eastmoney with `fltt=2` sends JSON
//! numbers (`1459.88`), which `serde_json` holds as `f64`; its shortest round-trip text is the
//! text the feed sent for any number of up to 15 significant digits, which covers every price
//! and percentage these feeds send, so that text is what becomes the decimal.

use std::str::FromStr;

use rust_decimal::Decimal;
use serde_json::Value;

/// A number or numeric string; `None` for null, `-` (Eastmoney's "no value") or an empty
/// string. `Err` carries the offending text for the caller's message.
pub(crate) fn decimal(value: Option<&Value>) -> Result<Option<Decimal>, String> {
    let text = match value {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::Number(number)) => number.to_string(),
        Some(Value::String(text)) => text.trim().to_string(),
        Some(other) => return Err(other.to_string()),
    };
    if text.is_empty() || text == "-" {
        return Ok(None);
    }
    Decimal::from_str(&text)
        .or_else(|_| Decimal::from_scientific(&text))
        .map(|d| Some(d.normalize()))
        .map_err(|_| text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal_macros::dec;
    use serde_json::json;

    #[test]
    fn numbers_and_strings_become_exact_decimals() {
        let doc = json!({"a": 1459.88, "b": "97000.01000000", "c": "-", "d": null, "e": -0.68, "f": true});
        assert_eq!(decimal(doc.get("a")).unwrap(), Some(dec!(1459.88)));
        assert_eq!(
            decimal(doc.get("b")).unwrap().unwrap().to_string(),
            "97000.01"
        );
        assert_eq!(decimal(doc.get("c")).unwrap(), None);
        assert_eq!(decimal(doc.get("d")).unwrap(), None);
        assert_eq!(decimal(doc.get("missing")).unwrap(), None);
        assert_eq!(decimal(doc.get("e")).unwrap(), Some(dec!(-0.68)));
        assert_eq!(decimal(doc.get("f")).unwrap_err(), "true");
    }
}
