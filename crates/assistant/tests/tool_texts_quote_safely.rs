#![allow(clippy::unwrap_used, clippy::expect_used)]
//! What a user said (or an MCP client sent) in a tool's arguments, repeated by the tool's
//! reply (issue 47, item 10): a currency, an account, a day, a stock, a coin or a trader left
//! out went into the catalog message raw, so an OSC sequence retitled the terminal of
//! whoever read the reply and a 10 KB value came back whole. Each is shown by
//! `shown_input`: hidden characters as escapes, a long value cut with `…`, in both languages.

use std::sync::Arc;

use nofxi_assistant::tools::{ToolCall, ToolError, ToolRunner};
use nofxi_domain::Channel;
use nofxi_domain::validation::hidden_character;
use nofxi_portfolio::domain::{Account, Portfolio};
use nofxi_skills::Lang;
use nofxi_store::test_support::sqlite_store;
use serde_json::{Map, Value, json};

fn hostile() -> String {
    format!(
        "\u{1b}]0;pwned\u{7}\u{1b}[2J\u{200b}\u{202e}{}",
        "x".repeat(10 * 1024)
    )
}

fn assert_shown_safely(what: &str, said: &str) {
    let head: String = said.chars().take(300).collect();
    assert!(
        !said.chars().any(|c| c != '\n' && hidden_character(c)),
        "{what}: raw hidden character in {head:?}"
    );
    assert!(said.len() < 2000, "{what}: {} bytes: {head:?}", said.len());
    assert!(said.contains('…'), "{what}: {head}");
}

fn args(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        other => panic!("not an object: {other}"),
    }
}

async fn call(
    runner: &ToolRunner,
    tool: &str,
    scope: &str,
    lang: Lang,
    args: Map<String, Value>,
) -> Result<String, ToolError> {
    let scopes = [scope.to_string()];
    runner
        .call(ToolCall {
            tool,
            args,
            user: "default",
            channel: Channel::Mcp,
            lang,
            scopes: &scopes,
            needs_confirmation: false,
            confirmed: None,
        })
        .await
        .map(|out| out.text.unwrap_or_default())
}

#[tokio::test]
async fn portfolio_and_market_replies_quote_what_was_said_escaped_and_cut() {
    let ts = sqlite_store().await.unwrap();
    let actor = nofxi_domain::Actor::new("default", Channel::Cli, true);
    let mut mine = Portfolio::new("mine", "CNY".parse().unwrap());
    mine.accounts.push(Account {
        name: "huatai".into(),
        broker: "华泰".into(),
        currency: "CNY".parse().unwrap(),
    });
    ts.create_portfolio(&actor, &mine).await.unwrap();
    let runner = ToolRunner {
        store: Arc::clone(&ts.store),
    };
    let h = hostile();
    let trade = |extra: Value| {
        let mut a = args(json!({"side": "buy", "stock": "600519", "quantity": 100, "price": 1500}));
        a.extend(args(extra));
        a
    };
    for lang in [Lang::En, Lang::Zh] {
        let refused = [
            ("currency", trade(json!({"currency": h}))),
            ("account", trade(json!({"account": h}))),
            ("day", trade(json!({"day": h}))),
            ("stock", trade(json!({"stock": h}))),
            ("quantity", trade(json!({"quantity": h}))),
        ];
        for (what, a) in refused {
            let err = call(&runner, "portfolio.record", "portfolio:write", lang, a)
                .await
                .expect_err(what);
            assert_shown_safely(what, &err.message);
        }
        let err = call(
            &runner,
            "portfolio.show",
            "portfolio:read",
            lang,
            args(json!({"stock": h})),
        )
        .await
        .expect_err("show");
        assert_eq!(err.code, "unknown_stock", "{}", err.message);
        assert_shown_safely("show", &err.message);
        let reply = call(
            &runner,
            "market.price",
            "market:read",
            lang,
            args(json!({"symbol": h})),
        )
        .await
        .unwrap();
        assert_shown_safely("market.price", &reply);
        let err = runner
            .precheck(
                "trader.stop_all",
                &args(json!({"except": [h]})),
                "default",
                Channel::Mcp,
                lang,
            )
            .await
            .expect_err("stop_all");
        assert_eq!(err.code, "unknown_except", "{}", err.message);
        assert_shown_safely("stop_all except", &err.message);
    }
}
