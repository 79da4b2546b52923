//! What the web app's strategy form is built from, over real loopback HTTP on a real SQLite
//! store: `GET /api/strategy-defaults` gives the config a new strategy gets, the twelve
//! intervals and each bounded field's range, and those ranges are the ones a create enforces
//! (a value at the bound is taken, one past it is refused under that field); `GET
//! /api/symbols` reads a coin as the strategies' parser does, in the asker's language.

use nofxi_domain::{Interval, StrategyConfig};
use nofxi_store::test_support::sqlite_store;
use reqwest::Method;
use rust_decimal::Decimal;
use serde_json::{Value, json};

mod support;

use support::{TestResult, start_server};

struct Api {
    http: reqwest::Client,
    base: String,
    csrf: String,
}

impl Api {
    async fn call(
        &self,
        method: Method,
        path: &str,
        body: Option<Value>,
    ) -> TestResult<(u16, Value)> {
        let mut req = self
            .http
            .request(method, format!("{}{path}", self.base))
            .header("X-CSRF-Token", &self.csrf);
        if let Some(body) = body {
            req = req.json(&body);
        }
        let resp = req.send().await?;
        Ok((
            resp.status().as_u16(),
            resp.json().await.unwrap_or(Value::Null),
        ))
    }

    async fn get(&self, path: &str) -> TestResult<Value> {
        let (status, body) = self.call(Method::GET, path, None).await?;
        if status != 200 {
            return Err(format!("GET {path}: {status} {body}").into());
        }
        Ok(body)
    }
}

/// `bound` one step past its max: a whole number one more, a decimal one hundredth more.
fn past(bound: &Value) -> TestResult<Value> {
    let max: Decimal = bound["max"].as_str().unwrap_or_default().parse()?;
    Ok(if bound["whole"] == json!(true) {
        json!(u64::try_from(max + Decimal::ONE)?)
    } else {
        json!((max + Decimal::new(1, 2)).to_string())
    })
}

fn at_max(bound: &Value) -> TestResult<Value> {
    let max = bound["max"].as_str().unwrap_or_default();
    Ok(if bound["whole"] == json!(true) {
        json!(max.parse::<u64>()?)
    } else {
        json!(max)
    })
}

#[tokio::test]
async fn the_form_s_tables_are_the_server_s_rules() -> TestResult {
    let ts = sqlite_store().await?;
    let running = start_server(ts.store.clone(), None).await?;
    let http = reqwest::Client::new();
    let session: Value = http
        .get(format!("{}/api/session", running.base))
        .send()
        .await?
        .json()
        .await?;
    let api = Api {
        http,
        base: running.base.clone(),
        csrf: session["csrf_token"].as_str().unwrap_or_default().into(),
    };

    let form = api.get("/api/strategy-defaults").await?;
    assert_eq!(
        form["config"],
        serde_json::to_value(StrategyConfig::default())?
    );
    assert_eq!(form["intervals"], json!(Interval::NAMES));
    assert_eq!(form["max_selected_timeframes"], json!(4));
    assert_eq!(form["prompt_section_max"], json!(8000));
    let lev = &form["bounds"]["risk_control.btc_eth_max_leverage"];
    assert_eq!(lev, &json!({"min": "1", "max": "20", "whole": true}));

    // A strategy made without a config holds exactly these defaults.
    let (status, made) = api
        .call(
            Method::POST,
            "/api/strategies",
            Some(json!({"name": "plain"})),
        )
        .await?;
    assert_eq!(status, 201, "{made}");
    assert_eq!(made["config"], form["config"]);

    // Every range offered is the one a create enforces, under the field the form shows it at.
    let bounds = form["bounds"].as_object().cloned().unwrap_or_default();
    assert_eq!(bounds.len(), 10, "{bounds:?}");
    for (i, (path, bound)) in bounds.iter().enumerate() {
        let pointer = format!("/{}", path.replace('.', "/"));
        let mut config = form["config"].clone();
        let Some(slot) = config.pointer_mut(&pointer) else {
            return Err(format!("{path} is not a field of the default config").into());
        };
        *slot = past(bound)?;
        let body = json!({"name": format!("past-{i}"), "config": config});
        let (status, refused) = api
            .call(Method::POST, "/api/strategies", Some(body))
            .await?;
        assert_eq!(status, 422, "{path} past its max was taken: {refused}");
        let fields: Vec<&str> = refused["error"]["problems"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|p| p["field"].as_str())
            .collect();
        assert_eq!(fields, vec![path.as_str()], "{refused}");

        if let Some(slot) = config.pointer_mut(&pointer) {
            *slot = at_max(bound)?;
        }
        let body = json!({"name": format!("at-{i}"), "config": config});
        let (status, taken) = api
            .call(Method::POST, "/api/strategies", Some(body))
            .await?;
        assert_eq!(status, 201, "{path} at its max was refused: {taken}");
    }

    // Coins as people type them, read by the strategies' own parser.
    for (typed, symbol) in [
        ("btc", "BTCUSDT"),
        ("%E4%BB%A5%E5%A4%AA%E5%9D%8A", "ETHUSDT"),
        ("ETH-USDT-SWAP", "ETHUSDT"),
        ("BTCUSDT.P", "BTCUSDT"),
    ] {
        let read = api.get(&format!("/api/symbols?q={typed}")).await?;
        assert_eq!(read["symbol"], json!(symbol), "{typed}: {read}");
        assert_eq!(read["candidates"][0]["symbol"], json!(symbol), "{read}");
        assert!(read.get("refused").is_none_or(Value::is_null), "{read}");
    }
    let typing = api.get("/api/symbols?q=s").await?;
    let offered: Vec<&str> = typing["candidates"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["symbol"].as_str())
        .collect();
    assert!(offered.contains(&"SOLUSDT"), "{typing}");
    assert_eq!(typing["symbol"], Value::Null);
    let all = api.get("/api/symbols").await?;
    assert!(
        all["candidates"].as_array().is_some_and(|c| c.len() > 10),
        "{all}"
    );

    let zh: Value = api
        .http
        .get(format!("{}/api/symbols?q=dogee", running.base))
        .header("Accept-Language", "zh-CN")
        .send()
        .await?
        .json()
        .await?;
    assert_eq!(zh["symbol"], Value::Null);
    assert_eq!(zh["candidates"][0]["symbol"], json!("DOGEUSDT"), "{zh}");
    let said = zh["refused"].as_str().unwrap_or_default();
    assert!(
        said.contains("dogee") && said.contains("是不是 DOGE"),
        "{said}"
    );
    let other = api.get("/api/symbols?q=BTC-USD-SWAP").await?;
    assert!(
        other["refused"]
            .as_str()
            .is_some_and(|r| r.contains("USDT perpetual")),
        "{other}"
    );

    let doc = api.get("/api/openapi.json").await?;
    for path in ["/api/strategy-defaults", "/api/symbols"] {
        assert!(doc["paths"][path]["get"].is_object(), "{path} missing");
    }

    running.stop().await?;
    ts.cleanup().await?;
    Ok(())
}
