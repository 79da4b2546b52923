use nofxi_portfolio::domain::Market;
use nofxi_quotes::{QuoteError, SourceKind, sina};
use rust_decimal_macros::dec;

use crate::{at, fixture, gbk_fixture, instrument};

#[test]
fn an_a_share_reads_its_layout_and_derives_the_change() {
    let icbc = instrument(Market::Sh, "601398");
    let quote = sina::parse_for(&gbk_fixture("sina_a_share.txt"), &icbc).unwrap();
    assert_eq!(quote.instrument, icbc);
    assert_eq!(quote.name.as_deref(), Some("工商银行"));
    assert_eq!(quote.open, Some(dec!(5.650)));
    assert_eq!(quote.previous_close, Some(dec!(5.640)));
    assert_eq!(quote.last, dec!(5.700));
    assert_eq!(quote.high, Some(dec!(5.720)));
    assert_eq!(quote.low, Some(dec!(5.630)));
    // (5.70 − 5.64) / 5.64 = 1.0638… %
    assert_eq!(quote.change_pct, Some(dec!(1.06)));
    assert_eq!(quote.as_of, at("2025-01-10T07:00:03Z"));
    assert_eq!(quote.source, SourceKind::Sina);
}

#[test]
fn hong_kong_reads_the_rt_hk_layout() {
    let quote = sina::parse_for(
        &gbk_fixture("sina_hk.txt"),
        &instrument(Market::Hk, "00700"),
    )
    .unwrap();
    assert_eq!(quote.name.as_deref(), Some("腾讯控股"));
    assert_eq!(quote.open, Some(dec!(412.000)));
    assert_eq!(quote.previous_close, Some(dec!(410.000)));
    assert_eq!(quote.high, Some(dec!(416.000)));
    assert_eq!(quote.low, Some(dec!(408.600)));
    assert_eq!(quote.last, dec!(415.200));
    assert_eq!(quote.change_pct, Some(dec!(1.268)));
    // 2025/01/10 16:08 in Hong Kong.
    assert_eq!(quote.as_of, at("2025-01-10T08:08:00Z"));
}

#[test]
fn us_reads_the_gb_layout_in_beijing_time() {
    let quote =
        sina::parse_for(&gbk_fixture("sina_us.txt"), &instrument(Market::Us, "AAPL")).unwrap();
    assert_eq!(quote.name.as_deref(), Some("苹果"));
    assert_eq!(quote.last, dec!(236.85));
    assert_eq!(quote.change_pct, Some(dec!(-2.41)));
    // last − change = 236.85 − (−5.85)
    assert_eq!(quote.previous_close, Some(dec!(242.70)));
    assert_eq!(quote.open, Some(dec!(240.01)));
    assert_eq!(quote.high, Some(dec!(240.16)));
    assert_eq!(quote.low, Some(dec!(233.00)));
    // 2025-01-11 05:00:01 Beijing = 16:00:01 New York the day before.
    assert_eq!(quote.as_of, at("2025-01-10T21:00:01Z"));
}

#[test]
fn a_multi_line_answer_gives_one_quote_per_line() {
    let body = gbk_fixture("sina_multi.txt");
    let quotes = sina::parse(&body).unwrap();
    let keys: Vec<String> = quotes.iter().map(|q| q.instrument.key()).collect();
    assert_eq!(keys, ["SH:601398", "HK:00700", "US:AAPL"]);
    let aapl = sina::parse_for(&body, &instrument(Market::Us, "AAPL")).unwrap();
    assert_eq!(aapl, quotes[2]);
}

#[test]
fn an_empty_record_is_not_found() {
    let err = sina::parse_for(
        &fixture("sina_not_found.txt"),
        &instrument(Market::Sh, "688999"),
    )
    .unwrap_err();
    assert_eq!(
        err,
        QuoteError::NotFound {
            symbol: "688999".into(),
            source: SourceKind::Sina
        }
    );
}

#[test]
fn a_short_record_and_a_missing_line_are_unknown_formats() {
    let icbc = instrument(Market::Sh, "601398");
    let err = sina::parse_for(&gbk_fixture("sina_truncated.txt"), &icbc).unwrap_err();
    assert!(
        err.to_string()
            .contains("has 5 fields, expected at least 32"),
        "{err}"
    );

    let other = instrument(Market::Sh, "600000");
    let err = sina::parse_for(&gbk_fixture("sina_a_share.txt"), &other).unwrap_err();
    assert!(err.to_string().contains("no line for `sh600000`"), "{err}");
}

#[test]
fn an_html_page_is_not_data() {
    let err = sina::parse(&gbk_fixture("sina_html.txt")).unwrap_err();
    assert_eq!(
        err,
        QuoteError::HtmlPage {
            source: SourceKind::Sina
        }
    );
}
