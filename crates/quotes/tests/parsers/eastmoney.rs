use nofxi_portfolio::domain::Market;
use nofxi_quotes::{QuoteError, SourceKind, eastmoney};
use rust_decimal_macros::dec;

use crate::{at, fixture, instrument};

#[test]
fn an_a_share_reads_the_f_fields() {
    let maotai = instrument(Market::Sh, "600519");
    let quote = eastmoney::parse(&fixture("eastmoney_a_share.json"), &maotai).unwrap();
    assert_eq!(quote.name.as_deref(), Some("贵州茅台"));
    assert_eq!(quote.last, dec!(1459.88));
    assert_eq!(quote.high, Some(dec!(1465)));
    assert_eq!(quote.low, Some(dec!(1448)));
    assert_eq!(quote.open, Some(dec!(1452)));
    assert_eq!(quote.previous_close, Some(dec!(1450)));
    assert_eq!(quote.change_pct, Some(dec!(0.68)));
    assert_eq!(quote.as_of, at("2025-01-10T07:00:03Z"));
    assert_eq!(quote.source, SourceKind::Eastmoney);
}

#[test]
fn hong_kong_and_us_quotes() {
    let hk = eastmoney::parse(
        &fixture("eastmoney_hk.json"),
        &instrument(Market::Hk, "700"),
    )
    .unwrap();
    assert_eq!(hk.last, dec!(415.2));
    assert_eq!(hk.change_pct, Some(dec!(1.27)));
    assert_eq!(hk.as_of, at("2025-01-10T08:08:19Z"));

    let us = eastmoney::parse(
        &fixture("eastmoney_us.json"),
        &instrument(Market::Us, "AAPL"),
    )
    .unwrap();
    assert_eq!(us.last, dec!(236.85));
    assert_eq!(us.previous_close, Some(dec!(242.7)));
    assert_eq!(us.change_pct, Some(dec!(-2.41)));
    assert_eq!(us.as_of, at("2025-01-10T21:00:01Z"));
}

#[test]
fn null_data_is_not_found() {
    let err = eastmoney::parse(
        &fixture("eastmoney_not_found.json"),
        &instrument(Market::Sz, "000000"),
    )
    .unwrap_err();
    assert_eq!(
        err,
        QuoteError::NotFound {
            symbol: "000000".into(),
            source: SourceKind::Eastmoney
        }
    );
}

#[test]
fn no_last_price_truncated_json_and_pages_fail_typed() {
    let pufa = instrument(Market::Sh, "600000");
    let err = eastmoney::parse(&fixture("eastmoney_suspended.json"), &pufa).unwrap_err();
    assert!(err.to_string().contains("f43 (last) has no price"), "{err}");

    let err = eastmoney::parse(&fixture("eastmoney_truncated.json"), &pufa).unwrap_err();
    assert!(matches!(err, QuoteError::UnknownFormat { .. }), "{err}");
    assert!(err.to_string().contains("not JSON"), "{err}");

    let err = eastmoney::parse(&fixture("eastmoney_html.html"), &pufa).unwrap_err();
    assert_eq!(
        err,
        QuoteError::HtmlPage {
            source: SourceKind::Eastmoney
        }
    );
}
