//! The CLI's contract beyond "Done when": secrets from stdin and the environment, exit codes,
//! key problems, users kept apart, traders bound by name, `paths`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use serde_json::Value;
use support::*;

#[test]
fn secrets_from_stdin_and_environment_are_stored_not_printed() {
    let home = tempfile::tempdir().unwrap();
    let mut cmd = nofxi(
        home.path(),
        &[
            "exchange",
            "add",
            "--type",
            "okx",
            "--name",
            "o",
            "--api-key",
            "-",
            "--passphrase",
            "-",
        ],
    );
    cmd.env("NOFXI_SECRET_KEY", S);
    let out = with_input(&mut cmd, &format!("{K}\npassphrase-from-stdin\n"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed = [out.stdout, out.stderr].concat();
    assert!(!contains(&printed, K) && !contains(&printed, S));
    let list = json(home.path(), &["exchange", "list"]);
    assert_eq!(list[0]["has_passphrase"], true);
    assert_eq!(list[0]["has_secret_key"], true);
    assert_home_clean(home.path(), &[K, S, "passphrase-from-stdin"]);

    // `-` with nothing on stdin is refused input (exit 2), not an empty key.
    let err = refused(
        home.path(),
        &[
            "model",
            "add",
            "--name",
            "m",
            "--provider",
            "deepseek",
            "--api-key",
            "-",
        ],
    );
    assert!(
        err.contains("standard input") && err.contains("--api-key"),
        "{err}"
    );
}

#[test]
fn usage_errors_exit_2() {
    let home = tempfile::tempdir().unwrap();
    for args in [
        &["exchange", "frobnicate"][..],
        &["exchange", "add", "--no-such-flag"],
        &["trader", "add", "--initial-balance", "lots"],
        // Input the store refuses is a usage error too, said by the flags that fix it.
        &["trader", "add", "--name", "x", "--initial-balance", "-5"],
        &["exchange", "add", "--type", "binance", "--name", "b1"],
    ] {
        assert_eq!(run(home.path(), args).status.code(), Some(2), "{args:?}");
    }
    let missing = refused(
        home.path(),
        &["trader", "add", "--name", "x", "--initial-balance", "-5"],
    );
    assert!(missing.contains("`--model` is required"), "{missing}");
    assert!(
        missing.contains("`--initial-balance` must be between 0.01 and 1000000000000"),
        "{missing}"
    );
    assert!(!missing.contains("ai_model_id"), "{missing}");
    let keys = refused(
        home.path(),
        &["exchange", "add", "--type", "binance", "--name", "b1"],
    );
    assert!(
        keys.contains("NOFXI_API_KEY") && keys.contains("`--api-key -`"),
        "{keys}"
    );
}

#[test]
fn a_wrong_master_key_is_a_clear_error() {
    let home = tempfile::tempdir().unwrap();
    add_binance(home.path());
    let out = nofxi(home.path(), &["exchange", "list"])
        .env("NOFXI_MASTER_KEY", "ab".repeat(32))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("does not match"), "{err}");
    assert!(err.contains("NOFXI_MASTER_KEY"), "{err}");
    // A deleted key file next to existing secrets is never silently replaced. Reads that need
    // no secret still work; only decrypting asks for the key, naming the file and the variable.
    std::fs::remove_file(home.path().join("vault.key")).unwrap();
    for args in [
        &["exchange", "list"][..],
        &["exchange", "show", "main"],
        &["trader", "list"],
        &["audit"],
    ] {
        ok(home.path(), args);
    }
    let err = fails(home.path(), &["exchange", "test", "main"]);
    assert!(
        err.contains("vault key file") && err.contains("missing"),
        "{err}"
    );
    assert!(
        err.contains("NOFXI_MASTER_KEY") && err.contains("vault.key"),
        "{err}"
    );
    // Writing a secret needs the key too.
    let err = fails(
        home.path(),
        &[
            "exchange",
            "update",
            "main",
            "--secret-key",
            "another-secret-9",
        ],
    );
    assert!(err.contains("NOFXI_MASTER_KEY"), "{err}");
    assert!(!home.path().join("vault.key").exists());
}

#[cfg(unix)]
#[test]
fn a_vault_key_others_can_read_is_warned_about() {
    use std::os::unix::fs::PermissionsExt;
    let home = tempfile::tempdir().unwrap();
    add_binance(home.path());
    let key = home.path().join("vault.key");
    let out = nofxi(home.path(), &["exchange", "list"]).output().unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("chmod"));
    std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o644)).unwrap();
    let out = nofxi(home.path(), &["exchange", "list"]).output().unwrap();
    assert!(out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains(&key.display().to_string()), "{err}");
    assert!(err.contains("chmod 600"), "{err}");
}

