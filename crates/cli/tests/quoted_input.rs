//! What a user typed, repeated by the real binary's refusals (issue 47, item 10): a reference,
//! an id, a flag's value or a path comes back escaped and cut, so `nofxi trader show
//! $'\e]0;pwned\a'` cannot retitle the terminal and a 10 KB argument does not fill it.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

mod support;

use std::process::Output;

use support::*;

/// An OSC title sequence, a screen clear, zero-width and bidi characters, then 10 KB.
fn hostile() -> String {
    format!(
        "\u{1b}]0;pwned\u{7}\u{1b}[2J\u{200b}\u{202e}{}",
        "x".repeat(10 * 1024)
    )
}

/// Whether `text` holds a character that hides or rewrites text on a terminal.
fn rewrites(text: &str) -> bool {
    text.chars()
        .any(|c| c != '\n' && nofxi_domain::validation::hidden_character(c))
}

/// Neither stream holds a raw hidden character; the refusal is short and shows the value
/// escaped and cut.
fn assert_quoted_safely(args: &[&str], out: &Output) {
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    let head: String = stderr.chars().take(300).collect();
    assert!(!out.status.success(), "{:?} succeeded", &args[..2]);
    assert!(
        !out.stdout.contains(&0x1b) && !out.stderr.contains(&0x1b),
        "{head:?}"
    );
    assert!(!rewrites(&stdout) && !rewrites(&stderr), "{head:?}");
    assert!(stderr.len() < 1500, "{} bytes: {head:?}", stderr.len());
    assert!(
        stderr.contains("\\u{1b}]0;pwned") && stderr.contains('…'),
        "{head}"
    );
}

#[test]
fn trader_show_of_a_hostile_reference_prints_it_escaped_and_cut() {
    let (_dir, home) = home();
    let reference = hostile();
    for kind in ["trader", "model", "exchange", "strategy"] {
        let args = [kind, "show", reference.as_str()];
        let out = run(&home, &args);
        assert_quoted_safely(&args, &out);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(&format!("no {kind} \"")), "{stderr:.300}");
    }
}

#[test]
fn ids_flag_values_and_paths_are_quoted_escaped_and_cut() {
    let (dir, home) = home();
    let h = hostile();
    // A file name may hold the sequence; the system bounds a path's length, so this one is
    // only long enough to be cut.
    let name = "candles\u{1b}]0;pwned\u{7}\u{200b}";
    let deep = dir
        .path()
        .join(name)
        .join("y".repeat(200))
        .join("z".repeat(200));
    let path = deep.display().to_string();
    let csv_source = format!("csv:{path}");
    ok(&home, &["portfolio", "add", "mine"]);
    let cases: Vec<Vec<&str>> = vec![
        vec!["trace", "show", &h],
        vec!["market", "price", "BTC", "--source", &h],
        vec!["market", "klines", "BTC", "--end", &h],
        vec!["market", "price", "BTC", "--source", &csv_source],
        vec!["portfolio", "import", "mine", &path],
    ];
    for args in &cases {
        let out = run(&home, args);
        assert_quoted_safely(args, &out);
    }
}

/// A flag's own parser does not repeat the value: clap's "invalid value '…' for '--flag'"
/// quotes it once (escaped, or masked when it could be a secret), and the parser's words
/// after it repeated it again whole, 10 KB and all.
#[test]
fn a_flag_parser_does_not_repeat_the_value() {
    let (_dir, home) = home();
    let h = hostile();
    for (args, says) in [
        (
            vec!["mcp", "--lang", h.as_str()],
            "not a language nofxi speaks: use en or zh",
        ),
        (
            vec![
                "trader",
                "add",
                "--name",
                "t",
                "--initial-balance",
                h.as_str(),
            ],
            "outside what nofxi keeps exactly",
        ),
        (
            vec!["trader", "add", "--name", "t", "--initial-balance", "12abc"],
            "not a number: give a decimal amount",
        ),
    ] {
        let err = refused(&home, &args);
        let (_, ours) = err.split_once("': ").expect("clap's invalid value error");
        let head: String = ours.chars().take(300).collect();
        assert!(ours.starts_with(says), "{head}");
        assert!(
            !ours.contains("pwned") && !ours.contains("xxxx") && !ours.contains("12abc"),
            "{head}"
        );
    }
}
