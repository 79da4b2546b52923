//! The market-data skill's order book and candles run for real (`nofxi_assistant::market_data`):
//! against crates/testkit's MockOkx over loopback, in OKX's own wire format, and against the
//! simulated market; the skill's refusals (an index's order book, a 1.5h interval, 101 levels)
//! come before any request reaches the venue, and a venue's rate limit is waited out and
//! retried by the skill's runtime.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use nofxi_assistant::market_data::call::{self, market_skill};
use nofxi_assistant::market_data::source::{self, DataSource};
use nofxi_assistant::market_data::{BookReport, MarketError};
use nofxi_skills::Lang;
use nofxi_skills::runtime::{CallError, FakeRelativeClock, Reach, SkillRuntime, Sleeper};
use nofxi_testkit::okx::{Fault, MockOkx, Route};
use nofxi_venues::SystemClock;
use nofxi_venues::okx::{Contracts, OkxClient, OkxEndpoints, OkxMarket, OkxOptions};
use rust_decimal::Decimal;
use serde_json::json;

const BOOKS: &str = "/api/v5/market/books";
const CANDLES: &str = "/api/v5/market/candles";
const INSTRUMENTS: &str = "/api/v5/public/instruments";

/// OKX's public market data at the mock, as `--source okx` reads it; the client's own retries
/// off, so what is retried is the skill runtime's doing.
fn okx_at(mock: &MockOkx) -> DataSource {
    let options = OkxOptions {
        max_retries: 0,
        ..OkxOptions::default()
    };
    let client = Arc::new(
        OkxClient::new(
            "okx",
            OkxEndpoints::at(&mock.url(), "the test"),
            None,
            options,
            Arc::new(SystemClock),
        )
        .unwrap(),
    );
    let contracts = Arc::new(Contracts::new(client.clone()));
    DataSource {
        market: Arc::new(OkxMarket::new(client, contracts)),
        name: "okx".into(),
        label: "okx public market data (live)".into(),
        simulated: false,
        sim_clock: false,
        reach: Reach::Remote,
    }
}

/// Records every wait and moves the fake clock on by it: nothing really sleeps.
#[derive(Clone, Default)]
struct RecordingSleeper {
    waits: Arc<Mutex<Vec<Duration>>>,
    clock: FakeRelativeClock,
}

impl Sleeper for RecordingSleeper {
    fn sleep(&self, d: Duration) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        self.waits.lock().unwrap().push(d);
        self.clock.advance(d);
        Box::pin(async {})
    }
}

