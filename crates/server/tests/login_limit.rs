//! The login limit (5 failed logins per 5 minutes per user from one client address and per
//! address, 50 per user name from all addresses) over real loopback HTTP, on SQLite and
//! PostgreSQL: it is kept in the database, so two
//! `serve` processes on one database share it, and behind a proxy (`serve --behind-proxy`)
//! it is keyed on the forwarded client address, so one proxy address does not lock out every
//! user; without the flag forwarded headers are ignored (a client can write them).

use std::sync::Arc;

use std::net::SocketAddr;

use nofxi_domain::Secret;
use nofxi_server::{ForwardedHeader, ProxyTrust, ServeOptions};
use nofxi_store::test_support::{TEST_KEY_HEX, TestStore, postgres_store, sqlite_store};
use nofxi_store::vault::key::KeySpec;
use nofxi_store::{Store, StoreConfig};
use serde_json::json;
use zeroize::Zeroizing;

mod support;

use support::{Running, TestResult, start_server, start_with};

const PASSWORD: &str = "correct horse battery";

/// A second handle on the same database, as another `nofxi serve` process opens it.
async fn second_handle(ts: &TestStore) -> Result<Arc<Store>, Box<dyn std::error::Error>> {
    let config = StoreConfig {
        database: ts.store.database().clone(),
        key: KeySpec::Text(Zeroizing::new(TEST_KEY_HEX.to_string())),
    };
    Ok(Arc::new(Store::open_with(config).await?))
}

/// The status of a login to `base`, with `forwarded` as its X-Forwarded-For when given.
async fn login(
    http: &reqwest::Client,
    base: &str,
    user: &str,
    password: &str,
    forwarded: Option<&str>,
) -> Result<u16, reqwest::Error> {
    let mut request = http
        .post(format!("{base}/api/login"))
        .json(&json!({"user": user, "password": password}));
    if let Some(chain) = forwarded {
        request = request.header("X-Forwarded-For", chain);
    }
    Ok(request.send().await?.status().as_u16())
}

