//! Tencent quotes, `qt.gtimg.cn/q=sh600519,hk00700,usAAPL` (REFERENCE §4).
//!
//! The answer is GBK text, one `v_<code>="…";` line per code asked, fields split on `~`:
//! 1 name, 3 last, 4 previous close, 5 open, 30 time, 32 change %, 33 high, 34 low. The time is
//! the exchange's wall clock: `yyyyMMddHHmmss` for A-shares, `yyyy-MM-dd HH:mm:ss` for Hong Kong
//! and US (Hong Kong is also seen with slashes, `2025/01/10 16:08:19`; both are read). An
//! unknown code answers `v_pv_none_match="1";`, a known code with nothing to say `v_<code>="";`.
//! Tencent has no crypto and no off-exchange funds.

use nofxi_portfolio::domain::{Instrument, Market};

use crate::body::{gbk_text, reject_non_data};
use crate::error::QuoteError;
use crate::quote::{Quote, SourceKind};
use crate::record::{Assignment, Fields, assignments};
use crate::zones::{hong_kong, local_time, new_york, shanghai};

pub const DEFAULT_BASE_URL: &str = "https://qt.gtimg.cn";
/// Tencent answers without it today, but the web page it serves sends it; sending it too keeps
/// us looking like that page.
pub const REFERER: &str = "https://gu.qq.com";

const SOURCE: SourceKind = SourceKind::Tencent;
const NOT_FOUND_KEY: &str = "pv_none_match";
const FIELDS_NEEDED: usize = 35;

/// Tencent's code for an instrument: `sh600519`, `sz000001`, `bj430047`, `hk00700`, `usAAPL`.
pub fn code(instrument: &Instrument) -> Result<String, QuoteError> {
    let prefix = match instrument.market {
        Market::Sh => "sh",
        Market::Sz => "sz",
        Market::Bj => "bj",
        Market::Hk => "hk",
        Market::Us => "us",
        market @ (Market::Fund | Market::Crypto) => {
            return Err(QuoteError::Unsupported {
                market,
                source: SOURCE,
            });
        }
    };
    Ok(format!("{prefix}{}", instrument.symbol))
}

/// The request path for one or more codes.
pub fn path(codes: &[String]) -> String {
    format!("/q={}", codes.join(","))
}

/// Every quote in an answer, instruments read from the line keys. Any line that is not a
/// quote fails the whole answer; use [`parse_for`] to pick one instrument's line.
pub fn parse(body: &[u8]) -> Result<Vec<Quote>, QuoteError> {
    let text = gbk_text(body);
    reject_non_data(SOURCE, &text)?;
    assignments(SOURCE, &text, "v_")?
        .iter()
        .map(|line| {
            let instrument = instrument_of(line.key)?;
            quote_of(line, instrument)
        })
        .collect()
}

/// The quote for `instrument` in an answer that may hold other codes too.
pub fn parse_for(body: &[u8], instrument: &Instrument) -> Result<Quote, QuoteError> {
    let text = gbk_text(body);
    reject_non_data(SOURCE, &text)?;
    let wanted = code(instrument)?;
    let lines = assignments(SOURCE, &text, "v_")?;
    match lines.iter().find(|l| l.key.eq_ignore_ascii_case(&wanted)) {
        Some(line) => quote_of(line, instrument.clone()),
        None if lines.iter().any(|l| l.key == NOT_FOUND_KEY) => Err(not_found(&instrument.symbol)),
        None => Err(QuoteError::UnknownFormat {
            source: SOURCE,
            detail: format!("the answer has no line for `{wanted}`"),
        }),
    }
}

fn quote_of(line: &Assignment<'_>, instrument: Instrument) -> Result<Quote, QuoteError> {
    if line.key == NOT_FOUND_KEY || line.value.trim().is_empty() {
        return Err(not_found(&instrument.symbol));
    }
    let fields = Fields::split(SOURCE, line.key, line.value, '~', FIELDS_NEEDED)?;
    let time = fields.text(30);
    let as_of = match instrument.market {
        Market::Hk => local_time(
            time,
            &["%Y/%m/%d %H:%M:%S", "%Y-%m-%d %H:%M:%S"],
            hong_kong(),
        ),
        Market::Us => local_time(
            time,
            &["%Y-%m-%d %H:%M:%S", "%Y/%m/%d %H:%M:%S"],
            new_york(),
        ),
        _ => local_time(time, &["%Y%m%d%H%M%S"], shanghai()),
    }
    .ok_or_else(|| fields.bad(30, "time", time))?;
    let mut quote = Quote::live(instrument, SOURCE, fields.price(3, "last")?, as_of);
    quote.name = fields.optional_text(1);
    quote.previous_close = fields.optional_price(4, "previous close")?;
    quote.open = fields.optional_price(5, "open")?;
    quote.change_pct = fields.optional_decimal(32, "change %")?;
    quote.high = fields.optional_price(33, "high")?;
    quote.low = fields.optional_price(34, "low")?;
    Ok(quote)
}

/// The instrument a line key names: `sh600519` → SH 600519, `usAAPL` → US AAPL.
fn instrument_of(key: &str) -> Result<Instrument, QuoteError> {
    if key == NOT_FOUND_KEY {
        return Err(not_found(key));
    }
    let split = key
        .find(|c: char| !c.is_ascii_lowercase())
        .unwrap_or(key.len());
    let (prefix, symbol) = key.split_at(split);
    let market = match prefix {
        "sh" => Market::Sh,
        "sz" => Market::Sz,
        "bj" => Market::Bj,
        "hk" => Market::Hk,
        "us" => Market::Us,
        _ => return Err(unknown_key(key)),
    };
    Instrument::new(market, symbol).map_err(|_| unknown_key(key))
}

fn unknown_key(key: &str) -> QuoteError {
    QuoteError::UnknownFormat {
        source: SOURCE,
        detail: format!("`v_{key}` names no instrument nofxi knows"),
    }
}

fn not_found(symbol: &str) -> QuoteError {
    QuoteError::NotFound {
        symbol: symbol.to_string(),
        source: SOURCE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn instrument(market: Market, symbol: &str) -> Instrument {
        Instrument::new(market, symbol).unwrap()
    }

    #[test]
    fn codes_per_market() {
        assert_eq!(code(&instrument(Market::Sh, "600519")).unwrap(), "sh600519");
        assert_eq!(code(&instrument(Market::Hk, "700")).unwrap(), "hk00700");
        assert_eq!(code(&instrument(Market::Us, "aapl")).unwrap(), "usAAPL");
        assert_eq!(
            code(&instrument(Market::Fund, "110022")),
            Err(QuoteError::Unsupported {
                market: Market::Fund,
                source: SOURCE
            })
        );
        assert!(code(&instrument(Market::Crypto, "BTC")).is_err());
        assert_eq!(
            path(&["sh600519".into(), "hk00700".into()]),
            "/q=sh600519,hk00700"
        );
    }

    #[test]
    fn keys_name_instruments() {
        assert_eq!(
            instrument_of("usAAPL").unwrap(),
            instrument(Market::Us, "AAPL")
        );
        assert_eq!(
            instrument_of("hk00700").unwrap(),
            instrument(Market::Hk, "00700")
        );
        assert!(instrument_of("xx123").is_err());
    }
}
