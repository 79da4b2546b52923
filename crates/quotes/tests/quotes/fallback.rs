//! The fallback order through `Quotes::live`: the first source that answers wins, failures
//! are listed in order, answers are cached, and staleness is judged against `now`.

use jiff::SignedDuration;
use nofxi_portfolio::domain::Market;
use nofxi_quotes::{QuoteError, SourceKind};
use rust_decimal_macros::dec;

use crate::server::FeedServer;
use crate::{at, fixture, instrument, live};

const EM_FIELDS: &str = "fltt=2&fields=f43,f44,f45,f46,f57,f58,f60,f86,f169,f170";

fn eastmoney_path(secid: &str) -> String {
    format!("/api/qt/stock/get?secid={secid}&{EM_FIELDS}")
}

#[tokio::test]
async fn an_html_page_from_the_first_source_falls_back_to_the_second() {
    let server = FeedServer::start().await;
    server.serve("/q=sh601398", 200, fixture("tencent_html.txt"));
    server.serve("/list=sh601398", 200, fixture("sina_a_share.txt"));
    let quotes = live(&server.url(), "SH: [tencent, sina, eastmoney]\n");

    let quote = quotes
        .quote(
            &instrument(Market::Sh, "601398"),
            at("2025-01-10T08:00:00Z"),
        )
        .await
        .unwrap();
    assert_eq!(quote.source, SourceKind::Sina);
    assert_eq!(quote.last, dec!(5.700));
    assert!(!quote.stale);
    // Eastmoney was never asked.
    assert_eq!(server.paths(), ["/q=sh601398", "/list=sh601398"]);
}

#[tokio::test]
async fn a_500_from_the_first_source_falls_back_to_the_second() {
    let server = FeedServer::start().await;
    server.serve("/q=hk00700", 500, b"internal error".to_vec());
    server.serve(
        &eastmoney_path("116.00700"),
        200,
        fixture("eastmoney_hk.json"),
    );
    let quotes = live(&server.url(), "HK: [tencent, eastmoney, sina]\n");

    let quote = quotes
        .quote(&instrument(Market::Hk, "700"), at("2025-01-10T09:00:00Z"))
        .await
        .unwrap();
    assert_eq!(quote.source, SourceKind::Eastmoney);
    assert_eq!(quote.last, dec!(415.2));
}

#[tokio::test]
async fn when_every_source_fails_each_is_named_in_order() {
    let server = FeedServer::start().await;
    server.serve("/q=sh600519", 500, b"internal error".to_vec());
    server.serve("/list=sh600519", 200, fixture("sina_html.txt"));
    server.serve(
        &eastmoney_path("1.600519"),
        200,
        fixture("eastmoney_not_found.json"),
    );
    let quotes = live(&server.url(), "SH: [tencent, sina, eastmoney]\n");

    let err = quotes
        .quote(
            &instrument(Market::Sh, "600519"),
            at("2025-01-10T08:00:00Z"),
        )
        .await
        .unwrap_err();
    assert_eq!(
        err,
        QuoteError::AllFailed {
            symbol: "SH:600519".into(),
            tried: vec![
                (SourceKind::Tencent, "tencent answered HTTP 500".into()),
                (
                    SourceKind::Sina,
                    "sina sent a web page instead of quote data".into()
                ),
                (
                    SourceKind::Eastmoney,
                    "eastmoney has no quote for `600519`".into()
                ),
            ],
        }
    );
    assert!(
        err.to_string().ends_with("run with the simulated market"),
        "{err}"
    );
}

#[tokio::test]
async fn a_quote_is_reused_within_the_cache_ttl() {
    let server = FeedServer::start().await;
    server.serve("/q=sh600519", 200, fixture("tencent_a_share.txt"));
    let quotes = live(&server.url(), "SH: [tencent]\n");
    let maotai = instrument(Market::Sh, "600519");
    let t0 = at("2025-01-10T08:00:00Z");
    let later = |secs| t0.checked_add(SignedDuration::from_secs(secs)).unwrap();

    quotes.quote(&maotai, t0).await.unwrap();
    quotes.quote(&maotai, later(14)).await.unwrap();
    assert_eq!(server.paths().len(), 1);
    quotes.quote(&maotai, later(15)).await.unwrap();
    assert_eq!(server.paths().len(), 2);
}

