//! Changing a running trader over HTTP gets the chat's confirmation: a new model returns the
//! summary and a token first and changes nothing; only the same change with that token acts,
//! and the engine in the server then decides with the new model, its journal naming it. A move
//! to another account is refused at the first step; a rename goes ahead at once. Real loopback
//! HTTP, a real SQLite file, the engine running in the server.

use std::time::Duration;

use nofxi_store::test_support::sqlite_store;
use serde_json::{Value, json};

mod support;

use support::api::Api;
use support::{TestResult, fast_engine, start_server};

impl Api {
    /// Creates, expecting 201.
    async fn create(&self, path: &str, body: Value) -> TestResult<Value> {
        let (status, made) = self.call("POST", path, body).await?;
        assert_eq!(status, 201, "{path}: {made}");
        Ok(made)
    }

    /// A two-step call made and confirmed.
    async fn confirmed(&self, method: &str, path: &str, mut body: Value) -> TestResult<Value> {
        let (_, first) = self.call(method, path, body.clone()).await?;
        assert_eq!(first["confirm_required"], true, "{first}");
        body["confirm"] = first["token"].clone();
        let (status, done) = self.call(method, path, body).await?;
        assert_eq!(status, 200, "{done}");
        Ok(done)
    }
}

/// Waits for the journal's newest cycle to name `model`.
async fn journal_names(api: &Api, id: &str, model: &str) -> TestResult {
    for _ in 0..120 {
        let journal = api
            .get(&format!("/api/traders/{id}/journal?limit=1"))
            .await?;
        if journal["items"][0]["model"]["name"] == model {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    Err(format!("no cycle on {model} within 30 s").into())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_running_traders_new_model_waits_for_the_confirmation_then_decides() -> TestResult {
    let ts = sqlite_store().await?;
    let running = start_server(ts.store.clone(), Some(fast_engine("edit"))).await?;
    let api = Api::new(&running.base).await?;
    for name in ["rules-a", "rules-b"] {
        let body = json!({"name": name, "provider": "builtin"});
        api.create("/api/models", body).await?;
    }
    for account in ["main", "other"] {
        let body = json!({"exchange_type": "paper", "account_name": account});
        api.create("/api/exchanges", body).await?;
    }
    api.create("/api/strategies", json!({"name": "s1"})).await?;
    let body = json!({"name": "bot", "exchange": "main", "model": "rules-a", "strategy": "s1", "initial_balance": "1000"});
    let trader = api.create("/api/traders", body).await?;
    let id = trader["id"].as_str().unwrap_or_default().to_string();
    let path = format!("/api/traders/{id}");
    // A paper trader starts at once, as in the chat.
    let (status, started) = api
        .call("POST", &format!("{path}/start"), json!({}))
        .await?;
    assert_eq!((status, &started["done"]), (200, &json!(true)), "{started}");
    journal_names(&api, &id, "rules-a").await?;

    // The first call describes the change and changes nothing.
    let (status, first) = api
        .call("PATCH", &path, json!({"ai_model_id": "rules-b"}))
        .await?;
    assert_eq!((status, &first["confirm_required"]), (200, &json!(true)));
    let summary = first["summary"].as_str().unwrap_or_default();
    assert!(
        summary.contains("\"bot\"") && summary.contains("rules-b (was rules-a)"),
        "{summary}"
    );
    let rules_a = api.get("/api/models/rules-a").await?["id"].clone();
    assert_eq!(api.get(&path).await?["ai_model_id"], rules_a);
    // A made-up token, or the token with another change, acts on nothing.
    let (status, _) = api
        .call(
            "PATCH",
            &path,
            json!({"ai_model_id": "rules-b", "confirm": "1.x"}),
        )
        .await?;
    assert_eq!(status, 409);
    let other = json!({"scan_interval_minutes": 7, "confirm": first["token"]});
    assert_eq!(api.call("PATCH", &path, other).await?.0, 409);
    assert_eq!(api.get(&path).await?["ai_model_id"], rules_a);

    // The same change with its token acts; the engine's next cycle decides with it.
    let body = json!({"ai_model_id": "rules-b", "confirm": first["token"]});
    let (status, saved) = api.call("PATCH", &path, body).await?;
    assert_eq!(status, 200, "{saved}");
    let rules_b = api.get("/api/models/rules-b").await?["id"].clone();
    assert_eq!(saved["ai_model_id"], rules_b, "{saved}");
    assert!(saved.get("confirm_required").is_none(), "{saved}");
    journal_names(&api, &id, "rules-b").await?;

    // Another account is refused at once, naming the fix; a rename needs no question.
    let (status, refused) = api
        .call("PATCH", &path, json!({"exchange_id": "other"}))
        .await?;
    let message = refused["error"]["message"].as_str().unwrap_or_default();
    assert_eq!(status, 409, "{refused}");
    assert!(message.contains("stop it"), "{message}");
    let (status, renamed) = api.call("PATCH", &path, json!({"name": "bot-2"})).await?;
    assert_eq!(
        (status, &renamed["name"]),
        (200, &json!("bot-2")),
        "{renamed}"
    );
    // Stopping it is asked first too, paper as it is.
    let stopped = api
        .confirmed("POST", &format!("{path}/stop"), json!({}))
        .await?;
    assert_eq!(stopped["object"]["is_running"], false, "{stopped}");

    running.stop().await?;
    ts.cleanup().await?;
    Ok(())
}
