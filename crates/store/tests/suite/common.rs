//! Fixtures and checks shared by the suite.

pub use std::sync::Arc;

pub use nofxi_domain::{
    Actor, Channel, CredentialField, Credentials, ExchangePatch, ExchangeSpec, ModelPatch,
    ModelSpec, ResourceKind, Secret, StrategyPatch, StrategySpec, TraderPatch, TraderSpec,
};
pub use nofxi_store::test_support::TestStore;
pub use nofxi_store::{Backend, ManualClock, RestoreBlock, StoreConfig, StoreError};
pub use rust_decimal::Decimal;
pub use sqlx::Row;

pub const K: &str = "AKIAKEYMATERIAL7f3e9c1d2b";
pub const S: &str = "SECRETMATERIAL9a8b7c6d5e4f3";
pub const DAY: i64 = 24 * 60 * 60 * 1000;

pub fn cli(user: &str) -> Actor {
    Actor::new(user, Channel::Cli, true)
}

pub fn binance(name: &str) -> ExchangeSpec {
    ExchangeSpec {
        exchange_type: "binance".into(),
        account_name: name.into(),
        enabled: true,
        testnet: false,
    }
}

pub fn keys() -> Credentials {
    Credentials::new()
        .with(CredentialField::ApiKey, K)
        .with(CredentialField::SecretKey, S)
}

pub fn deepseek(name: &str) -> ModelSpec {
    ModelSpec {
        name: name.into(),
        provider: "deepseek".into(),
        enabled: true,
        base_url: None,
        model_name: None,
    }
}

pub fn fields(err: &StoreError) -> Vec<String> {
    err.validation()
        .unwrap_or_else(|| panic!("expected a validation error, got {err}"))
        .problems
        .iter()
        .map(|p| p.field.clone())
        .collect()
}

/// Neither the database file(s) nor any row holds the plaintext.
pub async fn assert_no_plaintext(ts: &TestStore, needles: &[&str]) {
    match ts.backend() {
        Backend::Sqlite => {
            // Checkpoint so the WAL content is in the main file too; then read both.
            sqlx::query("PRAGMA wal_checkpoint(FULL)")
                .execute(ts.raw_pool())
                .await
                .unwrap();
            for entry in std::fs::read_dir(ts.home()).unwrap() {
                let path = entry.unwrap().path();
                let bytes = std::fs::read(&path).unwrap();
                for needle in needles {
                    assert!(
                        !bytes.windows(needle.len()).any(|w| w == needle.as_bytes()),
                        "{needle} found in {}",
                        path.display()
                    );
                }
            }
        }
        Backend::Postgres => {
            for table in [
                "models",
                "exchanges",
                "strategies",
                "traders",
                "secrets",
                "audit",
                "states",
                "vault_check",
            ] {
                let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
                    "SELECT t::text AS row FROM {table} t"
                )))
                .fetch_all(ts.raw_pool())
                .await
                .unwrap();
                for row in rows {
                    let text: String = row.try_get("row").unwrap();
                    for needle in needles {
                        assert!(!text.contains(needle), "{needle} found in {table}: {text}");
                        // bytea renders as hex: check that form too.
                        let hex = hex_of(needle);
                        assert!(!text.contains(&hex), "{needle} (hex) found in {table}");
                    }
                }
            }
        }
    }
}

pub fn hex_of(s: &str) -> String {
    s.bytes().map(|b| format!("{b:02x}")).collect()
}
