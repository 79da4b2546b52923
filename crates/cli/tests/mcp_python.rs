//! The Done-when of MCP, with the official Python SDK as the client (`tests/mcp/client.py`):
//! over stdio (the client spawns `nofxi mcp`, as Claude Desktop does) and over HTTP (a running
//! `nofxi serve` and an API token), a paper trader is created, started, its journal read, and
//! its delete refused until the confirmed second call.
//!
//! Needs Python with the `mcp` package: `.ci/run` makes a venv and sets `NOFXI_MCP_PYTHON`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

use support::{home, nofxi, ok, paper_basics, with_input};

const SETUP: &str = "python3 -m venv ~/.cache/nofxi/mcp-venv && ~/.cache/nofxi/mcp-venv/bin/pip install 'mcp==2.3.0' && export NOFXI_MCP_PYTHON=~/.cache/nofxi/mcp-venv/bin/python";

fn python() -> String {
    let python = std::env::var("NOFXI_MCP_PYTHON").unwrap_or_else(|_| "python3".into());
    let probe = Command::new(&python).args(["-c", "import mcp"]).output();
    match probe {
        Ok(out) if out.status.success() => python,
        _ => panic!(
            "these tests need Python with the MCP SDK (`{python}` cannot `import mcp`): {SETUP}"
        ),
    }
}

fn client(home: &Path, args: &[&str]) {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mcp/client.py");
    let out = Command::new(python())
        .arg(script)
        .args(args)
        .env("NOFXI_HOME", home)
        .env_remove("NOFXI_DATABASE_URL")
        .env_remove("NOFXI_MASTER_KEY")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stdout.contains("PASS"),
        "the MCP client failed:\n{stdout}\n{stderr}"
    );
}

/// The arguments of the README's `mcpServers` entry for nofxi: the test runs what a user
/// pastes.
fn readme_server_args() -> Vec<String> {
    let readme = include_str!("../../../README.md");
    let entry = readme
        .lines()
        .find(|l| l.contains("\"mcpServers\"") && l.contains("\"command\""))
        .expect("the README shows an mcpServers entry with a command");
    let config: serde_json::Value = serde_json::from_str(entry).expect("it is JSON");
    let server = &config["mcpServers"]["nofxi"];
    assert_eq!(server["command"], "nofxi");
    server["args"]
        .as_array()
        .expect("it has args")
        .iter()
        .filter_map(|a| a.as_str().map(str::to_string))
        .collect()
}

#[test]
fn the_python_sdk_drives_nofxi_over_stdio_as_the_readme_configures_it() {
    let (_guard, home) = home();
    paper_basics(&home, "builtin");
    let mut args = vec!["stdio".to_string(), env!("CARGO_BIN_EXE_nofxi").to_string()];
    args.extend(readme_server_args());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    client(&home, &args);
}

#[test]
fn the_python_sdk_drives_nofxi_over_http_with_a_token() {
    let (_guard, home) = home();
    paper_basics(&home, "builtin");
    // A user who logs in makes the server multi-user: then only an API token opens /mcp.
    let added = with_input(
        &mut nofxi(&home, &["user", "add", "local"]),
        "a long enough password\n",
    );
    assert!(
        added.status.success(),
        "{}",
        String::from_utf8_lossy(&added.stderr)
    );
    let token = ok(
        &home,
        &[
            "token",
            "create",
            "--label",
            "agent",
            "--scopes",
            "read,write,trade",
        ],
    );
    let token = token.trim().to_string();
    let mut serve = nofxi(
        &home,
        &["serve", "--addr", "127.0.0.1:0", "--cycle-seconds", "1"],
    )
    .stdout(Stdio::piped())
    .stderr(Stdio::null())
    .spawn()
    .unwrap();
    // Held open until the end: the server writes more lines, and a closed pipe would end it.
    let mut said = BufReader::new(serve.stdout.take().unwrap());
    let mut first = String::new();
    said.read_line(&mut first).unwrap();
    let url = first
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .map(|u| format!("{}mcp", u))
        .unwrap_or_else(|| panic!("no address in {first:?}"));
    client(&home, &["http", &url, &token]);
    let _ = serve.kill();
    let _ = serve.wait();
    drop(said);
}
