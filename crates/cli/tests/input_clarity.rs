//! Input the CLI refuses, and how it says so: each refusal exits 2 and names the flag (or the
//! file's line) and the fix, instead of running on something else or failing with a parser's
//! words (issue 23, items 8, 18, 19, 21).
#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

mod support;

use support::{home, json, ok, refused, run, text};

const HEAD: &str = "timestamp_ms,open,high,low,close,volume\n";

#[test]
fn a_csv_that_is_no_market_history_is_refused_with_its_line() {
    let (_guard, home) = home();
    let cases = [
        (HEAD.to_string(), "line 2", "no candles"),
        (
            format!("{HEAD}1600000000000,10,12,9,11,5\n1600000060000,0,12,9,11,5\n"),
            "line 3",
            "not a positive price",
        ),
        (
            format!("{HEAD}1600000000000,10,9,12,11,5\n"),
            "line 2",
            "below low",
        ),
        (
            format!("{HEAD}1600000000,10,12,9,11,5\n"),
            "line 2",
            "seconds",
        ),
    ];
    for (i, (body, line, why)) in cases.iter().enumerate() {
        let path = home.join(format!("c{i}.csv"));
        std::fs::write(&path, body).unwrap();
        let spec = format!("BTCUSDT={}", path.display());
        let err = refused(&home, &["backtest", "--quiet", "--csv", &spec]);
        assert!(
            err.contains("--csv") && err.contains(line) && err.contains(why),
            "{body:?}: {err}"
        );
    }
}

#[test]
fn an_empty_backtest_range_is_a_usage_error_naming_the_flags() {
    let (_guard, home) = home();
    let err = refused(
        &home,
        &[
            "backtest",
            "--quiet",
            "--symbols",
            "btc",
            "--from",
            "2026-01-02",
            "--to",
            "2026-01-01",
        ],
    );
    assert!(err.contains("--from") && err.contains("--to"), "{err}");
    let err = refused(&home, &["backtest", "--quiet", "--from", "yesterday-ish"]);
    assert!(err.contains("--from \"yesterday-ish\""), "{err}");
}

#[test]
fn amounts_out_of_decimal_reach_or_infinite_are_said_so() {
    let (_guard, home) = home();
    for (value, said) in [
        ("1e-30", "at most 28 digits"),
        ("-inf", "not a finite number"),
        ("inf", "not a finite number"),
        ("12abc", "not a number"),
    ] {
        let flag = format!("--initial-balance={value}");
        let err = refused(&home, &["backtest", "--quiet", &flag]);
        assert!(err.contains(said), "{value}: {err}");
        assert!(!err.contains("Scale exceeds"), "{value}: {err}");
        // The spaced form reads `-inf` as the value, not as the flag `-i`.
        let err = refused(&home, &["backtest", "--quiet", "--initial-balance", value]);
        assert!(
            err.contains(said) && err.contains("--initial-balance"),
            "{value}: {err}"
        );
    }
    let err = refused(&home, &["backtest", "--quiet", "--initial-balance", "-5"]);
    // The trader's bounds, named as a range (issue 23 follow-up, item 2).
    assert!(err.contains("outside 0.01–1000000000000 USDT"), "{err}");
}

#[test]
fn an_unknown_setting_exits_2_and_lists_the_settings() {
    let (_guard, home) = home();
    let err = refused(&home, &["config", "set", "assistant.modle", "x"]);
    assert!(err.contains("assistant.model"), "{err}");
    refused(&home, &["config", "unset", "nope"]);
}

#[test]
fn setting_and_clearing_the_assistant_model_is_audited() {
    let (_guard, home) = home();
    ok(
        &home,
        &[
            "model",
            "add",
            "--name",
            "ds",
            "--provider",
            "deepseek",
            "--api-key",
            "sk-testkey0000000000000000",
        ],
    );
    ok(&home, &["config", "set", "assistant.model", "ds"]);
    ok(&home, &["config", "unset", "assistant.model"]);
    let audit = json(&home, &["audit"]);
    let settings: Vec<_> = audit
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["resource_kind"] == "setting")
        .collect();
    assert_eq!(settings.len(), 2, "{audit}");
    assert_eq!(settings[0]["detail"], "cleared");
    assert!(
        settings[1]["detail"].as_str().unwrap().starts_with("ds "),
        "{audit}"
    );
    assert!(!audit.to_string().contains("sk-testkey"));
}

