//! Anthropic messages: the message object, the named event stream, the header checks.

use nofxi_testkit::{MockLlm, Reply};
use serde_json::{Value, json};

use crate::{ANTHROPIC_HEADERS, data, events, post};

#[tokio::test]
async fn anthropic_answers_a_message_with_scripted_usage() {
    let mock = MockLlm::start().await;
    mock.push(Reply::TextWithUsage {
        text: "Done.".into(),
        prompt_tokens: 50,
        completion_tokens: 2,
    });
    let url = format!("{}/v1/messages", mock.base_url());
    let body = json!({"model": "claude-sonnet-4-5", "max_tokens": 1024, "messages": [{"role": "user", "content": "hi"}]});
    let v: Value = post(&url, &body, ANTHROPIC_HEADERS)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(v["type"], "message");
    assert_eq!(v["role"], "assistant");
    assert_eq!(v["model"], "claude-sonnet-4-5");
    assert_eq!(v["content"], json!([{"type": "text", "text": "Done."}]));
    assert_eq!(v["stop_reason"], "end_turn");
    assert_eq!(v["usage"], json!({"input_tokens": 50, "output_tokens": 2}));
}

#[tokio::test]
async fn anthropic_tool_use_message() {
    let mock = MockLlm::start().await;
    let args = json!({"trader": "alpha"});
    mock.push(Reply::ToolCalls(vec![("stop_trader".into(), args.clone())]));
    let url = format!("{}/v1/messages", mock.base_url());
    let v: Value = post(
        &url,
        &json!({"model": "c", "max_tokens": 10}),
        ANTHROPIC_HEADERS,
    )
    .await
    .json()
    .await
    .unwrap();
    assert_eq!(v["stop_reason"], "tool_use");
    let block = &v["content"][0];
    assert_eq!(block["type"], "tool_use");
    assert!(block["id"].as_str().unwrap().starts_with("toolu_"));
    assert_eq!(block["name"], "stop_trader");
    assert_eq!(block["input"], args);
}

#[tokio::test]
async fn anthropic_streams_its_named_event_sequence() {
    let mock = MockLlm::start().await;
    let text = "好的，我来帮你查看账户余额。";
    mock.push(Reply::Text(text.into()));
    let url = format!("{}/v1/messages", mock.base_url());
    let evs = events(
        post(
            &url,
            &json!({"model": "c", "max_tokens": 10, "stream": true}),
            ANTHROPIC_HEADERS,
        )
        .await,
    )
    .await;
    let names: Vec<&str> = evs.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        &names[..3],
        ["message_start", "content_block_start", "ping"]
    );
    assert_eq!(
        &names[names.len() - 3..],
        ["content_block_stop", "message_delta", "message_stop"]
    );
    let ds = data(&evs);
    // Every data object names its own type, as Anthropic's do.
    for ((name, _), d) in evs.iter().zip(&ds) {
        assert_eq!(d["type"], name.as_str());
    }
    assert!(ds[0]["message"]["usage"]["input_tokens"].as_u64().unwrap() > 0);
    let deltas: Vec<&str> = ds
        .iter()
        .filter(|d| d["type"] == "content_block_delta")
        .map(|d| {
            assert_eq!(d["delta"]["type"], "text_delta");
            d["delta"]["text"].as_str().unwrap()
        })
        .collect();
    assert!(deltas.len() >= 2);
    assert_eq!(deltas.concat(), text);
    let delta = &ds[ds.len() - 2];
    assert_eq!(delta["delta"]["stop_reason"], "end_turn");
    assert_eq!(delta["usage"]["output_tokens"], 4); // 14 chars / 4, rounded up
}

#[tokio::test]
async fn anthropic_streams_tool_input_as_partial_json() {
    let mock = MockLlm::start().await;
    let args = json!({"symbol": "ETHUSDT", "interval": "15m", "limit": 100});
    mock.push(Reply::ToolCalls(vec![("get_klines".into(), args.clone())]));
    let url = format!("{}/v1/messages", mock.base_url());
    let ds = data(
        &events(
            post(
                &url,
                &json!({"model": "c", "max_tokens": 10, "stream": true}),
                ANTHROPIC_HEADERS,
            )
            .await,
        )
        .await,
    );
    let start = ds
        .iter()
        .find(|d| d["type"] == "content_block_start")
        .unwrap();
    assert_eq!(start["content_block"]["type"], "tool_use");
    assert_eq!(start["content_block"]["name"], "get_klines");
    assert_eq!(start["content_block"]["input"], json!({}));
    let json_text: String = ds
        .iter()
        .filter(|d| d["type"] == "content_block_delta")
        .map(|d| {
            assert_eq!(d["delta"]["type"], "input_json_delta");
            d["delta"]["partial_json"].as_str().unwrap().to_string()
        })
        .collect();
    assert_eq!(serde_json::from_str::<Value>(&json_text).unwrap(), args);
    let delta = ds.iter().find(|d| d["type"] == "message_delta").unwrap();
    assert_eq!(delta["delta"]["stop_reason"], "tool_use");
}

#[tokio::test]
async fn anthropic_without_a_key_is_401_and_keeps_the_script() {
    let mock = MockLlm::start().await;
    mock.push(Reply::Text("still here".into()));
    let url = format!("{}/v1/messages", mock.base_url());
    let resp = post(
        &url,
        &json!({"model": "c"}),
        &[("anthropic-version", "2023-06-01")],
    )
    .await;
    assert_eq!(resp.status(), 401);
    let v: Value = resp.json().await.unwrap();
    assert_eq!(v["type"], "error");
    assert_eq!(v["error"]["type"], "authentication_error");

    let resp = post(&url, &json!({"model": "c"}), &[("x-api-key", "k")]).await;
    assert_eq!(resp.status(), 400, "anthropic-version is required too");

    let v: Value = post(&url, &json!({"model": "c"}), ANTHROPIC_HEADERS)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(v["content"][0]["text"], "still here");
    assert_eq!(mock.requests().len(), 3);
}