#[test]
fn users_are_separate_and_traders_bind_by_name() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    ok(
        h,
        &["exchange", "add", "--type", "paper", "--name", "paper"],
    );
    ok(
        h,
        &["model", "add", "--name", "rules", "--provider", "builtin"],
    );
    ok(
        h,
        &["strategy", "add", "--name", "trend", "--active", "true"],
    );
    let out = run(
        h,
        &[
            "trader",
            "add",
            "--name",
            "bot",
            "--model",
            "RULES",
            "--exchange",
            "paper",
            "--strategy",
            "trend",
            "--initial-balance",
            "1000",
            "--scan-interval",
            "1",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let note = String::from_utf8(out.stderr).unwrap();
    assert!(
        note.contains("scan_interval_minutes") && note.contains('3'),
        "{note}"
    );
    let trader = json(h, &["trader", "show", "bot"]);
    assert_eq!(trader["scan_interval_minutes"], 3);
    assert_eq!(trader["initial_balance"], "1000");
    // The text view names what the trader is bound to, as the user created them.
    let shown = ok(h, &["trader", "show", "bot"]);
    for line in [
        "model           rules",
        "exchange        paper (paper)",
        "strategy        trend",
    ] {
        assert!(shown.contains(line), "{shown}");
    }
    // Without --initial-balance the trader starts from the default 1000 USDT; 0 is refused
    // with the field, the expectation and the flag.
    let args = [
        "trader",
        "add",
        "--model",
        "rules",
        "--exchange",
        "paper",
        "--strategy",
        "trend",
    ];
    ok(h, &[&args[..], &["--name", "bot2"]].concat());
    assert_eq!(
        json(h, &["trader", "show", "bot2"])["initial_balance"],
        "1000"
    );
    let err = refused(
        h,
        &[&args[..], &["--name", "bot3", "--initial-balance", "0"]].concat(),
    );
    assert!(
        err.contains("between 0.01") && err.contains("`--initial-balance`"),
        "{err}"
    );
    let err = fails(h, &["model", "delete", "rules"]);
    assert!(err.contains("bot"), "{err}");

    // Another user sees none of it and cannot touch it.
    assert_eq!(
        json(h, &["--user", "bob", "exchange", "list"]),
        Value::Array(vec![])
    );
    assert_eq!(
        json(h, &["--user", "bob", "trader", "list"]),
        Value::Array(vec![])
    );
    fails(h, &["--user", "bob", "exchange", "delete", "paper"]);
    fails(
        h,
        &[
            "--user",
            "bob",
            "trader",
            "update",
            "bot",
            "--scan-interval",
            "10",
        ],
    );
    assert_eq!(json(h, &["exchange", "list"])[0]["account_name"], "paper");
}

#[test]
fn paths_shows_the_vault_key() {
    let home = tempfile::tempdir().unwrap();
    let out = json(home.path(), &["paths"]);
    assert!(
        out["vault_key"]
            .as_str()
            .unwrap()
            .ends_with("vault.key (created on first use)"),
        "{out}"
    );
    let out = nofxi(home.path(), &["paths"])
        .env("NOFXI_MASTER_KEY", "ab".repeat(32))
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("NOFXI_MASTER_KEY"), "{text}");
    assert!(!text.contains(&"ab".repeat(32)), "never print the key");
}

/// `exit` on a line of its own ends an interactive chat; what follows is never read.
#[test]
fn exit_ends_the_chat() {
    let home = tempfile::tempdir().unwrap();
    let chat = |input: &str| {
        let out = with_input(&mut nofxi(home.path(), &["chat"]), input);
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    // The first run's question takes the first line: yes, create paper, builtin and default.
    let listed = chat("y\nlist exchanges\n");
    assert!(listed.contains("1. paper"), "{listed}");
    let after_exit = chat("exit\nlist exchanges\n");
    assert!(!after_exit.contains("1. paper"), "{after_exit}");
}

/// A first line that answers the first-run question with neither yes nor no is the user's
/// first message: nothing is created on a guess, and the line gets its answer.
#[test]
fn a_first_line_that_is_not_an_answer_is_a_message() {
    let home = tempfile::tempdir().unwrap();
    let out = with_input(&mut nofxi(home.path(), &["chat"]), "list exchanges\n");
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains("Created paper"), "{text}");
    assert!(!text.contains("1. paper"), "{text}");
    // The list request was answered, and it found no exchange account.
    assert!(text.contains("exchange"), "{text}");
    assert_eq!(
        json(home.path(), &["exchange", "list"]),
        serde_json::json!([])
    );
}

