//! Sina quotes, `hq.sinajs.cn/list=sh601398` (REFERENCE §4). Without
//! `Referer: https://finance.sina.com.cn` Sina answers 403.
//!
//! The answer is GBK text, one `var hq_str_<code>="…";` line per code, fields split on `,`, in a
//! layout per market:
//! - A-shares `sh601398`: 0 name, 1 open, 2 previous close, 3 last, 4 high, 5 low, 30 date,
//!   31 time (Shanghai wall clock). No change field: the change is derived from last and
//!   previous close.
//! - Hong Kong `rt_hk00700`: 1 Chinese name, 2 open, 3 previous close, 4 high, 5 low, 6 last,
//!   8 change %, 17 date `yyyy/MM/dd`, 18 time `HH:mm` or `HH:mm:ss` (Hong Kong wall clock).
//! - US `gb_aapl`: 0 name, 1 last, 2 change %, 3 time, 4 change; today's answers go on with
//!   5 open, 6 high, 7 low, read when present. The previous close is last − change. The time
//!   is Beijing time, not New York's (a 16:00 New York close reads `05:00` the next morning),
//!   so it is read in the Shanghai zone.
//!
//! An unknown code answers `var hq_str_<code>="";`. Sina has no crypto and no off-exchange funds
//! here.

use nofxi_portfolio::domain::{Instrument, Market};

use crate::body::{gbk_text, reject_non_data};
use crate::error::QuoteError;
use crate::quote::{Quote, SourceKind, change_pct};
use crate::record::{Assignment, Fields, assignments};
use crate::zones::{hong_kong, local_time, shanghai};

pub const DEFAULT_BASE_URL: &str = "https://hq.sinajs.cn";
pub const REFERER: &str = "https://finance.sina.com.cn";

const SOURCE: SourceKind = SourceKind::Sina;
const PREFIX: &str = "var hq_str_";

/// Which of Sina's layouts a code uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Layout {
    AShare,
    HongKong,
    Us,
}

/// Sina's code for an instrument: `sh601398`, `sz000001`, `bj430047`, `rt_hk00700`, `gb_aapl`.
pub fn code(instrument: &Instrument) -> Result<String, QuoteError> {
    let symbol = &instrument.symbol;
    match instrument.market {
        Market::Sh => Ok(format!("sh{symbol}")),
        Market::Sz => Ok(format!("sz{symbol}")),
        Market::Bj => Ok(format!("bj{symbol}")),
        Market::Hk => Ok(format!("rt_hk{symbol}")),
        Market::Us => Ok(format!("gb_{}", symbol.to_ascii_lowercase())),
        market @ (Market::Fund | Market::Crypto) => Err(QuoteError::Unsupported {
            market,
            source: SOURCE,
        }),
    }
}

/// The request path for one or more codes.
pub fn path(codes: &[String]) -> String {
    format!("/list={}", codes.join(","))
}

/// Every quote in an answer, instruments read from the line keys. Any line that is not a
/// quote fails the whole answer; use [`parse_for`] to pick one instrument's line.
pub fn parse(body: &[u8]) -> Result<Vec<Quote>, QuoteError> {
    let text = gbk_text(body);
    reject_non_data(SOURCE, &text)?;
    assignments(SOURCE, &text, PREFIX)?
        .iter()
        .map(|line| {
            let (layout, instrument) = instrument_of(line.key)?;
            quote_of(line, layout, instrument)
        })
        .collect()
}

/// The quote for `instrument` in an answer that may hold other codes too.
pub fn parse_for(body: &[u8], instrument: &Instrument) -> Result<Quote, QuoteError> {
    let text = gbk_text(body);
    reject_non_data(SOURCE, &text)?;
    let wanted = code(instrument)?;
    let lines = assignments(SOURCE, &text, PREFIX)?;
    let line = lines
        .iter()
        .find(|l| l.key.eq_ignore_ascii_case(&wanted))
        .ok_or_else(|| QuoteError::UnknownFormat {
            source: SOURCE,
            detail: format!("the answer has no line for `{wanted}`"),
        })?;
    let (layout, _) = instrument_of(line.key)?;
    quote_of(line, layout, instrument.clone())
}

fn quote_of(
    line: &Assignment<'_>,
    layout: Layout,
    instrument: Instrument,
) -> Result<Quote, QuoteError> {
    if line.value.trim().is_empty() {
        return Err(QuoteError::NotFound {
            symbol: instrument.symbol,
            source: SOURCE,
        });
    }
    match layout {
        Layout::AShare => a_share(line, instrument),
        Layout::HongKong => hong_kong_quote(line, instrument),
        Layout::Us => us(line, instrument),
    }
}

