//! Credentials from the environment go only where they are used, and a credential value with
//! a blank or invisible character inside is refused wherever it comes from (issue 23
//! follow-up, items 1 and 4).
#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

mod support;

use std::path::Path;
use std::process::Output;

use support::{K, S, home, json, nofxi, text, with_input};

const OTHER: &str = "sk-OTHERKEYMATERIAL0a1b2c3d4e5";

fn with_env(home: &Path, args: &[&str], vars: &[(&str, &str)]) -> Output {
    let mut cmd = nofxi(home, args);
    for (k, v) in vars {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

fn succeeded(out: &Output) -> String {
    assert!(out.status.success(), "{}", text(out));
    let said = text(out);
    for secret in [K, S, OTHER] {
        assert!(!said.contains(secret), "a credential was printed: {said}");
    }
    said
}

fn masked_key(home: &Path, model: &str) -> serde_json::Value {
    json(home, &["model", "show", model])["api_key_masked"].clone()
}

#[test]
fn an_exported_key_is_used_on_add_where_needed_and_said() {
    let (_guard, home) = home();
    let env = [("NOFXI_API_KEY", K), ("NOFXI_SECRET_KEY", S)];
    let out = with_env(
        &home,
        &["exchange", "add", "--type", "binance", "--name", "bn"],
        &env,
    );
    let said = succeeded(&out);
    assert!(said.contains("api_key taken from NOFXI_API_KEY"), "{said}");
    assert!(
        said.contains("secret_key taken from NOFXI_SECRET_KEY"),
        "{said}"
    );
    let out = with_env(
        &home,
        &["model", "add", "--name", "ds", "--provider", "deepseek"],
        &env,
    );
    let said = succeeded(&out);
    assert!(said.contains("api_key taken from NOFXI_API_KEY"), "{said}");
    assert!(json(&home, &["model", "show", "ds"])["has_api_key"] == true);
}

#[test]
fn an_update_changes_a_stored_key_only_when_a_flag_asks() {
    let (_guard, home) = home();
    let env = [("NOFXI_API_KEY", K), ("NOFXI_SECRET_KEY", S)];
    succeeded(&with_env(
        &home,
        &["model", "add", "--name", "ds", "--provider", "deepseek"],
        &env,
    ));
    succeeded(&with_env(
        &home,
        &["exchange", "add", "--type", "binance", "--name", "bn"],
        &env,
    ));
    let before = masked_key(&home, "ds");
    let exchange_before = json(&home, &["exchange", "show", "bn"])["credentials"].clone();
    let out = with_env(
        &home,
        &["model", "update", "ds", "--model-name", "deepseek-reasoner"],
        &[("NOFXI_API_KEY", OTHER)],
    );
    let said = succeeded(&out);
    assert!(
        said.contains("NOFXI_API_KEY") && said.contains("ignored"),
        "{said}"
    );
    assert_eq!(
        masked_key(&home, "ds"),
        before,
        "the stored key was replaced"
    );
    let out = with_env(
        &home,
        &["exchange", "update", "bn", "--testnet", "true"],
        &[("NOFXI_API_KEY", OTHER), ("NOFXI_SECRET_KEY", OTHER)],
    );
    let said = succeeded(&out);
    assert!(
        said.contains("NOFXI_SECRET_KEY") && said.contains("ignored"),
        "{said}"
    );
    assert_eq!(
        json(&home, &["exchange", "show", "bn"])["credentials"],
        exchange_before
    );
    // Asked for by a flag, the new key is taken.
    let mut cmd = nofxi(&home, &["model", "update", "ds", "--api-key", "-"]);
    cmd.env("NOFXI_API_KEY", K);
    succeeded(&with_input(&mut cmd, &format!("{OTHER}\n")));
    assert_ne!(masked_key(&home, "ds"), before);
}

#[test]
fn an_exported_key_never_reaches_a_provider_that_needs_none() {
    let (_guard, home) = home();
    let env = [("NOFXI_API_KEY", K)];
    let out = with_env(
        &home,
        &["model", "add", "--name", "b", "--provider", "builtin"],
        &env,
    );
    let said = succeeded(&out);
    assert!(
        said.contains("builtin") && said.contains("ignored"),
        "{said}"
    );
    assert_eq!(json(&home, &["model", "show", "b"])["has_api_key"], false);
    let out = with_env(
        &home,
        &[
            "model",
            "add",
            "--name",
            "ol",
            "--provider",
            "ollama",
            "--base-url",
            "http://localhost:18200",
            "--model-name",
            "llama3",
        ],
        &env,
    );
    let said = succeeded(&out);
    assert!(
        said.contains("ollama") && said.contains("ignored"),
        "{said}"
    );
    // No key stored means none is sent: `model test` has nothing to put in Authorization.
    assert_eq!(json(&home, &["model", "show", "ol"])["has_api_key"], false);
    // The secret the exchange type does not use is ignored on add too.
    let out = with_env(
        &home,
        &["exchange", "add", "--type", "hyperliquid", "--name", "hl"],
        &[
            // Hyperliquid's api_key is a wallet private key: 64 hex characters.
            (
                "NOFXI_API_KEY",
                "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318",
            ),
            ("NOFXI_SECRET_KEY", S),
            (
                "NOFXI_WALLET_ADDR",
                "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
            ),
        ],
    );
    let said = succeeded(&out);
    assert!(
        said.contains("NOFXI_SECRET_KEY") && said.contains("ignored"),
        "{said}"
    );
    // A key typed for the offline rules is a mix-up, refused naming the flag.
    let out = with_env(
        &home,
        &[
            "model",
            "add",
            "--name",
            "b2",
            "--provider",
            "builtin",
            "--api-key",
            K,
        ],
        &[],
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("--api-key"), "{}", text(&out));
}

#[test]
fn a_credential_with_a_blank_or_invisible_character_inside_is_refused_at_every_entry() {
    let (_guard, home) = home();
    let add = ["model", "add", "--name", "ds", "--provider", "deepseek"];
    let flag = [&add[..], &["--api-key", "sk-with space inside"]].concat();
    let out = with_env(&home, &flag, &[]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let said = text(&out);
    assert!(
        said.contains("--api-key") && said.contains("U+0020"),
        "{said}"
    );
    assert!(!said.contains("with space"), "{said}");
    let out = with_env(
        &home,
        &add,
        &[("NOFXI_API_KEY", "sk-abcdef\u{200b}ghijklmn")],
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("U+200B"), "{}", text(&out));
    let stdin = [&add[..], &["--api-key", "-"]].concat();
    let out = with_input(&mut nofxi(&home, &stdin), "sk-abc\u{feff}defghijklmnop\n");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("U+FEFF"), "{}", text(&out));
    // A passphrase is a password the user chose: a space inside is kept there, surrounding
    // whitespace is trimmed.
    let out = with_env(
        &home,
        &[
            "exchange",
            "add",
            "--type",
            "okx",
            "--name",
            "ok",
            "--api-key",
            &format!("  {K}  "),
            "--secret-key",
            S,
            "--passphrase",
            "correct horse battery",
        ],
        &[],
    );
    succeeded(&out);
    let out = with_env(
        &home,
        &[
            "exchange",
            "add",
            "--type",
            "okx",
            "--name",
            "ok2",
            "--api-key",
            K,
            "--secret-key",
            S,
            "--passphrase",
            "zero\u{200d}width",
        ],
        &[],
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("--passphrase"), "{}", text(&out));
}

/// A model key exported as NOFXI_API_KEY was stored as a Hyperliquid account's private key
/// (its `api_key`), and a key in quotes or 100,000 characters long was stored as typed: each
/// is refused, by field, without the value.
#[test]
fn a_value_in_the_wrong_form_is_refused_by_field_without_being_repeated() {
    let (_guard, home) = home();
    let wallet = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
    let out = with_env(
        &home,
        &[
            "exchange",
            "add",
            "--type",
            "hyperliquid",
            "--name",
            "hl",
            "--wallet-addr",
            wallet,
        ],
        &[("NOFXI_API_KEY", OTHER)],
    );
    let said = text(&out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.contains("--api-key") && said.contains("64 hexadecimal") && !said.contains(OTHER),
        "{said}"
    );
    let quoted = format!("\"{K}\"");
    let long = "k".repeat(100_000);
    for value in [quoted.as_str(), long.as_str()] {
        let out = with_env(
            &home,
            &[
                "exchange",
                "add",
                "--type",
                "binance",
                "--name",
                "bn",
                "--api-key",
                value,
                "--secret-key",
                S,
            ],
            &[],
        );
        let said = text(&out);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{}",
            &said[..said.len().min(400)]
        );
        assert!(
            said.contains("--api-key") && !said.contains(K) && !said.contains(&long[..64]),
            "{}",
            &said[..said.len().min(400)]
        );
    }
}
