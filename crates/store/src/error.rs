//! Everything the store can refuse or fail at, each said as "what happened: what to do".
//!
//! No variant carries a secret: vault errors name the field and the row, never the bytes, and
//! database errors come from statements whose secret parameters are ciphertext.

use std::path::PathBuf;

use nofxi_domain::{ResourceKind, ValidationError};

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The input is invalid; every problem is listed.
    #[error(transparent)]
    Invalid(#[from] ValidationError),

    #[error(
        "no {kind} {reference:?} for this user: check the name or id with `nofxi {kind} list` (deleted ones: `nofxi {kind} list --deleted`)"
    )]
    NotFound {
        kind: ResourceKind,
        reference: String,
    },

    #[error(
        "{kind} {reference:?} matches {} resources ({}): use the id instead of the name",
        ids.len(),
        ids.join(", ")
    )]
    Ambiguous {
        kind: ResourceKind,
        reference: String,
        ids: Vec<String>,
    },

    #[error(
        "{kind} {name:?} is used by trader(s) {}: delete those traders or point them at another {kind} first",
        traders.join(", ")
    )]
    InUse {
        kind: ResourceKind,
        name: String,
        traders: Vec<String>,
    },

    /// A restore that cannot happen yet; each reason says what to do first. Not a
    /// validation error: those name flags, and `restore` takes none.
    #[error(
        "{kind} {name:?} cannot be restored yet: {}",
        reasons.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
    )]
    RestoreBlocked {
        kind: ResourceKind,
        name: String,
        reasons: Vec<RestoreBlock>,
    },

    #[error(
        "no user {name:?} (or the user is disabled): see `nofxi user list`, add one with `nofxi user add NAME`"
    )]
    UnknownUser { name: String },

    #[error("no API token {id:?} for this user: see `nofxi token list --user NAME`")]
    UnknownToken { id: String },

    #[error("trader {name:?} is running: stop it before deleting it")]
    Running { name: String },

    #[error(
        "trader {name:?} is running: stop it before moving it to another exchange account (its open positions stay on the current one)"
    )]
    RunningMove { name: String },

    #[error(
        "{kind} {name:?} was deleted more than 30 days ago and has been purged: it cannot be restored, create it again"
    )]
    Expired { kind: ResourceKind, name: String },

    #[error(
        "the vault key does not match the one these secrets were written with (key from {source_desc}): set NOFXI_MASTER_KEY to the original key or put the original vault.key back; nofxi will not decrypt with a different key"
    )]
    VaultKeyMismatch { source_desc: String },

    #[error(
        "the vault key file {} is missing but this database already holds encrypted secrets: restore the original vault.key there, or set NOFXI_MASTER_KEY to the original key",
        path.display()
    )]
    VaultKeyMissing { path: PathBuf },

    #[error(
        "the vault key from {source_desc} is not usable: {reason}. Use 64 hex characters or the base64 of 32 random bytes (for example `openssl rand -hex 32`)"
    )]
    VaultKeyInvalid { source_desc: String, reason: String },

    #[error(
        "secret `{field}` of {kind} {resource_id} cannot be decrypted: it was not written for this row or was altered. Set the credential again with `nofxi {kind} update`"
    )]
    SecretCorrupt {
        kind: ResourceKind,
        resource_id: String,
        field: String,
    },

    #[error("cannot {action} {}: {source}", path.display())]
    Io {
        action: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    /// The database's own error is part of the message and deliberately not a `source`: the
    /// CLI prints an error's whole chain, and a source printed by this message too was said
    /// again after it (a missing database's error appeared three times).
    #[error("database error while {context}: {cause}")]
    Database {
        context: &'static str,
        cause: sqlx::Error,
    },

    #[error(
        "cannot connect to PostgreSQL at {url} within {seconds} s: {detail}. Check that the server runs and that NOFXI_DATABASE_URL names the right host, port, database and user; or unset NOFXI_DATABASE_URL to use the local SQLite file"
    )]
    PostgresUnreachable {
        /// Redacted: the password never appears.
        url: String,
        seconds: u64,
        detail: String,
    },

    #[error("database migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),

    /// A portfolio or transaction the portfolio crate refused; every problem names its field.
    #[error(transparent)]
    Portfolio(#[from] nofxi_portfolio::PortfolioError),

    /// The name is the one looked up, not a stored one: shown escaped and cut.
    #[error(
        "no portfolio \"{}\" for this user: check the name, or create it first",
        nofxi_domain::validation::shown_input(.name)
    )]
    UnknownPortfolio { name: String },

    #[error("a portfolio called {name:?} already exists: choose another name")]
    PortfolioExists { name: String },

    #[error("stored data is damaged ({what}): {detail}")]
    Corrupt { what: &'static str, detail: String },

    /// A write made under a trader's lease that this engine no longer holds: another engine
    /// took the trader over (or the lease lapsed), so the write was refused, not interleaved.
    #[error(
        "engine {owner} no longer holds the lease of trader {trader_id} (epoch {epoch}): its write was refused; the engine that holds the lease now runs the trader"
    )]
    Fenced {
        trader_id: String,
        owner: String,
        epoch: i64,
    },
}

/// One thing standing in the way of a restore.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RestoreBlock {
    /// A live resource of the same kind now has the name.
    NameTaken { kind: ResourceKind, name: String },
    /// A resource the trader uses is in the trash: restore it first.
    Trashed { kind: ResourceKind, name: String },
    /// A resource the trader used is gone for good.
    Purged { kind: ResourceKind, id: String },
}

