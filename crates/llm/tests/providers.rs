#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Each wire format against the mock LLM: what goes out (path, auth headers, body shape) and
//! what comes back (text, tool calls, usage, latency), whole and streamed.

mod common;

use common::*;
use nofxi_domain::WireFormat;
use nofxi_testkit::{MockLlm, Reply};
use serde_json::json;

#[tokio::test]
async fn openai_request_shape_and_text_answer() {
    let mock = MockLlm::start().await;
    mock.push(Reply::Text("BTC is at 97,000 USDT.".into()));
    let mut req = tool_request();
    req.json_output = true;
    req.max_tokens = Some(200);
    let c = provider(&mock, WireFormat::OpenAi)
        .complete(&req)
        .await
        .unwrap();
    assert_eq!(c.text, "BTC is at 97,000 USDT.");
    assert!(c.tool_calls.is_empty());
    assert!(!c.model.is_empty());

    let sent = &mock.requests()[0];
    assert_eq!(sent.path, "/v1/chat/completions");
    assert_eq!(
        sent.header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
    assert_eq!(sent.body["model"], "test-model");
    assert_eq!(sent.body["messages"][0]["role"], "system");
    assert_eq!(sent.body["messages"][1]["content"], "BTC 现在多少钱？");
    assert_eq!(sent.body["tools"][0]["type"], "function");
    assert_eq!(sent.body["tools"][0]["function"]["name"], "create_trader");
    assert_eq!(sent.body["response_format"], json!({"type": "json_object"}));
    assert_eq!(sent.body["max_tokens"], 200);
    assert!(!sent.is_stream());
}

#[tokio::test]
async fn anthropic_request_shape_and_text_answer() {
    let mock = MockLlm::start().await;
    mock.push(Reply::Text("BTC is at 97,000 USDT.".into()));
    let c = provider(&mock, WireFormat::Anthropic)
        .complete(&tool_request())
        .await
        .unwrap();
    assert_eq!(c.text, "BTC is at 97,000 USDT.");

    let sent = &mock.requests()[0];
    assert_eq!(sent.path, "/v1/messages");
    assert_eq!(sent.header("x-api-key"), Some(KEY));
    assert_eq!(sent.header("anthropic-version"), Some("2023-06-01"));
    assert_eq!(sent.header("authorization"), None);
    assert_eq!(sent.body["system"], "You are nofxi's assistant.");
    assert_eq!(sent.body["max_tokens"], 1024);
    assert_eq!(
        sent.body["messages"],
        json!([{"role": "user", "content": "BTC 现在多少钱？"}])
    );
    assert_eq!(sent.body["tools"][0]["name"], "create_trader");
    assert!(sent.body["tools"][0]["input_schema"].is_object());
}

#[tokio::test]
async fn gemini_request_shape_and_text_answer() {
    let mock = MockLlm::start().await;
    mock.push(Reply::Text("BTC is at 97,000 USDT.".into()));
    let mut req = request();
    req.json_output = true;
    let c = provider(&mock, WireFormat::Gemini)
        .complete(&req)
        .await
        .unwrap();
    assert_eq!(c.text, "BTC is at 97,000 USDT.");

    let sent = &mock.requests()[0];
    assert_eq!(sent.path, "/v1beta/models/test-model:generateContent");
    assert_eq!(sent.header("x-goog-api-key"), Some(KEY));
    assert!(
        !sent.query.contains("key="),
        "key must not travel in the URL"
    );
    assert_eq!(
        sent.body["systemInstruction"],
        json!({"parts": [{"text": "You are nofxi's assistant."}]})
    );
    assert_eq!(sent.body["contents"][0]["role"], "user");
    assert_eq!(
        sent.body["generationConfig"]["responseMimeType"],
        "application/json"
    );

    mock.push(Reply::Text("ok".into()));
    provider(&mock, WireFormat::Gemini)
        .complete(&tool_request())
        .await
        .unwrap();
    let sent = &mock.requests()[1];
    let decl = &sent.body["tools"][0]["functionDeclarations"][0];
    assert_eq!(decl["name"], "create_trader");
    assert!(decl["parameters"].get("additionalProperties").is_none());
}

#[tokio::test]
async fn tool_calls_come_back_as_objects_in_every_format() {
    for wire in WIRES {
        let mock = MockLlm::start().await;
        mock.push(Reply::ToolCalls(vec![
            (
                "create_trader".into(),
                json!({"name": "btc-bot", "scan_interval_minutes": 5}),
            ),
            ("start_trader".into(), json!({"name": "btc-bot"})),
        ]));
        let c = provider(&mock, wire)
            .complete(&tool_request())
            .await
            .unwrap();
        assert_eq!(c.tool_calls.len(), 2, "{wire:?}");
        assert_eq!(c.tool_calls[0].name, "create_trader");
        assert_eq!(
            c.tool_calls[0].arguments,
            json!({"name": "btc-bot", "scan_interval_minutes": 5}),
            "{wire:?}"
        );
        assert_eq!(c.tool_calls[1].arguments, json!({"name": "btc-bot"}));
        assert!(!c.tool_calls[0].id.is_empty());
        assert_ne!(c.tool_calls[0].id, c.tool_calls[1].id, "{wire:?}");
    }
}

#[tokio::test]
async fn streamed_text_arrives_in_pieces_and_adds_up() {
    let text = "比特币现在是 97,000 USDT，以太坊是 3,400 USDT。Anything else?";
    for wire in WIRES {
        let mock = MockLlm::start().await;
        mock.push(Reply::Text(text.into()));
        let deltas = Deltas::default();
        let c = provider(&mock, wire)
            .stream(&request(), &|d| deltas.push(d))
            .await
            .unwrap();
        assert_eq!(c.text, text, "{wire:?}");
        assert_eq!(deltas.text(), text, "{wire:?}");
        assert!(deltas.texts() > 1, "{wire:?}: expected several pieces");
        let sent = &mock.requests()[0];
        assert!(sent.is_stream(), "{wire:?}");
        if wire == WireFormat::OpenAi {
            assert_eq!(sent.body["stream_options"], json!({"include_usage": true}));
        }
        if wire == WireFormat::Gemini {
            assert_eq!(sent.path, "/v1beta/models/test-model:streamGenerateContent");
            assert_eq!(sent.query, "alt=sse");
        }
    }
}

#[tokio::test]
async fn streamed_tool_calls_are_handed_on_whole() {
    for wire in WIRES {
        let mock = MockLlm::start().await;
        let args =
            json!({"name": "一个很长的交易员名字 btc-momentum-bot", "scan_interval_minutes": 15});
        mock.push(Reply::ToolCalls(vec![
            ("create_trader".into(), args.clone()),
            ("start_trader".into(), json!({})),
        ]));
        let deltas = Deltas::default();
        let c = provider(&mock, wire)
            .stream(&tool_request(), &|d| deltas.push(d))
            .await
            .unwrap();
        assert_eq!(c.tool_calls.len(), 2, "{wire:?}");
        assert_eq!(c.tool_calls[0].arguments, args, "{wire:?}");
        assert_eq!(c.tool_calls[1].arguments, json!({}), "{wire:?}");
        assert_eq!(deltas.tool_calls(), c.tool_calls, "{wire:?}");
    }
}

#[tokio::test]
async fn reported_usage_is_used_whole_and_streamed() {
    for wire in WIRES {
        for stream in [false, true] {
            let mock = MockLlm::start().await;
            mock.push(Reply::TextWithUsage {
                text: "done".into(),
                prompt_tokens: 1234,
                completion_tokens: 56,
            });
            let p = provider(&mock, wire);
            let c = if stream {
                p.stream(&request(), &|_| {}).await.unwrap()
            } else {
                p.complete(&request()).await.unwrap()
            };
            assert_eq!(c.usage.prompt_tokens, 1234, "{wire:?} stream={stream}");
            assert_eq!(c.usage.completion_tokens, 56, "{wire:?} stream={stream}");
            assert!(!c.usage.estimated, "{wire:?} stream={stream}");
        }
    }
}

#[tokio::test]
async fn latency_is_measured_on_every_completion() {
    for wire in WIRES {
        let mock = MockLlm::start().await;
        mock.push(Reply::Delay {
            ms: 60,
            then: Box::new(Reply::Text("slow".into())),
        });
        mock.push(Reply::Delay {
            ms: 60,
            then: Box::new(Reply::Text("slow".into())),
        });
        let p = provider(&mock, wire);
        let c = p.complete(&request()).await.unwrap();
        assert!(c.latency_ms >= 60, "{wire:?}: {}", c.latency_ms);
        let c = p.stream(&request(), &|_| {}).await.unwrap();
        assert!(c.latency_ms >= 60, "{wire:?}: {}", c.latency_ms);
    }
}

#[tokio::test]
async fn a_url_ending_in_hash_is_used_as_is() {
    let mock = MockLlm::start().await;
    mock.push(Reply::Text("ok".into()));
    let mut e = endpoint(&mock, WireFormat::OpenAi);
    e.base_url = format!("{}/gateway/chat/completions#", mock.base_url());
    nofxi_llm::connect(e)
        .unwrap()
        .complete(&request())
        .await
        .unwrap();
    assert_eq!(mock.requests()[0].path, "/gateway/chat/completions");
}
