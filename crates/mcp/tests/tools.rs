//! nofxi's MCP server through the official Rust SDK's client (`rmcp`), over a real byte
//! stream: the tool list, a query, a risky call's two steps, a pending id that expires or
//! goes stale, an `isError` result, resources, and no secret in any result.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use nofxi_assistant::confirm_token::{CONFIRM_TTL_MS, Confirmer};
use nofxi_assistant::{Assistant, AssistantOptions};
use nofxi_mcp::call::Calls;
use nofxi_mcp::{NofxiMcp, Principal};
use nofxi_skills::{Lang, Library};
use nofxi_store::test_support::{TestStore, sqlite_store_with_clock};
use nofxi_store::{ManualClock, Scope};
use rmcp::model::{CallToolRequestParams, CallToolResult, ReadResourceRequestParams};
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Map, Value, json};

const API_KEY: &str = "AKIAZ7QLMCPTEST4821";
const SECRET_KEY: &str = "SKsecretMCP93kd02mfq7";

struct Connected {
    client: RunningService<RoleClient, ()>,
    clock: Arc<ManualClock>,
    store: TestStore,
}

/// A fresh store, nofxi's MCP server for `principal` on one end of a pipe, the SDK's client
/// on the other.
async fn connect(scopes: &[Scope]) -> Connected {
    let clock = Arc::new(ManualClock::new(1_800_000_000_000));
    let store = sqlite_store_with_clock(clock.clone()).await.unwrap();
    let library = Arc::new(Library::builtin().unwrap());
    let assistant = Assistant::open(
        store.store.clone(),
        library.clone(),
        AssistantOptions::default(),
    )
    .await
    .unwrap();
    let calls = Arc::new(Calls {
        store: store.store.clone(),
        library,
        assistant: Arc::new(assistant),
        confirmer: Arc::new(Confirmer::default()),
        lang: Lang::En,
    });
    let principal = Principal {
        user: "local".into(),
        scopes: scopes.to_vec(),
    };
    let (server_end, client_end) = tokio::io::duplex(1 << 20);
    let server = NofxiMcp::for_principal(calls, principal);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_end).await {
            let _ = running.waiting().await;
        }
    });
    let client = ().serve(client_end).await.unwrap();
    Connected {
        client,
        clock,
        store,
    }
}

fn args(value: Value) -> Map<String, Value> {
    value.as_object().cloned().unwrap_or_default()
}

impl Connected {
    async fn call(&self, tool: &str, arguments: Value) -> (CallToolResult, Value) {
        let params = CallToolRequestParams::new(tool.to_string()).with_arguments(args(arguments));
        let result = self.client.call_tool(params).await.unwrap();
        let outcome = result.structured_content.clone().unwrap();
        (result, outcome)
    }

    async fn read(&self, uri: &str) -> Result<Value, rmcp::ServiceError> {
        let read = self
            .client
            .read_resource(ReadResourceRequestParams::new(uri))
            .await?;
        let text = serde_json::to_value(&read.contents[0]).unwrap()["text"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        Ok(serde_json::from_str(&text).unwrap())
    }

    /// A paper account, the builtin model and a strategy, made through the tools.
    async fn basics(&self) {
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
                json!({"name": "bot", "exchange": "paper", "model": "builtin", "strategy": "default", "initial_balance": 1000}),
            ),
        ] {
            let (result, outcome) = self.call(tool, arguments).await;
            assert_eq!(result.is_error, Some(false), "{tool}: {outcome}");
            assert_eq!(outcome["status"], "done", "{tool}: {outcome}");
        }
    }
}

fn done(result: &CallToolResult, outcome: &Value) {
    assert_eq!(result.is_error, Some(false), "{outcome}");
    assert_eq!(outcome["status"], "done", "{outcome}");
}

#[tokio::test]
async fn every_skill_action_is_a_tool_with_its_schemas_and_hints() {
    let c = connect(&Scope::ALL).await;
    let tools = c.client.list_all_tools().await.unwrap();
    let library = Library::builtin().unwrap();
    for skill in library.skills() {
        for action in &skill.actions {
            let name = format!("{}_{}", skill.id, action.name);
            let tool = tools.iter().find(|t| t.name == name);
            let tool = tool.unwrap_or_else(|| panic!("{name} is not listed"));
            assert_eq!(
                tool.input_schema.get("type"),
                Some(&json!("object")),
                "{name}"
            );
            assert!(tool.output_schema.is_some(), "{name} has no output schema");
            let hints = tool.annotations.as_ref().unwrap();
            assert_eq!(
                hints.read_only_hint,
                Some(action.risk.is_read_only()),
                "{name}"
            );
        }
    }
    assert!(tools.iter().any(|t| t.name == "nofxi_chat"));
    let delete = tools
        .iter()
        .find(|t| t.name == "trader_management_delete")
        .unwrap();
    assert_eq!(
        delete.annotations.as_ref().unwrap().destructive_hint,
        Some(true)
    );
    assert!(delete.input_schema["properties"].get("confirm").is_some());
}

