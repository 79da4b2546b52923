//! Downloading candle history from the mock Binance over loopback HTTP: pages, a rate limit
//! honoured, a hole reported and not filled, and a run that failed half-way resumed.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::Duration;

use nofxi_domain::Interval;
use nofxi_domain::market::Symbol;
use nofxi_testkit::binance::{Fault, MockBinance, Route};
use nofxi_venues::binance::{BinanceClient, BinanceEndpoints, BinanceMarket, BinanceOptions};
use nofxi_venues::history::{self, HistoryStore, PAGE, SeriesKey, Span};
use nofxi_venues::{Clock, ManualClock, MarketData};

const M: i64 = 60_000;
/// 2025-01-01T00:00:00Z.
const JAN_1: i64 = 1_735_689_600_000;
/// Long after every range below: all their candles are closed.
const NOW: i64 = JAN_1 + 400 * 86_400_000;

fn market(mock: &MockBinance, clock: Arc<ManualClock>) -> BinanceMarket {
    let client = BinanceClient::new(
        "binance",
        BinanceEndpoints::single(&mock.url()),
        None,
        BinanceOptions {
            timeout: Duration::from_secs(5),
            ..BinanceOptions::default()
        },
        clock as Arc<dyn Clock>,
    )
    .unwrap();
    BinanceMarket::new(Arc::new(client))
}

fn btc_1m() -> SeriesKey {
    SeriesKey {
        exchange: "binance".into(),
        symbol: Symbol::parse("BTCUSDT").unwrap(),
        interval: Interval::M1,
    }
}

async fn run(
    market: &dyn MarketData,
    store: &HistoryStore,
    from: i64,
    to: i64,
) -> Result<history::DownloadReport, history::HistoryError> {
    let plan = history::plan(store, &btc_1m(), from, to, NOW).unwrap();
    history::download(market, store, &plan, &mut |_| ControlFlow::Continue(())).await
}

#[tokio::test]
async fn a_range_of_several_pages_is_paged_through_and_stored_by_month() {
    let mock = MockBinance::start().await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let store = HistoryStore::new(dir.path());
    let clock = Arc::new(ManualClock::new(NOW));
    let m = market(&mock, clock);
    // Three and a half pages, across the turn of a month.
    let from = JAN_1 - 1_500 * M;
    let to = from + (3 * PAGE as i64 + PAGE as i64 / 2) * M;
    let report = run(&m, &store, from, to).await.unwrap();
    assert_eq!(report.pages, 4);
    assert_eq!(mock.request_count("GET", "/fapi/v1/klines"), 4);
    assert_eq!(report.received, 3_500);
    assert!(report.complete && report.holes.is_empty(), "{report:?}");

    let candles = store.candles(&btc_1m()).unwrap();
    assert_eq!(candles.len(), 3_500);
    assert_eq!(candles[0].open_time_ms, from);
    assert_eq!(candles[3_499].open_time_ms, to - M);
    assert!(
        candles
            .windows(2)
            .all(|w| w[1].open_time_ms - w[0].open_time_ms == M)
    );
    // The venue's own decimal text, kept as sent.
    assert_eq!(candles[0].volume.to_string(), "10.5");
    let dir_of = store.dir(&btc_1m());
    assert!(dir_of.join("2024-12.csv.zst").is_file());
    assert!(dir_of.join("2025-01.csv.zst").is_file());
    assert!(!dir_of.join("2025-01.csv.part").exists());
    let manifest = store.manifest(&btc_1m()).unwrap();
    assert_eq!(manifest.covered, vec![Span::new(from, to)]);
    assert_eq!(manifest.candles, 3_500);

    // The same range again asks for nothing.
    let again = run(&m, &store, from, to).await.unwrap();
    assert_eq!(again.pages, 0);
    assert_eq!(mock.request_count("GET", "/fapi/v1/klines"), 4);
}

#[tokio::test]
async fn a_run_that_failed_half_way_resumes_where_it_stopped() {
    let mock = MockBinance::start().await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let store = HistoryStore::new(dir.path());
    let clock = Arc::new(ManualClock::new(NOW));
    let m = market(&mock, clock);
    let to = JAN_1 + 5 * PAGE as i64 * M;
    // The third page is refused with an error no retry cures.
    mock.inject_after(Route::Klines, 2, Fault::binance(-1130));
    let err = run(&m, &store, JAN_1, to).await.unwrap_err();
    assert!(err.to_string().contains("-1130"), "{err}");
    assert_eq!(mock.request_count("GET", "/fapi/v1/klines"), 3);
    let kept = store.manifest(&btc_1m()).unwrap();
    assert_eq!(
        kept.covered,
        vec![Span::new(JAN_1, JAN_1 + 2 * PAGE as i64 * M)]
    );
    assert_eq!(kept.candles, 2 * PAGE as u64);

    let resumed = run(&m, &store, JAN_1, to).await.unwrap();
    assert_eq!(resumed.pages, 3, "only the pages not yet stored");
    assert_eq!(mock.request_count("GET", "/fapi/v1/klines"), 6);
    assert_eq!(resumed.stored, 5 * PAGE as u64);
    assert!(resumed.holes.is_empty());

    // Stopped by the caller (Ctrl-C) after one page: resumable the same way.
    let key = SeriesKey {
        interval: Interval::M5,
        ..btc_1m()
    };
    let plan = history::plan(&store, &key, JAN_1, JAN_1 + 3 * PAGE as i64 * 5 * M, NOW).unwrap();
    let stopped = history::download(&m, &store, &plan, &mut |_| ControlFlow::Break(()))
        .await
        .unwrap();
    assert!(!stopped.complete);
    assert_eq!(stopped.pages, 1);
    let rest = history::plan(&store, &key, JAN_1, JAN_1 + 3 * PAGE as i64 * 5 * M, NOW).unwrap();
    assert_eq!(rest.pages, 2);
}

