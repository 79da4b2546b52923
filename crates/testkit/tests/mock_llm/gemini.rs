//! Gemini generateContent and streamGenerateContent.

use nofxi_testkit::{MockLlm, Reply};
use serde_json::{Value, json};

use crate::{data, events, post};

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

#[tokio::test]
async fn gemini_stream_without_alt_sse_is_one_json_array() {
    let mock = MockLlm::start().await;
    mock.push(Reply::Text("twelve chars plus".into()));
    let url = format!(
        "{}/v1beta/models/gemini-2.5-flash:streamGenerateContent",
        mock.base_url()
    );
    let resp = post(&url, &gemini_body(), &[("x-goog-api-key", "k")]).await;
    assert!(
        resp.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/json")
    );
    let v: Value = resp.json().await.unwrap();
    let objects = v.as_array().unwrap();
    assert!(objects.len() >= 2);
    let joined: String = objects
        .iter()
        .map(|d| {
            d["candidates"][0]["content"]["parts"][0]["text"]
                .as_str()
                .unwrap()
        })
        .collect();
    assert_eq!(joined, "twelve chars plus");
    assert!(mock.requests()[0].is_stream());
}
