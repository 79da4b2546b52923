#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The mock LLM over real loopback HTTP: each provider's format streaming and not, tool calls,
//! scripted failures, and what it records.

use std::time::Duration;

use eventsource_stream::Eventsource;
use futures::StreamExt;
use nofxi_testkit::{MockLlm, Reply};
use serde_json::{Value, json};

const ANTHROPIC_HEADERS: &[(&str, &str)] = &[
    ("x-api-key", "sk-ant-test"),
    ("anthropic-version", "2023-06-01"),
];

async fn post(url: &str, body: &Value, headers: &[(&str, &str)]) -> reqwest::Response {
    let mut req = reqwest::Client::new().post(url).json(body);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    req.send().await.unwrap()
}

/// (event name, data) for every server-sent event, parsed by a real SSE parser.
async fn events(resp: reqwest::Response) -> Vec<(String, String)> {
    assert_eq!(resp.status(), 200);
    let ct = resp.headers()["content-type"].to_str().unwrap().to_string();
    assert!(ct.starts_with("text/event-stream"), "{ct}");
    resp.bytes_stream()
        .eventsource()
        .map(|e| {
            let e = e.unwrap();
            (e.event, e.data)
        })
        .collect()
        .await
}

fn data(events: &[(String, String)]) -> Vec<Value> {
    events
        .iter()
        .filter(|(_, d)| d != "[DONE]")
        .map(|(_, d)| serde_json::from_str(d).unwrap())
        .collect()
}

// ---- OpenAI -------------------------------------------------------------------------------

