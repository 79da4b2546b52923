//! Each HTTP feed against the loopback server: the path it asks, the Referer it sends, how it
//! types a refusal.

use nofxi_portfolio::domain::Market;
use nofxi_quotes::http::DEFAULT_TIMEOUT;
use nofxi_quotes::{Feed, HttpSource, QuoteError, QuoteSource, SourceKind};
use rust_decimal_macros::dec;

use crate::server::{FeedServer, Seen};
use crate::{at, fixture, instrument};

const EM_FIELDS: &str = "fltt=2&fields=f43,f44,f45,f46,f57,f58,f60,f86,f169,f170";

fn source(server: &FeedServer, feed: Feed) -> HttpSource {
    HttpSource::with_base_url(feed, &server.url(), DEFAULT_TIMEOUT).unwrap()
}

#[tokio::test]
async fn each_feed_sends_the_referer_it_needs() {
    let server = FeedServer::start().await;
    server.serve("/q=sh600519", 200, fixture("tencent_a_share.txt"));
    server.serve("/list=sh601398", 200, fixture("sina_a_share.txt"));
    server.serve(
        &format!("/api/qt/stock/get?secid=1.600519&{EM_FIELDS}"),
        200,
        fixture("eastmoney_a_share.json"),
    );
    server.serve(
        "/api/v3/ticker/24hr?symbol=BTCUSDT",
        200,
        fixture("binance_btcusdt.json"),
    );
    let now = at("2025-01-10T08:00:00Z");
    let maotai = instrument(Market::Sh, "600519");

    let quote = source(&server, Feed::Tencent)
        .quote(&maotai, now)
        .await
        .unwrap();
    assert_eq!(quote.last, dec!(1459.88));
    let quote = source(&server, Feed::Sina)
        .quote(&instrument(Market::Sh, "601398"), now)
        .await
        .unwrap();
    assert_eq!(quote.last, dec!(5.700));
    let quote = source(&server, Feed::Eastmoney)
        .quote(&maotai, now)
        .await
        .unwrap();
    assert_eq!(quote.source, SourceKind::Eastmoney);
    let quote = source(&server, Feed::Binance)
        .quote(&instrument(Market::Crypto, "BTC"), now)
        .await
        .unwrap();
    assert_eq!(quote.last, dec!(97031.01));

    let seen = server.seen();
    let referer = |path_start: &str| {
        seen.iter()
            .find(|s| s.path.starts_with(path_start))
            .and_then(|s: &Seen| s.referer.clone())
    };
    assert_eq!(referer("/q="), Some("https://gu.qq.com".into()));
    assert_eq!(
        referer("/list="),
        Some("https://finance.sina.com.cn".into())
    );
    assert_eq!(
        referer("/api/qt/"),
        Some("https://quote.eastmoney.com".into())
    );
    assert_eq!(referer("/api/v3/"), None);
}

#[tokio::test]
async fn status_html_and_unreachable_are_typed() {
    let server = FeedServer::start().await;
    server.serve("/q=sh600519", 502, fixture("tencent_html.txt"));
    server.serve("/list=sh600519", 200, fixture("sina_html.txt"));
    let maotai = instrument(Market::Sh, "600519");
    let now = at("2025-01-10T08:00:00Z");

    let err = source(&server, Feed::Tencent)
        .quote(&maotai, now)
        .await
        .unwrap_err();
    assert_eq!(
        err,
        QuoteError::Http {
            source: SourceKind::Tencent,
            status: 502
        }
    );
    let err = source(&server, Feed::Sina)
        .quote(&maotai, now)
        .await
        .unwrap_err();
    assert_eq!(
        err,
        QuoteError::HtmlPage {
            source: SourceKind::Sina
        }
    );

    // A port nothing listens on.
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap()
    };
    let unreachable =
        HttpSource::with_base_url(Feed::Tencent, &format!("http://{closed}"), DEFAULT_TIMEOUT)
            .unwrap();
    let err = unreachable.quote(&maotai, now).await.unwrap_err();
    assert!(matches!(err, QuoteError::Transport { .. }), "{err}");
    assert!(err.to_string().contains("check the network"), "{err}");
}

#[tokio::test]
async fn a_market_outside_the_feed_is_refused_without_a_request() {
    let server = FeedServer::start().await;
    let now = at("2025-01-10T08:00:00Z");
    let err = source(&server, Feed::Sina)
        .quote(&instrument(Market::Fund, "110022"), now)
        .await
        .unwrap_err();
    assert_eq!(
        err,
        QuoteError::Unsupported {
            market: Market::Fund,
            source: SourceKind::Sina
        }
    );
    let err = source(&server, Feed::Binance)
        .quote(&instrument(Market::Us, "AAPL"), now)
        .await
        .unwrap_err();
    assert!(matches!(err, QuoteError::Unsupported { .. }));
    assert!(server.seen().is_empty());
}

#[tokio::test]
async fn binance_400_for_an_unknown_pair_is_not_found() {
    let server = FeedServer::start().await;
    server.serve(
        "/api/v3/ticker/24hr?symbol=DOGEXUSDT",
        400,
        fixture("binance_invalid_symbol.json"),
    );
    server.serve("/api/v3/ticker/24hr?symbol=BTCUSDT", 429, b"{}".to_vec());
    let now = at("2025-01-10T08:00:00Z");
    let binance = source(&server, Feed::Binance);
    let err = binance
        .quote(&instrument(Market::Crypto, "DOGEX"), now)
        .await
        .unwrap_err();
    assert_eq!(
        err,
        QuoteError::NotFound {
            symbol: "DOGEX".into(),
            source: SourceKind::Binance
        }
    );
    let err = binance
        .quote(&instrument(Market::Crypto, "BTC"), now)
        .await
        .unwrap_err();
    assert_eq!(
        err,
        QuoteError::Http {
            source: SourceKind::Binance,
            status: 429
        }
    );
}

#[tokio::test]
async fn eastmoney_asks_each_us_exchange_until_one_knows_the_symbol() {
    let server = FeedServer::start().await;
    let path = |secid: &str| format!("/api/qt/stock/get?secid={secid}&{EM_FIELDS}");
    server.serve(&path("105.AAPL"), 200, fixture("eastmoney_not_found.json"));
    server.serve(&path("106.AAPL"), 200, fixture("eastmoney_us.json"));
    let quote = source(&server, Feed::Eastmoney)
        .quote(&instrument(Market::Us, "AAPL"), at("2025-01-10T22:00:00Z"))
        .await
        .unwrap();
    assert_eq!(quote.last, dec!(236.85));
    assert_eq!(server.paths(), [path("105.AAPL"), path("106.AAPL")]);

    let err = source(&server, Feed::Eastmoney)
        .quote(&instrument(Market::Us, "ZZZZ"), at("2025-01-10T22:00:00Z"))
        .await
        .unwrap_err();
    // 404s from the server are not "not found" answers: the first refusal is reported.
    assert!(matches!(err, QuoteError::Http { status: 404, .. }), "{err}");
}
