//! Issue 2's "Done when", run through the real `nofxi` binary on a temp `NOFXI_HOME`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use nofxi_domain::CredentialField;
use nofxi_store::{Database, KeySpec, Store, StoreConfig};
use serde_json::Value;
use support::*;

#[test]
fn added_exchange_lists_flags_and_no_key_material_anywhere() {
    let home = tempfile::tempdir().unwrap();
    add_binance(home.path());
    let out = ok(home.path(), &["exchange", "list", "--json"]);
    assert!(!out.contains(K) && !out.contains(S), "{out}");
    let list: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(list[0]["account_name"], "main");
    assert_eq!(list[0]["has_api_key"], true);
    assert_eq!(list[0]["has_secret_key"], true);
    let text = ok(home.path(), &["exchange", "show", "MAIN"]);
    assert!(!text.contains(K) && !text.contains(S), "{text}");
    assert!(home.path().join("nofxi.db").exists());
    assert_home_clean(home.path(), &[K, S]);
    // The vault key file is owner-only.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(home.path().join("vault.key"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
        let db_mode = std::fs::metadata(home.path().join("nofxi.db"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(db_mode & 0o777, 0o600);
    }
}

#[test]
fn okx_without_secret_and_passphrase_names_both_and_writes_nothing() {
    let home = tempfile::tempdir().unwrap();
    let err = refused(
        home.path(),
        &[
            "exchange",
            "add",
            "--type",
            "okx",
            "--name",
            "x",
            "--api-key",
            K,
        ],
    );
    assert!(err.contains("`--secret-key`"), "{err}");
    assert!(err.contains("`--passphrase`"), "{err}");
    assert!(
        err.contains("--secret-key") && err.contains("--passphrase"),
        "{err}"
    );
    assert_eq!(
        json(home.path(), &["exchange", "list"]),
        Value::Array(vec![])
    );
    assert_eq!(json(home.path(), &["audit"]), Value::Array(vec![]));
    assert_home_clean(home.path(), &[K]);
}

#[test]
fn duplicate_name_http_url_and_leverage_each_name_the_field() {
    let home = tempfile::tempdir().unwrap();
    add_binance(home.path());
    let err = refused(
        home.path(),
        &[
            "exchange",
            "add",
            "--type",
            "binance",
            "--name",
            "MAIN",
            "--api-key",
            "k",
            "--secret-key",
            "s",
        ],
    );
    assert!(
        err.contains("`--name`") && err.contains("already taken"),
        "{err}"
    );
    let err = refused(
        home.path(),
        &[
            "model",
            "add",
            "--name",
            "m",
            "--provider",
            "deepseek",
            "--base-url",
            "http://api.deepseek.com",
            "--api-key",
            "k",
        ],
    );
    assert!(
        err.contains("`--base-url`") && err.contains("https"),
        "{err}"
    );
    // Credentials in the URL are refused without being repeated (they would be stored and
    // shown in clear), and so is a port that cannot be one.
    for (url, secret) in [
        (
            "https://user:URLPASSWORD123@api.example.com/v1",
            "URLPASSWORD123",
        ),
        (
            "https://api.example.com/v1?api_key=URLQUERYSECRET456",
            "URLQUERYSECRET456",
        ),
        ("https://localhost:99999/v1", "99999x"),
    ] {
        let err = refused(
            home.path(),
            &[
                "model",
                "add",
                "--name",
                "u1",
                "--provider",
                "custom",
                "--model-name",
                "m",
                "--base-url",
                url,
                "--api-key",
                "sk-x1234567",
            ],
        );
        assert!(err.contains("`--base-url`"), "{err}");
        assert!(!err.contains(secret), "{err}");
    }
    // Loopback http is fine (a local model).
    ok(
        home.path(),
        &[
            "model",
            "add",
            "--name",
            "local",
            "--provider",
            "ollama",
            "--base-url",
            "http://127.0.0.1:11434/v1",
            "--model-name",
            "qwen3",
        ],
    );
    let err = refused(
        home.path(),
        &[
            "strategy",
            "add",
            "--name",
            "s",
            "--altcoin-max-leverage",
            "21",
        ],
    );
    assert!(err.contains("`--altcoin-max-leverage`"), "{err}");
}

#[test]
fn delete_list_restore_list_keeps_secrets_and_audits_all_three() {
    let home = tempfile::tempdir().unwrap();
    add_binance(home.path());
    ok(home.path(), &["exchange", "delete", "main"]);
    assert_eq!(
        json(home.path(), &["exchange", "list"]),
        Value::Array(vec![])
    );
    let trash = json(home.path(), &["exchange", "list", "--deleted"]);
    assert_eq!(trash[0]["account_name"], "main");
    ok(home.path(), &["exchange", "restore", "main"]);
    let back = json(home.path(), &["exchange", "list"]);
    assert_eq!(back[0]["has_api_key"], true);
    assert_eq!(back[0]["has_secret_key"], true);

    // The secrets decrypt to what was typed, with the key file the CLI created.
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let store = Store::open_with(StoreConfig {
            database: Database::SqliteFile(home.path().join("nofxi.db")),
            key: KeySpec::EnvOrFile {
                home: home.path().to_path_buf(),
            },
        })
        .await
        .unwrap();
        let (_, creds) = store
            .credentials_for_signing("local", "main")
            .await
            .unwrap();
        assert_eq!(creds.get(CredentialField::ApiKey).unwrap().expose(), K);
        assert_eq!(creds.get(CredentialField::SecretKey).unwrap().expose(), S);
        store.close().await;
    });

    let audit = json(home.path(), &["audit"]);
    let actions: Vec<(String, String, bool)> = audit
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .map(|e| {
            (
                e["action"].as_str().unwrap().to_string(),
                e["channel"].as_str().unwrap().to_string(),
                e["confirmed"].as_bool().unwrap(),
            )
        })
        .collect();
    let expected: Vec<(String, String, bool)> = ["create", "delete", "restore"]
        .iter()
        .map(|a| (a.to_string(), "cli".to_string(), true))
        .collect();
    assert_eq!(actions, expected);
}

