//! A paper account's market source over HTTP: exchange objects carry `market`, create and
//! update take it for a paper account, and a bad one is refused under the field's name with
//! the choices, changing nothing. The dashboard card of a paper trader says it too. Real
//! loopback HTTP, a real SQLite file and PostgreSQL.

use nofxi_store::test_support::{TestStore, postgres_store, sqlite_store};
use serde_json::{Value, json};

mod support;

use support::api::Api;
use support::{TestResult, start_server};

/// The fields a 422 names, and its message.
fn refused(status: u16, body: &Value) -> (Vec<String>, String) {
    assert_eq!(status, 422, "{body}");
    let fields = body["error"]["problems"]
        .as_array()
        .map(|p| {
            p.iter()
                .filter_map(|p| p["field"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    (
        fields,
        body["error"]["message"].as_str().unwrap_or("").into(),
    )
}

async fn scenario(ts: TestStore) -> TestResult {
    let running = start_server(ts.store.clone(), None).await?;
    let api = Api::new(&running.base).await?;

    // The form's choices come from the server: a paper account's sources, none for others.
    let types = api.get("/api/exchange-types").await?;
    let markets_of = |id: &str| {
        types["items"]
            .as_array()
            .and_then(|items| items.iter().find(|t| t["id"] == id))
            .map(|t| t["markets"].clone())
            .unwrap_or(Value::Null)
    };
    assert_eq!(
        markets_of("paper"),
        json!([
            "simulated",
            "binance",
            "okx",
            "bybit",
            "hyperliquid",
            "bitget"
        ])
    );
    assert_eq!(markets_of("binance"), json!([]));

    // Created on Binance's prices, and said so wherever the account is read.
    let (status, made) = api
        .call(
            "POST",
            "/api/exchanges",
            json!({"exchange_type": "paper", "account_name": "live-paper", "market": "binance"}),
        )
        .await?;
    assert_eq!(status, 201, "{made}");
    assert_eq!(made["market"], "binance");
    let (_, plain) = api
        .call(
            "POST",
            "/api/exchanges",
            json!({"exchange_type": "paper", "account_name": "sim"}),
        )
        .await?;
    assert_eq!(plain["market"], "simulated", "{plain}");
    let listed = api.get("/api/exchanges").await?;
    let market_in_list = |name: &str| {
        listed["items"]
            .as_array()
            .and_then(|items| items.iter().find(|e| e["account_name"] == name))
            .map(|e| e["market"].clone())
    };
    assert_eq!(market_in_list("live-paper"), Some(json!("binance")));
    assert_eq!(
        api.get("/api/exchanges/live-paper").await?["market"],
        "binance"
    );

    // A source that is none of them, and a live account with another venue's prices: refused
    // under `market`, with the choices, and nothing is created.
    let (status, bad) = api
        .call(
            "POST",
            "/api/exchanges",
            json!({"exchange_type": "paper", "account_name": "k", "market": "kraken"}),
        )
        .await?;
    let (fields, message) = refused(status, &bad);
    assert_eq!(fields, ["market"], "{bad}");
    assert!(
        message.contains("simulated, binance, okx, bybit, hyperliquid, bitget"),
        "{message}"
    );
    let body = json!({"exchange_type": "binance", "account_name": "b", "market": "okx",
                      "api_key": "k1234567890abcdef", "secret_key": "s1234567890abcdef"});
    let (status, bad) = api.call("POST", "/api/exchanges", body).await?;
    let (fields, message) = refused(status, &bad);
    assert_eq!(fields, ["market"], "{bad}");
    assert!(message.contains("only a paper account"), "{message}");
    assert_eq!(
        api.get("/api/exchanges").await?["items"]
            .as_array()
            .map(Vec::len),
        Some(2)
    );

    // Moved to OKX's prices; a bad move changes nothing, not even the fields beside it.
    let (status, moved) = api
        .call("PATCH", "/api/exchanges/sim", json!({"market": "okx"}))
        .await?;
    assert_eq!((status, &moved["market"]), (200, &json!("okx")), "{moved}");
    let (status, bad) = api
        .call(
            "PATCH",
            "/api/exchanges/sim",
            json!({"market": "kraken", "enabled": false}),
        )
        .await?;
    assert_eq!(refused(status, &bad).0, ["market"]);
    let body = json!({"exchange_type": "binance", "market": "bybit",
                      "api_key": "k1234567890abcdef", "secret_key": "s1234567890abcdef"});
    let (status, bad) = api.call("PATCH", "/api/exchanges/sim", body).await?;
    assert_eq!(refused(status, &bad).0, ["market"], "{bad}");
    let kept = api.get("/api/exchanges/sim").await?;
    assert_eq!(
        (&kept["market"], &kept["exchange_type"], &kept["enabled"]),
        (&json!("okx"), &json!("paper"), &json!(true)),
        "{kept}"
    );
    let (status, renamed) = api
        .call(
            "PATCH",
            "/api/exchanges/sim",
            json!({"account_name": "okx-paper", "market": "simulated"}),
        )
        .await?;
    assert_eq!(status, 200, "{renamed}");
    assert_eq!(
        (&renamed["account_name"], &renamed["market"]),
        (&json!("okx-paper"), &json!("simulated"))
    );

    // A paper trader's dashboard card names its account's source; nothing ran, no cycle.
    api.call(
        "POST",
        "/api/models",
        json!({"name": "m", "provider": "builtin"}),
    )
    .await?;
    api.call("POST", "/api/strategies", json!({"name": "s"}))
        .await?;
    let body = json!({"name": "bot", "exchange": "live-paper", "model": "m", "strategy": "s",
                      "initial_balance": "1000"});
    let (status, made) = api.call("POST", "/api/traders", body).await?;
    assert_eq!(status, 201, "{made}");
    let dashboard = api.get("/api/dashboard").await?;
    assert_eq!(dashboard["traders"][0]["market"], "binance", "{dashboard}");
    running.stop().await
}

#[tokio::test]
async fn exchange_market_on_sqlite() -> TestResult {
    scenario(sqlite_store().await?).await
}

#[tokio::test]
async fn exchange_market_on_postgres() -> TestResult {
    scenario(postgres_store().await?).await
}
