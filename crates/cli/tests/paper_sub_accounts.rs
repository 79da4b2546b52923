//! `exchange balance|positions` on a paper account its traders trade: the figures come from
//! each trader's own sub-account (funded with its initial balance, moved by its fills), not
//! from the account's untouched 10 000 USDT wallet.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use support::*;

#[test]
fn balance_and_positions_of_a_paper_account_show_each_traders_sub_account() {
    let (_dir, home) = home();
    ok(
        &home,
        &["exchange", "add", "--type", "paper", "--name", "paper"],
    );
    ok(
        &home,
        &["model", "add", "--name", "rules", "--provider", "builtin"],
    );
    ok(&home, &["strategy", "add", "--name", "default"]);
    for (name, balance) in [("alpha", "1234"), ("beta", "777")] {
        ok(
            &home,
            &[
                "trader",
                "add",
                "--name",
                name,
                "--model",
                "rules",
                "--exchange",
                "paper",
                "--strategy",
                "default",
                "--initial-balance",
                balance,
            ],
        );
        // Start's preflight opens the trader's sub-account.
        ok(&home, &["trader", "start", name]);
    }
    let v = json(&home, &["exchange", "balance", "paper"]);
    let rows = v.as_array().expect("one row per trader's sub-account");
    let mut seen: Vec<(String, String)> = rows
        .iter()
        .map(|r| {
            (
                r["trader"].as_str().unwrap().to_string(),
                r["equity"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    seen.sort();
    assert_eq!(
        seen,
        [
            ("alpha".into(), "1234".into()),
            ("beta".into(), "777".into())
        ]
    );
    let text = ok(&home, &["exchange", "balance", "paper"]);
    assert!(
        text.contains("alpha") && text.contains("sub-account"),
        "{text}"
    );
    assert!(!text.contains("10000"), "{text}");
    let positions = ok(&home, &["exchange", "positions", "paper"]);
    assert!(positions.contains("sub-account"), "{positions}");
}
