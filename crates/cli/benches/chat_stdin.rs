//! Time of `nofxi chat --json` against the length of its input lines: text under the 16 KB
//! message cap is read (understood, answered, stored), longer lines are refused by the cap after
//! one pass over their bytes; random bytes (mostly not UTF-8) are answered without being read.
//! Linear means a process's time grows with the bytes read under the cap, and barely over it
//! (those bytes are only scanned for the line's end: 80 MB in a few ms).
//!
//! `cargo bench -p nofxi-cli --bench chat_stdin`

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Instant;

/// Words users type, in both languages, repeated to the length wanted.
const TEXT: &str =
    "stop alpha and delete trend? 创建一个交易员 btc-bot，杠杆 10 倍，每 5 分钟扫描；";

fn text_line(bytes: usize) -> Vec<u8> {
    let mut line = TEXT.repeat(bytes / TEXT.len() + 1).into_bytes();
    line.truncate(bytes);
    // Cut on a character boundary, so the line stays UTF-8 text.
    while std::str::from_utf8(&line).is_err() {
        line.pop();
    }
    line
}

/// Bytes from a fixed xorshift sequence, without newlines.
fn random_line(bytes: usize) -> Vec<u8> {
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    (0..bytes)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            match (x >> 24) as u8 {
                b'\n' => b' ',
                b => b,
            }
        })
        .collect()
}

/// Seconds one `nofxi chat --json` takes for `lines`, in a fresh home.
fn run(lines: &[Vec<u8>]) -> f64 {
    let home = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_nofxi"))
        .args(["chat", "--json"])
        .env("NOFXI_HOME", home.path())
        .env_remove("NOFXI_DATABASE_URL")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input: Vec<u8> = lines
        .iter()
        .flat_map(|l| l.iter().chain(b"\n"))
        .copied()
        .collect();
    let started = Instant::now();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().unwrap();
    let elapsed = started.elapsed().as_secs_f64();
    writer.join().unwrap().unwrap();
    assert!(out.status.success());
    let answers = out.stdout.iter().filter(|&&b| b == b'\n').count();
    assert_eq!(answers, lines.len(), "one answer per line");
    elapsed
}

fn main() {
    const LINES: usize = 8;
    // A process answering short lines: what start-up and a turn cost without length.
    let short = vec![b"list traders".to_vec(); LINES];
    let base = (0..3).map(|_| run(&short)).fold(f64::MAX, f64::min);
    println!(
        "{LINES} lines per process, best of 3; a process of {LINES} short turns: {:.1} ms",
        base * 1000.0
    );
    println!("{:<8} {:>8} {:>14}", "kind", "line", "process, ms");
    for (kind, make) in [
        ("text", text_line as fn(usize) -> Vec<u8>),
        ("random", random_line),
    ] {
        for kb in [1usize, 4, 16, 64, 1024, 10 * 1024] {
            // "16 KB" is just under the cap, so it is still read.
            let bytes = if kb == 16 { kb * 1024 - 8 } else { kb * 1024 };
            let lines = vec![make(bytes); LINES];
            let best = (0..3).map(|_| run(&lines)).fold(f64::MAX, f64::min);
            let over = if kb > 16 {
                "  (over the cap: refused)"
            } else {
                ""
            };
            println!("{kind:<8} {kb:>5} KB {:>14.1}{over}", best * 1000.0);
        }
    }
}