#[tokio::test]
async fn an_old_quote_is_returned_marked_stale_never_as_live() {
    let server = FeedServer::start().await;
    server.serve("/q=sh600519", 200, fixture("tencent_a_share.txt"));
    let quotes = live(&server.url(), "SH: [tencent]\n");
    let maotai = instrument(Market::Sh, "600519");

    // Friday's 15:00 close, read Saturday: current.
    let saturday = quotes
        .quote(&maotai, at("2025-01-11T04:00:00Z"))
        .await
        .unwrap();
    assert!(!saturday.stale);
    // Read Monday 09:29:50 Shanghai, before the open: still current.
    let before_open = quotes
        .quote(&maotai, at("2025-01-13T01:29:50Z"))
        .await
        .unwrap();
    assert!(!before_open.stale);
    // Eleven seconds later, from the cache, the session has opened: stale.
    let after_open = quotes
        .quote(&maotai, at("2025-01-13T01:30:01Z"))
        .await
        .unwrap();
    assert!(after_open.stale);
    assert_eq!(after_open.as_of, at("2025-01-10T07:00:03Z"));
    assert_eq!(server.paths().len(), 2, "the last read came from the cache");
}

#[tokio::test]
async fn a_fresher_later_source_beats_a_stale_first_one() {
    let server = FeedServer::start().await;
    // Tencent still has Friday's close; Eastmoney has Monday 10:00 Hong Kong.
    server.serve("/q=hk00700", 200, fixture("tencent_hk.txt"));
    let monday_10 = at("2025-01-13T02:00:00Z");
    let fresh = String::from_utf8(fixture("eastmoney_hk.json"))
        .unwrap()
        .replace("1736496499", &monday_10.as_second().to_string());
    assert!(
        fresh.contains(&monday_10.as_second().to_string()),
        "fixture changed"
    );
    server.serve(&eastmoney_path("116.00700"), 200, fresh.into_bytes());
    let quotes = live(&server.url(), "HK: [tencent, eastmoney]\n");

    let quote = quotes
        .quote(&instrument(Market::Hk, "00700"), at("2025-01-13T02:05:00Z"))
        .await
        .unwrap();
    assert_eq!(quote.source, SourceKind::Eastmoney);
    assert!(!quote.stale);
}

#[tokio::test]
async fn when_only_stale_quotes_exist_the_freshest_comes_back_marked() {
    let server = FeedServer::start().await;
    server.serve("/q=hk00700", 200, fixture("tencent_hk.txt"));
    server.serve(&eastmoney_path("116.00700"), 503, Vec::new());
    let quotes = live(&server.url(), "HK: [tencent, eastmoney]\n");

    let quote = quotes
        .quote(&instrument(Market::Hk, "00700"), at("2025-01-13T02:05:00Z"))
        .await
        .unwrap();
    assert_eq!(quote.source, SourceKind::Tencent);
    assert!(quote.stale);
    assert_eq!(server.paths().len(), 2, "the second source was asked");
}

#[tokio::test]
async fn funds_have_no_live_source() {
    let server = FeedServer::start().await;
    let quotes = live(&server.url(), "SH: [tencent]\nFUND: []\n");
    let err = quotes
        .quote(
            &instrument(Market::Fund, "110022"),
            at("2025-01-10T08:00:00Z"),
        )
        .await
        .unwrap_err();
    assert_eq!(
        err,
        QuoteError::NoLiveSource {
            market: Market::Fund
        }
    );
    assert!(err.to_string().contains("NAV by hand"), "{err}");
    assert!(server.seen().is_empty());
}
