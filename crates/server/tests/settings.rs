//! The settings page's API over real loopback HTTP: the assistant's model chosen among the
//! model configs (each said usable or why not, the refusals naming the page that fixes them),
//! the Test buttons' probes against a mock provider (a refused key explained, never echoed),
//! the engine as the server sees it, and API tokens (none in local mode; in multi-user mode
//! made only from a logged-in page with scopes its user holds, shown once, revocable).

use nofxi_store::test_support::sqlite_store;
use nofxi_testkit::{MockLlm, Reply};
use serde_json::{Value, json};

mod support;

use support::api::Api;
use support::{TestResult, fast_engine, start_server};

const KEY: &str = "sk-settings-test-0123456789abcdef";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_assistant_model_is_chosen_among_usable_models_and_tested() -> TestResult {
    let ts = sqlite_store().await?;
    let running = start_server(ts.store.clone(), Some(fast_engine("settings"))).await?;
    let api = Api::new(&running.base).await?;
    let llm = MockLlm::start().await;
    llm.set_default(Reply::Text("OK".into()));

    let empty = api.get("/api/settings").await?;
    assert_eq!(empty["assistant_model"], Value::Null, "{empty}");
    assert_eq!(empty["engine"]["in_this_server"], true, "{empty}");
    assert_eq!(empty["engine"]["sim_speed"], 600.0, "{empty}");

    for body in [
        json!({"name": "rules", "provider": "builtin"}),
        json!({"name": "ds", "provider": "deepseek", "api_key": KEY,
               "base_url": format!("{}/v1", llm.base_url())}),
        json!({"name": "off", "provider": "deepseek", "api_key": KEY}),
    ] {
        let (status, made) = api.post("/api/models", body).await?;
        assert_eq!(status, 201, "{made}");
    }
    let (status, off) = api
        .call("PATCH", "/api/models/off", json!({"enabled": false}))
        .await?;
    assert_eq!(status, 200, "{off}");
    let listed = api.get("/api/settings").await?;
    let why = |name: &str| {
        listed["models"]
            .as_array()
            .and_then(|m| m.iter().find(|c| c["name"] == name))
            .cloned()
            .unwrap_or(Value::Null)
    };
    assert_eq!(why("ds")["usable"], true, "{listed}");
    assert_eq!(why("rules")["usable"], false, "{listed}");
    let rules_why = why("rules")["why_not"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(rules_why.contains("→ Models"), "{rules_why}");
    assert!(
        !rules_why.contains("nofxi "),
        "a page is told a CLI command: {rules_why}"
    );
    assert_eq!(why("off")["usable"], false, "{listed}");
    let off_why = why("off")["why_not"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(off_why.contains("disabled"), "{off_why}");

    // Refused by name, nothing set.
    let (status, refused) = api
        .call(
            "PUT",
            "/api/settings/assistant-model",
            json!({"model": "rules"}),
        )
        .await?;
    assert_eq!(status, 400, "{refused}");
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("rules")
    );
    assert_eq!(
        api.get("/api/settings").await?["assistant_model"],
        Value::Null
    );
    let (status, missing) = api
        .call(
            "PUT",
            "/api/settings/assistant-model",
            json!({"model": "nope"}),
        )
        .await?;
    assert_eq!(status, 404, "{missing}");

    let (status, set) = api
        .call(
            "PUT",
            "/api/settings/assistant-model",
            json!({"model": "ds"}),
        )
        .await?;
    assert_eq!(status, 200, "{set}");
    assert_eq!(set["assistant_model"]["name"], "ds", "{set}");
    assert_eq!(set["assistant_model"]["usable"], true, "{set}");

    // The Test button: one real call to the provider.
    let id = why("ds")["id"].as_str().unwrap_or_default().to_string();
    let (status, probe) = api
        .post(&format!("/api/models/{id}/test"), Value::Null)
        .await?;
    assert_eq!(status, 200, "{probe}");
    assert_eq!(probe["ok"], true, "{probe}");
    assert_eq!(probe["name"], "ds", "{probe}");
    assert!(!llm.requests().is_empty(), "the test made no call");

    // A provider that refuses the key and echoes it back: explained, the key never shown.
    llm.set_default(Reply::EchoKey { status: 401 });
    let (status, probe) = api.post("/api/models/ds/test", Value::Null).await?;
    assert_eq!(status, 200, "{probe}");
    assert_eq!(probe["ok"], false, "{probe}");
    assert_eq!(probe["code"], "config_rejected", "{probe}");
    assert!(
        !probe.to_string().contains(KEY),
        "the key is shown: {probe}"
    );
    assert!(!probe["text"].as_str().unwrap_or_default().is_empty());

    let (status, cleared) = api
        .call(
            "PUT",
            "/api/settings/assistant-model",
            json!({"model": null}),
        )
        .await?;
    assert_eq!(status, 200, "{cleared}");
    assert_eq!(cleared["assistant_model"], Value::Null, "{cleared}");
    let (status, _) = api
        .call(
            "PUT",
            "/api/settings/assistant-model",
            json!({"model": "  "}),
        )
        .await?;
    assert_eq!(status, 400);

    // An exchange row's Test: the paper account's check.
    let (status, made) = api
        .post(
            "/api/exchanges",
            json!({"exchange_type": "paper", "account_name": "paper"}),
        )
        .await?;
    assert_eq!(status, 201, "{made}");
    let (status, probe) = api.post("/api/exchanges/paper/test", Value::Null).await?;
    assert_eq!(status, 200, "{probe}");
    assert_eq!(probe["ok"], true, "{probe}");
    assert!(
        probe["text"].as_str().unwrap_or_default().contains("paper"),
        "{probe}"
    );
    let (status, _) = api.post("/api/exchanges/nope/test", Value::Null).await?;
    assert_eq!(status, 404);

    // Local mode has no logins, so no tokens.
    let tokens = api.get("/api/tokens").await?;
    assert_eq!(tokens["mode"], "local", "{tokens}");
    let (status, refused) = api
        .post(
            "/api/tokens",
            json!({"label": "script", "scopes": ["read"]}),
        )
        .await?;
    assert_eq!(status, 409, "{refused}");
    running.stop().await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokens_are_made_from_a_logged_in_page_only_and_shown_once() -> TestResult {
    let ts = sqlite_store().await?;
    ts.store
        .add_user("alice", &nofxi_domain::Secret::new("correct horse battery"))
        .await?;
    let running = start_server(ts.store.clone(), None).await?;
    let http = reqwest::Client::new();
    let login = http
        .post(format!("{}/api/login", running.base))
        .json(&json!({"user": "alice", "password": "correct horse battery"}))
        .send()
        .await?;
    let cookie = login
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .and_then(|c| c.split(';').next())
        .unwrap_or_default()
        .to_string();
    let session: Value = login.json().await?;
    let csrf = session["csrf_token"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let page = |method: reqwest::Method, path: &str| {
        http.request(method, format!("{}{path}", running.base))
            .header("cookie", &cookie)
            .header("x-csrf-token", &csrf)
    };

    let made: Value = page(reqwest::Method::POST, "/api/tokens")
        .json(&json!({"label": "script", "scopes": ["read", "trade"]}))
        .send()
        .await?
        .json()
        .await?;
    let text = made["text"].as_str().unwrap_or_default().to_string();
    assert!(text.starts_with("nofxi_"), "{made}");
    let id = made["token"]["id"].as_str().unwrap_or_default().to_string();
    let listed: Value = page(reqwest::Method::GET, "/api/tokens")
        .send()
        .await?
        .json()
        .await?;
    assert_eq!(listed["mode"], "users", "{listed}");
    assert!(
        !listed.to_string().contains(&text),
        "a list shows a token's text: {listed}"
    );
    assert_eq!(
        listed["items"][0]["scopes"],
        json!(["read", "trade"]),
        "{listed}"
    );

    // The token itself cannot make another token, nor revoke one.
    let by_token = |method: reqwest::Method, path: &str| {
        http.request(method, format!("{}{path}", running.base))
            .bearer_auth(&text)
    };
    let status = by_token(reqwest::Method::POST, "/api/tokens")
        .json(&json!({"label": "more", "scopes": ["read"]}))
        .send()
        .await?
        .status()
        .as_u16();
    assert_eq!(status, 403, "a token made a token");
    let unknown = page(reqwest::Method::POST, "/api/tokens")
        .json(&json!({"label": "x", "scopes": ["admin"]}))
        .send()
        .await?;
    assert_eq!(unknown.status().as_u16(), 400);
    let unknown: Value = unknown.json().await?;
    assert!(unknown.to_string().contains("admin"), "{unknown}");

    // Revoked from the page: the token stops working at once.
    let status = by_token(reqwest::Method::GET, "/api/settings")
        .send()
        .await?
        .status();
    assert_eq!(status.as_u16(), 200);
    let revoked: Value = page(reqwest::Method::DELETE, &format!("/api/tokens/{id}"))
        .send()
        .await?
        .json()
        .await?;
    assert!(revoked["revoked_at"].is_i64(), "{revoked}");
    let status = by_token(reqwest::Method::GET, "/api/settings")
        .send()
        .await?
        .status();
    assert_eq!(status.as_u16(), 401);
    running.stop().await?;
    Ok(())
}
