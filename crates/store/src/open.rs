//! Opening a store: pick the backend, connect, migrate, check the vault key, purge old trash.
//!
//! Both backends go through sqlx's `Any` driver so that every query is written once; the SQL
//! uses only what SQLite and PostgreSQL share (`$n` parameters, `ON CONFLICT … DO UPDATE`,
//! partial indexes). Each backend has its own migration folder because DDL differs (BLOB vs
//! BYTEA, AUTOINCREMENT vs BIGSERIAL).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use sqlx::any::{AnyPoolOptions, install_default_drivers};
use sqlx::{AnyPool, Row};

use crate::Store;
use crate::clock::{Clock, SystemClock};
use crate::error::{DbContext, StoreError};
use crate::vault::key::{KeySpec, file_warning, load_key};
use crate::vault::{Keyed, Vault};

pub const DATABASE_URL_ENV: &str = "NOFXI_DATABASE_URL";
pub const SQLITE_FILE_NAME: &str = "nofxi.db";

static SQLITE_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/sqlite");
static POSTGRES_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/postgres");

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// Which database to use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Database {
    /// A SQLite file, created if missing, in WAL mode.
    SqliteFile(PathBuf),
    /// A `postgres://` URL.
    Postgres(String),
}

impl Database {
    /// `NOFXI_DATABASE_URL` when set, else `$home/nofxi.db`.
    pub fn from_env(home: &Path) -> Database {
        match std::env::var(DATABASE_URL_ENV) {
            Ok(url) if !url.trim().is_empty() => Database::Postgres(url.trim().to_string()),
            _ => Database::SqliteFile(home.join(SQLITE_FILE_NAME)),
        }
    }

    /// Where the data is, fit to print: a Postgres URL loses its password.
    pub fn describe(&self) -> String {
        match self {
            Database::SqliteFile(path) => path.display().to_string(),
            Database::Postgres(url) => redact_url(url),
        }
    }
}

/// `postgres://user:pw@host/db` → `postgres://user:•••@host/db`.
pub fn redact_url(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let Some((userinfo, host)) = rest.split_once('@') else {
        return url.to_string();
    };
    match userinfo.split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:•••@{host}"),
        None => url.to_string(),
    }
}

/// Everything needed to open a store.
#[derive(Debug, Clone)]
pub struct StoreConfig {
    pub database: Database,
    pub key: KeySpec,
}

impl StoreConfig {
    /// The product's defaults: database and key from the environment, else under `home`.
    pub fn from_env(home: &Path) -> StoreConfig {
        StoreConfig {
            database: Database::from_env(home),
            key: KeySpec::EnvOrFile {
                home: home.to_path_buf(),
            },
        }
    }
}

impl Store {
    /// Opens the store the way the `nofxi` binary does: see [`StoreConfig::from_env`].
    pub async fn open(home: &Path) -> Result<Store, StoreError> {
        Store::open_with(StoreConfig::from_env(home)).await
    }

    pub async fn open_with(config: StoreConfig) -> Result<Store, StoreError> {
        Store::open_with_clock(config, Arc::new(SystemClock)).await
    }