#[tokio::test]
async fn openai_answers_text_with_estimated_usage() {
    let mock = MockLlm::start().await;
    mock.push(Reply::Text("BTC is at 97000.".into()));
    let url = format!("{}/v1/chat/completions", mock.base_url());
    let body = json!({"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "price?"}]});
    let resp = post(&url, &body, &[("authorization", "Bearer sk-test")]).await;
    assert_eq!(resp.status(), 200);
    let v: Value = resp.json().await.unwrap();
    assert_eq!(v["object"], "chat.completion");
    assert_eq!(v["model"], "gpt-4o-mini");
    assert_eq!(v["choices"][0]["message"]["role"], "assistant");
    assert_eq!(v["choices"][0]["message"]["content"], "BTC is at 97000.");
    assert_eq!(v["choices"][0]["finish_reason"], "stop");
    let u = &v["usage"];
    assert_eq!(u["completion_tokens"], 4); // 16 chars / 4
    assert!(u["prompt_tokens"].as_u64().unwrap() > 0);
    assert_eq!(
        u["total_tokens"].as_u64(),
        Some(u["prompt_tokens"].as_u64().unwrap() + 4)
    );
}

#[tokio::test]
async fn openai_streams_chinese_text_in_chunks_then_usage_then_done() {
    let mock = MockLlm::start().await;
    let text = "比特币现在的价格是九万七千美元，要我帮你下单吗？";
    mock.push(Reply::TextWithUsage {
        text: text.into(),
        prompt_tokens: 120,
        completion_tokens: 30,
    });
    let url = format!("{}/compatible-mode/v1/chat/completions", mock.base_url());
    let body = json!({"model": "qwen-plus", "stream": true, "stream_options": {"include_usage": true},
                      "messages": [{"role": "user", "content": "价格"}]});
    let evs = events(post(&url, &body, &[]).await).await;
    assert_eq!(evs.last().unwrap().1, "[DONE]");
    let chunks = data(&evs);
    assert!(
        chunks
            .iter()
            .all(|c| c["object"] == "chat.completion.chunk")
    );
    assert_eq!(chunks[0]["choices"][0]["delta"]["role"], "assistant");
    let content: String = chunks
        .iter()
        .filter_map(|c| c["choices"][0]["delta"]["content"].as_str())
        .collect();
    assert_eq!(content, text);
    let pieces = chunks
        .iter()
        .filter(|c| {
            c["choices"][0]["delta"]["content"]
                .as_str()
                .is_some_and(|s| !s.is_empty())
        })
        .count();
    assert!(pieces >= 3, "text came in {pieces} pieces");
    let finish = &chunks[chunks.len() - 2];
    assert_eq!(finish["choices"][0]["finish_reason"], "stop");
    let usage = chunks.last().unwrap();
    assert_eq!(usage["choices"], json!([]));
    assert_eq!(
        usage["usage"],
        json!({"prompt_tokens": 120, "completion_tokens": 30, "total_tokens": 150})
    );
}

#[tokio::test]
async fn openai_stream_without_include_usage_sends_no_usage_chunk() {
    let mock = MockLlm::start().await;
    mock.push(Reply::Text("ok".into()));
    let url = format!("{}/v1/chat/completions", mock.base_url());
    let evs = events(post(&url, &json!({"model": "m", "stream": true}), &[]).await).await;
    let chunks = data(&evs);
    assert!(chunks.iter().all(|c| c.get("usage").is_none()));
    assert_eq!(
        chunks.last().unwrap()["choices"][0]["finish_reason"],
        "stop"
    );
}

#[tokio::test]
async fn openai_tool_calls_carry_arguments_as_a_json_string() {
    let mock = MockLlm::start().await;
    let args = json!({"symbol": "BTCUSDT", "leverage": 5});
    mock.push(Reply::ToolCalls(vec![(
        "set_leverage".into(),
        args.clone(),
    )]));
    let url = format!("{}/v1/chat/completions", mock.base_url());
    let v: Value = post(&url, &json!({"model": "m"}), &[])
        .await
        .json()
        .await
        .unwrap();
    let choice = &v["choices"][0];
    assert_eq!(choice["finish_reason"], "tool_calls");
    assert_eq!(choice["message"]["content"], Value::Null);
    let call = &choice["message"]["tool_calls"][0];
    assert_eq!(call["type"], "function");
    assert!(call["id"].as_str().unwrap().starts_with("call_"));
    assert_eq!(call["function"]["name"], "set_leverage");
    let sent: Value =
        serde_json::from_str(call["function"]["arguments"].as_str().unwrap()).unwrap();
    assert_eq!(sent, args);
}

#[tokio::test]
async fn openai_streams_tool_calls_as_indexed_argument_fragments() {
    let mock = MockLlm::start().await;
    let a = json!({"symbol": "BTCUSDT", "side": "BUY", "quantity": "0.01"});
    let b = json!({"query": "资金费率"});
    mock.push(Reply::ToolCalls(vec![
        ("place_order".into(), a.clone()),
        ("search".into(), b.clone()),
    ]));
    let url = format!("{}/v1/chat/completions", mock.base_url());
    let chunks = data(&events(post(&url, &json!({"model": "m", "stream": true}), &[]).await).await);
    assert_eq!(chunks[0]["choices"][0]["delta"]["role"], "assistant");
    // Reassemble the way a client must: by index, name from the first fragment.
    let mut calls: Vec<(String, String, String)> = Vec::new();
    let mut fragments = 0;
    for c in &chunks {
        for tc in c["choices"][0]["delta"]["tool_calls"]
            .as_array()
            .into_iter()
            .flatten()
        {
            let i = tc["index"].as_u64().unwrap() as usize;
            if let Some(id) = tc["id"].as_str() {
                assert_eq!(i, calls.len());
                calls.push((
                    id.into(),
                    tc["function"]["name"].as_str().unwrap().into(),
                    String::new(),
                ));
            }
            calls[i]
                .2
                .push_str(tc["function"]["arguments"].as_str().unwrap());
            fragments += 1;
        }
    }
    assert!(fragments > 4);
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[0].1, "place_order");
    assert_eq!(serde_json::from_str::<Value>(&calls[0].2).unwrap(), a);
    assert_eq!(calls[1].1, "search");
    assert_eq!(serde_json::from_str::<Value>(&calls[1].2).unwrap(), b);
    assert_ne!(calls[0].0, calls[1].0);
    assert_eq!(
        chunks.last().unwrap()["choices"][0]["finish_reason"],
        "tool_calls"
    );
}

// ---- Anthropic ----------------------------------------------------------------------------

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

// ---- Gemini -------------------------------------------------------------------------------

fn gemini_body() -> Value {
    json!({"contents": [{"role": "user", "parts": [{"text": "BTC 价格?"}]}]})
}

#[tokio::test]
async fn gemini_generate_content_with_header_key() {
    let mock = MockLlm::start().await;
    mock.push(Reply::Text("About 97k.".into()));
    let url = format!(
        "{}/v1beta/models/gemini-2.5-flash:generateContent",
        mock.base_url()
    );
    let resp = post(&url, &gemini_body(), &[("x-goog-api-key", "AIza-test")]).await;
    assert_eq!(resp.status(), 200);
    let v: Value = resp.json().await.unwrap();
    let cand = &v["candidates"][0];
    assert_eq!(cand["content"]["role"], "model");
    assert_eq!(cand["content"]["parts"], json!([{"text": "About 97k."}]));
    assert_eq!(cand["finishReason"], "STOP");
    let u = &v["usageMetadata"];
    assert_eq!(u["candidatesTokenCount"], 3);
    assert_eq!(
        u["totalTokenCount"].as_u64(),
        Some(u["promptTokenCount"].as_u64().unwrap() + 3)
    );
    assert_eq!(
        mock.requests()[0].path,
        "/v1beta/models/gemini-2.5-flash:generateContent"
    );
}

#[tokio::test]
async fn gemini_streams_sse_objects_with_query_key() {
    let mock = MockLlm::start().await;
    let text = "目前比特币大约九万七千美元，以太坊大约三千五百美元。";
    mock.push(Reply::Text(text.into()));
    let url = format!(
        "{}/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse&key=AIza-q",
        mock.base_url()
    );
    let ds = data(&events(post(&url, &gemini_body(), &[]).await).await);
    assert!(ds.len() >= 3);
    let joined: String = ds
        .iter()
        .map(|d| {
            d["candidates"][0]["content"]["parts"][0]["text"]
                .as_str()
                .unwrap()
        })
        .collect();
    assert_eq!(joined, text);
    let last = ds.last().unwrap();
    assert_eq!(last["candidates"][0]["finishReason"], "STOP");
    assert!(
        last["usageMetadata"]["candidatesTokenCount"]
            .as_u64()
            .unwrap()
            > 0
    );
    assert!(
        ds[..ds.len() - 1]
            .iter()
            .all(|d| d["candidates"][0].get("finishReason").is_none())
    );
    assert_eq!(mock.requests()[0].query, "alt=sse&key=AIza-q");
}

#[tokio::test]
async fn gemini_function_calls_are_parts_with_args_objects() {
    let mock = MockLlm::start().await;
    let args = json!({"symbol": "SOLUSDT"});
    mock.push_many([
        Reply::ToolCalls(vec![("get_price".into(), args.clone())]),
        Reply::ToolCalls(vec![("get_price".into(), args.clone())]),
    ]);
    let base = format!("{}/v1beta/models/gemini-2.5-pro", mock.base_url());
    let key = [("x-goog-api-key", "k")];
    let v: Value = post(&format!("{base}:generateContent"), &gemini_body(), &key)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        v["candidates"][0]["content"]["parts"][0]["functionCall"],
        json!({"name": "get_price", "args": args})
    );
    let ds = data(
        &events(
            post(
                &format!("{base}:streamGenerateContent?alt=sse"),
                &gemini_body(),
                &key,
            )
            .await,
        )
        .await,
    );
    assert_eq!(ds.len(), 1, "a function call arrives whole");
    assert_eq!(
        ds[0]["candidates"][0]["content"]["parts"][0]["functionCall"]["args"],
        args
    );
}