#[tokio::test]
async fn a_second_download_of_the_same_series_at_once_is_refused() {
    let mock = MockBinance::start().await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let store = HistoryStore::new(dir.path());
    let clock = Arc::new(ManualClock::new(NOW));
    let m = market(&mock, clock);
    let plan = history::plan(&store, &btc_1m(), JAN_1, JAN_1 + 3 * PAGE as i64 * M, NOW).unwrap();
    let mut inner = None;
    let first = history::download(&m, &store, &plan, &mut |_| {
        // While the first holds the series, a second run on it is refused.
        if inner.is_none() {
            let other = std::thread::scope(|s| {
                s.spawn(|| {
                    tokio::runtime::Builder::new_current_thread()
                        .enable_all()
                        .build()
                        .unwrap()
                        .block_on(history::download(&m, &store, &plan, &mut |_| {
                            ControlFlow::Continue(())
                        }))
                })
                .join()
                .unwrap()
            });
            inner = Some(other.unwrap_err().to_string());
        }
        ControlFlow::Continue(())
    })
    .await
    .unwrap();
    assert!(first.complete);
    let said = inner.unwrap();
    assert!(
        said.contains("is being downloaded by another nofxi process"),
        "{said}"
    );
    // Released when the run ends: the next one goes ahead.
    assert_eq!(
        run(&m, &store, JAN_1, JAN_1 + 3 * PAGE as i64 * M)
            .await
            .unwrap()
            .pages,
        0
    );
}

#[tokio::test]
async fn a_429_waits_the_retry_after_binance_gives() {
    let mock = MockBinance::start().await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let store = HistoryStore::new(dir.path());
    let clock = Arc::new(ManualClock::new(NOW));
    let m = market(&mock, clock.clone());
    mock.inject_after(
        Route::Klines,
        1,
        Fault::RateLimited {
            retry_after_secs: 7,
        },
    );
    let report = run(&m, &store, JAN_1, JAN_1 + 2 * PAGE as i64 * M)
        .await
        .unwrap();
    assert_eq!(report.pages, 2);
    assert_eq!(report.received, 2 * PAGE as u64);
    assert_eq!(
        mock.request_count("GET", "/fapi/v1/klines"),
        3,
        "the refused page asked again"
    );
    // The wait went through the clock: exactly Binance's Retry-After, in simulated time.
    assert_eq!(clock.slept(), Duration::from_secs(7));
}

#[tokio::test]
async fn a_hole_is_reported_where_it_is_and_never_filled() {
    let mock = MockBinance::start().await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let store = HistoryStore::new(dir.path());
    let clock = Arc::new(ManualClock::new(NOW));
    let m = market(&mock, clock);
    // A halt of 90 minutes that straddles the first page's end.
    let halt = (JAN_1 + 950 * M, JAN_1 + 1_040 * M);
    mock.set_kline_gap("BTCUSDT", halt.0, halt.1);
    let report = run(&m, &store, JAN_1, JAN_1 + 2_000 * M).await.unwrap();
    assert_eq!(report.holes.len(), 1, "{:?}", report.holes);
    let hole = report.holes[0];
    assert_eq!(
        (hole.from_ms, hole.to_ms, hole.missing),
        (halt.0, halt.1, 90)
    );
    let candles = store.candles(&btc_1m()).unwrap();
    assert_eq!(candles.len(), 2_000 - 90, "nothing made up over the halt");
    assert!(
        !candles
            .iter()
            .any(|c| (halt.0..halt.1).contains(&c.open_time_ms))
    );
    assert_eq!(store.manifest(&btc_1m()).unwrap().holes, report.holes);
    // Asking again does not ask for the hole again: it was answered, with nothing.
    let again = run(&m, &store, JAN_1, JAN_1 + 2_000 * M).await.unwrap();
    assert_eq!(again.pages, 0);
    assert_eq!(again.holes, report.holes);
}
