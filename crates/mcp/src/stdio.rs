//! MCP over a pair of byte streams (`nofxi mcp`: stdin and stdout), one JSON-RPC message a
//! line. rmcp's line transport drops a line that is not JSON without a word (so a client
//! that sent a truncated request waits for ever), while JSON-RPC 2.0 answers it with a parse
//! error, -32700 with `id: null`. So every line is read here first: one that is JSON goes on
//! to rmcp unchanged (which answers JSON that is no message with -32600), one that is not is
//! answered here, once. The replies of both are written whole, one line at a time, to the
//! one output.

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
        match serde_json::from_slice::<serde_json::Value>(without_bom(text)) {
            Ok(_) => {
                to_rmcp.write_all(text).await?;
                to_rmcp.write_all(b"\n").await?;
                to_rmcp.flush().await?;
            }
            // JSON of the wrong shape is rmcp's to answer (-32600); only a line that is no
            // JSON value (syntax, cut short, something after the value) is answered here.
            Err(e) if e.is_syntax() || e.is_eof() => {
                if lines.send(parse_error(&e.to_string())).await.is_err() {
                    return Ok(());
                }
            }
            Err(_) => {
                to_rmcp.write_all(text).await?;
                to_rmcp.write_all(b"\n").await?;
                to_rmcp.flush().await?;
            }
        }
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
