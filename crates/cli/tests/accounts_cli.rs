//! `nofxi user` and `nofxi token`: a password only from stdin or the prompt, short ones
//! refused naming the field (and never echoed), a token shown once and never listed, revoke
//! and disable taking effect, and no secret left readable in the home directory.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use support::*;

const PASSWORD: &str = "tr0ub4dor&3-horse";

#[test]
fn users_and_tokens_round_trip_without_showing_secrets() {
    let (_dir, home) = home();

    // A password on the command line would stay in shell history: refused.
    let err = refused(&home, &["user", "add", "alice", "--password", PASSWORD]);
    assert!(
        err.contains("--password") && !err.contains(PASSWORD),
        "{err}"
    );

    // Too short: the field and the rule are named, the password is not repeated.
    let out = with_input(&mut nofxi(&home, &["user", "add", "alice"]), "short1\n");
    let err = text(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("password") && err.contains("10"), "{err}");
    assert!(!err.contains("short1"), "{err}");

    let out = with_input(
        &mut nofxi(&home, &["user", "add", "alice"]),
        &format!("{PASSWORD}\n"),
    );
    assert!(out.status.success(), "{}", text(&out));
    let out = with_input(
        &mut nofxi(&home, &["user", "add", "Bad Name"]),
        &format!("{PASSWORD}\n"),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("NAME"), "{}", text(&out));

    let users = json(&home, &["user", "list"]);
    assert_eq!(users[0]["name"], "alice");
    assert_eq!(users[0]["active"], true);

    // A token is printed once; the list shows its id and scopes, never its text.
    let token = ok(
        &home,
        &[
            "token",
            "create",
            "--user",
            "alice",
            "--scopes",
            "read,trade",
        ],
    );
    let token = token.trim().to_string();
    assert!(token.starts_with("nofxi_"), "{token}");
    let err = refused(
        &home,
        &[
            "token",
            "create",
            "--user",
            "alice",
            "--scopes",
            "read,admin",
        ],
    );
    assert!(err.contains("scopes") && err.contains("admin"), "{err}");
    let listed = json(&home, &["token", "list", "--user", "alice"]);
    assert_eq!(listed[0]["scopes"], serde_json::json!(["read", "trade"]));
    assert!(!listed.to_string().contains(&token[20..]), "{listed}");
    let id = listed[0]["id"].as_str().unwrap().to_string();
    let revoked = json(&home, &["token", "revoke", &id, "--user", "alice"]);
    assert!(revoked["revoked_at"].is_i64(), "{revoked}");
    // Another user cannot revoke it by id.
    let err = fails(&home, &["token", "revoke", &id, "--user", "bob"]);
    assert!(err.contains(&id), "{err}");

    let disabled = json(&home, &["user", "disable", "alice"]);
    assert_eq!(disabled["active"], false);

    // Neither the password nor the token's secret is anywhere in the home directory.
    assert_home_clean(&home, &[PASSWORD, &token[20..]]);
}
