//! `nofxi mcp` over stdio, line by line, with the real binary: every line that is not JSON
//! gets exactly one JSON-RPC parse error (-32700, `id: null`), as JSON-RPC 2.0 requires, and
//! valid messages around them are still answered.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;

use serde_json::{Value, json};
use support::{home, nofxi};

/// Lines a careless or hostile client sends; none is one JSON value.
fn unparseable() -> Vec<Vec<u8>> {
    let mut lines: Vec<Vec<u8>> = [
        r#"{"jsonrpc":"2.0","id":7,"method":"tools/list""#,
        "hello",
        "NaN",
        "Infinity",
        r#"{"jsonrpc":"2.0","id":8,"method":"ping"}}"#,
        r#"{"jsonrpc":"2.0","id":9,"method":"ping"} trailing"#,
        "{'jsonrpc':'2.0'}",
        "}",
        "[1,2,",
        "\"unterminated",
        "tru",
    ]
    .iter()
    .map(|l| l.as_bytes().to_vec())
    .collect();
    // Random bytes (no newline among them), invalid UTF-8 included.
    lines.push((0u8..=255).filter(|b| *b != b'\n').rev().collect());
    lines.push(vec![0xff, 0xfe, 0x00, 0x01, b'{']);
    // Nesting deeper than any parser's recursion limit.
    lines.push(format!("{}{}", "[".repeat(5000), "]".repeat(5000)).into_bytes());
    lines
}

#[test]
fn every_unparseable_line_gets_one_parse_error_and_valid_messages_still_work() {
    let (_guard, home) = home();
    let mut child = nofxi(&home, &["mcp", "--no-engine"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut send = |line: &[u8]| {
        stdin.write_all(line).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    };
    let mut replies = Vec::new();
    let mut read_until_id = |id: i64, replies: &mut Vec<Value>| loop {
        let mut line = String::new();
        assert!(
            stdout.read_line(&mut line).unwrap() > 0,
            "stdout closed before the reply to {id}; got {replies:?}"
        );
        let reply: Value = serde_json::from_str(&line).expect("every line out is JSON");
        let done = reply["id"] == id;
        replies.push(reply);
        if done {
            return;
        }
    };

    let bad = unparseable();
    // Before the handshake, too.
    send(&bad[1]);
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "line-test", "version": "1"}}});
    send(initialize.to_string().as_bytes());
    read_until_id(1, &mut replies);
    send(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    for line in &bad {
        send(line);
    }
    // Blank lines are no messages: nothing is owed for them.
    send(b"");
    send(b"   ");
    // JSON that is no JSON-RPC message is an invalid request, still answered once.
    send(b"{}");
    send(br#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#);
    read_until_id(2, &mut replies);
    send(br#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#);
    read_until_id(3, &mut replies);
    drop(stdin);
    // The client leaves: whatever is still owed is written before the server exits.
    for line in stdout.lines() {
        replies.push(serde_json::from_str(&line.unwrap()).expect("every line out is JSON"));
    }
    assert!(child.wait().unwrap().success());

    let parse_errors: Vec<&Value> = replies
        .iter()
        .filter(|r| r["error"]["code"] == -32700)
        .collect();
    assert_eq!(
        parse_errors.len(),
        bad.len() + 1,
        "one parse error per unparseable line: {replies:#?}"
    );
    for error in &parse_errors {
        assert_eq!(error["jsonrpc"], "2.0", "{error}");
        assert!(error.get("id").is_some_and(Value::is_null), "{error}");
        assert!(error.get("result").is_none(), "{error}");
    }
    let invalid: Vec<&Value> = replies
        .iter()
        .filter(|r| r["error"]["code"] == -32600)
        .collect();
    assert_eq!(invalid.len(), 1, "{replies:#?}");
    // The valid requests were answered, each once.
    for id in 1..=3 {
        let answers: Vec<&Value> = replies.iter().filter(|r| r["id"] == id).collect();
        assert_eq!(answers.len(), 1, "id {id}: {replies:#?}");
        assert!(answers[0].get("result").is_some(), "{}", answers[0]);
    }
    let tools = &replies.iter().find(|r| r["id"] == 3).unwrap()["result"]["tools"];
    assert!(tools.as_array().is_some_and(|t| !t.is_empty()), "{tools}");
    assert_eq!(replies.len(), parse_errors.len() + invalid.len() + 3);
}

/// JSON that is no valid request got `{"error":{"code":-32600,…}}` with no `id` at all:
/// JSON-RPC 2.0 requires the request's id when it can be read, and `"id": null` when not.
/// A notification (a method, no id) is never answered, even one rmcp cannot read.
#[test]
fn an_invalid_request_is_answered_with_its_id_or_a_null_one() {
    let (_guard, home) = home();
    let mut child = nofxi(&home, &["mcp", "--no-engine"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "line-test", "version": "1"}}});
    let lines = [
        initialize.to_string(),
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.into(),
        "42".into(),
        "[]".into(),
        "{}".into(),
        "null".into(),
        r#"{"id":1}"#.into(),
        r#"{"jsonrpc":"1.0","id":3,"method":"ping"}"#.into(),
        r#"{"jsonrpc":"2.0","id":"x","method":5}"#.into(),
        r#"{"jsonrpc":"2.0","id":[4],"method":"ping"}"#.into(),
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":42}"#.into(),
        r#"{"jsonrpc":"2.0","id":99,"method":"ping"}"#.into(),
    ];
    for line in &lines {
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
    }
    drop(stdin);
    let replies: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(&l.unwrap()).expect("every line out is JSON"))
        .collect();
    assert!(child.wait().unwrap().success());
    let invalid: Vec<&Value> = replies
        .iter()
        .filter(|r| r["error"]["code"] == -32600)
        .collect();
    for reply in &invalid {
        assert_eq!(reply["jsonrpc"], "2.0", "{reply}");
        assert!(reply.get("id").is_some(), "no id member: {reply}");
    }
    let ids: Vec<&Value> = invalid.iter().map(|r| &r["id"]).collect();
    assert_eq!(
        ids,
        [
            &Value::Null,
            &Value::Null,
            &Value::Null,
            &Value::Null,
            &json!(1),
            &json!(3),
            &json!("x"),
            &Value::Null,
        ],
        "{replies:#?}"
    );
    // Initialize and the last ping answered; nothing else.
    assert_eq!(replies.len(), invalid.len() + 2, "{replies:#?}");
    assert!(
        replies
            .iter()
            .any(|r| r["id"] == 99 && r.get("result").is_some())
    );
}
