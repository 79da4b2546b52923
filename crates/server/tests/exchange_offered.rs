//! Nothing offered that cannot trade, over HTTP: the exchange types list says which types a
//! new account may have, a create of another (Gate, KuCoin, Aster, Lighter) is refused under
//! `exchange_type` naming the types that trade, and nothing is made; an account of one that an
//! earlier nofxi made still lists, reads, renames and deletes. Real loopback HTTP, a real
//! SQLite file and PostgreSQL.

use nofxi_domain::{Actor, Channel, CredentialField, Credentials, ExchangeSpec};
use nofxi_store::test_support::{
    TestStore, insert_exchange_made_earlier, postgres_store, sqlite_store,
};
use serde_json::{Value, json};

mod support;

use support::{TestResult, start_server};

const KEY: &str = "AKIAKEYMATERIAL7f3e9c1d2b";
const SECRET: &str = "SECRETMATERIAL9a8b7c6d5e4f3";

async fn call(
    client: &reqwest::Client,
    base: &str,
    token: &str,
    (method, path, body): (&str, &str, Value),
) -> TestResult<(u16, Value)> {
    let resp = client
        .request(
            reqwest::Method::from_bytes(method.as_bytes())?,
            format!("{base}{path}"),
        )
        .header("X-CSRF-Token", token)
        .json(&body)
        .send()
        .await?;
    let status = resp.status().as_u16();
    Ok((status, resp.json().await.unwrap_or(Value::Null)))
}

async fn scenario(ts: TestStore) -> TestResult {
    let running = start_server(ts.store.clone(), None).await?;
    let client = reqwest::Client::new();
    let base = running.base.clone();
    let session: Value = client
        .get(format!("{base}/api/session"))
        .send()
        .await?
        .json()
        .await?;
    let token = session["csrf_token"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let api = async |method: &str, path: &str, body: Value| {
        call(&client, &base, &token, (method, path, body)).await
    };

    let (_, types) = api("GET", "/api/exchange-types", Value::Null).await?;
    let offered: Vec<&str> = types["items"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|t| t["offered"] == true)
        .filter_map(|t| t["id"].as_str())
        .collect();
    assert_eq!(
        offered,
        ["paper", "binance", "bybit", "okx", "bitget", "hyperliquid"],
        "{types}"
    );

    for kind in ["gate", "kucoin", "aster", "lighter"] {
        let body = json!({"exchange_type": kind, "account_name": "x",
                          "api_key": KEY, "secret_key": SECRET});
        let (status, refused) = api("POST", "/api/exchanges", body).await?;
        assert_eq!(status, 422, "{refused}");
        let fields: Vec<&str> = refused["error"]["problems"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|p| p["field"].as_str())
            .collect();
        assert_eq!(fields, ["exchange_type"], "{refused}");
        let message = refused["error"]["message"].as_str().unwrap_or_default();
        assert!(
            message.contains(&format!("cannot trade on {kind}")),
            "{message}"
        );
        assert!(!refused.to_string().contains(SECRET), "{refused}");
    }
    let (_, listed) = api("GET", "/api/exchanges", Value::Null).await?;
    assert_eq!(listed["items"], json!([]), "{listed}");

    // One an earlier nofxi made: listed, read, renamed and deleted like any other.
    let spec = ExchangeSpec {
        exchange_type: "kucoin".into(),
        account_name: "ku".into(),
        enabled: true,
        testnet: false,
    };
    let keys = Credentials::new()
        .with(CredentialField::ApiKey, KEY)
        .with(CredentialField::SecretKey, SECRET)
        .with(CredentialField::Passphrase, "pass-phrase-42");
    let actor = Actor::new("local", Channel::Cli, true);
    insert_exchange_made_earlier(&ts, &actor, spec, keys).await?;
    let (status, read) = api("GET", "/api/exchanges/ku", Value::Null).await?;
    assert_eq!(
        (status, &read["exchange_type"]),
        (200, &json!("kucoin")),
        "{read}"
    );
    let (status, renamed) = api(
        "PATCH",
        "/api/exchanges/ku",
        json!({"account_name": "ku-old"}),
    )
    .await?;
    assert_eq!(status, 200, "{renamed}");
    let (_, asked) = api("DELETE", "/api/exchanges/ku-old", json!({})).await?;
    let token = asked["token"].as_str().unwrap_or_default().to_string();
    let body = json!({ "confirm": token });
    let (status, gone) = api("DELETE", "/api/exchanges/ku-old", body).await?;
    assert_eq!((status, &gone["done"]), (200, &json!(true)), "{gone}");
    let (_, listed) = api("GET", "/api/exchanges", Value::Null).await?;
    assert_eq!(listed["items"], json!([]), "{listed}");
    running.stop().await
}

#[tokio::test]
async fn exchange_types_offered_on_sqlite() -> TestResult {
    scenario(sqlite_store().await?).await
}

#[tokio::test]
async fn exchange_types_offered_on_postgres() -> TestResult {
    scenario(postgres_store().await?).await
}
