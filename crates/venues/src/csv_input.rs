//! Reading a candle file with bounds: only a regular file, as a stream, and no line longer
//! than [`MAX_LINE_BYTES`].
//!
//! A path may name anything: `/dev/zero` never ends and has no newline, a FIFO blocks the
//! open until a writer comes, and a 300 MB file of one line is one 300 MB record for the CSV
//! reader before any field is looked at. A candle row is well under 200 bytes; so the file
//! is refused unless it is a regular file, and a line past the cap is refused by its number
//! as soon as the cap is passed, without the rest of it being read or held.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use nofxi_domain::validation::shown_input;

use crate::VenueError;

/// Longest line accepted, in bytes: far above a candle row with a few extra columns.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// Opens `path` for reading if it is a regular file (checked before the open, which would
/// block on a FIFO), with its size for reserving room. A refusal repeats the path through
/// [`shown_input`]: it is the user's own, but a file name can hold an escape sequence.
pub fn open_regular(path: &Path) -> Result<(File, u64), VenueError> {
    let shown = || shown_input(&path.display().to_string());
    let cannot_open =
        |e: io::Error| VenueError::InvalidRequest(format!("cannot open {}: {e}", shown()));
    let meta = std::fs::metadata(path).map_err(cannot_open)?;
    if !meta.is_file() {
        return Err(VenueError::InvalidRequest(format!(
            "{} is not a regular file ({}): give the path of a CSV file",
            shown(),
            kind(&meta)
        )));
    }
    let file = File::open(path).map_err(cannot_open)?;
    Ok((file, meta.len()))
}

fn kind(meta: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if meta.is_dir() {
        "a directory"
    } else {
        "not a file"
    }
}

/// A reader that fails once a line grows past `max` bytes, naming the line (1-based).
pub struct LineCapped<R> {
    inner: R,
    max: usize,
    line: u64,
    len: usize,
}

impl<R: Read> LineCapped<R> {
    pub fn new(inner: R, max: usize) -> LineCapped<R> {
        LineCapped {
            inner,
            max,
            line: 1,
            len: 0,
        }
    }
}

impl<R: Read> Read for LineCapped<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        for &b in &buf[..n] {
            if b == b'\n' {
                self.line += 1;
                self.len = 0;
            } else {
                self.len += 1;
                if self.len > self.max {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        LineTooLong {
                            line: self.line,
                            max: self.max,
                        },
                    ));
                }
            }
        }
        Ok(n)
    }
}

/// The error a [`LineCapped`] reader fails with.
#[derive(Debug)]
pub struct LineTooLong {
    pub line: u64,
    pub max: usize,
}

impl std::fmt::Display for LineTooLong {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "line {} is longer than {} bytes (a candle row is under 200): this is no CSV of candles",
            self.line, self.max
        )
    }
}

impl std::error::Error for LineTooLong {}

/// The over-long line inside an error a CSV reader passed on, if that is what it is.
pub fn line_too_long(e: &csv::Error) -> Option<&LineTooLong> {
    match e.kind() {
        csv::ErrorKind::Io(io) => io.get_ref().and_then(|e| e.downcast_ref::<LineTooLong>()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_past_the_cap_fails_with_its_number_without_reading_on() {
        let text = format!("a,b\n1,2\n{}\n3,4\n", "x".repeat(100));
        let mut out = Vec::new();
        let err = LineCapped::new(text.as_bytes(), 50)
            .read_to_end(&mut out)
            .unwrap_err();
        let said = err.to_string();
        assert!(said.contains("line 3 is longer than 50 bytes"), "{said}");
        let mut ok = Vec::new();
        LineCapped::new("a,b\n1,2\n".as_bytes(), 50)
            .read_to_end(&mut ok)
            .unwrap();
        assert_eq!(ok, b"a,b\n1,2\n");
    }

    #[test]
    fn an_endless_line_stops_at_the_cap() {
        let mut zeros = LineCapped::new(io::repeat(0), 1024);
        let mut sink = Vec::new();
        assert!(zeros.read_to_end(&mut sink).is_err());
        assert!(sink.len() <= 64 * 1024, "held {} bytes", sink.len());
    }

    /// The path is the user's own, but it was printed raw: a name holding an OSC sequence
    /// retitled the terminal the refusal was printed on, and a 10 KB one filled it.
    #[test]
    fn a_path_is_repeated_escaped_and_cut() {
        let dir = std::env::temp_dir().join(format!("csv-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let hostile = [
            dir.join("candles\u{1b}]0;pwned\u{7}\u{200b}.csv"),
            dir.join("y".repeat(10 * 1024)),
        ];
        let sub = dir.join("sub\u{1b}[2J");
        std::fs::create_dir_all(&sub).unwrap();
        for path in hostile.iter().chain([&sub]) {
            let said = open_regular(path).unwrap_err().to_string();
            let head: String = said.chars().take(300).collect();
            assert!(
                !said.chars().any(nofxi_domain::validation::hidden_character),
                "{head:?}"
            );
            assert!(said.len() < 1000, "{} bytes: {head:?}", said.len());
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn devices_and_directories_are_refused_before_opening() {
        let said = open_regular(Path::new("/dev/zero"))
            .unwrap_err()
            .to_string();
        assert!(said.contains("not a regular file (a device)"), "{said}");
        let dir = std::env::temp_dir();
        let said = open_regular(&dir).unwrap_err().to_string();
        assert!(said.contains("a directory"), "{said}");
    }
}
