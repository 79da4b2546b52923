use nofxi_portfolio::domain::Market;
use nofxi_quotes::{QuoteError, SourceKind, tencent};
use rust_decimal_macros::dec;

use crate::{at, fixture, gbk_fixture, instrument};

#[test]
fn an_a_share_reads_every_field_in_shanghai_time() {
    let maotai = instrument(Market::Sh, "600519");
    let quote = tencent::parse_for(&gbk_fixture("tencent_a_share.txt"), &maotai).unwrap();
    assert_eq!(quote.instrument, maotai);
    assert_eq!(quote.name.as_deref(), Some("贵州茅台"));
    assert_eq!(quote.last, dec!(1459.88));
    assert_eq!(quote.previous_close, Some(dec!(1450.00)));
    assert_eq!(quote.open, Some(dec!(1452.00)));
    assert_eq!(quote.high, Some(dec!(1465.00)));
    assert_eq!(quote.low, Some(dec!(1448.00)));
    assert_eq!(quote.change_pct, Some(dec!(0.68)));
    // 20250110150003 in Shanghai (UTC+8).
    assert_eq!(quote.as_of, at("2025-01-10T07:00:03Z"));
    assert_eq!(quote.source, SourceKind::Tencent);
    assert!(!quote.simulated && !quote.stale);
}

#[test]
fn hong_kong_and_us_times_are_the_exchanges_wall_clocks() {
    let hk = tencent::parse_for(
        &gbk_fixture("tencent_hk.txt"),
        &instrument(Market::Hk, "700"),
    )
    .unwrap();
    assert_eq!(hk.name.as_deref(), Some("腾讯控股"));
    assert_eq!(hk.last, dec!(415.200));
    assert_eq!(hk.previous_close, Some(dec!(410.000)));
    assert_eq!(hk.change_pct, Some(dec!(1.27)));
    assert_eq!(
        (hk.high, hk.low),
        (Some(dec!(416.000)), Some(dec!(408.600)))
    );
    assert_eq!(hk.as_of, at("2025-01-10T08:08:19Z"));

    let us = tencent::parse_for(
        &gbk_fixture("tencent_us.txt"),
        &instrument(Market::Us, "AAPL"),
    )
    .unwrap();
    assert_eq!(us.name.as_deref(), Some("苹果"));
    assert_eq!(us.last, dec!(236.85));
    assert_eq!(us.previous_close, Some(dec!(242.70)));
    assert_eq!(us.open, Some(dec!(240.01)));
    assert_eq!(us.change_pct, Some(dec!(-2.41)));
    // 16:00:01 New York in January is EST, UTC−5.
    assert_eq!(us.as_of, at("2025-01-10T21:00:01Z"));
}

#[test]
fn a_multi_line_answer_gives_one_quote_per_line() {
    let body = gbk_fixture("tencent_multi.txt");
    let quotes = tencent::parse(&body).unwrap();
    let keys: Vec<String> = quotes.iter().map(|q| q.instrument.key()).collect();
    assert_eq!(keys, ["SH:600519", "HK:00700", "US:AAPL"]);
    // The Hong Kong line writes its time with slashes; same instant.
    assert_eq!(quotes[1].as_of, at("2025-01-10T08:08:19Z"));
    assert_eq!(quotes[2].last, dec!(236.85));

    let hk = tencent::parse_for(&body, &instrument(Market::Hk, "00700")).unwrap();
    assert_eq!(hk, quotes[1]);
}

#[test]
fn an_unknown_code_is_not_found() {
    // Pure ASCII, so the same bytes in GBK and UTF-8.
    let body = fixture("tencent_not_found.txt");
    let err = tencent::parse_for(&body, &instrument(Market::Sh, "688999")).unwrap_err();
    assert_eq!(
        err,
        QuoteError::NotFound {
            symbol: "688999".into(),
            source: SourceKind::Tencent
        }
    );
    assert!(matches!(
        tencent::parse(&body),
        Err(QuoteError::NotFound { .. })
    ));

    let empty = fixture("tencent_empty_fields.txt");
    let err = tencent::parse_for(&empty, &instrument(Market::Sh, "688999")).unwrap_err();
    assert!(matches!(err, QuoteError::NotFound { .. }), "{err}");
}

#[test]
fn truncated_and_garbled_lines_are_unknown_formats() {
    let maotai = instrument(Market::Sh, "600519");
    let err = tencent::parse_for(&gbk_fixture("tencent_truncated.txt"), &maotai).unwrap_err();
    assert!(matches!(err, QuoteError::UnknownFormat { .. }), "{err}");
    assert!(err.to_string().contains("line 1"), "{err}");

    let err = tencent::parse_for(&gbk_fixture("tencent_garbled.txt"), &maotai).unwrap_err();
    assert!(matches!(err, QuoteError::UnknownFormat { .. }), "{err}");
    assert!(
        err.to_string().contains("field 3 (last) is `1459.8?8`"),
        "{err}"
    );
}

#[test]
fn an_html_page_is_not_data() {
    let err = tencent::parse(&gbk_fixture("tencent_html.txt")).unwrap_err();
    assert_eq!(
        err,
        QuoteError::HtmlPage {
            source: SourceKind::Tencent
        }
    );
}

#[test]
fn a_quote_serializes_with_exact_decimals() {
    let quote = tencent::parse_for(
        &gbk_fixture("tencent_a_share.txt"),
        &instrument(Market::Sh, "600519"),
    )
    .unwrap();
    let json = serde_json::to_value(&quote).unwrap();
    assert_eq!(json["last"], "1459.88");
    assert_eq!(json["as_of"], "2025-01-10T07:00:03Z");
    assert_eq!(json["source"], "tencent");
    assert_eq!(json["instrument"]["market"], "SH");
    assert_eq!(json["simulated"], false);
    assert_eq!(json["stale"], false);
}