fn a_share(line: &Assignment<'_>, instrument: Instrument) -> Result<Quote, QuoteError> {
    let fields = Fields::split(SOURCE, line.key, line.value, ',', 32)?;
    let stamp = format!("{} {}", fields.text(30), fields.text(31));
    let as_of = local_time(&stamp, &["%Y-%m-%d %H:%M:%S"], shanghai())
        .ok_or_else(|| fields.bad(30, "date and time", &stamp))?;
    let mut quote = Quote::live(instrument, SOURCE, fields.price(3, "last")?, as_of);
    quote.name = fields.optional_text(0);
    quote.open = fields.optional_price(1, "open")?;
    quote.previous_close = fields.optional_price(2, "previous close")?;
    quote.high = fields.optional_price(4, "high")?;
    quote.low = fields.optional_price(5, "low")?;
    quote.change_pct = change_pct(quote.last, quote.previous_close);
    Ok(quote)
}

fn hong_kong_quote(line: &Assignment<'_>, instrument: Instrument) -> Result<Quote, QuoteError> {
    let fields = Fields::split(SOURCE, line.key, line.value, ',', 19)?;
    let stamp = format!("{} {}", fields.text(17), fields.text(18));
    let as_of = local_time(
        &stamp,
        &["%Y/%m/%d %H:%M:%S", "%Y/%m/%d %H:%M"],
        hong_kong(),
    )
    .ok_or_else(|| fields.bad(17, "date and time", &stamp))?;
    let mut quote = Quote::live(instrument, SOURCE, fields.price(6, "last")?, as_of);
    quote.name = fields.optional_text(1).or_else(|| fields.optional_text(0));
    quote.open = fields.optional_price(2, "open")?;
    quote.previous_close = fields.optional_price(3, "previous close")?;
    quote.high = fields.optional_price(4, "high")?;
    quote.low = fields.optional_price(5, "low")?;
    quote.change_pct = fields.optional_decimal(8, "change %")?;
    Ok(quote)
}

fn us(line: &Assignment<'_>, instrument: Instrument) -> Result<Quote, QuoteError> {
    let fields = Fields::split(SOURCE, line.key, line.value, ',', 5)?;
    let stamp = fields.text(3);
    let as_of = local_time(stamp, &["%Y-%m-%d %H:%M:%S"], shanghai())
        .ok_or_else(|| fields.bad(3, "time", stamp))?;
    let last = fields.price(1, "last")?;
    let change = fields.optional_decimal(4, "change")?;
    let mut quote = Quote::live(instrument, SOURCE, last, as_of);
    quote.name = fields.optional_text(0);
    quote.change_pct = fields.optional_decimal(2, "change %")?;
    quote.previous_close = change
        .map(|c| last - c)
        .filter(|p| *p > rust_decimal::Decimal::ZERO);
    quote.open = fields.optional_price(5, "open")?;
    quote.high = fields.optional_price(6, "high")?;
    quote.low = fields.optional_price(7, "low")?;
    Ok(quote)
}

/// The layout and instrument a line key names: `rt_hk00700` → Hong Kong 00700.
fn instrument_of(key: &str) -> Result<(Layout, Instrument), QuoteError> {
    let lower = key.to_ascii_lowercase();
    let (layout, market, symbol) = if let Some(symbol) = lower.strip_prefix("rt_hk") {
        (Layout::HongKong, Market::Hk, symbol)
    } else if let Some(symbol) = lower.strip_prefix("gb_") {
        (Layout::Us, Market::Us, symbol)
    } else if let Some(symbol) = lower.strip_prefix("sh") {
        (Layout::AShare, Market::Sh, symbol)
    } else if let Some(symbol) = lower.strip_prefix("sz") {
        (Layout::AShare, Market::Sz, symbol)
    } else if let Some(symbol) = lower.strip_prefix("bj") {
        (Layout::AShare, Market::Bj, symbol)
    } else {
        return Err(unknown_key(key));
    };
    let instrument = Instrument::new(market, symbol).map_err(|_| unknown_key(key))?;
    Ok((layout, instrument))
}

fn unknown_key(key: &str) -> QuoteError {
    QuoteError::UnknownFormat {
        source: SOURCE,
        detail: format!("`hq_str_{key}` names no instrument nofxi knows"),
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
        assert_eq!(code(&instrument(Market::Sh, "601398")).unwrap(), "sh601398");
        assert_eq!(code(&instrument(Market::Hk, "700")).unwrap(), "rt_hk00700");
        assert_eq!(code(&instrument(Market::Us, "AAPL")).unwrap(), "gb_aapl");
        assert!(matches!(
            code(&instrument(Market::Fund, "110022")),
            Err(QuoteError::Unsupported { .. })
        ));
        assert!(code(&instrument(Market::Crypto, "BTC")).is_err());
        assert_eq!(path(&["sh601398".into()]), "/list=sh601398");
    }

    #[test]
    fn keys_choose_the_layout() {
        assert_eq!(instrument_of("rt_hk00700").unwrap().0, Layout::HongKong);
        assert_eq!(
            instrument_of("gb_aapl").unwrap().1,
            instrument(Market::Us, "AAPL")
        );
        assert_eq!(instrument_of("sz000001").unwrap().0, Layout::AShare);
        assert!(instrument_of("hf_CL").is_err());
    }
}
