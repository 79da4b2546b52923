//! Running the real `nofxi` binary in a sandbox, and looking at what it left on disk.

#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

pub const K: &str = "AKIAKEYMATERIAL7f3e9c1d2b";
pub const S: &str = "SECRETMATERIAL9a8b7c6d5e4f3";

/// A sandboxed invocation: its own home, no inherited nofxi variables.
pub fn nofxi(home: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_nofxi"));
    cmd.env("NOFXI_HOME", home)
        .env_remove("NOFXI_DATABASE_URL")
        .env_remove("NOFXI_MASTER_KEY");
    for var in [
        "NOFXI_API_KEY",
        "NOFXI_SECRET_KEY",
        "NOFXI_PASSPHRASE",
        "NOFXI_WALLET_ADDR",
        "NOFXI_ASTER_USER",
        "NOFXI_SIGNER",
        "NOFXI_PRIVATE_KEY",
        "NOFXI_API_KEY_PRIVATE_KEY",
        "NOFXI_API_KEY_INDEX",
    ] {
        cmd.env_remove(var);
    }
    cmd.args(args).stdin(Stdio::null());
    cmd
}

pub fn run(home: &Path, args: &[&str]) -> Output {
    nofxi(home, args).output().unwrap()
}

pub fn ok(home: &Path, args: &[&str]) -> String {
    let out = run(home, args);
    assert!(
        out.status.success(),
        "nofxi {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

pub fn json(home: &Path, args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    serde_json::from_str(&ok(home, &all)).unwrap()
}

pub fn fails(home: &Path, args: &[&str]) -> String {
    let out = run(home, args);
    assert_eq!(
        out.status.code(),
        Some(1),
        "nofxi {args:?} should fail with 1"
    );
    String::from_utf8(out.stderr).unwrap()
}

pub fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack
        .windows(needle.len())
        .any(|w| w == needle.as_bytes())
}

/// Every file in the home (db, -wal, -shm, key) is free of the needles.
pub fn assert_home_clean(home: &Path, needles: &[&str]) {
    for entry in std::fs::read_dir(home).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            let bytes = std::fs::read(&path).unwrap();
            for needle in needles {
                assert!(!contains(&bytes, needle), "{needle} in {}", path.display());
            }
        }
    }
}

pub fn add_binance(home: &Path) {
    ok(
        home,
        &[
            "exchange",
            "add",
            "--type",
            "binance",
            "--name",
            "main",
            "--api-key",
            K,
            "--secret-key",
            S,
        ],
    );
}