#[tokio::test]
async fn gemini_without_a_key_is_403() {
    let mock = MockLlm::start().await;
    let url = format!(
        "{}/v1beta/models/gemini-2.5-flash:generateContent",
        mock.base_url()
    );
    let resp = post(&url, &gemini_body(), &[]).await;
    assert_eq!(resp.status(), 403);
    let v: Value = resp.json().await.unwrap();
    assert_eq!(v["error"]["status"], "PERMISSION_DENIED");
}

// ---- failures -----------------------------------------------------------------------------

#[tokio::test]
async fn scripted_errors_are_sent_as_given() {
    let mock = MockLlm::start().await;
    let body = r#"{"error":{"message":"Rate limit reached for gpt-4o","type":"requests","param":null,"code":"rate_limit_exceeded"}}"#;
    mock.push_many([
        Reply::Error {
            status: 429,
            body: body.into(),
        },
        Reply::Html { status: 502 },
    ]);
    let url = format!("{}/v1/chat/completions", mock.base_url());
    let resp = post(&url, &json!({"model": "m", "stream": true}), &[]).await;
    assert_eq!(resp.status(), 429);
    assert_eq!(resp.text().await.unwrap(), body);

    let resp = post(&url, &json!({"model": "m"}), &[]).await;
    assert_eq!(resp.status(), 502);
    assert!(
        resp.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
    assert!(resp.text().await.unwrap().contains("<html>"));
}

#[tokio::test]
async fn an_empty_script_answers_500_until_a_default_is_set() {
    let mock = MockLlm::start().await;
    let url = format!("{}/v1/chat/completions", mock.base_url());
    let resp = post(&url, &json!({"model": "m"}), &[]).await;
    assert_eq!(resp.status(), 500);
    let v: Value = resp.json().await.unwrap();
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("mock script exhausted")
    );

    mock.set_default(Reply::Text("default".into()));
    mock.push(Reply::Text("scripted".into()));
    for expected in ["scripted", "default", "default"] {
        let v: Value = post(&url, &json!({"model": "m"}), &[])
            .await
            .json()
            .await
            .unwrap();
        assert_eq!(v["choices"][0]["message"]["content"], expected);
    }
}