#[test]
fn the_builtin_provider_asks_for_no_url() {
    let (_guard, home) = home();
    let out = run(&home, &["model", "providers"]);
    let listing = text(&out);
    let builtin = listing
        .lines()
        .find(|l| l.starts_with("builtin"))
        .unwrap_or_default();
    assert!(!builtin.contains("your URL"), "{listing}");
    let custom = listing
        .lines()
        .find(|l| l.starts_with("custom"))
        .unwrap_or_default();
    assert!(custom.contains("your URL"), "{listing}");
}

/// Every entry point reads coins with the one parser over `aliases.json`: a coin it does not
/// know is refused with the nearest known ones, never priced, replayed or stored.
#[test]
fn unknown_coins_are_refused_at_every_entry_point() {
    let (_guard, home) = home();
    let err = refused(&home, &["market", "price", "xyz"]);
    assert!(err.contains("unknown coin \"xyz\""), "{err}");
    let err = refused(&home, &["market", "price", "btcc"]);
    assert!(err.contains("did you mean BTC"), "{err}");
    ok(&home, &["market", "price", "比特币"]);
    let err = refused(&home, &["backtest", "--quiet", "--symbols", "btc,foo"]);
    assert!(
        err.contains("--symbols") && err.contains("\"foo\""),
        "{err}"
    );
    ok(&home, &["strategy", "add", "--name", "s1"]);
    let err = refused(&home, &["strategy", "update", "s1", "--coins", "btc, foo"]);
    assert!(
        err.contains("--coins") && err.contains("unknown coin \"FOO\""),
        "{err}"
    );
    ok(
        &home,
        &["strategy", "update", "s1", "--coins", "btc, 以太坊"],
    );
    let shown = json(&home, &["strategy", "show", "s1"]);
    assert_eq!(
        shown["config"]["coin_source"]["static_coins"],
        serde_json::json!(["BTCUSDT", "ETHUSDT"]),
        "{shown}"
    );
}

/// An exported credential variable is for the accounts that take it: `--type paper` ignores
/// it and says so; a flag typed for an unused field is still refused as a likely mix-up.
#[test]
fn an_exported_credential_a_type_does_not_use_is_ignored_and_said() {
    let (_guard, home) = home();
    let out = support::nofxi(
        &home,
        &["exchange", "add", "--type", "paper", "--name", "p"],
    )
    .env("NOFXI_API_KEY", support::K)
    .output()
    .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let said = text(&out);
    assert!(
        said.contains("NOFXI_API_KEY") && said.contains("ignored"),
        "{said}"
    );
    assert!(!said.contains(support::K), "{said}");
    let err = refused(
        &home,
        &[
            "exchange",
            "add",
            "--type",
            "paper",
            "--name",
            "q",
            "--api-key",
            "typed",
        ],
    );
    assert!(err.contains("--api-key"), "{err}");
}

