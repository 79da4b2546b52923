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

/// What a success line says back was printed raw: an import of `p_\e[31mred.csv` coloured the
/// terminal red through "p_…red.csv: 1 new row(s)", as did export's "Wrote … to PATH", the
/// backtest's data line and `nofxi paths`. A path or value the user gave is escaped in every
/// line that repeats it, a success as much as an error.
#[test]
fn success_lines_repeat_a_user_path_escaped() {
    let (dir, home) = home();
    ok(&home, &["portfolio", "add", "mine"]);
    let file = dir.path().join("p_\u{1b}[31mred.csv");
    std::fs::write(
        &file,
        "date,type,symbol,quantity,price,fee\n2024-01-02,BUY,600519,100,1500,5\n",
    )
    .unwrap();
    let out = dir.path().join("o_\u{1b}]0;pwned\u{7}.csv");
    let candles = dir.path().join("b\u{1b}[31mtc.csv");
    let mut body = String::from("timestamp_ms,open,high,low,close,volume\n");
    for i in 0..50_i64 {
        body.push_str(&format!(
            "{},10,12,9,11,5\n",
            1_600_000_000_000 + i * 300_000
        ));
    }
    std::fs::write(&candles, body).unwrap();
    let spec = format!("btc={}", candles.display());
    let odd_home = dir.path().join("h\u{1b}[31mome");
    let (file, out) = (file.display().to_string(), out.display().to_string());
    for (home, args) in [
        (&home, vec!["portfolio", "import", "mine", &file]),
        (&home, vec!["portfolio", "export", "mine", "--out", &out]),
        (&home, vec!["backtest", "--quiet", "--csv", &spec]),
        (&odd_home, vec!["paths"]),
    ] {
        let ran = run(home, &args);
        let said = text(&ran);
        assert!(ran.status.success(), "{args:?}: {said}");
        assert!(!rewrites(&said), "{args:?}: {said:?}");
        assert!(said.contains("\\u{1b}"), "{args:?}: {said}");
    }
}
