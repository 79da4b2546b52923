//! Fresh stores for tests (feature `test-support`): SQLite in a temp dir, or a brand-new
//! PostgreSQL database per call, dropped again when the handle goes away.
//!
//! PostgreSQL is reached at `postgres://postgres@127.0.0.1:5432/test` (trust auth), or at
//! `NOFXI_TEST_PG_ADMIN_URL` when set. Each database is named `nofxi_test_<uuid v7>`; because a
//! v7 uuid carries its creation time, every new call also drops such databases older than an
//! hour, so a test run that crashed before its guard ran cannot leave them piling up.
//!
//! [`paper_basics`] seeds the exchange, model and strategy a trader needs.

use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use sqlx::{Connection, Row};
use zeroize::Zeroizing;

use crate::Store;
use crate::clock::{Clock, SystemClock};
use crate::error::{DbContext, StoreError};
use crate::open::{Database, StoreConfig};
use crate::vault::key::KeySpec;

pub mod legacy_exchange;
pub mod paper_basics;
pub mod portfolio_book;
pub use legacy_exchange::insert_exchange_made_earlier;
pub use paper_basics::{PaperBasics, SeededBasics, seed_paper_basics};
pub use portfolio_book::seed_portfolio;

pub const DEFAULT_PG_ADMIN_URL: &str = "postgres://postgres@127.0.0.1:5432/test";
pub const PG_ADMIN_URL_ENV: &str = "NOFXI_TEST_PG_ADMIN_URL";
/// The vault key test stores use, in the documented hex form.
pub const TEST_KEY_HEX: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
const TEST_DB_PREFIX: &str = "nofxi_test_";
const STALE_AFTER_MS: i64 = 60 * 60 * 1000;

pub fn pg_admin_url() -> String {
    std::env::var(PG_ADMIN_URL_ENV).unwrap_or_else(|_| DEFAULT_PG_ADMIN_URL.to_string())
}

/// A PostgreSQL database that exists for as long as this value lives.
#[derive(Debug)]
pub struct PgTestDatabase {
    pub name: String,
    pub url: String,
    admin_url: String,
}

impl PgTestDatabase {
    /// Creates `nofxi_test_<uuid>` and sweeps stale ones from earlier runs.
    pub async fn create() -> Result<PgTestDatabase, StoreError> {
        let admin_url = pg_admin_url();
        let mut admin = sqlx::PgConnection::connect(&admin_url)
            .await
            .ctx("connecting to the PostgreSQL admin database for tests")?;
        sweep_stale(&mut admin).await?;
        let name = format!("{TEST_DB_PREFIX}{}", uuid::Uuid::now_v7().simple());
        sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
            .execute(&mut admin)
            .await
            .ctx("creating a test database")?;
        admin.close().await.ctx("closing the admin connection")?;
        let url = match admin_url.rsplit_once('/') {
            Some((base, _)) => format!("{base}/{name}"),
            None => format!("{admin_url}/{name}"),
        };
        Ok(PgTestDatabase {
            name,
            url,
            admin_url,
        })
    }

    /// Drops the database now (also done on drop).
    pub async fn drop_now(&self) -> Result<(), StoreError> {
        drop_database(&self.admin_url, &self.name).await
    }
}

impl Drop for PgTestDatabase {
    fn drop(&mut self) {
        // Drop cannot await, and may run inside a runtime, so a short-lived thread with its own
        // runtime does the work and we wait for it.
        let admin_url = self.admin_url.clone();
        let name = self.name.clone();
        let handle = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build();
            if let Ok(runtime) = runtime {
                let _ = runtime.block_on(drop_database(&admin_url, &name));
            }
        });
        let _ = handle.join();
    }
}

async fn drop_database(admin_url: &str, name: &str) -> Result<(), StoreError> {
    let mut admin = sqlx::PgConnection::connect(admin_url)
        .await
        .ctx("connecting to drop a test database")?;
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "DROP DATABASE IF EXISTS {name} WITH (FORCE)"
    )))
    .execute(&mut admin)
    .await
    .ctx("dropping a test database")?;
    admin.close().await.ctx("closing the admin connection")?;
    Ok(())
}

