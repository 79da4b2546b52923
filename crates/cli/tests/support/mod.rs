//! Running the real `nofxi` binary in a sandbox, and looking at what it left on disk.

#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

pub mod earlier;
pub mod live;

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
        "NOFXI_SIM_SEED",
        "NOFXI_BINANCE_BASE_URL",
        "NOFXI_OKX_BASE_URL",
        "NOFXI_BITGET_BASE_URL",
        "NOFXI_BYBIT_BASE_URL",
        "NOFXI_HYPERLIQUID_BASE_URL",
    ] {
        cmd.env_remove(var);
    }
    cmd.args(args).stdin(Stdio::null());
    cmd
}

pub fn run(home: &Path, args: &[&str]) -> Output {
    nofxi(home, args).output().unwrap()
}

/// Run `cmd` with `input` on its standard input, capturing its output.
pub fn with_input(cmd: &mut Command, input: &str) -> Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// A paper account `paper`, a builtin model called `model` and a strategy `default`: what a
/// trader needs, offline.
pub fn paper_basics(home: &Path, model: &str) {
    ok(
        home,
        &["exchange", "add", "--type", "paper", "--name", "paper"],
    );
    ok(
        home,
        &["model", "add", "--name", model, "--provider", "builtin"],
    );
    ok(home, &["strategy", "add", "--name", "default"]);
}

/// One `nofxi chat --json --new` turn of `message` in `home`, the command first set up by
/// `prepared` (a mock's address); its reply.
pub async fn chat(home: &Path, prepared: impl FnOnce(Command) -> Command, message: &str) -> String {
    let mut cmd = prepared(nofxi(home, &["chat", "--json", "--new"]));
    let line = format!("{message}\n");
    let out: Output = tokio::task::spawn_blocking(move || with_input(&mut cmd, &line))
        .await
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let first = String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()
        .unwrap_or_default()
        .to_string();
    let v: Value = serde_json::from_str(&first).unwrap_or(Value::Null);
    v["reply"].as_str().unwrap_or(&first).to_string()
}

/// `http://127.0.0.1:PORT` where nothing listens: a venue that cannot be reached, offline.
pub fn closed_port_url() -> String {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    url
}

/// A fresh home; keep the guard alive for as long as the path is used.
pub fn home() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().to_path_buf();
    (dir, path)
}

/// Runs the command off the async runtime, so an in-process mock server keeps serving.
pub async fn output_async(mut cmd: Command) -> Output {
    tokio::task::spawn_blocking(move || cmd.output().unwrap())
        .await
        .unwrap()
}

/// [`run`] for tests that talk to an in-process mock.
pub async fn run_async(home: &Path, args: &[&str]) -> Output {
    output_async(nofxi(home, args)).await
}

/// Stdout then stderr, for assertion messages and for text that may land on either.
pub fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
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

/// Runs a command that must be refused as a usage error (exit 2); its stderr.
pub fn refused(home: &Path, args: &[&str]) -> String {
    exits_with(home, args, 2)
}

/// Runs a command that must fail (exit 1); its stderr.
pub fn fails(home: &Path, args: &[&str]) -> String {
    exits_with(home, args, 1)
}

fn exits_with(home: &Path, args: &[&str], code: i32) -> String {
    let out = run(home, args);
    assert_eq!(
        out.status.code(),
        Some(code),
        "nofxi {args:?} should exit with {code}"
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

/// A `deepseek` model config named `ds` at `base_url` (a mock LLM's, in tests) with `key`.
pub async fn add_deepseek_model(home: &Path, base_url: &str, key: &str) {
    let args = [
        "model",
        "add",
        "--name",
        "ds",
        "--provider",
        "deepseek",
        "--base-url",
        base_url,
        "--api-key",
        key,
    ];
    let out = run_async(home, &args).await;
    assert!(out.status.success(), "{}", text(&out));
}
