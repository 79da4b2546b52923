//! The HTTP API over real loopback HTTP against a real store (a SQLite file, and the local
//! PostgreSQL), with the engine running in the server: resources with the CLI's validation,
//! chat turns over SSE with replay and confirmation buttons, two-step starts, the dashboard
//! filling as cycles run, the OpenAPI document, metrics, and a graceful stop.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use eventsource_stream::Eventsource;
use futures::StreamExt;
use nofxi_server::{ServeOptions, serve};
use nofxi_skills::Library;
use nofxi_store::Store;
use nofxi_store::test_support::{TestStore, postgres_store, sqlite_store};
use serde_json::{Value, json};

mod support;

use support::{Running, TestResult, fast_engine, start_server};

struct Server {
    base: String,
    token: String,
    client: reqwest::Client,
    running: Running,
}

async fn start(store: Arc<Store>, engine: bool) -> Result<Server, Box<dyn std::error::Error>> {
    let running = start_server(store, engine.then(|| fast_engine("test"))).await?;
    let base = running.base.clone();
    let client = reqwest::Client::new();
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
    Ok(Server {
        base,
        token,
        client,
        running,
    })
}

impl Server {
    async fn call(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<Value>,
    ) -> Result<(u16, Value), reqwest::Error> {
        let mut req = self
            .client
            .request(method, format!("{}{path}", self.base))
            .header("X-CSRF-Token", &self.token);
        if let Some(body) = body {
            req = req.json(&body);
        }
        let resp = req.send().await?;
        let status = resp.status().as_u16();
        let value = resp.json::<Value>().await.unwrap_or(Value::Null);
        Ok((status, value))
    }

    async fn get(&self, path: &str) -> Result<(u16, Value), reqwest::Error> {
        self.call(reqwest::Method::GET, path, None).await
    }

    async fn post(&self, path: &str, body: Value) -> Result<(u16, Value), reqwest::Error> {
        self.call(reqwest::Method::POST, path, Some(body)).await
    }

    /// SSE events of a conversation after `after`, until one of `until` kind arrives.
    async fn events_until(
        &self,
        conversation: &str,
        last_event_id: Option<&str>,
        until: &str,
    ) -> Result<Vec<(String, String, Value)>, Box<dyn std::error::Error>> {
        let mut req = self.client.get(format!(
            "{}/api/chat/conversations/{conversation}/events",
            self.base
        ));
        if let Some(id) = last_event_id {
            req = req.header("Last-Event-ID", id);
        }
        let mut stream = req.send().await?.bytes_stream().eventsource();
        let mut out = Vec::new();
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        while let Ok(Some(event)) = tokio::time::timeout_at(deadline, stream.next()).await {
            let event = event?;
            let data: Value = serde_json::from_str(&event.data).unwrap_or(Value::Null);
            let kind = event.event.clone();
            out.push((event.id, kind.clone(), data));
            if kind == until {
                return Ok(out);
            }
        }
        Err(format!("no {until:?} event within 20 s; got {out:?}").into())
    }

    async fn stop(self) -> TestResult {
        self.running.stop().await
    }
}

