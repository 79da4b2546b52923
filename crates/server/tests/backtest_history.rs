//! The backtest page's data over HTTP: the history `nofxi data download` stored (here paged
//! from the mock Binance over loopback into a real history directory) is listed as `nofxi
//! data list` lists it, a backtest runs on it and says so, and a series that was not
//! downloaded is refused under `data` with the command that downloads it.

use std::ops::ControlFlow;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use nofxi_domain::Interval;
use nofxi_domain::market::Symbol;
use nofxi_server::{ProxyTrust, ServeOptions};
use nofxi_store::test_support::sqlite_store;
use nofxi_testkit::binance::MockBinance;
use nofxi_venues::binance::{BinanceClient, BinanceEndpoints, BinanceMarket, BinanceOptions};
use nofxi_venues::history::{self, HistoryStore, SeriesKey};
use nofxi_venues::{Clock, ManualClock};
use serde_json::{Value, json};

mod support;

use support::api::Api;
use support::{TestResult, start_with};

/// 2025-01-01T00:00:00Z.
const JAN_1: i64 = 1_735_689_600_000;
const HOUR: i64 = 3_600_000;

/// Ten days of BTCUSDT 1h candles from the mock Binance, stored as `nofxi data download`
/// stores them, with a stretch the venue has no candles for.
async fn download_btc(dir: &Path) -> TestResult {
    let mock = MockBinance::start().await?;
    mock.set_kline_gap("BTCUSDT", JAN_1 + 50 * HOUR, JAN_1 + 53 * HOUR);
    let clock = Arc::new(ManualClock::new(JAN_1 + 400 * 24 * HOUR));
    let client = BinanceClient::new(
        "binance",
        BinanceEndpoints::single(&mock.url()),
        None,
        BinanceOptions {
            timeout: Duration::from_secs(5),
            ..BinanceOptions::default()
        },
        clock.clone() as Arc<dyn Clock>,
    )?;
    let market = BinanceMarket::new(Arc::new(client));
    let store = HistoryStore::new(dir);
    let key = SeriesKey {
        exchange: "binance".into(),
        symbol: Symbol::parse("BTCUSDT")?,
        interval: Interval::H1,
    };
    let plan = history::plan(&store, &key, JAN_1, JAN_1 + 240 * HOUR, clock.now_ms())?;
    history::download(&market, &store, &plan, &mut |_| ControlFlow::Continue(())).await?;
    Ok(())
}

impl Api {
    /// Starts a backtest and follows it to its end; the finished job.
    async fn backtest(&self, body: Value) -> TestResult<Value> {
        let (status, started) = self.call("POST", "/api/backtests", body).await?;
        assert_eq!(status, 202, "{started}");
        let id = started["id"].as_str().unwrap_or_default().to_string();
        for _ in 0..600 {
            let (_, job) = self
                .call("GET", &format!("/api/backtests/{id}"), Value::Null)
                .await?;
            if job["status"] != "running" {
                return Ok(job);
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Err("the backtest did not finish within 60 s".into())
    }
}

fn problem_fields(body: &Value) -> Vec<String> {
    body["error"]["problems"]
        .as_array()
        .map(|p| {
            p.iter()
                .filter_map(|p| p["field"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backtest_runs_on_downloaded_history_and_says_so() -> TestResult {
    let home = tempfile::tempdir()?;
    let history_dir = home.path().join("history");
    download_btc(&history_dir).await?;
    let ts = sqlite_store().await?;
    let options = ServeOptions {
        addr: "127.0.0.1:0".parse()?,
        engine: None,
        web_dir: None,
        proxy: ProxyTrust::default(),
        history_dir: Some(history_dir.clone()),
    };
    let running = start_with(ts.store.clone(), options).await?;
    let api = Api::new(&running.base).await?;

    // Listed as `nofxi data list` lists it: the same manifests.
    let (_, listed) = api.call("GET", "/api/history", Value::Null).await?;
    let manifests = HistoryStore::new(&history_dir).manifests()?;
    assert_eq!(
        listed["items"],
        serde_json::to_value(&manifests)?,
        "{listed}"
    );
    let series = &listed["items"][0];
    assert_eq!(
        (&series["exchange"], &series["symbol"], &series["interval"]),
        (&json!("binance"), &json!("BTCUSDT"), &json!("1h"))
    );
    assert_eq!(series["candles"], 237, "{series}");
    assert_eq!(series["holes"][0]["missing"], 3, "{series}");

    // Without dates, the whole downloaded time: one cycle per stored candle.
    let job = api
        .backtest(json!({"data": "binance", "symbols": ["BTCUSDT"], "interval": "1h"}))
        .await?;
    assert_eq!(job["status"], "done", "{job}");
    let result = &job["result"];
    assert_eq!(
        result["data_source"],
        "binance history BTCUSDT 1h (nofxi data download)"
    );
    assert_eq!(result["simulated"], false);
    let cycles = result["cycles"].as_u64().unwrap_or_default();
    assert!((200..=240).contains(&cycles), "{cycles} cycles: {result}");

    // The simulated market says it is the simulated market.
    let job = api
        .backtest(json!({"symbols": ["BTCUSDT"], "interval": "1h", "start": "2025-01-01", "end": "2025-01-03"}))
        .await?;
    assert_eq!(job["result"]["simulated"], true, "{job}");
    assert!(
        job["result"]["data_source"]
            .as_str()
            .is_some_and(|s| s.starts_with("simulated market (seed ")),
        "{job}"
    );

    // What was not downloaded, and a venue nofxi downloads nothing from: refused by name.
    let (status, bad) = api
        .call(
            "POST",
            "/api/backtests",
            json!({"data": "binance", "symbols": ["ETHUSDT"], "interval": "1h"}),
        )
        .await?;
    assert_eq!(
        (status, problem_fields(&bad)),
        (422, vec!["data".to_string()])
    );
    let message = bad["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("nofxi data download --exchange binance --symbols ETHUSDT --interval 1h"),
        "{message}"
    );
    let (status, bad) = api
        .call(
            "POST",
            "/api/backtests",
            json!({"data": "kraken", "symbols": ["BTCUSDT"]}),
        )
        .await?;
    assert_eq!(
        (status, problem_fields(&bad)),
        (422, vec!["data".to_string()])
    );
    // Dates outside the history hold none of it.
    let (status, bad) = api
        .call(
            "POST",
            "/api/backtests",
            json!({"data": "binance", "symbols": ["BTCUSDT"], "interval": "1h",
                   "start": "2024-01-01", "end": "2024-02-01"}),
        )
        .await?;
    assert_eq!(
        (status, problem_fields(&bad)),
        (422, vec!["start".to_string()]),
        "{bad}"
    );
    running.stop().await
}
