//! Eastmoney quotes, `push2.eastmoney.com/api/qt/stock/get?secid=1.600519&fltt=2&fields=…`
//! (REFERENCE §4).
//!
//! The answer is UTF-8 JSON `{"rc":0,…,"data":{"f43":1459.88,…}}`; `fltt=2` makes prices plain
//! decimals (without it they come as integers × 100). Fields read: f43 last, f44 high, f45 low,
//! f46 open, f58 name, f60 previous close, f170 change %, and f86, the quote's own time in Unix
//! seconds. `"-"` means no value; `"data": null` means no such security.
//!
//! The secid prefix is the market: 1 Shanghai, 0 Shenzhen and Beijing, 116 Hong Kong, and 105 /
//! 106 / 107 for Nasdaq / NYSE / NYSE American. An [`Instrument`] says only "US", so a US
//! listing is asked as 105 first, then 106, then 107 (see [`secids`]).

use jiff::Timestamp;
use nofxi_portfolio::domain::{Instrument, Market};
use serde_json::Value;

use crate::body::reject_non_data;
use crate::error::QuoteError;
use crate::json::decimal;
use crate::quote::{Quote, SourceKind};

pub const DEFAULT_BASE_URL: &str = "https://push2.eastmoney.com";
pub const REFERER: &str = "https://quote.eastmoney.com";

const SOURCE: SourceKind = SourceKind::Eastmoney;
const FIELDS: &str = "f43,f44,f45,f46,f57,f58,f60,f86,f169,f170";

/// The secids to ask, in order, until one is found: one for every market but the US, where
/// the exchange is not known.
pub fn secids(instrument: &Instrument) -> Result<Vec<String>, QuoteError> {
    let symbol = &instrument.symbol;
    let prefixes: &[&str] = match instrument.market {
        Market::Sh => &["1"],
        Market::Sz | Market::Bj => &["0"],
        Market::Hk => &["116"],
        Market::Us => &["105", "106", "107"],
        market @ (Market::Fund | Market::Crypto) => {
            return Err(QuoteError::Unsupported {
                market,
                source: SOURCE,
            });
        }
    };
    Ok(prefixes.iter().map(|p| format!("{p}.{symbol}")).collect())
}

/// The request path for one secid.
pub fn path(secid: &str) -> String {
    format!("/api/qt/stock/get?secid={secid}&fltt=2&fields={FIELDS}")
}

/// The quote in an answer about `instrument`.
pub fn parse(body: &[u8], instrument: &Instrument) -> Result<Quote, QuoteError> {
    let text = String::from_utf8_lossy(body);
    reject_non_data(SOURCE, &text)?;
    let doc: Value = serde_json::from_str(&text).map_err(|e| QuoteError::UnknownFormat {
        source: SOURCE,
        detail: format!("the answer is not JSON: {e}"),
    })?;
    let data = match doc.get("data") {
        Some(Value::Object(data)) => data,
        Some(Value::Null) => {
            return Err(QuoteError::NotFound {
                symbol: instrument.symbol.clone(),
                source: SOURCE,
            });
        }
        _ => {
            return Err(unknown("the answer has no `data` object".into()));
        }
    };
    let field = |name: &str, meaning: &str| {
        decimal(data.get(name)).map_err(|text| unknown(format!("{name} ({meaning}) is `{text}`")))
    };
    let last = field("f43", "last")?
        .filter(|p| p.is_sign_positive() && !p.is_zero())
        .ok_or_else(|| unknown("f43 (last) has no price: not traded yet, or suspended".into()))?;
    let as_of = data
        .get("f86")
        .and_then(Value::as_i64)
        .filter(|seconds| *seconds > 0)
        .and_then(|seconds| Timestamp::from_second(seconds).ok())
        .ok_or_else(|| unknown("f86 (update time) is missing".into()))?;
    let positive = |d: Option<rust_decimal::Decimal>| d.filter(|p| !p.is_zero());
    let mut quote = Quote::live(instrument.clone(), SOURCE, last, as_of);
    quote.name = data
        .get("f58")
        .and_then(Value::as_str)
        .map(str::to_string)
        .filter(|n| !n.is_empty() && n != "-");
    quote.high = positive(field("f44", "high")?);
    quote.low = positive(field("f45", "low")?);
    quote.open = positive(field("f46", "open")?);
    quote.previous_close = positive(field("f60", "previous close")?);
    quote.change_pct = field("f170", "change %")?;
    Ok(quote)
}

fn unknown(detail: String) -> QuoteError {
    QuoteError::UnknownFormat {
        source: SOURCE,
        detail,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn instrument(market: Market, symbol: &str) -> Instrument {
        Instrument::new(market, symbol).unwrap()
    }

    #[test]
    fn secids_per_market() {
        assert_eq!(
            secids(&instrument(Market::Sh, "600519")).unwrap(),
            ["1.600519"]
        );
        assert_eq!(
            secids(&instrument(Market::Sz, "000001")).unwrap(),
            ["0.000001"]
        );
        assert_eq!(
            secids(&instrument(Market::Bj, "430047")).unwrap(),
            ["0.430047"]
        );
        assert_eq!(
            secids(&instrument(Market::Hk, "700")).unwrap(),
            ["116.00700"]
        );
        assert_eq!(
            secids(&instrument(Market::Us, "AAPL")).unwrap(),
            ["105.AAPL", "106.AAPL", "107.AAPL"]
        );
        assert!(matches!(
            secids(&instrument(Market::Fund, "110022")),
            Err(QuoteError::Unsupported { .. })
        ));
        assert!(path("1.600519").starts_with("/api/qt/stock/get?secid=1.600519&fltt=2&fields=f43"));
    }
}
