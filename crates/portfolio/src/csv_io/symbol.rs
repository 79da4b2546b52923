//! Which instrument a CSV's code names: from a market column, a market written into the code
//! (`600519.SH`, `sh600519`, `00700.HK`), or the code's shape. A guess that could book the wrong
//! security is not made: an unrecognised shape asks for the market.

use crate::domain::{Currency, Instrument, Market};
use crate::error::FieldError;
use nofxi_domain::validation::shown_input;

/// The instrument a code names, from the market column or the code's own shape.
pub fn instrument(
    symbol: &str,
    market: Option<Market>,
    currency: Option<&Currency>,
) -> Result<Instrument, FieldError> {
    let (market, code) = match market {
        Some(m) => (m, strip_market(symbol).1),
        None => {
            let (tagged, code) = strip_market(symbol);
            let market = tagged.or_else(|| infer_market(&code, currency)).ok_or_else(|| {
                FieldError::new(
                    "market",
                    format!("cannot tell the market of `{}`", shown_input(symbol)),
                    "add a market column (SH, SZ, BJ, HK, US, FUND, CRYPTO) or write the code as 600519.SH",
                )
            })?;
            (market, code)
        }
    };
    let built = match currency {
        Some(c) => Instrument::with_currency(market, &code, c.clone()),
        None => Instrument::new(market, &code),
    };
    built.map_err(|mut e| e.0.remove(0))
}

/// A code as a person types it outside a file (`nofxi portfolio price`, the web app's price
/// form): `MARKET:CODE` (`FUND:110022`, `CRYPTO:BTC`), or anything a CSV's code column takes.
pub fn code(text: &str) -> Result<Instrument, FieldError> {
    match text.split_once(':') {
        Some((market, code)) => instrument(code, Some(market.parse()?), None),
        None => instrument(text, None, None),
    }
}

/// `600519.SH`, `sh600519`, `00700.HK`, `hk00700` → the market tag and the bare code.
fn strip_market(symbol: &str) -> (Option<Market>, String) {
    let symbol = symbol.trim();
    if let Some((code, tag)) = symbol.rsplit_once('.')
        && let Ok(m @ (Market::Sh | Market::Sz | Market::Bj | Market::Hk | Market::Us)) =
            tag.parse::<Market>()
    {
        return (Some(m), code.to_string());
    }
    let lower = symbol.to_ascii_lowercase();
    for (prefix, market) in [
        ("sh", Market::Sh),
        ("sz", Market::Sz),
        ("bj", Market::Bj),
        ("hk", Market::Hk),
    ] {
        if let Some(code) = lower.strip_prefix(prefix)
            && !code.is_empty()
            && code.chars().all(|c| c.is_ascii_digit())
        {
            return (Some(market), code.to_string());
        }
    }
    (None, symbol.to_string())
}

/// A bare code's market by shape: 6 digits by A-share prefix, up to 5 digits Hong Kong,
/// letters US, or crypto when the currency is a crypto unit. Off-exchange funds also have
/// 6-digit codes and are never guessed: they need the market column.
fn infer_market(code: &str, currency: Option<&Currency>) -> Option<Market> {
    let digits = code.chars().all(|c| c.is_ascii_digit());
    if digits && code.len() == 6 {
        return match code.as_bytes()[0] {
            b'6' | b'5' => Some(Market::Sh),
            b'0' | b'1' | b'2' | b'3' => Some(Market::Sz),
            b'4' | b'8' => Some(Market::Bj),
            b'9' if code.starts_with("920") => Some(Market::Bj),
            _ => None,
        };
    }
    if digits && (1..=5).contains(&code.len()) {
        return Some(Market::Hk);
    }
    let crypto_quote =
        currency.is_some_and(|c| crate::domain::currency_codes::is_crypto_unit(c.as_str()));
    if code.chars().all(|c| c.is_ascii_alphanumeric()) && crypto_quote {
        return Some(Market::Crypto);
    }
    code.chars()
        .all(|c| c.is_ascii_alphabetic() || c == '.')
        .then_some(Market::Us)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_say_their_market() {
        let key = |s: &str, c: Option<&str>| {
            let c: Option<Currency> = c.map(|c| c.parse().unwrap());
            instrument(s, None, c.as_ref()).map(|i| (i.key(), i.currency.to_string()))
        };
        assert_eq!(key("600519", None).unwrap().0, "SH:600519");
        assert_eq!(key("000001", None).unwrap().0, "SZ:000001");
        assert_eq!(key("830799", None).unwrap().0, "BJ:830799");
        assert_eq!(
            key("00700.HK", None).unwrap(),
            ("HK:00700".into(), "HKD".into())
        );
        assert_eq!(key("sh510300", None).unwrap().0, "SH:510300");
        assert_eq!(key("700", None).unwrap().0, "HK:00700");
        assert_eq!(key("aapl", None).unwrap(), ("US:AAPL".into(), "USD".into()));
        assert_eq!(key("BTC", Some("USDT")).unwrap().0, "CRYPTO:BTC");
        assert_eq!(key("700000", None).unwrap_err().field, "market");
    }

    #[test]
    fn a_typed_code_may_name_its_market_before_a_colon() {
        assert_eq!(code("FUND:110022").unwrap().key(), "FUND:110022");
        assert_eq!(code("crypto:btc").unwrap().currency.as_str(), "USDT");
        assert_eq!(code("00700.HK").unwrap().key(), "HK:00700");
        assert_eq!(code("NYSE:IBM").unwrap_err().field, "market");
    }
}
