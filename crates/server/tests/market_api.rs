//! `GET /api/market/book` and `GET /api/market/klines` over loopback HTTP: the market-data
//! skill's order book and candles, labelled with their source, and the skill's refusals as
//! errors by field (an index has no order book, 1.5h is no interval), all in the OpenAPI
//! document.

use nofxi_store::test_support::sqlite_store;
use serde_json::Value;

mod support;

use support::{TestResult, start_server};

async fn get(base: &str, path: &str) -> TestResult<(u16, Value)> {
    let resp = reqwest::get(format!("{base}{path}")).await?;
    let status = resp.status().as_u16();
    Ok((status, resp.json::<Value>().await.unwrap_or(Value::Null)))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn books_and_candles_are_served_labelled_and_refusals_name_their_field() -> TestResult {
    let ts = sqlite_store().await?;
    let server = start_server(ts.store.clone(), None).await?;
    let base = server.base.clone();

    let (status, book) = get(
        &base,
        "/api/market/book?symbol=btc&depth=3&source=simulated",
    )
    .await?;
    assert_eq!(status, 200, "{book}");
    assert_eq!(book["symbol"], "BTCUSDT");
    assert_eq!(book["bids"].as_array().map(Vec::len), Some(3));
    assert_eq!(book["source"]["simulated"], true);
    assert!(book["pressure_ratio"].is_string(), "{book}");

    // No source named and no account: the simulated market, said to be so.
    let (status, candles) = get(&base, "/api/market/klines?symbol=eth&interval=4h&limit=5").await?;
    assert_eq!(status, 200, "{candles}");
    assert_eq!(candles["interval"], "4h");
    assert_eq!(candles["candles"].as_array().map(Vec::len), Some(5));
    assert!(
        candles["source"]["label"]
            .as_str()
            .is_some_and(|l| l.contains("not a live quote")),
        "{candles}"
    );
    assert_eq!(candles["summary"]["count"], 5);

    let (status, index) = get(&base, "/api/market/book?symbol=SPX.IX").await?;
    assert_eq!(status, 422, "{index}");
    assert_eq!(index["error"]["code"], "not_covered");
    assert!(
        index["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("no order book")),
        "{index}"
    );
    let (status, odd) = get(&base, "/api/market/klines?symbol=btc&interval=1.5h").await?;
    assert_eq!(status, 422, "{odd}");
    assert_eq!(odd["error"]["problems"][0]["field"], "interval");
    let (status, deep) = get(&base, "/api/market/book?symbol=btc&depth=101").await?;
    assert_eq!(status, 422, "{deep}");
    assert_eq!(deep["error"]["problems"][0]["field"], "depth");
    let (status, unknown) = get(&base, "/api/market/book?symbol=btc&source=kraken").await?;
    assert_eq!(status, 422, "{unknown}");
    assert_eq!(unknown["error"]["problems"][0]["field"], "source");

    let (_, doc) = get(&base, "/api/openapi.json").await?;
    for (path, param) in [
        ("/api/market/book", "depth"),
        ("/api/market/klines", "interval"),
    ] {
        let params = doc["paths"][path]["get"]["parameters"].to_string();
        assert!(params.contains(param), "{path}: {params}");
        // The documented bounds are the skill's: 100 levels, every interval.
        let bound = if param == "depth" { "1–100" } else { "12h" };
        assert!(params.contains(bound), "{path}: {params}");
    }
    server.stop().await?;
    ts.cleanup().await?;
    Ok(())
}
