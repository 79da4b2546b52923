//! `nofxi serve --behind-proxy` with the real binary: failed logins count per client address
//! the proxy forwards (X-Forwarded-For's right-most entry), so one guessing client runs out
//! and another user behind the same proxy still logs in; `--trusted-proxy` needs the flag.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::io::{BufRead, BufReader};
use std::process::{Child, Stdio};

use serde_json::json;
use support::{home, nofxi, refused, text, with_input};

const PASSWORD: &str = "tr0ub4dor&3-horse";

/// Kills the server when the test ends, however it ends.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_a_proxy_logins_are_limited_per_forwarded_client() {
    let (_guard, home) = home();
    let out = with_input(
        &mut nofxi(&home, &["user", "add", "alice"]),
        &format!("{PASSWORD}\n"),
    );
    assert!(out.status.success(), "{}", text(&out));
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let addr = format!("127.0.0.1:{port}");
    let mut child = nofxi(
        &home,
        &[
            "serve",
            "--no-engine",
            "--addr",
            &addr,
            "--behind-proxy",
            "--trusted-proxy",
            "10.0.0.0/8",
        ],
    )
    .stdout(Stdio::piped())
    .stderr(Stdio::null())
    .spawn()
    .unwrap();
    // Kept open while the server runs: it prints more lines, and a closed pipe ends it.
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let server = Server(child);
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    assert!(first.contains("serving on"), "{first}");

    let http = reqwest::Client::new();
    let login = async |user: &str, password: &str, chain: &str| {
        http.post(format!("http://{addr}/api/login"))
            .header("X-Forwarded-For", chain)
            .json(&json!({"user": user, "password": password}))
            .send()
            .await
            .unwrap()
            .status()
            .as_u16()
    };
    for i in 0..5 {
        let user = format!("guess{i}");
        assert_eq!(login(&user, "wrong password", "203.0.113.7").await, 401);
    }
    assert_eq!(
        login("guess9", "wrong password", "6.6.6.6, 203.0.113.7, 10.0.0.9").await,
        429
    );
    assert_eq!(login("alice", PASSWORD, "198.51.100.9").await, 200);
    drop(server);
    drop(stdout);

    // A further proxy without the first one is a usage error naming the flag it needs.
    let err = refused(&home, &["serve", "--trusted-proxy", "10.0.0.0/8"]);
    assert!(err.contains("--behind-proxy"), "{err}");
    let err = refused(
        &home,
        &["serve", "--behind-proxy", "--trusted-proxy", "10.0.0.0/33"],
    );
    assert!(err.contains("--trusted-proxy"), "{err}");
}
