//! Usage errors from the command-line parser, with the real binary: a negative number given
//! to a numeric flag is read as that flag's value and refused by name with what it takes
//! (not "unexpected argument '-1'"), and a stray argument that could be a secret is never
//! repeated by the error. Each exits 2.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use support::{home, ok, refused, run};

const KEY: &str = "sk-abc123def456ghi789jkl012mno345";

#[test]
fn a_negative_number_is_the_flags_value_and_refused_by_its_name() {
    let (_guard, home) = home();
    ok(&home, &["strategy", "add", "--name", "s"]);
    let cases: [(&[&str], &str, &str); 6] = [
        (&["audit", "--limit", "-1"], "--limit", "0 or more"),
        (&["audit", "--limit=-1"], "--limit", "0 or more"),
        (
            &[
                "strategy",
                "add",
                "--name",
                "t",
                "--btc-eth-max-leverage",
                "-1",
            ],
            "--btc-eth-max-leverage",
            "1–20",
        ),
        (
            &["strategy", "update", "s", "--min-confidence", "-5"],
            "--min-confidence",
            "50–100",
        ),
        (
            &["trader", "journal", "x", "--limit", "-3"],
            "--limit",
            "0 or more",
        ),
        (&["run", "--sim-speed", "-1"], "--sim-speed", "at least 1"),
    ];
    for (args, flag, fix) in cases {
        let err = refused(&home, args);
        assert!(
            err.contains(flag) && err.contains(fix),
            "{args:?} should name {flag} and {fix:?}: {err}"
        );
        assert!(!err.contains("unexpected argument"), "{args:?}: {err}");
    }
    // A negative value a flag does take still reaches the command's own check.
    let err = refused(
        &home,
        &["trader", "add", "--name", "x", "--initial-balance", "-5"],
    );
    assert!(err.contains("`--initial-balance` must be between"), "{err}");
}

#[test]
fn a_stray_argument_that_could_be_a_secret_is_not_repeated() {
    let (_guard, home) = home();
    let cases: [&[&str]; 8] = [
        &["model", "add", "--name", "x", "--provider", "deepseek", KEY],
        &["exchange", "add", "--type", "okx", "--name", "o", KEY],
        &["trader", "add", "--name", "x", KEY],
        &["audit", KEY],
        &[KEY],
        &[
            "model",
            "add",
            "--name",
            "x",
            "--provider",
            "deepseek",
            "--",
            KEY,
        ],
        &["mcp", "--lang", KEY],
        &["audit", "--limit", KEY],
    ];
    for args in cases {
        let out = run(&home, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            !all.contains(&KEY[3..15]),
            "{args:?} repeats the key: {all}"
        );
        assert!(
            all.contains("error:") && all.contains("not repeated"),
            "{args:?}: {all}"
        );
    }
    // What cannot be a secret is still said: a mistyped flag, a plain word.
    let err = refused(&home, &["audit", "--limt", "5"]);
    assert!(err.contains("--limt") && err.contains("--limit"), "{err}");
    let err = refused(&home, &["mcp", "--lang", "fr"]);
    assert!(err.contains("'fr'") && err.contains("en or zh"), "{err}");
    // Help and version are no errors.
    let out = run(&home, &["audit", "--help"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("--limit"));
    assert_eq!(run(&home, &["--version"]).status.code(), Some(0));
}

/// A key typed where a name, a type or a symbol goes was repeated by the refusal
/// (`--provider sk-…`, `trace show sk-…`, `token revoke sk-…`, …), while harmless values were
/// hidden (`--interval 0m` said "[2 characters, not repeated]"). One rule for every value an
/// error quotes: masked when the credential detector finds a key in it, else escaped and cut.
#[test]
fn an_error_masks_a_key_and_shows_any_other_value() {
    let (_guard, home) = home();
    let cases: Vec<Vec<&str>> = vec![
        vec!["model", "add", "--name", "x", "--provider", KEY],
        vec!["exchange", "add", "--type", KEY, "--name", "o"],
        vec!["market", "price", KEY],
        vec!["config", "set", "assistant.model", KEY],
        vec!["model", "show", KEY],
        vec!["model", "update", KEY, "--enabled", "false"],
        vec!["model", "test", KEY],
        vec!["trader", "start", KEY],
        vec!["trader", "journal", KEY],
        vec!["exchange", "balance", KEY],
        vec!["portfolio", "show", KEY],
        vec!["trace", "show", KEY],
        vec!["token", "revoke", KEY],
    ];
    for args in &cases {
        let out = run(&home, args);
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!out.status.success(), "{args:?}: {all}");
        assert!(
            !all.contains(&KEY[3..15]) && !all.to_lowercase().contains(&KEY[3..15]),
            "{args:?} repeats the key: {all}"
        );
        assert!(all.contains("not repeated"), "{args:?}: {all}");
    }
    for (args, shown) in [
        (vec!["backtest", "--interval", "0m"], "\"0m\""),
        (
            vec!["market", "klines", "BTC", "--interval", "0m"],
            "\"0m\"",
        ),
        (
            vec!["serve", "--addr", "localhost:18732"],
            "'localhost:18732'",
        ),
        (vec!["model", "show", "hunter2"], "\"hunter2\""),
        (vec!["audit", "--limit", "12abc"], "12abc"),
    ] {
        let out = run(&home, &args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}: {err}");
        assert!(err.contains(shown), "{args:?}: {err}");
        assert!(!err.contains("not repeated"), "{args:?}: {err}");
    }
}