/// A turn's final response, posted and followed over SSE.
async fn say(
    server: &Server,
    conversation: Option<&str>,
    message: &str,
    seen: Option<&str>,
) -> Result<Value, Box<dyn std::error::Error>> {
    let (status, accepted) = server
        .post(
            "/api/chat/turns",
            json!({"conversation_id": conversation, "message": message, "seen_confirmation": seen}),
        )
        .await?;
    assert_eq!(status, 202, "{accepted}");
    let conv = accepted["conversation_id"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let turn = accepted["turn_id"].clone();
    let events = server.events_until(&conv, None, "turn").await?;
    // Replay from the start may hold earlier turns: find this one's end.
    let mut events = events;
    loop {
        if let Some((_, _, data)) = events
            .iter()
            .rev()
            .find(|(_, k, d)| k == "turn" && d["turn_id"] == turn)
        {
            return Ok(data["response"].clone());
        }
        let last = events.last().map(|(id, _, _)| id.clone());
        events = server.events_until(&conv, last.as_deref(), "turn").await?;
    }
}

fn binding(response: &Value) -> Option<String> {
    response["events"].as_array()?.iter().rev().find_map(|e| {
        (e["type"] == "confirmation_requested")
            .then(|| e["binding"].as_str().unwrap_or_default().to_string())
    })
}

async fn scenario(ts: TestStore) -> TestResult {
    let server = start(ts.store.clone(), true).await?;

    // Every change needs the CSRF token; a foreign Host is refused.
    let no_token = server
        .client
        .post(format!("{}/api/models", server.base))
        .json(&json!({"name": "x", "provider": "builtin"}))
        .send()
        .await?;
    assert_eq!(no_token.status().as_u16(), 403);
    let foreign = server
        .client
        .get(format!("{}/api/traders", server.base))
        .header("Host", "evil.example")
        .send()
        .await?;
    assert_eq!(foreign.status().as_u16(), 403);

    // Resources, with the CLI's validation named per field, in the reader's language.
    assert_eq!(
        server
            .post(
                "/api/models",
                json!({"name": "builtin", "provider": "builtin"})
            )
            .await?
            .0,
        201
    );
    assert_eq!(
        server
            .post(
                "/api/exchanges",
                json!({"exchange_type": "paper", "account_name": "main"})
            )
            .await?
            .0,
        201
    );
    assert_eq!(
        server
            .post("/api/strategies", json!({"name": "s1"}))
            .await?
            .0,
        201
    );
    let (status, clamped) = server
        .post(
            "/api/traders",
            json!({"name": "fast", "exchange": "main", "model": "builtin", "strategy": "s1", "initial_balance": "100", "scan_interval_minutes": 1}),
        )
        .await?;
    assert_eq!(status, 201, "{clamped}");
    assert_eq!(
        clamped["adjusted"][0]["field"], "scan_interval_minutes",
        "{clamped}"
    );
    // A delete takes two steps: the first only describes it.
    let (_, step) = server
        .call(reqwest::Method::DELETE, "/api/traders/fast", None)
        .await?;
    assert_eq!(step["confirm_required"], true, "{step}");
    assert_eq!(server.get("/api/traders/fast").await?.0, 200);
    let (status, gone) = server
        .call(
            reqwest::Method::DELETE,
            "/api/traders/fast",
            Some(json!({"confirm": step["token"]})),
        )
        .await?;
    assert_eq!((status, gone["done"].clone()), (200, json!(true)), "{gone}");
    assert_eq!(server.get("/api/traders/fast").await?.0, 404);
    let (status, bad) = server
        .post("/api/traders", json!({"name": "x", "exchange": "main", "model": "builtin", "strategy": "nope", "initial_balance": "-5"}))
        .await?;
    assert_eq!(status, 422, "{bad}");
    let fields: Vec<&str> = bad["error"]["problems"]
        .as_array()
        .map(|p| p.iter().filter_map(|p| p["field"].as_str()).collect())
        .unwrap_or_default();
    assert!(
        fields.contains(&"initial_balance") && fields.contains(&"strategy_id"),
        "{bad}"
    );
    let (_, secret) = server
        .post("/api/exchanges", json!({"exchange_type": "binance", "account_name": "live", "api_key": "AKIAsecretvalue1234567890", "secret_key": "SECRETsecretvalue1234567890"}))
        .await?;
    assert!(
        !secret.to_string().contains("secretvalue1234567890"),
        "{secret}"
    );
    let (_, listed) = server.get("/api/exchanges").await?;
    assert!(
        !listed.to_string().contains("secretvalue1234567890"),
        "{listed}"
    );

    // A trader created by chat; a Confirm button with a stale binding does nothing.
    let mut response = say(
        &server,
        None,
        "create a trader named btc-bot on main with builtin, balance 1000",
        None,
    )
    .await?;
    let conv = response["conversation_id"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    // The assistant asks which strategy when none is active: the user names it.
    let asked_strategy = response["events"].as_array().is_some_and(|events| {
        events
            .iter()
            .any(|e| e["type"] == "asked" && e["slots"].to_string().contains("strategy"))
    });
    if asked_strategy {
        response = say(&server, Some(&conv), "s1", None).await?;
    }
    if let Some(b) = binding(&response) {
        let (stale, _) = server
            .post(
                "/api/chat/confirm",
                json!({"conversation_id": conv, "binding": "not-it", "answer": "yes"}),
            )
            .await?;
        assert_eq!(stale, 409);
        let (status, _) = server
            .post(
                "/api/chat/confirm",
                json!({"conversation_id": conv, "binding": b, "answer": "yes", "lang": "en"}),
            )
            .await?;
        assert_eq!(status, 202);
        response = server
            .events_until(&conv, None, "turn")
            .await?
            .last()
            .map(|e| e.2["response"].clone())
            .unwrap_or_default();
    }
    let (status, trader) = server.get("/api/traders/btc-bot").await?;
    assert_eq!(status, 200, "the chat did not create btc-bot: {response}");

    // Re-attaching replays only what came after the id it gives.
    let all = server.events_until(&conv, None, "turn").await?;
    let first_id = all.first().map(|e| e.0.clone()).unwrap_or_default();
    let rest = server.events_until(&conv, Some(&first_id), "turn").await?;
    assert!(
        rest.iter()
            .all(|e| e.0.parse::<i64>().unwrap_or(0) > first_id.parse::<i64>().unwrap_or(0))
    );
    // Another user's stream is not there.
    let (status, _) = server
        .get("/api/chat/conversations/no-such-conversation/events")
        .await?;
    assert_eq!(status, 404);

    // A paper trader starts at once, as in the chat; stopping it is asked first, and a token
    // for a trader that changed since is stale.
    let id = trader["id"].as_str().unwrap_or_default().to_string();
    let (status, started) = server
        .post(&format!("/api/traders/{id}/start"), json!({}))
        .await?;
    assert_eq!(status, 200, "{started}");
    assert_eq!(started["done"], true, "{started}");
    assert_eq!(started["object"]["is_running"], true);
    let (_, first) = server
        .post(&format!("/api/traders/{id}/stop"), json!({}))
        .await?;
    assert_eq!(first["confirm_required"], true, "{first}");
    assert!(
        first["summary"]
            .as_str()
            .unwrap_or_default()
            .contains("btc-bot")
    );
    let token = first["token"].as_str().unwrap_or_default().to_string();
    let (status, _) = server
        .call(
            reqwest::Method::PATCH,
            &format!("/api/traders/{id}"),
            Some(json!({"name": "btc-bot"})),
        )
        .await?;
    assert_eq!(status, 200);
    let (stale, _) = server
        .post(
            &format!("/api/traders/{id}/stop"),
            json!({"confirm": token}),
        )
        .await?;
    assert_eq!(stale, 409);
    let (_, still) = server.get(&format!("/api/traders/{id}")).await?;
    assert_eq!(
        still["is_running"], true,
        "a stale token stopped it: {still}"
    );

    // The engine in the server trades it: the dashboard gets an equity curve.
    let mut curve_len = 0;
    for _ in 0..60 {
        let (_, dash) = server.get("/api/dashboard").await?;
        curve_len = dash["traders"][0]["equity_curve"]
            .as_array()
            .map_or(0, Vec::len);
        if curve_len > 0 {
            assert!(dash["traders"][0]["last_decision"].is_object(), "{dash}");
            break;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    assert!(curve_len > 0, "no cycle journaled within 30 s");
    let (_, journal) = server
        .get(&format!("/api/traders/{id}/journal?limit=5"))
        .await?;
    assert!(
        journal["items"]
            .as_array()
            .is_some_and(|items| !items.is_empty())
    );

    // Deleting what a trader uses is refused at the first step, before any confirmation.
    let (status, refused) = server
        .call(reqwest::Method::DELETE, "/api/strategies/s1", None)
        .await?;
    assert_eq!(status, 409, "{refused}");

    // The document describes every route it serves, and every reference resolves.
    let (_, doc) = server.get("/api/openapi.json").await?;
    assert_eq!(doc["openapi"], "3.1.0");
    for path in [
        "/api/traders/{id}/start",
        "/api/chat/turns",
        "/api/dashboard",
        "/api/backtests/{id}",
    ] {
        assert!(doc["paths"][path].is_object(), "{path} missing");
    }
    let text = doc.to_string();
    for piece in text.split("\"$ref\":\"#/components/schemas/").skip(1) {
        let name = piece.split('"').next().unwrap_or_default();
        assert!(
            doc["components"]["schemas"][name].is_object(),
            "dangling $ref {name}"
        );
    }
    let metrics = server
        .client
        .get(format!("{}/metrics", server.base))
        .send()
        .await?
        .text()
        .await?;
    assert!(metrics.contains("nofxi_chat_turns_total"), "{metrics}");
    assert!(metrics.contains("nofxi_traders_running 1"), "{metrics}");

    let store = ts.store.clone();
    server.stop().await?;
    // A graceful stop gives the trader's lease back at once.
    assert!(store.live_lease_owners().await?.is_empty());
    ts.cleanup().await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn api_on_sqlite() -> TestResult {
    scenario(sqlite_store().await?).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn api_on_postgres() -> TestResult {
    scenario(postgres_store().await?).await
}

/// Two server processes on one PostgreSQL: a stream opened on one receives a turn posted on
/// the other as it happens (LISTEN/NOTIFY wakes it, well before the idle recheck).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_follows_a_turn_posted_on_another_server() -> TestResult {
    let ts = postgres_store().await?;
    let a = start(ts.store.clone(), false).await?;
    let url = match ts.store.database() {
        nofxi_store::Database::Postgres(url) => url.clone(),
        other => return Err(format!("not postgres: {other:?}").into()),
    };
    let key =
        nofxi_store::KeySpec::Text(nofxi_store::test_support::TEST_KEY_HEX.to_string().into());
    let other = Arc::new(
        Store::open_with(nofxi_store::StoreConfig {
            database: nofxi_store::Database::Postgres(url),
            key,
        })
        .await?,
    );
    let b = start(other, false).await?;
    let first = say(&a, None, "list my traders", None).await?;
    let conv = first["conversation_id"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let seen = b.events_until(&conv, None, "turn").await?;
    let last = seen.last().map(|e| e.0.clone());
    let follower = {
        let b_client = b.client.clone();
        let url = format!("{}/api/chat/conversations/{conv}/events", b.base);
        tokio::spawn(async move {
            let mut req = b_client.get(url);
            if let Some(id) = last {
                req = req.header("Last-Event-ID", id);
            }
            let started = tokio::time::Instant::now();
            let mut stream = req.send().await.ok()?.bytes_stream().eventsource();
            while let Some(Ok(event)) = stream.next().await {
                if event.event == "turn" {
                    return Some(started.elapsed());
                }
            }
            None
        })
    };
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (status, _) = a
        .post(
            "/api/chat/turns",
            json!({"conversation_id": conv, "message": "list my models"}),
        )
        .await?;
    assert_eq!(status, 202);
    let took = tokio::time::timeout(Duration::from_secs(20), follower).await??;
    let took = took.ok_or("the stream on the other server ended without the turn")?;
    assert!(
        took < Duration::from_secs(10),
        "woken only by the idle recheck: {took:?}"
    );
    a.stop().await?;
    b.stop().await?;
    ts.cleanup().await?;
    Ok(())
}

/// With no users, the server never listens where others can reach it: the refusal says how
/// to reach it from elsewhere instead.
#[tokio::test]
async fn a_non_loopback_address_is_refused_with_the_fix() -> TestResult {
    let ts = sqlite_store().await?;
    let options = ServeOptions {
        addr: SocketAddr::from(([0, 0, 0, 0], 0)),
        engine: None,
        web_dir: None,
        proxy: Default::default(),
        history_dir: None,
    };
    let library = Arc::new(Library::builtin()?);
    let result = serve(ts.store.clone(), library, options, async {}, |_, _| {}).await;
    let message = result.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(
        message.contains("127.0.0.1")
            && message.contains("ssh -L")
            && message.contains("nofxi user add"),
        "{message}"
    );
    ts.cleanup().await?;
    Ok(())
}