#[tokio::test]
async fn a_delete_acts_only_on_the_confirmed_second_call() {
    let c = connect(&Scope::ALL).await;
    c.basics().await;
    let (result, outcome) = c.call("trader_management_query", json!({})).await;
    done(&result, &outcome);
    assert!(
        outcome["reply"].as_str().unwrap().contains("bot"),
        "{outcome}"
    );

    let (result, first) = c
        .call("trader_management_delete", json!({"target": "bot"}))
        .await;
    assert_eq!(result.is_error, Some(false), "{first}");
    assert_eq!(first["status"], "confirmation_required", "{first}");
    let pending = first["pending_id"].as_str().unwrap().to_string();
    assert!(
        c.store.get_trader("local", "bot").await.is_ok(),
        "deleted on the first call"
    );

    // The same id for other arguments confirms nothing.
    let (result, other) = c
        .call(
            "trader_management_delete",
            json!({"target": "nobody", "confirm": pending}),
        )
        .await;
    assert_eq!(result.is_error, Some(true), "{other}");
    assert!(c.store.get_trader("local", "bot").await.is_ok());

    let (result, second) = c
        .call(
            "trader_management_delete",
            json!({"target": "bot", "confirm": pending}),
        )
        .await;
    done(&result, &second);
    assert!(
        c.store.get_trader("local", "bot").await.is_err(),
        "not deleted"
    );
}

/// A confirmation a tool call asked for is confirmed only by that tool's second call with its
/// pending id: a "yes" sent through `nofxi_chat` on the same conversation does nothing.
#[tokio::test]
async fn nofxi_chat_cannot_confirm_what_a_tool_call_asked() {
    let c = connect(&Scope::ALL).await;
    c.basics().await;
    let (_, first) = c
        .call("trader_management_delete", json!({"target": "bot"}))
        .await;
    assert_eq!(first["status"], "confirmation_required", "{first}");
    let pending = first["pending_id"].as_str().unwrap().to_string();
    let conversation = first["conversation_id"].as_str().unwrap().to_string();
    for yes in ["yes", "确认", "yes, delete it"] {
        let (_, said) = c
            .call(
                "nofxi_chat",
                json!({"message": yes, "conversation_id": conversation}),
            )
            .await;
        assert!(
            c.store.get_trader("local", "bot").await.is_ok(),
            "nofxi_chat {yes:?} deleted the trader: {said}"
        );
        assert_ne!(said["status"], "done", "{said}");
    }
    // The tool's own second call still confirms it.
    let (result, second) = c
        .call(
            "trader_management_delete",
            json!({"target": "bot", "confirm": pending}),
        )
        .await;
    done(&result, &second);
    assert!(c.store.get_trader("local", "bot").await.is_err());
}

#[tokio::test]
async fn a_pending_id_expires_after_five_minutes_and_goes_stale_when_the_object_changes() {
    let c = connect(&Scope::ALL).await;
    c.basics().await;
    let (_, first) = c
        .call("trader_management_delete", json!({"target": "bot"}))
        .await;
    let pending = first["pending_id"].as_str().unwrap().to_string();
    c.clock.advance_ms(CONFIRM_TTL_MS + 1);
    let (result, late) = c
        .call(
            "trader_management_delete",
            json!({"target": "bot", "confirm": pending}),
        )
        .await;
    assert_eq!(result.is_error, Some(true), "{late}");
    assert!(
        late["reply"].as_str().unwrap().contains("5 minutes"),
        "{late}"
    );
    assert!(c.store.get_trader("local", "bot").await.is_ok());

    let (_, first) = c
        .call("trader_management_delete", json!({"target": "bot"}))
        .await;
    let pending = first["pending_id"].as_str().unwrap().to_string();
    // An update that changes how it trades is itself confirmed in two steps.
    let change = json!({"target": "bot", "scan_interval_minutes": 15});
    let (_, asked) = c.call("trader_management_update", change.clone()).await;
    assert_eq!(asked["status"], "confirmation_required", "{asked}");
    let mut confirmed = change;
    confirmed["confirm"] = asked["pending_id"].clone();
    let (result, changed) = c.call("trader_management_update", confirmed).await;
    done(&result, &changed);
    let (result, stale) = c
        .call(
            "trader_management_delete",
            json!({"target": "bot", "confirm": pending}),
        )
        .await;
    assert_eq!(result.is_error, Some(true), "{stale}");
    assert!(
        stale["reply"].as_str().unwrap().contains("changed"),
        "{stale}"
    );
    assert!(c.store.get_trader("local", "bot").await.is_ok());
}

