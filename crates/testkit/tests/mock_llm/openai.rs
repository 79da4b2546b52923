//! OpenAI chat completions: text, streamed chunks, tool calls.

use nofxi_testkit::{MockLlm, Reply};
use serde_json::{Value, json};

use crate::{data, events, post};

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