/// Nothing is offered that cannot trade: `exchange add` refuses Gate, KuCoin, Aster and Lighter
/// by `--type`, naming the types that trade, and `exchange types` says so. An account of one
/// that an older nofxi made still lists, shows, updates and deletes, and `exchange test` and
/// `trader start` on it say plainly that trading on it is not available.
#[test]
fn a_type_nofxi_cannot_trade_on_is_not_offered_and_earlier_accounts_say_so() {
    use nofxi_domain::CredentialField as F;
    let (_guard, home) = home();
    for kind in ["gate", "kucoin", "aster", "lighter"] {
        let err = refused(
            &home,
            &[
                "exchange",
                "add",
                "--type",
                kind,
                "--name",
                "b",
                "--api-key",
                support::K,
            ],
        );
        assert!(err.contains("`--type`"), "{err}");
        assert!(err.contains(&format!("cannot trade on {kind}")), "{err}");
        assert!(
            err.contains("paper, binance, bybit, okx, bitget, hyperliquid"),
            "{err}"
        );
        assert!(!err.contains(support::K), "{err}");
    }
    assert_eq!(json(&home, &["exchange", "list"]), serde_json::json!([]));
    let types = ok(&home, &["exchange", "types"]);
    let gate = types.lines().find(|l| l.starts_with("gate")).unwrap();
    assert!(
        gate.contains("not available") && gate.contains("no"),
        "{types}"
    );
    let okx = types.lines().find(|l| l.starts_with("okx")).unwrap();
    assert!(!okx.contains("not available"), "{types}");
    let listed = json(&home, &["exchange", "types"]);
    assert_eq!(listed["binance"]["offered"], true, "{listed}");
    assert_eq!(listed["gate"]["offered"], false, "{listed}");
    assert_eq!(listed["gate"]["can_trade"], false, "{listed}");

    support::earlier::exchange(
        &home,
        "gate",
        "g1",
        &[(F::ApiKey, support::K), (F::SecretKey, support::S)],
    );
    let list = ok(&home, &["exchange", "list"]);
    let row = list.lines().find(|l| l.starts_with("g1")).unwrap();
    assert!(row.contains("gate (trading not available)"), "{list}");
    let shown = ok(&home, &["exchange", "show", "g1"]);
    assert!(shown.contains("trading     not available"), "{shown}");
    ok(
        &home,
        &[
            "exchange",
            "update",
            "g1",
            "--name",
            "g2",
            "--testnet",
            "true",
        ],
    );
    ok(
        &home,
        &[
            "exchange",
            "update",
            "g2",
            "--secret-key",
            "SECRETROTATED0123456789",
        ],
    );
    let test = support::fails(&home, &["exchange", "test", "g2"]);
    assert!(
        test.contains("trading on gate accounts is not available"),
        "{test}"
    );
    assert!(test.contains("neither check"), "{test}");
    assert!(!test.contains(support::S), "{test}");
    // The chat says the same in the user's language, and still renames the account.
    let said = chat_reply(&home, "test g2");
    assert!(
        said.contains("Trading on gate accounts is not available"),
        "{said}"
    );
    let said = chat_reply(&home, "测试一下 g2");
    assert!(said.contains("不能在 gate 账户上交易"), "{said}");
    let said = chat_reply(&home, "rename g2 to g3");
    assert!(said.contains("g3"), "{said}");
    let shown = ok(&home, &["exchange", "show", "g3"]);
    assert!(shown.contains("gate"), "{shown}");

    ok(
        &home,
        &["model", "add", "--name", "rules", "--provider", "builtin"],
    );
    ok(&home, &["strategy", "add", "--name", "default"]);
    ok(
        &home,
        &[
            "trader",
            "add",
            "--name",
            "t",
            "--model",
            "rules",
            "--exchange",
            "g3",
            "--strategy",
            "default",
        ],
    );
    let start = run(&home, &["trader", "start", "t", "--confirm-live"]);
    assert!(!start.status.success(), "{}", text(&start));
    assert!(
        text(&start).contains("trading on gate accounts is not available"),
        "{}",
        text(&start)
    );
    ok(&home, &["trader", "delete", "t"]);
    ok(&home, &["exchange", "delete", "g3"]);
    assert_eq!(json(&home, &["exchange", "list"]), serde_json::json!([]));
}

/// One `nofxi chat --json --new` turn; its reply.
fn chat_reply(home: &std::path::Path, message: &str) -> String {
    let out = support::with_input(
        &mut support::nofxi(home, &["chat", "--json", "--new"]),
        &format!("{message}\n"),
    );
    assert!(out.status.success(), "{}", text(&out));
    let first = String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()
        .unwrap_or_default()
        .to_string();
    let v: serde_json::Value = serde_json::from_str(&first).unwrap();
    v["reply"].as_str().unwrap_or_default().to_string()
}

/// One broken user SKILL.md costs that skill, not the chat: the rest loads, the broken file
/// is named with file:line:col.
#[test]
fn a_broken_user_skill_is_reported_and_the_chat_starts() {
    let (_guard, home) = home();
    let dir = home.join("skills").join("broken-one");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("SKILL.md"),
        "---\nname: broken-one\ndescription: x\n---\n\n```yaml\nskill: [unclosed\n```\n",
    )
    .unwrap();
    let out = support::with_input(&mut support::nofxi(&home, &["chat"]), "list exchanges\n");
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("broken-one/SKILL.md:"), "{said}");
    assert!(said.contains("skills lint"), "{said}");
}

