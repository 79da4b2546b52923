//! `/mcp` over streamable HTTP with the official Rust SDK's client: API tokens only, each
//! token reaching only its own user's objects and only the tools its scopes allow; a paper
//! trader created, started, its journal read, and its delete refused until the confirmed call.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use nofxi_domain::Secret;
use nofxi_store::Scope;
use nofxi_store::test_support::{TestStore, postgres_store, sqlite_store};
use rmcp::model::{CallToolRequestParams, CallToolResult, ReadResourceRequestParams};
use rmcp::service::RunningService;
use rmcp::transport::streamable_http_client::{
    StreamableHttpClientTransport, StreamableHttpClientTransportConfig,
};
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};

mod support;

use support::{TestResult, fast_engine, start_server};

type Client = RunningService<RoleClient, ()>;

async fn connect(base: &str, token: &str) -> TestResult<Client> {
    let mut config = StreamableHttpClientTransportConfig::with_uri(format!("{base}/mcp"));
    if !token.is_empty() {
        config = config.auth_header(token.to_string());
    }
    let transport = StreamableHttpClientTransport::with_client(reqwest::Client::new(), config);
    Ok(().serve(transport).await?)
}

async fn call(client: &Client, tool: &str, arguments: Value) -> (CallToolResult, Value) {
    let arguments = arguments.as_object().cloned().unwrap_or_default();
    let params = CallToolRequestParams::new(tool.to_string()).with_arguments(arguments);
    let result = client.call_tool(params).await.unwrap();
    let outcome = result.structured_content.clone().unwrap_or(Value::Null);
    (result, outcome)
}

async fn read(client: &Client, uri: &str) -> Result<Value, rmcp::ServiceError> {
    let read = client
        .read_resource(ReadResourceRequestParams::new(uri))
        .await?;
    let content = serde_json::to_value(&read.contents[0]).unwrap();
    Ok(serde_json::from_str(content["text"].as_str().unwrap_or("null")).unwrap())
}

fn done(result: &CallToolResult, outcome: &Value) {
    assert_eq!(result.is_error, Some(false), "{outcome}");
    assert_eq!(outcome["status"], "done", "{outcome}");
}

