//! Lines of a chat's standard input, read as bytes: a line that is not UTF-8 is reported as
//! such (the session answers it and goes on, instead of ending on the first bad byte), and
//! only a little more than the assistant's message cap is kept of a line, so a huge line is
//! refused by the cap without being held in memory whole. One pass over the bytes.

use std::io::{self, BufRead};

use nofxi_assistant::message_limit::MAX_MESSAGE_BYTES;

/// One line of input.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// The text, without its line ending.
    Text(String),
    /// A line longer than the cap: its `start`, a little over the cap (still over, so the
    /// assistant refuses it), and the line's true length in `bytes`, which the refusal says.
    Long { start: String, bytes: usize },
    /// Bytes that are not UTF-8 text.
    NotUtf8,
}

/// What is kept of a line: over the cap by a few bytes, so it is still refused as too long.
const KEEP: usize = MAX_MESSAGE_BYTES + 8;

/// The next line of `reader`, or `None` at the end of input.
pub fn next_line(reader: &mut impl BufRead) -> io::Result<Option<Line>> {
    let mut kept = Vec::new();
    // The line's length and its last byte, counted past what is kept.
    let mut total = 0usize;
    let mut last = None;
    let mut read_any = false;
    let mut over = false;
    loop {
        let buf = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            break;
        }
        read_any = true;
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(at) => (&buf[..at], Some(at + 1)),
            None => (buf, None),
        };
        let room = KEEP.saturating_sub(kept.len());
        over |= chunk.len() > room;
        total = total.saturating_add(chunk.len());
        last = chunk.last().copied().or(last);
        kept.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = done.unwrap_or(buf.len());
        reader.consume(used);
        if done.is_some() {
            break;
        }
    }
    if !read_any {
        return Ok(None);
    }
    if over {
        // The cut may fall inside a character; the line is refused for its length anyway.
        let start = String::from_utf8_lossy(&kept).into_owned();
        let bytes = total - usize::from(last == Some(b'\r'));
        return Ok(Some(Line::Long { start, bytes }));
    }
    if kept.last() == Some(&b'\r') {
        kept.pop();
    }
    Ok(Some(match String::from_utf8(kept) {
        Ok(text) => Line::Text(text),
        Err(_) => Line::NotUtf8,
    }))
}

/// What an empty or blank line is answered with in `--json` mode (one answer per line).
pub const EMPTY_LINE: &str = "这一行是空的，没有处理。 This line is empty and was not read.";

/// What a line that is not UTF-8 is answered with (its language cannot be told from it).
pub const NOT_UTF8: &str = "这一行不是有效的 UTF-8 文本，没有处理，请重新输入。 \
     This line is not valid UTF-8 text and was not read; please type it again.";

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn lines_bad_bytes_and_long_lines() {
        let long = "a".repeat(KEEP * 3);
        let input = format!("one\r\n\u{ff}\ntwo\n{long}\nlast");
        let mut bytes = input.into_bytes();
        // Not UTF-8: a lone continuation byte on the second line.
        let at = bytes.iter().position(|&b| b == 0xc3).unwrap();
        bytes[at] = 0x80;
        bytes.remove(at + 1);
        let mut r = io::Cursor::new(bytes);
        assert_eq!(next_line(&mut r).unwrap(), Some(Line::Text("one".into())));
        assert_eq!(next_line(&mut r).unwrap(), Some(Line::NotUtf8));
        assert_eq!(next_line(&mut r).unwrap(), Some(Line::Text("two".into())));
        let Some(Line::Long { start, bytes }) = next_line(&mut r).unwrap() else {
            panic!("the long line")
        };
        assert_eq!(start.len(), KEEP);
        assert_eq!(bytes, KEEP * 3, "the true length is carried along");
        assert_eq!(next_line(&mut r).unwrap(), Some(Line::Text("last".into())));
        assert_eq!(next_line(&mut r).unwrap(), None);
    }
}