    /// As [`Store::open_with`], with an injected clock (tests of the 30-day trash).
    pub async fn open_with_clock(
        config: StoreConfig,
        clock: Arc<dyn Clock>,
    ) -> Result<Store, StoreError> {
        install_default_drivers();
        let (pool, backend) = connect(&config.database).await?;
        let check: Option<Vec<u8>> = sqlx::query("SELECT sealed FROM vault_check WHERE id = 1")
            .fetch_optional(&pool)
            .await
            .ctx("reading the vault key check")?
            .map(|row| row.try_get::<Vec<u8>, _>("sealed"))
            .transpose()
            .ctx("reading the vault key check")?;
        // Shown by the caller (the CLI prints them): the store does not own a terminal.
        let warnings: Vec<String> = file_warning(&config.key).into_iter().collect();
        let (key, source) = match load_key(&config.key, check.is_none()) {
            Ok(loaded) => loaded,
            // Secrets exist and their key is gone: open anyway, so reads that need no secret
            // work; decrypting says what is missing.
            Err(StoreError::VaultKeyMissing { path }) => {
                let store = Store {
                    pool,
                    backend,
                    vault: Keyed::Missing { path },
                    warnings,
                    clock,
                    database: config.database,
                };
                store.purge_expired_trash().await?;
                return Ok(store);
            }
            Err(other) => return Err(other),
        };
        let vault = Vault::new(&key, source);
        match check {
            Some(check) => vault.verify_key_check(&check)?,
            None => {
                let sealed = vault.key_check()?;
                sqlx::query(
                    "INSERT INTO vault_check (id, sealed, created_at) VALUES (1, $1, $2) \
                     ON CONFLICT (id) DO NOTHING",
                )
                .bind(sealed)
                .bind(clock.now_ms())
                .execute(&pool)
                .await
                .ctx("writing the vault key check")?;
                // Another process may have won the race with its own key; verify what is stored.
                let stored: Vec<u8> = sqlx::query("SELECT sealed FROM vault_check WHERE id = 1")
                    .fetch_one(&pool)
                    .await
                    .and_then(|row| row.try_get("sealed"))
                    .ctx("reading the vault key check")?;
                vault.verify_key_check(&stored)?;
            }
        }
        let store = Store {
            pool,
            backend,
            vault: Keyed::Ready(Box::new(vault)),
            warnings,
            clock,
            database: config.database,
        };
        store.purge_expired_trash().await?;
        Ok(store)
    }

    /// A transaction that will write. On SQLite it takes the write lock at `BEGIN IMMEDIATE`: a
    /// deferred transaction that reads first and writes later fails at once with
    /// SQLITE_BUSY_SNAPSHOT ("database is locked", 517) when another connection committed in
    /// between — e.g. `trader stop` while the engine journals cycles — whereas an immediate one
    /// waits its turn (busy_timeout). PostgreSQL has no such failure: a plain BEGIN.
    pub(crate) async fn begin_write(
        &self,
    ) -> Result<sqlx::Transaction<'static, sqlx::Any>, StoreError> {
        let tx = match self.backend {
            Backend::Sqlite => self.pool.begin_with("BEGIN IMMEDIATE").await,
            Backend::Postgres => self.pool.begin().await,
        };
        tx.ctx("starting a transaction")
    }

    /// The store's clock: wall time in the product. Leases are judged by it, not by the
    /// (possibly simulated) time traders trade in.
    pub fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    pub fn database(&self) -> &Database {
        &self.database
    }

    /// Where the vault key came from, fit to print.
    pub fn key_source(&self) -> String {
        self.vault.describe()
    }

    /// What the user should know about this store that did not stop it opening.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// Closes every connection; the store is unusable afterwards.
    pub async fn close(&self) {
        self.pool.close().await;
    }
}