/// A key typed in answer to the assistant's question is not kept in the chat's history file
/// (nor anywhere else in the home), and a later chat says which task is still open.
#[test]
fn chat_history_keeps_no_key_and_a_later_chat_names_the_open_task() {
    let home = tempfile::tempdir().unwrap();
    let chat = |input: &str| {
        let out = with_input(&mut nofxi(home.path(), &["chat"]), input);
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let asked = chat("n\nadd a binance exchange account called b9\nqwertyASDFGH1234\n");
    assert!(asked.contains("secret key"), "{asked}");
    let history = std::fs::read_to_string(home.path().join("chat_history.txt")).unwrap();
    assert!(history.contains("called b9"), "{history}");
    assert_home_clean(home.path(), &["qwertyASDFGH1234"]);
    let later = chat("exit\n");
    assert!(later.contains("still open"), "{later}");
    assert!(later.contains("cancel"), "{later}");
    // A secret said in a change ("… secret key to X") is not kept either.
    chat("cancel\nchange b9 secret key to zxcvbnmlkjhgf\n");
    assert_home_clean(home.path(), &["qwertyASDFGH1234", "zxcvbnmlkjhgf"]);
}

/// A backtest that ends with a position open says so: its unrealized P&L and the entry fees
/// already paid are in the total P&L and in no trade, and with them the numbers add up.
#[test]
fn a_backtest_accounts_for_the_position_open_at_its_end() {
    use rust_decimal::Decimal;
    let home = tempfile::tempdir().unwrap();
    let args = [
        "backtest",
        "--symbols",
        "btc",
        "--from",
        "2026-01-01",
        "--to",
        "2026-01-03",
    ];
    let report = json(home.path(), &args);
    let dec = |v: &Value| -> Decimal { v.as_str().unwrap().parse().unwrap() };
    let stats = &report["stats"];
    let open = dec(&report["open_at_end_pnl"]);
    let fees = dec(&report["open_at_end_fees"]);
    assert!(!open.is_zero() && fees > Decimal::ZERO, "{report}");
    let wins = Decimal::from(stats["wins"].as_u64().unwrap());
    let losses = Decimal::from(stats["losses"].as_u64().unwrap());
    let closed = dec(&stats["avg_win"]) * wins + dec(&stats["avg_loss"]) * losses;
    // The averages are rounded to 8 places; the sum is exact to well under a cent.
    let gap = (closed + open - fees - dec(&stats["total_pnl"])).abs();
    assert!(gap < Decimal::new(1, 4), "gap {gap}: {report}");
    let text = ok(home.path(), &args[..7]);
    assert!(text.contains("open at end"), "{text}");
    // Every figure stands on simulated candles, and both outputs say so.
    assert_eq!(report["data_source"], "sim (seed 42)", "{report}");
    assert_eq!(report["simulated"], true, "{report}");
    assert!(
        text.contains("sim (seed 42)") && text.contains("simulated candles"),
        "{text}"
    );
}

/// Hyperliquid's `api_key` is the agent wallet's private key: `exchange show --json` and the
/// stored mask show none of its characters (one in another shape is refused, unrepeated); the
/// public wallet address keeps its tail.
#[test]
fn a_hyperliquid_private_key_shows_none_of_its_characters() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    let hex = "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318";
    let odd = "agent-4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f3671";
    let addr = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
    let add = |name: &str, key: &str| -> Vec<String> {
        [
            "exchange",
            "add",
            "--type",
            "hyperliquid",
            "--name",
            name,
            "--api-key",
            key,
            "--wallet-addr",
            addr,
        ]
        .map(String::from)
        .to_vec()
    };
    let odd_args = add("hl2", odd);
    let odd_args: Vec<&str> = odd_args.iter().map(String::as_str).collect();
    let out = run(h, &odd_args);
    assert_eq!(out.status.code(), Some(2));
    assert!(!text(&out).contains("3f3671"), "{}", text(&out));
    let args = add("hl1", hex);
    ok(h, &args.iter().map(String::as_str).collect::<Vec<_>>());
    let shown = json(h, &["exchange", "show", "hl1"]);
    let tail = &hex[hex.len() - 4..];
    assert_eq!(shown["credentials"]["api_key"]["masked"], "••••", "{shown}");
    assert!(!shown.to_string().contains(tail), "{shown}");
    assert_eq!(shown["credentials"]["wallet_addr"]["masked"], "…eAed");
    // What a partial mask would have stored.
    assert_home_clean(h, &[&format!("…{tail}")]);
}