#[tokio::test]
async fn a_delay_makes_a_client_time_out() {
    let mock = MockLlm::start().await;
    mock.push_many([
        Reply::Delay {
            ms: 2_000,
            then: Box::new(Reply::Text("late".into())),
        },
        Reply::Delay {
            ms: 20,
            then: Box::new(Reply::Text("in time".into())),
        },
    ]);
    let url = format!("{}/v1/chat/completions", mock.base_url());
    let client = reqwest::Client::builder()
        .timeout(Duration::from_millis(200))
        .build()
        .unwrap();
    let err = client
        .post(&url)
        .json(&json!({"model": "m"}))
        .send()
        .await
        .unwrap_err();
    assert!(err.is_timeout(), "{err}");
    let v: Value = client
        .post(&url)
        .json(&json!({"model": "m"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(v["choices"][0]["message"]["content"], "in time");
}

#[tokio::test]
async fn close_connection_drops_without_a_response() {
    let mock = MockLlm::start().await;
    mock.push_many([Reply::CloseConnection, Reply::Text("after".into())]);
    let url = format!("{}/v1/messages", mock.base_url());
    let client = reqwest::Client::new();
    let sent = client
        .post(&url)
        .headers(anthropic_headers())
        .json(&json!({"model": "c"}))
        .send()
        .await;
    // No status line ever arrives: hyper reports the message as incomplete.
    let err = sent.map(|r| r.status()).unwrap_err();
    assert!(err.is_request() && !err.is_status(), "{err:?}");
    assert!(format!("{err:?}").contains("IncompleteMessage"), "{err:?}");
    let v: Value = post(&url, &json!({"model": "c"}), ANTHROPIC_HEADERS)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(v["content"][0]["text"], "after");
}

fn anthropic_headers() -> reqwest::header::HeaderMap {
    let mut h = reqwest::header::HeaderMap::new();
    for (k, v) in ANTHROPIC_HEADERS {
        h.insert(*k, v.parse().unwrap());
    }
    h
}

// ---- recording ----------------------------------------------------------------------------

#[tokio::test]
async fn every_request_is_recorded_in_order_with_headers_and_body() {
    let mock = MockLlm::start().await;
    mock.set_default(Reply::Text("ok".into()));
    let base = mock.base_url();
    assert!(base.starts_with("http://127.0.0.1:") && !base.ends_with('/'));
    let body = json!({"model": "deepseek-chat", "messages": [{"role": "user", "content": "帮我开多 BTC"}]});
    post(
        &format!("{base}/v1/chat/completions"),
        &body,
        &[("Authorization", "Bearer sk-1")],
    )
    .await;
    post(
        &format!("{base}/v1/messages"),
        &json!({"model": "c"}),
        ANTHROPIC_HEADERS,
    )
    .await;
    post(&format!("{base}/nowhere"), &json!({}), &[]).await; // 404, still recorded

    let reqs = mock.requests();
    let paths: Vec<&str> = reqs.iter().map(|r| r.path.as_str()).collect();
    assert_eq!(paths, ["/v1/chat/completions", "/v1/messages", "/nowhere"]);
    let first = &reqs[0];
    assert_eq!(first.header("authorization"), Some("Bearer sk-1"));
    assert_eq!(first.header("AUTHORIZATION"), Some("Bearer sk-1"));
    assert_eq!(first.header("x-api-key"), None);
    assert_eq!(first.body, body);
    assert!(first.body_text().contains("帮我开多 BTC"));
    assert!(first.body_text().contains(r#""model":"deepseek-chat""#));
    assert_eq!(reqs[1].header("anthropic-version"), Some("2023-06-01"));
}

#[tokio::test]
async fn dropping_the_mock_stops_the_server() {
    let mock = MockLlm::start().await;
    let url = format!("{}/v1/chat/completions", mock.base_url());
    drop(mock);
    tokio::time::sleep(Duration::from_millis(50)).await;
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(2))
        .build()
        .unwrap();
    assert!(client.post(&url).json(&json!({})).send().await.is_err());
}
