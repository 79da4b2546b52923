//! `nofxi chat --json` over hostile standard input: random bytes, invalid UTF-8, control and
//! zero-width characters, lines past the message cap, and random sequences of the words users
//! type (so tasks open, collect, confirm and cancel in random orders). Each case is one real
//! process fed many lines. Every line gets exactly one JSON answer (a blank one an error
//! object, so a client waiting for its answer never hangs), the process ends with 0 at the end
//! of input, and nothing panics.
//!
//! More cases: `PROPTEST_CASES=200 cargo test -p nofxi-cli --test chat_stdin_fuzz`.
//! Time against line length: `cargo bench -p nofxi-cli --bench chat_stdin`.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

mod support;

use std::io::Write;
use std::process::Stdio;

use proptest::prelude::*;
use serde_json::Value;
use support::*;

/// What users type, in both languages; random sequences of these drive real task flows.
const WORDS: &[&str] = &[
    "add",
    "create",
    "delete",
    "stop",
    "start",
    "show",
    "list",
    "update",
    "restore",
    "trader",
    "traders",
    "exchange",
    "binance",
    "paper",
    "model",
    "deepseek",
    "strategy",
    "account",
    "named",
    "alpha",
    "btc-bot",
    "it",
    "that",
    "all",
    "yes",
    "no",
    "cancel",
    "ok",
    "api key",
    "secret",
    "AKIA0000FUZZKEY",
    "10x",
    "3",
    "1000",
    "usdt",
    "every 5 minutes",
    "btc",
    "eth",
    "?",
    ",",
    "创建",
    "删除",
    "停止",
    "启动",
    "交易员",
    "交易所",
    "模型",
    "策略",
    "确认",
    "不要了",
    "好",
    "为什么",
    "币安",
    "杠杆3倍",
    "叫",
];

/// Characters that break naive text handling.
const ODD: &[&str] = &[
    "\u{0}",
    "\u{7}",
    "\u{1b}[31m",
    "\u{200b}",
    "\u{202e}",
    "\u{feff}",
    "\t",
    "\r",
    "ｄｅｌｅｔｅ",
    "\u{301}",
    "🚀",
    "\"",
    "\\",
    "{",
    "}",
];

fn phrase() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(
        prop_oneof![
            8 => proptest::sample::select(WORDS).prop_map(|w| w.to_string()),
            2 => proptest::sample::select(ODD).prop_map(|w| w.to_string()),
            1 => "[a-z0-9]{1,12}",
        ],
        1..14,
    )
    .prop_map(|words| words.join(" ").into_bytes())
}

fn no_newline(mut bytes: Vec<u8>) -> Vec<u8> {
    bytes.retain(|&b| b != b'\n');
    bytes
}

/// One line of input, without its `\n`.
fn line() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        // Sequences of real words: the flows.
        10 => phrase(),
        // A real phrase with a byte that is not UTF-8 spliced in.
        2 => (phrase(), 0x80u8..=0xff, any::<prop::sample::Index>()).prop_map(|(mut p, b, at)| {
            let at = at.index(p.len() + 1);
            p.insert(at, b);
            p
        }),
        // Random bytes.
        2 => proptest::collection::vec(any::<u8>(), 0..300).prop_map(no_newline),
        // Any printable or not text.
        2 => "\\PC{0,200}".prop_map(|s| no_newline(s.into_bytes())),
        // Long lines: under, at and over the 16 KB cap.
        1 => (phrase(), 200usize..3000).prop_map(|(p, n)| no_newline(p.repeat(n).to_vec())),
        // Blank lines are answered too (with an error object).
        1 => Just(b"   ".to_vec()),
        1 => Just(Vec::new()),
    ]
}

/// Feeds `lines` to one `nofxi chat --json` and returns (exit ok, stdout lines, stderr).
fn chat_json(lines: &[Vec<u8>]) -> (bool, Vec<String>, String) {
    let (_guard, home) = home();
    let mut child = nofxi(&home, &["chat", "--json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input: Vec<u8> = lines
        .iter()
        .flat_map(|l| l.iter().chain(b"\n"))
        .copied()
        .collect();
    // Written from a thread: the answers fill stdout while the input is still going in.
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().unwrap();
    let _ = writer.join();
    let stdout = String::from_utf8(out.stdout).expect("stdout is UTF-8");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let answers = stdout.lines().map(str::to_string).collect();
    (out.status.success(), answers, stderr)
}

/// A dozen processes by default (a few seconds); `PROPTEST_CASES` for a longer run.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(12)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), max_shrink_iters: 64, .. ProptestConfig::default() })]

    #[test]
    fn every_line_is_answered_and_nothing_panics(
        lines in proptest::collection::vec(line(), 1..40)
    ) {
        let (ok, answers, stderr) = chat_json(&lines);
        prop_assert!(!stderr.contains("panicked"), "a panic: {stderr}");
        prop_assert!(ok, "chat --json ended with a failure: {stderr}");
        prop_assert_eq!(answers.len(), lines.len(), "answers: {:?}\nstderr: {}", answers, stderr);
        for answer in &answers {
            let v: Value = serde_json::from_str(answer).expect("each answer is one JSON object");
            let reply = v["reply"].is_string();
            let error = v["type"] == "error" && v["message"].is_string();
            prop_assert!(reply || error, "neither a reply nor an error: {answer}");
        }
    }
}

/// An 11 MB line is refused with its own size, not the size of the start the reader kept.
#[test]
fn a_huge_line_is_refused_with_the_size_received() {
    let line = vec![b'a'; 11 * 1024 * 1024];
    let (ok, answers, stderr) = chat_json(&[line]);
    assert!(ok, "{stderr}");
    let v: Value = serde_json::from_str(&answers[0]).unwrap();
    let reply = v["reply"].as_str().unwrap();
    assert!(reply.contains("11264 KB"), "{reply}");
}