#[tokio::test]
async fn a_call_that_cannot_run_is_an_error_result_that_says_what_to_fix() {
    let c = connect(&Scope::ALL).await;
    let (result, bad) = c
        .call(
            "trader_management_create",
            json!({"name": "x", "colour": "red"}),
        )
        .await;
    assert_eq!(result.is_error, Some(true));
    assert!(bad["reply"].as_str().unwrap().contains("colour"), "{bad}");

    let (result, missing) = c
        .call("trader_management_start", json!({"target": "ghost"}))
        .await;
    assert_eq!(result.is_error, Some(true), "{missing}");
    assert!(
        missing["reply"].as_str().unwrap().contains("ghost"),
        "{missing}"
    );

    let (result, unknown) = c.call("no_such_tool", json!({})).await;
    assert_eq!(result.is_error, Some(true), "{unknown}");
}

#[tokio::test]
async fn a_read_only_caller_reads_and_is_refused_changes() {
    let c = connect(&[Scope::Read]).await;
    let (result, listed) = c.call("trader_management_query", json!({})).await;
    done(&result, &listed);
    let (result, refused) = c
        .call("strategy_management_create", json!({"name": "s"}))
        .await;
    assert_eq!(result.is_error, Some(true), "{refused}");
    assert!(
        refused["reply"].as_str().unwrap().contains("write"),
        "{refused}"
    );
    assert!(
        c.store
            .list_strategies("local", false)
            .await
            .unwrap()
            .is_empty()
    );
}

/// A trader's closed trades are a read tool like its journal: `trader_management_trades`
/// answers at once, with the trader's name, and says when there is none yet.
#[tokio::test]
async fn a_traders_closed_trades_are_a_read_tool() {
    let c = connect(&Scope::ALL).await;
    c.basics().await;
    let tools = c.client.list_all_tools().await.unwrap();
    let tool = tools
        .iter()
        .find(|t| t.name == "trader_management_trades")
        .unwrap();
    assert_eq!(
        tool.annotations.as_ref().unwrap().read_only_hint,
        Some(true)
    );
    let (result, outcome) = c
        .call("trader_management_trades", json!({"target": "bot"}))
        .await;
    done(&result, &outcome);
    let reply = outcome["reply"].as_str().unwrap_or_default();
    assert!(
        reply.contains("bot") && reply.contains("no trade"),
        "{outcome}"
    );
}

/// `tools/list` showed every tool to a read-only token, which then was refused all but the
/// reads: the README says scopes limit the tools. A caller is listed the tools its scopes
/// allow, by the rule a call is checked with.
#[tokio::test]
async fn a_caller_is_listed_only_the_tools_its_scopes_allow() {
    let names = |tools: &[rmcp::model::Tool]| -> Vec<String> {
        tools.iter().map(|t| t.name.to_string()).collect()
    };
    let all = connect(&Scope::ALL).await;
    let every = all.client.list_all_tools().await.unwrap();
    let reader = connect(&[Scope::Read]).await;
    let read = reader.client.list_all_tools().await.unwrap();
    assert!(!read.is_empty());
    for tool in &read {
        let hints = tool.annotations.as_ref().unwrap();
        assert_eq!(hints.read_only_hint, Some(true), "{}", tool.name);
    }
    let reads: Vec<String> = every
        .iter()
        .filter(|t| t.annotations.as_ref().unwrap().read_only_hint == Some(true))
        .map(|t| t.name.to_string())
        .collect();
    assert_eq!(names(&read), reads);
    let trader = connect(&[Scope::Read, Scope::Trade]).await;
    let traded = names(&trader.client.list_all_tools().await.unwrap());
    assert!(traded.contains(&"trader_management_start".to_string()));
    assert!(!traded.contains(&"trader_management_delete".to_string()));
    assert!(
        !traded.contains(&"nofxi_chat".to_string()),
        "a chat may write"
    );
    assert!(names(&every).contains(&"nofxi_chat".to_string()));
}

#[tokio::test]
async fn traders_their_journals_and_equity_are_resources() {
    let c = connect(&Scope::ALL).await;
    c.basics().await;
    let listed = c.read("nofxi://traders").await.unwrap();
    assert_eq!(listed[0]["name"], "bot", "{listed}");
    let trader = c.read("nofxi://traders/bot").await.unwrap();
    assert_eq!(trader["name"], "bot", "{trader}");
    let journal = c.read("nofxi://traders/bot/journal").await.unwrap();
    assert_eq!(journal["cycles"], json!([]), "{journal}");
    let equity = c.read("nofxi://traders/bot/equity").await.unwrap();
    assert_eq!(equity["points"], json!([]), "{equity}");
    assert!(c.read("nofxi://traders/ghost").await.is_err());
    assert!(c.read("nofxi://elsewhere").await.is_err());
    let all = c.client.list_all_resources().await.unwrap();
    assert!(all.iter().any(|r| r.uri.ends_with("/journal")));
}

