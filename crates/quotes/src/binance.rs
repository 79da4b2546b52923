//! Binance spot quotes, `api.binance.com/api/v3/ticker/24hr?symbol=BTCUSDT`.
//!
//! The answer is JSON with prices as strings: lastPrice, prevClosePrice, openPrice, highPrice,
//! lowPrice, priceChangePercent, and closeTime (Unix milliseconds, the end of the rolling 24 h
//! window, i.e. the quote's time). An unknown pair answers HTTP 400 with
//! `{"code":-1121,"msg":"Invalid symbol."}`. Binance has crypto only.

use jiff::Timestamp;
use nofxi_portfolio::domain::{Instrument, Market};
use serde_json::Value;

use crate::body::reject_non_data;
use crate::error::QuoteError;
use crate::json::decimal;
use crate::quote::{Quote, SourceKind};

pub const DEFAULT_BASE_URL: &str = "https://api.binance.com";

const SOURCE: SourceKind = SourceKind::Binance;
const INVALID_SYMBOL: i64 = -1121;

/// The pair for an instrument: `BTC` in USDT → `BTCUSDT`; `BTCUSDT` stays as written. Binance
/// lists no pairs in plain dollars, so a crypto instrument priced in USD is asked in USDT.
pub fn pair(instrument: &Instrument) -> Result<String, QuoteError> {
    if instrument.market != Market::Crypto {
        return Err(QuoteError::Unsupported {
            market: instrument.market,
            source: SOURCE,
        });
    }
    let quote_asset = match instrument.currency.as_str() {
        "USD" => "USDT",
        other => other,
    };
    let symbol = &instrument.symbol;
    if symbol.len() > quote_asset.len() && symbol.ends_with(quote_asset) {
        Ok(symbol.clone())
    } else {
        Ok(format!("{symbol}{quote_asset}"))
    }
}

/// The request path for one pair.
pub fn path(pair: &str) -> String {
    format!("/api/v3/ticker/24hr?symbol={pair}")
}

/// The quote in an answer about `instrument`; also reads Binance's error object, so an HTTP
/// 400 body can be told apart ("no such pair" vs anything else).
pub fn parse(body: &[u8], instrument: &Instrument) -> Result<Quote, QuoteError> {
    let text = String::from_utf8_lossy(body);
    reject_non_data(SOURCE, &text)?;
    let doc: Value = serde_json::from_str(&text).map_err(|e| QuoteError::UnknownFormat {
        source: SOURCE,
        detail: format!("the answer is not JSON: {e}"),
    })?;
    if let Some(code) = doc.get("code").and_then(Value::as_i64) {
        let message = doc.get("msg").and_then(Value::as_str).unwrap_or_default();
        return Err(if code == INVALID_SYMBOL {
            QuoteError::NotFound {
                symbol: instrument.symbol.clone(),
                source: SOURCE,
            }
        } else {
            unknown(format!("error {code}: {message}"))
        });
    }
    let field =
        |name: &str| decimal(doc.get(name)).map_err(|text| unknown(format!("{name} is `{text}`")));
    let last = field("lastPrice")?
        .filter(|p| p.is_sign_positive() && !p.is_zero())
        .ok_or_else(|| unknown("lastPrice is missing or zero".into()))?;
    let as_of = doc
        .get("closeTime")
        .and_then(Value::as_i64)
        .and_then(|ms| Timestamp::from_millisecond(ms).ok())
        .ok_or_else(|| unknown("closeTime is missing".into()))?;
    let positive = |d: Option<rust_decimal::Decimal>| d.filter(|p| !p.is_zero());
    let mut quote = Quote::live(instrument.clone(), SOURCE, last, as_of);
    quote.name = doc
        .get("symbol")
        .and_then(Value::as_str)
        .map(str::to_string);
    quote.previous_close = positive(field("prevClosePrice")?);
    quote.open = positive(field("openPrice")?);
    quote.high = positive(field("highPrice")?);
    quote.low = positive(field("lowPrice")?);
    quote.change_pct = field("priceChangePercent")?;
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

    #[test]
    fn pairs_from_crypto_instruments() {
        let btc = Instrument::new(Market::Crypto, "btc").unwrap();
        assert_eq!(pair(&btc).unwrap(), "BTCUSDT");
        let btcusdt = Instrument::new(Market::Crypto, "BTCUSDT").unwrap();
        assert_eq!(pair(&btcusdt).unwrap(), "BTCUSDT");
        let eth_btc =
            Instrument::with_currency(Market::Crypto, "ETH", "BTC".parse().unwrap()).unwrap();
        assert_eq!(pair(&eth_btc).unwrap(), "ETHBTC");
        let in_usd =
            Instrument::with_currency(Market::Crypto, "SOL", "USD".parse().unwrap()).unwrap();
        assert_eq!(pair(&in_usd).unwrap(), "SOLUSDT");
        let aapl = Instrument::new(Market::Us, "AAPL").unwrap();
        assert!(matches!(pair(&aapl), Err(QuoteError::Unsupported { .. })));
        assert_eq!(path("BTCUSDT"), "/api/v3/ticker/24hr?symbol=BTCUSDT");
    }
}