fn runtime_on(sleeper: &RecordingSleeper) -> SkillRuntime<FakeRelativeClock> {
    SkillRuntime::with_clock(
        market_skill().unwrap(),
        sleeper.clock.clone(),
        Arc::new(sleeper.clone()),
        7,
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn okx_books_and_candles_come_over_the_wire_labelled_with_their_source() {
    let mock = MockOkx::start().await.unwrap();
    let okx = okx_at(&mock);
    let rt = runtime_on(&RecordingSleeper::default());

    let book: BookReport = call::order_book(&rt, &okx, &json!({"symbol": "BTCUSDT"}))
        .await
        .unwrap();
    // The skill's default depth (5); OKX's contracts of 0.01 BTC, in coins.
    assert_eq!((book.bids.len(), book.asks.len(), book.depth), (5, 5, 5));
    assert_eq!(book.bids[0].price, Decimal::new(599_999, 1));
    assert_eq!(book.asks[0].price, Decimal::new(600_001, 1));
    assert_eq!(book.asks[0].size, Decimal::from(2));
    assert_eq!(book.spread, Some(Decimal::new(2, 1)));
    assert_eq!(book.pressure_ratio, Some(Decimal::ONE));
    assert_eq!(book.source.name, "okx");
    assert!(!book.source.simulated && book.time_ms > 0);
    assert_eq!(mock.request_count("GET", BOOKS), 1);

    let candles = call::klines(
        &rt,
        &okx,
        &json!({"symbol": "ETHUSDT", "interval": "4h", "limit": 6}),
    )
    .await
    .unwrap();
    assert_eq!(
        (candles.interval.as_str(), candles.candles.len()),
        ("4h", 6)
    );
    assert!(
        candles
            .candles
            .windows(2)
            .all(|w| w[1].open_time_ms - w[0].open_time_ms == 4 * 3_600_000)
    );
    let summary = candles.summary.unwrap();
    assert!(summary.high >= summary.low && summary.count == 6);
    assert_eq!(candles.time_ms, Some(candles.candles[5].open_time_ms));
    assert_eq!(mock.request_count("GET", CANDLES), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_skills_refusals_come_before_any_request() {
    let mock = MockOkx::start().await.unwrap();
    let okx = okx_at(&mock);
    let rt = runtime_on(&RecordingSleeper::default());

    let index = call::order_book(&rt, &okx, &json!({"symbol": "SPX.IX"})).await;
    match index {
        Err(MarketError::Call(CallError::Refused(r))) => {
            assert_eq!(
                (r.symbol.as_str(), r.asset_class.as_str()),
                ("SPX.IX", "index")
            );
            assert!(r.message.en.contains("no request was sent"), "{r:?}");
        }
        other => panic!("expected the coverage refusal, got {other:?}"),
    }
    let odd = call::klines(&rt, &okx, &json!({"symbol": "BTCUSDT", "interval": "1.5h"})).await;
    match odd {
        Err(MarketError::Call(CallError::Invalid(e))) => {
            let said = e.message(Lang::En);
            assert!(
                said.contains("\"1.5h\"") && said.contains(&nofxi_domain::Interval::names_text()),
                "{said}"
            );
        }
        other => panic!("expected the schema's refusal, got {other:?}"),
    }
    let deep = call::order_book(&rt, &okx, &json!({"symbol": "BTCUSDT", "depth": 101})).await;
    assert!(
        matches!(deep, Err(MarketError::Call(CallError::Invalid(_)))),
        "{deep:?}"
    );
    let stock = call::klines(&rt, &okx, &json!({"symbol": "NVDA.US", "interval": "1d"})).await;
    assert!(
        matches!(stock, Err(MarketError::NoSource { .. })),
        "{stock:?}"
    );
    for path in [BOOKS, CANDLES, INSTRUMENTS] {
        assert_eq!(mock.request_count("GET", path), 0, "{path} was asked");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_venues_rate_limit_is_waited_out_with_backoff_and_retried() {
    let mock = MockOkx::start().await.unwrap();
    let okx = okx_at(&mock);
    let sleeper = RecordingSleeper::default();
    let rt = runtime_on(&sleeper);
    // The instruments are read first (contract sizes); the book's first answer is a 429.
    call::order_book(&rt, &okx, &json!({"symbol": "BTCUSDT", "depth": 1}))
        .await
        .unwrap();
    mock.inject(Route::Any, Fault::RateLimited);
    let book = call::order_book(&rt, &okx, &json!({"symbol": "BTCUSDT", "depth": 3}))
        .await
        .unwrap();
    assert_eq!(book.bids.len(), 3);
    assert_eq!(mock.request_count("GET", BOOKS), 3);
    let waits = sleeper.waits.lock().unwrap().clone();
    // One wait: the skill's backoff (1 s base, 10 % jitter) after OKX's 50011.
    assert_eq!(waits.len(), 1, "{waits:?}");
    assert!(
        waits[0] >= Duration::from_millis(900) && waits[0] <= Duration::from_millis(1100),
        "{waits:?}"
    );
}

#[tokio::test]
async fn the_simulated_source_is_labelled_simulated_and_the_same_query_gives_the_same_candles() {
    let sim = source::named("sim", 42, Lang::En).unwrap();
    assert!(sim.simulated && sim.reach == Reach::Local);
    assert!(sim.label.contains("simulated"), "{}", sim.label);
    let rt = runtime_on(&RecordingSleeper::default());
    let book = call::order_book(&rt, &sim, &json!({"symbol": "ETHUSDT", "depth": 10}))
        .await
        .unwrap();
    assert_eq!((book.bids.len(), book.asks.len()), (10, 10));
    assert!(book.source.simulated && book.pressure_ratio.is_some());
    let pinned = json!({
        "symbol": "BTCUSDT", "interval": "1d", "limit": 5,
        "end_time": "2026-01-01T00:00:00Z"
    });
    let a = call::klines(&rt, &sim, &pinned).await.unwrap();
    let b = call::klines(&rt, &sim, &pinned).await.unwrap();
    assert_eq!(a, b);
    assert_eq!(a.time_ms, Some(1_767_225_600_000));
    // A coin nobody lists is not priced by the simulated market.
    let made_up = call::order_book(&rt, &sim, &json!({"symbol": "ZZQXUSDT"})).await;
    assert!(
        matches!(made_up, Err(MarketError::UnknownCoin { .. })),
        "{made_up:?}"
    );
    assert!(matches!(
        source::named("kraken", 42, Lang::En),
        Err(source::SourceError::Unknown(_))
    ));
}
