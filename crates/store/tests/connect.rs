//! Opening a PostgreSQL store that is not there fails fast, once, and names the fix: a
//! server that accepts and never answers used to hold a command for sqlx's 30 s default, and
//! a missing database's error was printed three times over.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

use std::time::{Duration, Instant};

use nofxi_store::{Database, KeySpec, Store, StoreConfig, StoreError};

fn config(url: String, home: &std::path::Path) -> StoreConfig {
    StoreConfig {
        database: Database::Postgres(url),
        key: KeySpec::EnvOrFile {
            home: home.to_path_buf(),
        },
    }
}

/// The error and its sources, as the CLI prints them (`{:#}` of an anyhow error).
fn chain(err: &(dyn std::error::Error + 'static)) -> String {
    let mut out = err.to_string();
    let mut next = err.source();
    while let Some(e) = next {
        out.push_str(": ");
        out.push_str(&e.to_string());
        next = e.source();
    }
    out
}

#[tokio::test]
async fn a_silent_postgres_is_given_up_on_within_seconds_with_the_url_redacted() {
    // Accepts connections (the kernel's backlog) and never says a word.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let home = tempfile::tempdir().unwrap();
    let url = format!("postgres://nofxi:hunter2pw@127.0.0.1:{port}/nofxi");
    let started = Instant::now();
    let err = Store::open_with(config(url, home.path()))
        .await
        .unwrap_err();
    let took = started.elapsed();
    assert!(took < Duration::from_secs(12), "waited {took:?}");
    assert!(
        matches!(err, StoreError::PostgresUnreachable { .. }),
        "{err}"
    );
    let text = chain(&err);
    assert!(!text.contains("hunter2pw"), "{text}");
    assert!(text.contains(&format!("127.0.0.1:{port}")), "{text}");
    assert!(text.contains("NOFXI_DATABASE_URL"), "{text}");
    drop(listener);
}

#[tokio::test]
async fn a_missing_database_is_said_once() {
    let home = tempfile::tempdir().unwrap();
    let url = "postgres://postgres@127.0.0.1:5432/nofxi_no_such_database_d".to_string();
    let err = Store::open_with(config(url, home.path()))
        .await
        .unwrap_err();
    let text = chain(&err);
    assert_eq!(text.matches("does not exist").count(), 1, "{text}");
}