async fn shared_by_two_servers(ts: TestStore) -> TestResult {
    ts.store.add_user("alice", &Secret::new(PASSWORD)).await?;
    let other = second_handle(&ts).await?;
    let a = start_server(ts.store.clone(), None).await?;
    let b = start_server(other.clone(), None).await?;
    let http = reqwest::Client::new();
    // Five wrong passwords for alice, spread over both servers.
    for base in [&a.base, &b.base, &a.base, &b.base, &a.base] {
        assert_eq!(
            login(&http, base, "alice", "wrong password!", None).await?,
            401
        );
    }
    // Either server now refuses the sixth try, even with the right password.
    assert_eq!(login(&http, &b.base, "alice", PASSWORD, None).await?, 429);
    assert_eq!(login(&http, &a.base, "alice", PASSWORD, None).await?, 429);
    a.stop().await?;
    b.stop().await?;
    other.close().await;
    ts.cleanup().await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_on_one_sqlite_file_share_the_limit() -> TestResult {
    shared_by_two_servers(sqlite_store().await?).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_on_one_postgres_database_share_the_limit() -> TestResult {
    shared_by_two_servers(postgres_store().await?).await
}

async fn serve_behind(ts: &TestStore, proxy: ProxyTrust) -> TestResult<Running> {
    let options = ServeOptions {
        addr: SocketAddr::from(([127, 0, 0, 1], 0)),
        engine: None,
        web_dir: None,
        proxy,
        history_dir: None,
    };
    start_with(ts.store.clone(), options).await
}

async fn behind_a_proxy(ts: TestStore) -> TestResult {
    ts.store.add_user("alice", &Secret::new(PASSWORD)).await?;
    let proxy = ProxyTrust {
        header: Some(ForwardedHeader::XForwardedFor),
        trusted: vec!["10.0.0.0/8".parse()?],
    };
    let server = serve_behind(&ts, proxy).await?;
    let http = reqwest::Client::new();
    let base = &server.base;
    // One client guesses five user names (each name has budget left: the address runs out).
    for i in 0..5 {
        let user = format!("guess{i}");
        let status = login(&http, base, &user, "wrong password!", Some("203.0.113.7")).await?;
        assert_eq!(status, 401);
    }
    let guesser = login(
        &http,
        base,
        "guess9",
        "wrong password!",
        Some("203.0.113.7"),
    )
    .await?;
    assert_eq!(guesser, 429);
    // What the client writes to the left of the proxy's entry changes nothing; a proxy of
    // its own in the chain is skipped.
    for chain in ["198.51.100.9, 203.0.113.7", "203.0.113.7, 10.4.5.6"] {
        assert_eq!(
            login(&http, base, "guess9", "wrong password!", Some(chain)).await?,
            429,
            "{chain}"
        );
    }
    // Every other user behind the same proxy still logs in.
    assert_eq!(
        login(&http, base, "alice", PASSWORD, Some("198.51.100.9")).await?,
        200
    );
    server.stop().await?;

    // Without the flag the header is the client's own text: it is ignored, and the socket's
    // address (the same for every request here) runs out whatever each request claims.
    let server = serve_behind(&ts, ProxyTrust::default()).await?;
    let base = &server.base;
    for i in 0..5 {
        let (user, claimed) = (format!("other{i}"), format!("192.0.2.{i}"));
        let status = login(&http, base, &user, "wrong password!", Some(&claimed)).await?;
        assert_eq!(status, 401);
    }
    let status = login(&http, base, "other9", "wrong password!", Some("192.0.2.99")).await?;
    assert_eq!(status, 429);
    server.stop().await?;
    ts.cleanup().await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_a_proxy_each_forwarded_client_has_its_own_budget_on_sqlite() -> TestResult {
    behind_a_proxy(sqlite_store().await?).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_a_proxy_each_forwarded_client_has_its_own_budget_on_postgres() -> TestResult {
    behind_a_proxy(postgres_store().await?).await
}

/// Five wrong passwords for alice locked alice out from every address, the right password
/// included: anyone who knew her name could keep her out. Failures count per (user, address)
/// and per address; a user name alone has only a much higher ceiling, against guessing spread
/// over many addresses.
async fn a_user_name_alone_is_no_lock(ts: TestStore) -> TestResult {
    ts.store.add_user("alice", &Secret::new(PASSWORD)).await?;
    ts.store.add_user("bob", &Secret::new(PASSWORD)).await?;
    let proxy = ProxyTrust {
        header: Some(ForwardedHeader::XForwardedFor),
        trusted: vec!["10.0.0.0/8".parse()?],
    };
    let server = serve_behind(&ts, proxy).await?;
    let http = reqwest::Client::new();
    let base = &server.base;
    let attacker = Some("203.0.113.7");
    for _ in 0..5 {
        let status = login(&http, base, "alice", "wrong password!", attacker).await?;
        assert_eq!(status, 401);
    }
    assert_eq!(login(&http, base, "alice", PASSWORD, attacker).await?, 429);
    // Alice, from her own address, is not locked out by what another address did.
    assert_eq!(
        login(&http, base, "alice", PASSWORD, Some("198.51.100.9")).await?,
        200
    );
    // Guessing bob's password from many addresses, a few tries each, meets the ceiling.
    for i in 0..50 {
        let from = format!("192.0.2.{i}");
        let status = login(&http, base, "bob", "wrong password!", Some(&from)).await?;
        assert_eq!(status, 401, "try {i}");
    }
    assert_eq!(
        login(&http, base, "bob", PASSWORD, Some("192.0.2.200")).await?,
        429
    );
    server.stop().await?;
    ts.cleanup().await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_user_name_alone_is_no_lock_on_sqlite() -> TestResult {
    a_user_name_alone_is_no_lock(sqlite_store().await?).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_user_name_alone_is_no_lock_on_postgres() -> TestResult {
    a_user_name_alone_is_no_lock(postgres_store().await?).await
}
