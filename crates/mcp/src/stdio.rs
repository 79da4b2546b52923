//! MCP over a pair of byte streams (`nofxi mcp`: stdin and stdout), one JSON-RPC message a
//! line. rmcp's line transport drops a line that is not JSON without a word (so a client
//! that sent a truncated request waits for ever), while JSON-RPC 2.0 answers it with a parse
//! error, -32700 with `id: null`; and it answers JSON that is no message with a -32600 that
//! has no `id` at all, where JSON-RPC 2.0 wants the request's id, or `null` when it cannot be
//! read. So every line is read here first: a message rmcp reads goes on to it unchanged, any
//! other line is answered here, once (a notification, which JSON-RPC never answers, is
//! dropped). The replies of both are written whole, one line at a time, to the one output.

use std::io;

use rmcp::ServiceExt;
use rmcp::transport::async_rw::DEFAULT_MAX_LINE_LENGTH;
use serde_json::json;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

use crate::NofxiMcp;

/// The buffer between this reader and rmcp, each way.
const PIPE_BYTES: usize = 64 * 1024;
/// Whole lines waiting for the output.
const QUEUED_LINES: usize = 64;
/// JSON-RPC 2.0's "Invalid JSON was received by the server".
const PARSE_ERROR: i64 = -32700;
/// JSON-RPC 2.0's "The JSON sent is not a valid Request object".
const INVALID_REQUEST: i64 = -32600;

/// Serves `server` on `input` and `output` until the client closes `input` (or the session
/// ends); every reply owed is written before it returns.
pub async fn serve_lines<R, W>(server: NofxiMcp, input: R, output: W) -> io::Result<()>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (to_rmcp, rmcp_input) = tokio::io::duplex(PIPE_BYTES);
    let (rmcp_output, from_rmcp) = tokio::io::duplex(PIPE_BYTES);
    let (lines, queued) = mpsc::channel::<Vec<u8>>(QUEUED_LINES);
    let writer = tokio::spawn(write_lines(queued, output));
    let replies = tokio::spawn(pass_replies(from_rmcp, lines.clone()));
    let reader = tokio::spawn(read_lines(input, to_rmcp, lines));

    let served = match server.serve((rmcp_input, rmcp_output)).await {
        Ok(running) => running.waiting().await.map(drop).map_err(io::Error::other),
        Err(e) => Err(io::Error::other(e)),
    };
    // The session is over: the input owes nothing more (when rmcp ended first, the reader
    // may still wait on an open input).
    reader.abort();
    let _ = reader.await;
    let passed = replies.await.map_err(io::Error::other);
    let written = writer.await.map_err(io::Error::other)?;
    served?;
    passed??;
    written
}

/// Each line of `input`: JSON to rmcp, anything else answered with a parse error.
async fn read_lines<R, P>(input: R, mut to_rmcp: P, lines: mpsc::Sender<Vec<u8>>) -> io::Result<()>
where
    R: AsyncRead + Unpin,
    P: AsyncWrite + Unpin,
{
    let mut input = BufReader::new(input);
    let mut line = Vec::new();
    loop {
        let read = next_line(&mut input, &mut line).await?;
        let text = match read {
            Line::End => return Ok(()),
            Line::TooLong => {
                let detail = format!(
                    "the line is over {} MiB",
                    DEFAULT_MAX_LINE_LENGTH / (1024 * 1024)
                );
                if lines.send(parse_error(&detail)).await.is_err() {
                    return Ok(());
                }
                continue;
            }
            Line::Whole => message_of(&line),
        };
        if text.trim_ascii().is_empty() {
            continue;
        }
        // Read as rmcp will read it (a value, not skipped: nesting past serde_json's depth
        // limit is a syntax error there too).
        let reply = match serde_json::from_slice::<serde_json::Value>(without_bom(text)) {
            Ok(value) => match message(text, &value) {
                Message::Valid => None,
                Message::Notification => continue,
                Message::Invalid => Some(invalid_request(request_id(&value))),
            },
            // A line that is no JSON value (syntax, cut short, something after the value).
            Err(e) if e.is_syntax() || e.is_eof() => Some(parse_error(&e.to_string())),
            // JSON past the parser's limits (nesting): rmcp's to refuse, as it reads it so.
            Err(_) => None,
        };
        match reply {
            Some(reply) => {
                if lines.send(reply).await.is_err() {
                    return Ok(());
                }
            }
            None => {
                to_rmcp.write_all(text).await?;
                to_rmcp.write_all(b"\n").await?;
                to_rmcp.flush().await?;
            }
        }
    }
}

/// What a line of JSON is to rmcp.
enum Message {
    /// A message rmcp reads (what it does with it is its own business).
    Valid,
    /// A method and no id that rmcp cannot read: a notification, which is never answered.
    Notification,
    /// No message at all: owed an invalid-request error.
    Invalid,
}

/// Reads `text` (whose JSON is `value`) as rmcp reads a client's message.
fn message(text: &[u8], value: &serde_json::Value) -> Message {
    if serde_json::from_slice::<rmcp::model::ClientJsonRpcMessage>(without_bom(text)).is_ok() {
        return Message::Valid;
    }
    let notification = value
        .as_object()
        .is_some_and(|o| o.get("method").is_some_and(|m| m.is_string()) && !o.contains_key("id"));
    if notification {
        Message::Notification
    } else {
        Message::Invalid
    }
}

/// The id of an invalid request, when one can be read (a string or a number), else null.
fn request_id(value: &serde_json::Value) -> serde_json::Value {
    match value.get("id") {
        Some(id @ (serde_json::Value::String(_) | serde_json::Value::Number(_))) => id.clone(),
        _ => serde_json::Value::Null,
    }
}