/// Secrets piped in as bytes that are not UTF-8 are the user's input: exit 2, naming the flag
/// that reads them (`--api-key -`), not a reader's "stream did not contain valid UTF-8".
#[test]
fn secrets_on_stdin_that_are_not_text_name_the_flag() {
    use std::io::Write;
    let (_guard, home) = home();
    let mut child = support::nofxi(
        &home,
        &[
            "exchange",
            "add",
            "--type",
            "binance",
            "--name",
            "b",
            "--api-key",
            "-",
            "--secret-key",
            "-",
        ],
    )
    .stdin(std::process::Stdio::piped())
    .stdout(std::process::Stdio::piped())
    .stderr(std::process::Stdio::piped())
    .spawn()
    .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"\xff\xfekey\n\xc3secret\n").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let said = text(&out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.contains("--api-key -") && said.contains("UTF-8"),
        "{said}"
    );
}

/// A `NOFXI_BINANCE_BASE_URL` no request can go to is refused before any request, naming the
/// variable (exit 2); an address where nothing listens is named with where it came from and
/// the cause class, instead of "error sending request".
#[test]
fn a_binance_base_url_is_named_with_its_origin_and_cause() {
    let (_guard, home) = home();
    ok(
        &home,
        &[
            "exchange",
            "add",
            "--type",
            "binance",
            "--name",
            "main",
            "--api-key",
            support::K,
            "--secret-key",
            support::S,
        ],
    );
    let with_url = |url: &str, args: &[&str]| {
        support::nofxi(&home, args)
            .env("NOFXI_BINANCE_BASE_URL", url)
            .output()
            .unwrap()
    };
    for args in [
        &["exchange", "test", "main"][..],
        &["market", "klines", "btc", "--source", "binance"],
    ] {
        let out = with_url("notaurl", args);
        let said = text(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {said}");
        assert!(
            said.contains("NOFXI_BINANCE_BASE_URL") && !said.contains("builder error"),
            "{args:?}: {said}"
        );
    }
    let url = support::closed_port_url();
    let out = with_url(&url, &["exchange", "test", "main"]);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(
        said.contains(&url)
            && said.contains("from NOFXI_BINANCE_BASE_URL")
            && said.contains("connection refused"),
        "{said}"
    );
    assert!(
        !said.contains(support::K) && !said.contains(support::S),
        "{said}"
    );
}

/// The base-URL variables (`NOFXI_OKX_BASE_URL`, …) are for tests and for a proxy someone
/// runs on purpose: a venue that cannot be reached is explained by its name, its address
/// and the network, and a variable is named only when the user set it, and then only that
/// venue's own. On every live venue and a paper account following one, in `exchange test`
/// and the chat's "test": first with no variable set and this machine's proxy refusing, then
/// with the venue's variable pointed where nothing listens.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_unreachable_venue_names_no_variable_but_the_one_set() {
    use support::live::{self, Live};
    let proxy = support::closed_port_url();
    let behind_proxy = |mut cmd: std::process::Command| {
        for var in [
            "HTTPS_PROXY",
            "https_proxy",
            "HTTP_PROXY",
            "http_proxy",
            "ALL_PROXY",
        ] {
            cmd.env(var, &proxy);
        }
        cmd.env_remove("NO_PROXY").env_remove("no_proxy");
        cmd
    };
    let closed = support::closed_port_url();
    let others = |live: &Live, said: &str| -> Vec<String> {
        [
            "NOFXI_BINANCE_BASE_URL",
            "NOFXI_OKX_BASE_URL",
            "NOFXI_BYBIT_BASE_URL",
            "NOFXI_BITGET_BASE_URL",
            "NOFXI_HYPERLIQUID_BASE_URL",
        ]
        .into_iter()
        .filter(|v| *v != live.url_env && said.contains(v))
        .map(String::from)
        .collect()
    };
    for live in live::all().await {
        let venue = live.kind;
        let (_dir, home) = home();
        let mut add = vec!["exchange", "add", "--type", venue, "--name", "acct"];
        add.extend(live.credentials.iter().copied());
        ok(&home, &add);
        let paper = [
            "exchange", "add", "--type", "paper", "--name", "lp", "--market", venue,
        ];
        ok(&home, &paper);
        for account in ["acct", "lp"] {
            let test = ["exchange", "test", account];
            let out = support::output_async(behind_proxy(support::nofxi(&home, &test))).await;
            let said = text(&out);
            assert_eq!(out.status.code(), Some(1), "{venue} {account}: {said}");
            assert!(
                said.contains("What happened:") && said.contains(venue),
                "{venue} {account}: {said}"
            );
            assert!(
                !said.contains("NOFXI_") && !said.contains("BASE_URL"),
                "{venue} {account}: a variable nobody set is named: {said}"
            );
            let reply = support::chat(&home, behind_proxy, &format!("test {account}")).await;
            assert!(
                reply.contains("What happened:") && !reply.contains("NOFXI_"),
                "{venue} {account}: {reply}"
            );

            let at_closed = |mut cmd: std::process::Command| {
                cmd.env(live.url_env, &closed);
                cmd
            };
            let out = support::output_async(at_closed(support::nofxi(&home, &test))).await;
            let said = text(&out);
            assert_eq!(out.status.code(), Some(1), "{venue} {account}: {said}");
            let note = format!(
                "{} is set, so nofxi sent {venue}'s requests to {closed}",
                live.url_env
            );
            assert!(said.contains(&note), "{venue} {account}: {said}");
            assert_eq!(others(&live, &said), Vec::<String>::new(), "{said}");
            let reply = support::chat(&home, at_closed, &format!("test {account}")).await;
            assert!(reply.contains(&note), "{venue} {account}: {reply}");
            assert_eq!(others(&live, &reply), Vec::<String>::new(), "{reply}");
        }
    }
}

