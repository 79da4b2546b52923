//! `nofxi KIND update NAME` with nothing to change is refused (exit 2) naming what it takes,
//! and records nothing: it used to say "updated" and write an audit entry for no change.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use support::{home, ok, paper_basics, run};

#[test]
fn an_update_that_changes_nothing_is_refused_and_recorded_nowhere() {
    let (_dir, home) = home();
    paper_basics(&home, "rules");
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
            "paper",
            "--strategy",
            "default",
        ],
    );
    let before = ok(&home, &["audit"]);
    for (kind, name, flag) in [
        ("model", "rules", "--model-name"),
        ("strategy", "default", "--description"),
        ("exchange", "paper", "--testnet"),
        ("trader", "t", "--initial-balance"),
    ] {
        let out = run(&home, &[kind, "update", name]);
        let said = String::from_utf8_lossy(&out.stderr).to_string();
        assert_eq!(out.status.code(), Some(2), "{kind}: {said}");
        assert!(
            said.contains("nothing to change") && said.contains(flag),
            "{kind}: {said}"
        );
    }
    assert_eq!(ok(&home, &["audit"]), before, "nothing recorded");
    // A real change still goes through.
    ok(
        &home,
        &["trader", "update", "t", "--initial-balance", "2000"],
    );
}
