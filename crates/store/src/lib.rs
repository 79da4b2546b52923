//! nofxi's storage: the four resources, their secrets, a trash, an audit trail and small state
//! documents, on SQLite (default, `$NOFXI_HOME/nofxi.db`, WAL) or PostgreSQL
//! (`NOFXI_DATABASE_URL`).
//!
//! Rules every call follows:
//! - Every query is scoped by the user it is given; there is no call that reads across users.
//! - Deleting moves a resource to the trash (`deleted_at`); `restore` brings it back for 30
//!   days; older trash is purged when a store opens or on [`Store::purge_expired_trash`].
//! - Every mutation of a resource writes an audit row in the same transaction.
//! - Credentials are sealed per field by the [`vault`]; reads return flags and masked forms
//!   only. Decrypting is a separate call ([`Store::credentials_for_signing`],
//!   [`Store::model_api_key`]) for code that signs requests or calls models.
//! - Times are epoch milliseconds, money is exact decimal text.
//!
//! Validation rules belong to `nofxi-domain`; this crate adds what needs the database:
//! unique names, references between resources, resources in use.

mod accounts;
mod audit;
mod chat_events;
pub mod clock;
mod conversations;
mod error;
mod exchanges;
mod fence;
mod flag;
mod journal;
mod leases;
mod login_attempts;
mod models;
mod open;
mod portfolio_marks;
mod portfolio_records;
mod portfolios;
mod resolve;
mod secrets;
mod state;
mod strategies;
#[cfg(feature = "test-support")]
pub mod test_support;
mod traces;
mod traders;
mod trash;
pub mod vault;
mod versions;

use std::sync::Arc;

use sqlx::AnyPool;

pub use accounts::{
    ApiToken, MIN_PASSWORD_CHARS, NewToken, SESSION_TTL_MS, Scope, Session, TOKEN_PREFIX, User,
    constant_time_eq,
};
pub use audit::{AuditAction, AuditEntry, SETTING_KIND};
pub use chat_events::{CHAT_CHANNEL, ChatEvent};
pub use clock::{Clock, ManualClock, SystemClock};
pub use conversations::ConversationRow;
pub use error::{RestoreBlock, StoreError};
pub use fence::Fence;
pub use journal::CycleRow;
pub use leases::{CLOSE_REQUEST_SCOPE, Lease, RunningTrader, renew_every_ms};
pub use login_attempts::{LoginBudget, LoginGate};
pub use open::{Backend, DATABASE_URL_ENV, Database, SQLITE_FILE_NAME, StoreConfig, redact_url};
pub use portfolio_records::StoredRecord;
pub use portfolios::{PORTFOLIO_KIND, PortfolioBook};
pub use traces::{NewTrace, TraceRow};
pub use trash::Removed;
pub use vault::key::{KEY_FILE_NAME, KeySpec, MASTER_KEY_ENV, key_file_path};
pub use versions::ResourceVersion;

/// A handle to the database and the vault. Cheap to share behind an `Arc`; the pool inside
/// is already shared and thread-safe.
pub struct Store {
    pool: AnyPool,
    backend: Backend,
    vault: vault::Keyed,
    /// Problems worth telling the user that did not stop the open (a key file others can read).
    warnings: Vec<String>,
    clock: Arc<dyn Clock>,
    database: Database,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("backend", &self.backend)
            .field("database", &self.database.describe())
            .finish_non_exhaustive()
    }
}