impl std::fmt::Display for RestoreBlock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RestoreBlock::NameTaken { kind, name } => write!(
                f,
                "another {kind} is now called {name:?}: rename it (`nofxi {kind} update {name:?} --name NEW`) or delete it first"
            ),
            RestoreBlock::Trashed { kind, name } => write!(
                f,
                "its {kind} {name:?} is in the trash: restore {kind} {name} first (`nofxi {kind} restore {name:?}`)"
            ),
            RestoreBlock::Purged { kind, id } => write!(
                f,
                "its {kind} ({id}) was purged and cannot come back: create the trader again with another {kind}"
            ),
        }
    }
}

impl RestoreBlock {
    fn to_zh(&self) -> String {
        match self {
            RestoreBlock::NameTaken { kind, name } => {
                format!("已有另一个{}叫「{name}」：请先给它改名或删除它", kind.zh())
            }
            RestoreBlock::Trashed { kind, name } => {
                format!(
                    "它使用的{}「{name}」在回收站里：请先恢复{}「{name}」",
                    kind.zh(),
                    kind.zh()
                )
            }
            RestoreBlock::Purged { kind, id } => {
                format!(
                    "它使用的{}（{id}）已被永久清除：请换一个{}重新创建交易员",
                    kind.zh(),
                    kind.zh()
                )
            }
        }
    }
}

impl StoreError {
    /// The validation problems, when that is what went wrong.
    pub fn validation(&self) -> Option<&ValidationError> {
        match self {
            StoreError::Invalid(v) => Some(v),
            _ => None,
        }
    }

    /// The message in Chinese for the errors a chat user causes and can fix; operational
    /// failures (IO, database) keep their English detail after a Chinese lead-in.
    pub fn to_zh(&self) -> String {
        match self {
            StoreError::Invalid(v) => v.to_zh(),
            StoreError::NotFound { kind, reference } => {
                format!("找不到{} {reference:?}：请检查名称或 ID", kind.zh())
            }
            StoreError::Ambiguous {
                kind,
                reference,
                ids,
            } => format!(
                "有 {} 个{}都叫 {reference:?}（{}）：请改用 ID",
                ids.len(),
                kind.zh(),
                ids.join("、")
            ),
            StoreError::InUse {
                kind,
                name,
                traders,
            } => format!(
                "{}「{name}」正被交易员 {} 使用：请先删除这些交易员或改用其他{}",
                kind.zh(),
                traders.join("、"),
                kind.zh()
            ),
            StoreError::RestoreBlocked {
                kind,
                name,
                reasons,
            } => format!(
                "{}「{name}」暂时无法恢复：{}",
                kind.zh(),
                reasons
                    .iter()
                    .map(RestoreBlock::to_zh)
                    .collect::<Vec<_>>()
                    .join("；")
            ),
            StoreError::UnknownUser { name } => format!(
                "没有用户「{name}」（或已停用）：用 `nofxi user list` 查看，用 `nofxi user add 名字` 添加"
            ),
            StoreError::UnknownToken { id } => {
                format!("没有 API 令牌「{id}」：用 `nofxi token list --user 名字` 查看")
            }
            StoreError::Running { name } => format!("交易员「{name}」正在运行：请先停止再删除"),
            StoreError::RunningMove { name } => format!(
                "交易员「{name}」正在运行：请先停止，再换到别的交易所账户（现有持仓留在原账户上）"
            ),
            StoreError::Expired { kind, name } => format!(
                "{}「{name}」删除已超过 30 天并已永久清除，无法恢复：请重新创建",
                kind.zh()
            ),
            StoreError::VaultKeyMismatch { .. }
            | StoreError::VaultKeyMissing { .. }
            | StoreError::VaultKeyInvalid { .. } => {
                format!("密钥库的主密钥不可用，已拒绝解密：{self}")
            }
            StoreError::SecretCorrupt { field, .. } => {
                format!("凭证 `{field}` 无法解密（数据不属于这一行或已被篡改）：请重新设置该凭证")
            }
            StoreError::Portfolio(e) => format!("组合记录有误：{e}"),
            StoreError::UnknownPortfolio { name } => {
                format!(
                    "没有名为「{}」的组合：请检查名称，或先创建它",
                    nofxi_domain::validation::shown_input(name)
                )
            }
            StoreError::PortfolioExists { name } => {
                format!("已有名为「{name}」的组合：请换一个名字")
            }
            other => format!("存储出错：{other}"),
        }
    }
}

/// Attaches "while …" to database errors without repeating the closure at every call.
pub(crate) trait DbContext<T> {
    fn ctx(self, context: &'static str) -> Result<T, StoreError>;
}

impl<T> DbContext<T> for Result<T, sqlx::Error> {
    fn ctx(self, context: &'static str) -> Result<T, StoreError> {
        self.map_err(|cause| StoreError::Database { context, cause })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chinese_messages_name_the_resource_and_the_fix() {
        let err = StoreError::InUse {
            kind: ResourceKind::Model,
            name: "ds".into(),
            traders: vec!["bot".into()],
        };
        let zh = err.to_zh();
        assert!(zh.contains("模型「ds」") && zh.contains("bot"), "{zh}");
        let err = StoreError::NotFound {
            kind: ResourceKind::Exchange,
            reference: "main".into(),
        };
        assert!(err.to_zh().contains("交易所账户"));
        assert!(err.to_string().contains("nofxi exchange list"));
    }
}