async fn sweep_stale(admin: &mut sqlx::PgConnection) -> Result<(), StoreError> {
    let rows = sqlx::query("SELECT datname FROM pg_database WHERE datname LIKE 'nofxi_test_%'")
        .fetch_all(&mut *admin)
        .await
        .ctx("listing test databases")?;
    let now = SystemClock.now_ms();
    for row in rows {
        let name: String = row.try_get("datname").ctx("listing test databases")?;
        let Some(created) = name
            .strip_prefix(TEST_DB_PREFIX)
            .and_then(|id| uuid::Uuid::parse_str(id).ok())
            .and_then(|id| id.get_timestamp())
        else {
            continue;
        };
        let (secs, _) = created.to_unix();
        if now - (secs as i64) * 1000 > STALE_AFTER_MS {
            sqlx::query(sqlx::AssertSqlSafe(format!(
                "DROP DATABASE IF EXISTS {name} WITH (FORCE)"
            )))
            .execute(&mut *admin)
            .await
            .ctx("dropping a stale test database")?;
        }
    }
    Ok(())
}

/// A store plus whatever keeps its database alive. Derefs to [`Store`].
#[derive(Debug)]
pub struct TestStore {
    // Field order matters: the store (and its pool) drops before the database it uses.
    /// Shared, so engine tests can hand the same store to the code under test.
    pub store: Arc<Store>,
    pub home: PathBuf,
    pub pg: Option<PgTestDatabase>,
    _dir: tempfile::TempDir,
}

impl Deref for TestStore {
    type Target = Store;
    fn deref(&self) -> &Store {
        &self.store
    }
}

impl TestStore {
    pub fn home(&self) -> &Path {
        &self.home
    }

    /// Closes the pool and drops the PostgreSQL database (if any) right away.
    pub async fn cleanup(self) -> Result<(), StoreError> {
        self.store.close().await;
        if let Some(pg) = &self.pg {
            pg.drop_now().await?;
        }
        Ok(())
    }
}

fn temp_home() -> Result<tempfile::TempDir, StoreError> {
    tempfile::tempdir().map_err(|source| StoreError::Io {
        action: "create a temporary directory",
        path: std::env::temp_dir(),
        source,
    })
}

fn test_key() -> KeySpec {
    KeySpec::Text(Zeroizing::new(TEST_KEY_HEX.to_string()))
}

/// A fresh SQLite store in a temp dir, with the test key.
pub async fn sqlite_store() -> Result<TestStore, StoreError> {
    sqlite_store_with_clock(Arc::new(SystemClock)).await
}

pub async fn sqlite_store_with_clock(clock: Arc<dyn Clock>) -> Result<TestStore, StoreError> {
    let dir = temp_home()?;
    let config = StoreConfig {
        database: Database::SqliteFile(dir.path().join(crate::SQLITE_FILE_NAME)),
        key: test_key(),
    };
    let store = Store::open_with_clock(config, clock).await?;
    Ok(TestStore {
        store: Arc::new(store),
        home: dir.path().to_path_buf(),
        pg: None,
        _dir: dir,
    })
}

/// A store on a brand-new PostgreSQL database, dropped when the result is dropped.
pub async fn postgres_store() -> Result<TestStore, StoreError> {
    postgres_store_with_clock(Arc::new(SystemClock)).await
}

pub async fn postgres_store_with_clock(clock: Arc<dyn Clock>) -> Result<TestStore, StoreError> {
    let dir = temp_home()?;
    let pg = PgTestDatabase::create().await?;
    let config = StoreConfig {
        database: Database::Postgres(pg.url.clone()),
        key: test_key(),
    };
    let store = Store::open_with_clock(config, clock).await?;
    Ok(TestStore {
        store: Arc::new(store),
        home: dir.path().to_path_buf(),
        pg: Some(pg),
        _dir: dir,
    })
}

impl Store {
    /// The raw pool, for tests that tamper with rows (swapping ciphertexts, reading bytes).
    pub fn raw_pool(&self) -> &sqlx::AnyPool {
        &self.pool
    }
}
