use nofxi_portfolio::domain::Market;
use nofxi_quotes::{QuoteError, SourceKind, binance};
use rust_decimal_macros::dec;

use crate::{at, fixture, instrument};

#[test]
fn the_24h_ticker_reads_prices_as_exact_strings() {
    let btc = instrument(Market::Crypto, "BTC");
    let quote = binance::parse(&fixture("binance_btcusdt.json"), &btc).unwrap();
    assert_eq!(quote.instrument, btc);
    assert_eq!(quote.name.as_deref(), Some("BTCUSDT"));
    assert_eq!(quote.last, dec!(97031.01));
    assert_eq!(quote.last.to_string(), "97031.01");
    assert_eq!(quote.previous_close, Some(dec!(98265.57)));
    assert_eq!(quote.open, Some(dec!(98265.57)));
    assert_eq!(quote.high, Some(dec!(98500)));
    assert_eq!(quote.low, Some(dec!(96100.12)));
    assert_eq!(quote.change_pct, Some(dec!(-1.256)));
    assert_eq!(quote.as_of, at("2025-01-10T13:59:59.999Z"));
    assert_eq!(quote.source, SourceKind::Binance);
}

#[test]
fn an_invalid_symbol_is_not_found_and_a_cut_answer_unknown() {
    let doge = instrument(Market::Crypto, "DOGEX");
    let err = binance::parse(&fixture("binance_invalid_symbol.json"), &doge).unwrap_err();
    assert_eq!(
        err,
        QuoteError::NotFound {
            symbol: "DOGEX".into(),
            source: SourceKind::Binance
        }
    );
    let err = binance::parse(&fixture("binance_truncated.json"), &doge).unwrap_err();
    assert!(matches!(err, QuoteError::UnknownFormat { .. }), "{err}");
}