/// The credentials given to a tool appear in no result afterwards, not even in an error about
/// them, nor in a trace; they were really stored (the test cannot pass by ignoring them).
#[tokio::test]
async fn credentials_given_to_a_tool_appear_in_no_result_or_trace() {
    let c = connect(&Scope::ALL).await;
    let mut seen = Vec::new();
    for (tool, arguments) in [
        (
            "exchange_management_create",
            json!({"exchange_type": "binance", "account_name": "main", "api_key": API_KEY, "secret_key": SECRET_KEY}),
        ),
        ("exchange_management_query", json!({"target": "main"})),
        (
            "exchange_management_create",
            json!({"exchange_type": "binance", "account_name": 7, "api_key": API_KEY}),
        ),
        (
            "exchange_management_update",
            json!({"target": "main", "api_key": API_KEY, "secret": SECRET_KEY}),
        ),
        (
            "nofxi_chat",
            json!({"message": format!("what is my api key {API_KEY}?")}),
        ),
    ] {
        let (result, outcome) = c.call(tool, arguments).await;
        seen.push(serde_json::to_string(&result).unwrap());
        seen.push(outcome.to_string());
    }
    let stored = c.store.get_exchange("local", "main").await.unwrap();
    assert!(
        stored.credentials.contains_key("api_key"),
        "the key was not stored"
    );
    for trace in c.store.list_traces("local", None, 100).await.unwrap() {
        seen.push(serde_json::to_string(&trace.record).unwrap());
        seen.push(trace.message.clone());
    }
    for text in seen {
        for secret in [API_KEY, SECRET_KEY, &API_KEY[4..15], &SECRET_KEY[4..15]] {
            assert!(!text.contains(secret), "{secret} shows in {text}");
        }
    }
}

/// The market-data skill's order book and candles are listed once nofxi runs them, with the
/// skill's own schemas, and a call answers with the book from the caller's market (here the
/// paper account's simulated one, labelled so); the skill's refusals come back as errors.
#[tokio::test]
async fn the_order_book_and_candles_are_tools_that_run() {
    let c = connect(&[Scope::Read, Scope::Write]).await;
    let tools = c.client.list_all_tools().await.unwrap();
    let library = Library::builtin().unwrap();
    for name in ["get_realtime_price", "get_order_book", "get_kline"] {
        let tool = tools.iter().find(|t| t.name == name);
        let tool = tool.unwrap_or_else(|| panic!("{name} is not listed"));
        let (_, function) = library.function(name).unwrap();
        assert_eq!(
            Value::Object(tool.input_schema.as_ref().clone())["properties"],
            function.parameters["properties"],
            "{name}"
        );
        assert_eq!(
            tool.annotations.as_ref().unwrap().read_only_hint,
            Some(true),
            "{name}"
        );
    }
    c.call(
        "exchange_management_create",
        json!({"exchange_type": "paper", "account_name": "paper"}),
    )
    .await;

    let (result, book) = c
        .call("get_order_book", json!({"symbol": "BTCUSDT", "depth": 3}))
        .await;
    done(&result, &book);
    let reply = book["reply"].as_str().unwrap();
    assert!(
        reply.contains("BTCUSDT order book on paper's simulated market")
            && reply.contains("top 3 levels")
            && reply.contains("pressure ratio"),
        "{reply}"
    );
    let (result, candles) = c
        .call(
            "get_kline",
            json!({"symbol": "ETHUSDT", "interval": "4h", "limit": 5}),
        )
        .await;
    done(&result, &candles);
    assert!(
        candles["reply"]
            .as_str()
            .unwrap()
            .contains("ETHUSDT 4h candles"),
        "{candles}"
    );

    let (result, index) = c.call("get_order_book", json!({"symbol": "SPX.IX"})).await;
    assert_eq!(result.is_error, Some(true), "{index}");
    assert!(
        index["reply"].as_str().unwrap().contains("no order book"),
        "{index}"
    );
    let (result, odd) = c
        .call(
            "get_kline",
            json!({"symbol": "BTCUSDT", "interval": "1.5h"}),
        )
        .await;
    assert_eq!(result.is_error, Some(true), "{odd}");
    assert!(odd["reply"].as_str().unwrap().contains("1.5h"), "{odd}");
}