enum Line {
    Whole,
    TooLong,
    End,
}

/// The next line into `line`, never holding more than rmcp's line limit: a longer line is
/// read through and dropped.
async fn next_line<R: AsyncRead + Unpin>(
    input: &mut BufReader<R>,
    line: &mut Vec<u8>,
) -> io::Result<Line> {
    line.clear();
    let limit = DEFAULT_MAX_LINE_LENGTH as u64 + 1;
    let read = (&mut *input).take(limit).read_until(b'\n', line).await?;
    if read == 0 {
        return Ok(Line::End);
    }
    if line.ends_with(b"\n") || line.len() <= DEFAULT_MAX_LINE_LENGTH {
        return Ok(Line::Whole);
    }
    loop {
        line.clear();
        let read = (&mut *input).take(limit).read_until(b'\n', line).await?;
        if read == 0 || line.ends_with(b"\n") {
            line.clear();
            return Ok(Line::TooLong);
        }
    }
}

/// The line without its `\n` or `\r\n`.
fn message_of(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// rmcp reads a line that starts with a UTF-8 byte order mark as the JSON after it.
fn without_bom(text: &[u8]) -> &[u8] {
    text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text)
}

/// The JSON-RPC reply to a line that is not JSON. The detail says where it broke (serde's
/// syntax errors give a position, never the text).
fn parse_error(detail: &str) -> Vec<u8> {
    let reply = json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": {"code": PARSE_ERROR, "message": "Parse error", "data": {"detail": detail}},
    });
    let mut line = reply.to_string().into_bytes();
    line.push(b'\n');
    line
}

/// The JSON-RPC reply to JSON that is no valid request: the request's `id`, or null. The
/// line is not quoted back (it may hold anything, a key included).
fn invalid_request(id: serde_json::Value) -> Vec<u8> {
    let reply = json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {
            "code": INVALID_REQUEST,
            "message": "Invalid request",
            "data": {"detail": "a request is an object with \"jsonrpc\": \"2.0\", a string \"method\" and an \"id\" (a string or a number)"},
        },
    });
    let mut line = reply.to_string().into_bytes();
    line.push(b'\n');
    line
}

/// rmcp's replies, one whole line at a time, into the output queue.
async fn pass_replies<P: AsyncRead + Unpin>(
    from_rmcp: P,
    lines: mpsc::Sender<Vec<u8>>,
) -> io::Result<()> {
    let mut from_rmcp = BufReader::new(from_rmcp);
    loop {
        let mut line = Vec::new();
        if from_rmcp.read_until(b'\n', &mut line).await? == 0 {
            return Ok(());
        }
        if lines.send(line).await.is_err() {
            return Ok(());
        }
    }
}

/// The one writer of the output: lines never interleave.
async fn write_lines<W: AsyncWrite + Unpin>(
    mut queued: mpsc::Receiver<Vec<u8>>,
    mut output: W,
) -> io::Result<()> {
    while let Some(line) = queued.recv().await {
        output.write_all(&line).await?;
        output.flush().await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_parse_error_is_one_json_rpc_line_with_a_null_id() {
        let line = parse_error("expected value at line 1 column 1");
        assert_eq!(line.iter().filter(|b| **b == b'\n').count(), 1);
        let reply: serde_json::Value = serde_json::from_slice(&line).unwrap_or_default();
        assert_eq!(reply["error"]["code"], -32700);
        assert!(reply.get("id").is_some_and(serde_json::Value::is_null));
    }

    #[test]
    fn an_invalid_request_gets_its_id_when_it_can_be_read_and_null_when_not() {
        let read = |text: &str| {
            let value: serde_json::Value = serde_json::from_str(text).unwrap_or_default();
            match message(text.as_bytes(), &value) {
                Message::Valid => "valid".to_string(),
                Message::Notification => "notification".to_string(),
                Message::Invalid => request_id(&value).to_string(),
            }
        };
        for (text, said) in [
            (r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#, "valid"),
            (
                r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
                "valid",
            ),
            (r#"{"jsonrpc":"2.0","id":1,"result":{}}"#, "valid"),
            (
                r#"{"jsonrpc":"2.0","method":"x","params":42}"#,
                "notification",
            ),
            ("42", "null"),
            ("[]", "null"),
            ("{}", "null"),
            ("null", "null"),
            (r#"{"id":1}"#, "1"),
            (r#"{"jsonrpc":"1.0","id":"a","method":"ping"}"#, "\"a\""),
            (r#"{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}"#, "null"),
        ] {
            assert_eq!(read(text), said, "{text}");
        }
        let reply: serde_json::Value =
            serde_json::from_slice(&invalid_request(serde_json::json!(7))).unwrap_or_default();
        assert_eq!(
            (&reply["id"], &reply["error"]["code"]),
            (&serde_json::json!(7), &serde_json::json!(-32600))
        );
    }

    #[tokio::test]
    async fn a_line_over_the_limit_is_dropped_and_the_next_one_read() {
        let mut long = vec![b'x'; DEFAULT_MAX_LINE_LENGTH + 10];
        long.extend_from_slice(b"\n{}\n");
        let mut input = BufReader::new(&long[..]);
        let mut line = Vec::new();
        assert!(matches!(
            next_line(&mut input, &mut line).await,
            Ok(Line::TooLong)
        ));
        assert!(matches!(
            next_line(&mut input, &mut line).await,
            Ok(Line::Whole)
        ));
        assert_eq!(message_of(&line), b"{}");
        assert!(matches!(
            next_line(&mut input, &mut line).await,
            Ok(Line::End)
        ));
    }
}