async fn scenario(ts: TestStore) -> TestResult {
    let store = ts.store.clone();
    for user in ["alice", "bob"] {
        store
            .add_user(user, &Secret::new("a long enough password"))
            .await?;
    }
    let alice = store
        .create_token("alice", "agent", &Scope::ALL)
        .await?
        .text;
    let bob = store.create_token("bob", "agent", &Scope::ALL).await?.text;
    let reader = store
        .create_token("bob", "reader", &[Scope::Read])
        .await?
        .text;
    let server = start_server(store.clone(), Some(fast_engine("mcp-http"))).await?;
    let base = server.base.clone();

    // No token, or a wrong one: refused before MCP, with what to do.
    let http = reqwest::Client::new();
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
    let anonymous = http.post(format!("{base}/mcp")).json(&body).send().await?;
    assert_eq!(anonymous.status(), 401);
    assert!(anonymous.text().await?.contains("nofxi token create"));
    let wrong = http
        .post(format!("{base}/mcp"))
        .bearer_auth("nofxi_not-a-token")
        .json(&body)
        .send()
        .await?;
    assert_eq!(wrong.status(), 401);

    let a = connect(&base, alice.as_str()).await?;
    for (tool, arguments) in [
        (
            "exchange_management_create",
            json!({"exchange_type": "paper", "account_name": "paper"}),
        ),
        (
            "model_management_create",
            json!({"provider": "builtin", "name": "builtin"}),
        ),
        ("strategy_management_create", json!({"name": "default"})),
        (
            "trader_management_create",
            json!({"name": "alice-bot", "exchange": "paper", "model": "builtin", "strategy": "default", "initial_balance": 1000}),
        ),
        ("trader_management_start", json!({"target": "alice-bot"})),
    ] {
        let (result, outcome) = call(&a, tool, arguments).await;
        done(&result, &outcome);
    }
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut journal = read(&a, "nofxi://traders/alice-bot/journal").await?;
    while journal["cycles"].as_array().is_none_or(Vec::is_empty) && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(200)).await;
        journal = read(&a, "nofxi://traders/alice-bot/journal").await?;
    }
    assert!(
        !journal["cycles"].as_array().unwrap().is_empty(),
        "{journal}"
    );

    // Bob's token sees none of it and can change none of it.
    let b = connect(&base, bob.as_str()).await?;
    assert!(read(&b, "nofxi://traders/alice-bot").await.is_err());
    assert_eq!(read(&b, "nofxi://traders").await?, json!([]));
    let (result, outcome) =
        call(&b, "trader_management_stop", json!({"target": "alice-bot"})).await;
    assert_eq!(result.is_error, Some(true), "{outcome}");
    assert!(store.get_trader("alice", "alice-bot").await?.is_running);
    let r = connect(&base, reader.as_str()).await?;
    let (result, outcome) = call(&r, "strategy_management_create", json!({"name": "s"})).await;
    assert_eq!(result.is_error, Some(true), "{outcome}");
    // A read-only token is listed the read-only tools only.
    let listed = r.list_all_tools().await?;
    assert!(listed.iter().any(|t| t.name == "trader_management_query"));
    for tool in &listed {
        let read_only = tool.annotations.as_ref().and_then(|a| a.read_only_hint);
        assert_eq!(read_only, Some(true), "{} listed to a reader", tool.name);
    }
    assert!(
        a.list_all_tools()
            .await?
            .iter()
            .any(|t| t.name == "nofxi_chat")
    );

    // Alice's delete: only asked on the first call, done on the confirmed second.
    // Stopping a running trader is confirmed too (paper included).
    let (_, asked) = call(&a, "trader_management_stop", json!({"target": "alice-bot"})).await;
    assert_eq!(asked["status"], "confirmation_required", "{asked}");
    let confirmed = json!({"target": "alice-bot", "confirm": asked["pending_id"]});
    let (result, outcome) = call(&a, "trader_management_stop", confirmed).await;
    done(&result, &outcome);
    let (result, first) = call(
        &a,
        "trader_management_delete",
        json!({"target": "alice-bot"}),
    )
    .await;
    assert_eq!(result.is_error, Some(false), "{first}");
    assert_eq!(first["status"], "confirmation_required", "{first}");
    assert!(store.get_trader("alice", "alice-bot").await.is_ok());
    // Bob cannot use Alice's pending id.
    let stolen = json!({"target": "alice-bot", "confirm": first["pending_id"]});
    let (result, outcome) = call(&b, "trader_management_delete", stolen.clone()).await;
    assert_eq!(result.is_error, Some(true), "{outcome}");
    assert!(store.get_trader("alice", "alice-bot").await.is_ok());
    let (result, second) = call(&a, "trader_management_delete", stolen).await;
    done(&result, &second);
    assert!(store.get_trader("alice", "alice-bot").await.is_err());

    for client in [a, b, r] {
        client.cancel().await?;
    }
    server.stop().await?;
    ts.cleanup().await?;
    Ok(())
}

/// With no users the server is `local`'s, on loopback: an agent needs no token, and a request
/// from a web page (it carries an `Origin`) is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_local_mode_an_agent_on_loopback_is_local_and_a_web_page_is_refused() -> TestResult {
    let ts = sqlite_store().await?;
    let server = start_server(ts.store.clone(), None).await?;
    let client = connect(&server.base, "").await?;
    let (result, outcome) = call(&client, "strategy_management_create", json!({"name": "s"})).await;
    done(&result, &outcome);
    assert!(ts.store.get_strategy("local", "s").await.is_ok());
    let from_page = reqwest::Client::new()
        .post(format!("{}/mcp", server.base))
        .header("origin", "https://evil.example")
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}))
        .send()
        .await?;
    assert_eq!(from_page.status(), 403);
    client.cancel().await?;
    server.stop().await?;
    ts.cleanup().await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_over_http_on_sqlite() -> TestResult {
    scenario(sqlite_store().await?).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_over_http_on_postgres() -> TestResult {
    scenario(postgres_store().await?).await
}
