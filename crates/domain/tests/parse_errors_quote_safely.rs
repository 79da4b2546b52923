//! What a user typed, repeated by a refusal to parse it (issue 47, item 10): `--interval`,
//! a coin, `--type`, a resource kind or a channel came back through `{:?}`, which escapes
//! controls but repeats any length, so a 10 KB argument filled the screen. Each is shown by
//! `shown_input`: hidden characters as escapes, a long value cut with `…`.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

use std::str::FromStr;

use nofxi_domain::market::Symbol;
use nofxi_domain::validation::hidden_character;
use nofxi_domain::{Channel, CredentialField, ExchangeType, Interval, ResourceKind};

fn hostile() -> String {
    format!(
        "\u{1b}]0;pwned\u{7}\u{1b}[2J\u{200b}\u{202e}{}",
        "x".repeat(10 * 1024)
    )
}

fn assert_shown_safely(what: &str, said: &str) {
    let head: String = said.chars().take(300).collect();
    assert!(
        !said.chars().any(hidden_character),
        "{what}: raw hidden character in {head:?}"
    );
    assert!(said.len() < 2000, "{what}: {} bytes: {head:?}", said.len());
    assert!(
        said.contains("\\u{1b}]0;pwned") && said.contains('…'),
        "{what}: {head}"
    );
}

#[test]
fn every_parse_error_shows_the_typed_text_escaped_and_cut() {
    let h = hostile();
    let said = [
        ("symbol", Symbol::parse(&h).unwrap_err().to_string()),
        (
            "known symbol",
            Symbol::parse_known(&h).unwrap_err().to_string(),
        ),
        ("interval", Interval::from_str(&h).unwrap_err().to_string()),
        ("resource kind", ResourceKind::from_str(&h).unwrap_err()),
        ("exchange type", ExchangeType::from_str(&h).unwrap_err()),
        (
            "credential field",
            CredentialField::from_str(&h).unwrap_err(),
        ),
        ("channel", Channel::from_str(&h).unwrap_err()),
    ];
    for (what, said) in &said {
        assert_shown_safely(what, said);
    }
}

/// The short, ordinary case keeps its words: the value quoted, the fix after it.
#[test]
fn an_ordinary_typo_is_still_quoted_whole() {
    let err = Symbol::parse_known("btcc").unwrap_err().to_string();
    assert!(
        err.contains("unknown coin \"btcc\"; did you mean BTC"),
        "{err}"
    );
    let err = Interval::from_str("90m").unwrap_err().to_string();
    assert!(
        err.contains("unknown interval \"90m\": use one of"),
        "{err}"
    );
}