/// A credential flag given an empty value (`--passphrase ""`, `--api-key "  "`) is refused by
/// its flag, saying what to give, and changes nothing, on every live venue's account and on a
/// model's key: taken for "not given", `exchange update` said "updated" and kept the old one.
#[tokio::test(flavor = "multi_thread")]
async fn an_empty_credential_is_refused_by_its_flag_and_changes_nothing() {
    for live in support::live::all().await {
        let (_dir, home) = home();
        let mut add = vec!["exchange", "add", "--type", live.kind, "--name", "acct"];
        add.extend(live.credentials.iter().copied());
        ok(&home, &add);
        let before = json(&home, &["exchange", "show", "acct"]);
        for flag in live.credentials.iter().step_by(2) {
            for empty in ["", "  "] {
                let err = refused(&home, &["exchange", "update", "acct", flag, empty]);
                assert!(
                    err.contains(&format!("`{flag}` is empty: give ")),
                    "{} {flag} {empty:?}: {err}",
                    live.kind
                );
            }
        }
        let err = refused(
            &home,
            &[
                "exchange",
                "update",
                "acct",
                "--name",
                "renamed",
                live.credentials[0],
                "",
            ],
        );
        assert!(err.contains("is empty"), "{err}");
        assert_eq!(
            json(&home, &["exchange", "show", "acct"]),
            before,
            "{}: an empty value changed the account",
            live.kind
        );
        let audit = ok(&home, &["audit"]);
        assert!(!audit.contains("update"), "{audit}");
    }
    let (_dir, home) = home();
    let err = refused(
        &home,
        &[
            "exchange",
            "add",
            "--type",
            "okx",
            "--name",
            "o",
            "--api-key",
            "AKIAKEY0123456789",
            "--secret-key",
            "SECRET0123456789abc",
            "--passphrase",
            "",
        ],
    );
    assert!(
        err.contains(
            "`--passphrase` is empty: give the passphrase you set when creating the OKX API key"
        ),
        "{err}"
    );
    ok(
        &home,
        &[
            "model",
            "add",
            "--name",
            "ds",
            "--provider",
            "deepseek",
            "--api-key",
            "sk-0123456789abcdef0123",
        ],
    );
    let before = json(&home, &["model", "show", "ds"]);
    let err = refused(&home, &["model", "update", "ds", "--api-key", ""]);
    assert!(
        err.contains(
            "`--api-key` is empty: give the API key shown when you created it on DeepSeek"
        ),
        "{err}"
    );
    assert_eq!(json(&home, &["model", "show", "ds"]), before);
}