/// The same first "Done when" point against PostgreSQL: no K or S in any row.
#[test]
fn postgres_rows_hold_no_key_material() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let db = rt
        .block_on(nofxi_store::test_support::PgTestDatabase::create())
        .unwrap();
    let home = tempfile::tempdir().unwrap();
    let with_pg = |args: &[&str]| {
        let out = nofxi(home.path(), args)
            .env("NOFXI_DATABASE_URL", &db.url)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    with_pg(&[
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
    ]);
    let list: Value = serde_json::from_str(&with_pg(&["exchange", "list", "--json"])).unwrap();
    assert_eq!(list[0]["has_api_key"], true);
    assert!(!home.path().join("nofxi.db").exists(), "postgres was used");
    let hex = |s: &str| s.bytes().map(|b| format!("{b:02x}")).collect::<String>();
    rt.block_on(async {
        use sqlx::{Connection, Row};
        let mut conn = sqlx::PgConnection::connect(&db.url).await.unwrap();
        let tables: Vec<String> =
            sqlx::query("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
                .fetch_all(&mut conn)
                .await
                .unwrap()
                .iter()
                .map(|r| r.get::<String, _>("tablename"))
                .collect();
        assert!(tables.contains(&"secrets".to_string()));
        let mut rows_seen = 0;
        for table in tables {
            let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
                "SELECT t::text AS row FROM {table} t"
            )))
            .fetch_all(&mut conn)
            .await
            .unwrap();
            for row in rows {
                rows_seen += 1;
                let text: String = row.get("row");
                for needle in [K, S] {
                    assert!(!text.contains(needle), "{needle} in {table}");
                    assert!(!text.contains(&hex(needle)), "{needle} as hex in {table}");
                }
            }
        }
        assert!(rows_seen >= 4, "exchange, two secrets, audit");
        conn.close().await.unwrap();
    });
    rt.block_on(db.drop_now()).unwrap();
}