async fn connect(database: &Database) -> Result<(AnyPool, Backend), StoreError> {
    match database {
        Database::SqliteFile(path) => {
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(|source| StoreError::Io {
                    action: "create the data directory",
                    path: parent.to_path_buf(),
                    source,
                })?;
            }
            create_private_file(path)?;
            let url = format!("sqlite://{}?mode=rwc", encode_path(path));
            // synchronous=NORMAL is SQLite's recommended setting for WAL: a commit no longer
            // waits for an fsync (the WAL is synced at checkpoints), which is what bounds a
            // chat turn's and a trading cycle's write. An application crash loses nothing;
            // only an OS crash or power cut may roll back the last commits, never corrupt.
            let pool = AnyPoolOptions::new()
                .max_connections(4)
                .after_connect(|conn, _meta| {
                    Box::pin(async move {
                        sqlx::query("PRAGMA synchronous = NORMAL")
                            .execute(conn)
                            .await?;
                        Ok(())
                    })
                })
                .connect(&url)
                .await
                .ctx("opening the SQLite database")?;
            // WAL is a property of the file, so setting it once sticks for every later
            // connection; readers then never block the single writer.
            let mode: String = sqlx::query("PRAGMA journal_mode=WAL")
                .fetch_one(&pool)
                .await
                .and_then(|row| row.try_get(0))
                .ctx("switching SQLite to WAL mode")?;
            if !mode.eq_ignore_ascii_case("wal") {
                return Err(StoreError::Corrupt {
                    what: "SQLite journal mode",
                    detail: format!("expected wal, the database reports {mode}"),
                });
            }
            // SQLite has no migration lock: two processes opening a fresh file at once can
            // both try the first migration, and the loser sees "table already exists". By
            // then the winner has committed, so one retry finds everything applied.
            if SQLITE_MIGRATIONS.run(&pool).await.is_err() {
                tokio::time::sleep(std::time::Duration::from_millis(200)).await;
                SQLITE_MIGRATIONS.run(&pool).await?;
            }
            Ok((pool, Backend::Sqlite))
        }
        Database::Postgres(url) => {
            // sqlx waits 30 s by default for a server that does not answer; a command
            // should say within seconds that the database is not there.
            // A process frozen inside a transaction (SIGSTOP, a VM pause) keeps its row locks
            // until the server ends that transaction: it is ended once idle for a few
            // seconds, and a statement that meets such a lock gives up instead of waiting, so
            // an engine frozen while it held one trader's lease row cannot stall every other
            // engine's polls and leases (found by the outside probe).
            let pool = AnyPoolOptions::new()
                .max_connections(8)
                .acquire_timeout(std::time::Duration::from_secs(PG_CONNECT_SECONDS))
                .after_connect(|conn, _meta| {
                    Box::pin(async move {
                        for limit in PG_SESSION_LIMITS {
                            sqlx::query(limit).execute(&mut *conn).await?;
                        }
                        Ok(())
                    })
                })
                .connect(url)
                .await
                .map_err(|e| StoreError::PostgresUnreachable {
                    url: redact_url(url),
                    seconds: PG_CONNECT_SECONDS,
                    detail: connect_detail(&e),
                })?;
            POSTGRES_MIGRATIONS.run(&pool).await?;
            Ok((pool, Backend::Postgres))
        }
    }
}

/// How long opening a PostgreSQL store waits for the server.
const PG_CONNECT_SECONDS: u64 = 5;

/// Every PostgreSQL session's limits: a lock is waited for at most 3 s, and a transaction
/// left idle (its process frozen) is ended after 10 s, releasing its locks.
const PG_SESSION_LIMITS: [&str; 2] = [
    "SET lock_timeout = '3s'",
    "SET idle_in_transaction_session_timeout = '10s'",
];

/// What went wrong connecting, in the server's words when it answered ("database \"x\" does
/// not exist"), else the driver's ("timed out"): never the URL, which may hold a password.
fn connect_detail(e: &sqlx::Error) -> String {
    match e {
        sqlx::Error::Database(db) => db.message().to_string(),
        sqlx::Error::PoolTimedOut => "no answer (timed out)".to_string(),
        other => other.to_string(),
    }
}

/// Creates the database file owner-only (SQLite gives its -wal and -shm files the same mode),
/// so other local users cannot read even the encrypted credentials or the resource names.
fn create_private_file(path: &Path) -> Result<(), StoreError> {
    if path.exists() {
        return Ok(());
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(false);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    options
        .open(path)
        .map(drop)
        .map_err(|source| StoreError::Io {
            action: "create the database file",
            path: path.to_path_buf(),
            source,
        })
}

/// Percent-encodes the characters that would end the path part of a `sqlite://` URL.
fn encode_path(path: &Path) -> String {
    let mut out = String::new();
    for c in path.to_string_lossy().chars() {
        match c {
            '%' => out.push_str("%25"),
            '?' => out.push_str("%3F"),
            '#' => out.push_str("%23"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn postgres_password_is_not_printed() {
        assert_eq!(
            redact_url("postgres://u:pw@h:5432/db"),
            "postgres://u:•••@h:5432/db"
        );
        assert_eq!(redact_url("postgres://u@h/db"), "postgres://u@h/db");
    }
}
