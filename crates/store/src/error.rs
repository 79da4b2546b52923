//! Everything the store can refuse or fail at, each said as "what happened: what to do".
//!
//! No variant carries a secret: vault errors name the field and the row, never the bytes, and
//! database errors come from statements whose secret parameters are ciphertext.
//!
//! Names, references and ids in these messages are what a user typed or a row holds: each is
//! shown through [`shown_input`] in both languages (hidden characters as escapes, a long
//! value cut), so a reference like `$'\e]0;pwned\a'` cannot retitle the terminal it is
//! refused on and a 1 MB one is not echoed whole.

use std::path::PathBuf;

use nofxi_domain::validation::shown_input;
use nofxi_domain::{ResourceKind, ValidationError};

/// Names or ids in a sentence, each shown by [`shown_input`].
fn listed(items: &[String], separator: &str) -> String {
    items
        .iter()
        .map(|i| shown_input(i))
        .collect::<Vec<_>>()
        .join(separator)
}

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The input is invalid; every problem is listed.
    #[error(transparent)]
    Invalid(#[from] ValidationError),

    #[error(
        "no {kind} \"{}\" for this user: check the name or id with `nofxi {kind} list` (deleted ones: `nofxi {kind} list --deleted`)",
        shown_input(.reference)
    )]
    NotFound {
        kind: ResourceKind,
        reference: String,
    },

    #[error(
        "{kind} \"{}\" matches {} resources ({}): use the id instead of the name",
        shown_input(.reference),
        ids.len(),
        listed(.ids, ", ")
    )]
    Ambiguous {
        kind: ResourceKind,
        reference: String,
        ids: Vec<String>,
    },

    #[error(
        "{kind} \"{}\" is used by trader(s) {}: delete those traders or point them at another {kind} first",
        shown_input(.name),
        listed(.traders, ", ")
    )]
    InUse {
        kind: ResourceKind,
        name: String,
        traders: Vec<String>,
    },

    /// A restore that cannot happen yet; each reason says what to do first. Not a
    /// validation error: those name flags, and `restore` takes none.
    #[error(
        "{kind} \"{}\" cannot be restored yet: {}",
        shown_input(.name),
        reasons.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
    )]
    RestoreBlocked {
        kind: ResourceKind,
        name: String,
        reasons: Vec<RestoreBlock>,
    },

    #[error(
        "no user \"{}\" (or the user is disabled): see `nofxi user list`, add one with `nofxi user add NAME`",
        shown_input(.name)
    )]
    UnknownUser { name: String },

    #[error(
        "no API token \"{}\" for this user: see `nofxi token list --user NAME`",
        shown_input(.id)
    )]
    UnknownToken { id: String },

    #[error(
        "trader \"{}\" is running: stop it before deleting it",
        shown_input(.name)
    )]
    Running { name: String },

    #[error(
        "trader \"{}\" is running: stop it before moving it to another exchange account (its open positions stay on the current one)",
        shown_input(.name)
    )]
    RunningMove { name: String },

    #[error(
        "{kind} \"{}\" was deleted more than 30 days ago and has been purged: it cannot be restored, create it again",
        shown_input(.name)
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

    #[error(
        "no portfolio \"{}\" for this user: check the name, or create it first",
        shown_input(.name)
    )]
    UnknownPortfolio { name: String },

    #[error(
        "portfolio \"{}\" has no record \"{}\": list its records to find the one to correct",
        shown_input(.portfolio),
        shown_input(.id)
    )]
    UnknownPortfolioRecord { portfolio: String, id: String },

    #[error(
        "a portfolio called \"{}\" already exists: choose another name",
        shown_input(.name)
    )]
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
            RestoreBlock::NameTaken { kind, name } => {
                let name = shown_input(name);
                write!(
                    f,
                    "another {kind} is now called \"{name}\": rename it (`nofxi {kind} update \"{name}\" --name NEW`) or delete it first"
                )
            }
            RestoreBlock::Trashed { kind, name } => {
                let name = shown_input(name);
                write!(
                    f,
                    "its {kind} \"{name}\" is in the trash: restore {kind} {name} first (`nofxi {kind} restore \"{name}\"`)"
                )
            }
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
                let name = shown_input(name);
                format!("已有另一个{}叫「{name}」：请先给它改名或删除它", kind.zh())
            }
            RestoreBlock::Trashed { kind, name } => {
                let name = shown_input(name);
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
                format!(
                    "找不到{}「{}」：请检查名称或 ID",
                    kind.zh(),
                    shown_input(reference)
                )
            }
            StoreError::Ambiguous {
                kind,
                reference,
                ids,
            } => format!(
                "有 {} 个{}都叫「{}」（{}）：请改用 ID",
                ids.len(),
                kind.zh(),
                shown_input(reference),
                listed(ids, "、")
            ),
            StoreError::InUse {
                kind,
                name,
                traders,
            } => format!(
                "{}「{}」正被交易员 {} 使用：请先删除这些交易员或改用其他{}",
                kind.zh(),
                shown_input(name),
                listed(traders, "、"),
                kind.zh()
            ),
            StoreError::RestoreBlocked {
                kind,
                name,
                reasons,
            } => format!(
                "{}「{}」暂时无法恢复：{}",
                kind.zh(),
                shown_input(name),
                reasons
                    .iter()
                    .map(RestoreBlock::to_zh)
                    .collect::<Vec<_>>()
                    .join("；")
            ),
            StoreError::UnknownUser { name } => format!(
                "没有用户「{}」（或已停用）：用 `nofxi user list` 查看，用 `nofxi user add 名字` 添加",
                shown_input(name)
            ),
            StoreError::UnknownToken { id } => format!(
                "没有 API 令牌「{}」：用 `nofxi token list --user 名字` 查看",
                shown_input(id)
            ),
            StoreError::Running { name } => {
                format!("交易员「{}」正在运行：请先停止再删除", shown_input(name))
            }
            StoreError::RunningMove { name } => format!(
                "交易员「{}」正在运行：请先停止，再换到别的交易所账户（现有持仓留在原账户上）",
                shown_input(name)
            ),
            StoreError::Expired { kind, name } => format!(
                "{}「{}」删除已超过 30 天并已永久清除，无法恢复：请重新创建",
                kind.zh(),
                shown_input(name)
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
                    shown_input(name)
                )
            }
            StoreError::PortfolioExists { name } => {
                format!("已有名为「{}」的组合：请换一个名字", shown_input(name))
            }
            StoreError::UnknownPortfolioRecord { portfolio, id } => format!(
                "组合「{}」里没有记录「{}」：请先列出它的记录，找到要更正的那一条",
                shown_input(portfolio),
                shown_input(id)
            ),
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

    /// Whether `text` holds a character that hides or rewrites text where it is shown.
    fn rewrites(text: &str) -> bool {
        text.chars().any(nofxi_domain::validation::hidden_character)
    }

    /// A reference is what the user typed (`nofxi trader show $'\e]0;pwned\a'`): the Chinese
    /// forms put it raw between 「」, so an OSC sequence retitled the terminal, and both
    /// languages repeated a 10 KB reference whole. Every variant that shows a reference or a
    /// name shows it escaped and cut, in English and in Chinese.
    #[test]
    fn user_given_text_is_escaped_and_cut_in_both_languages() {
        let hostile = format!(
            "\u{1b}]0;pwned\u{7}\u{1b}[2J\u{200b}\u{202e}{}",
            "x".repeat(10 * 1024)
        );
        let h = || hostile.clone();
        let kind = ResourceKind::Trader;
        let errors = [
            StoreError::NotFound {
                kind,
                reference: h(),
            },
            StoreError::Ambiguous {
                kind,
                reference: h(),
                ids: vec!["id1".into(), "id2".into()],
            },
            StoreError::InUse {
                kind: ResourceKind::Model,
                name: h(),
                traders: vec![h()],
            },
            StoreError::RestoreBlocked {
                kind,
                name: h(),
                reasons: vec![
                    RestoreBlock::NameTaken { kind, name: h() },
                    RestoreBlock::Trashed {
                        kind: ResourceKind::Strategy,
                        name: h(),
                    },
                ],
            },
            StoreError::UnknownUser { name: h() },
            StoreError::UnknownToken { id: h() },
            StoreError::Running { name: h() },
            StoreError::RunningMove { name: h() },
            StoreError::Expired { kind, name: h() },
            StoreError::UnknownPortfolio { name: h() },
            StoreError::PortfolioExists { name: h() },
            StoreError::UnknownPortfolioRecord {
                portfolio: h(),
                id: h(),
            },
        ];
        for err in &errors {
            for said in [err.to_string(), err.to_zh()] {
                let head: String = said.chars().take(300).collect();
                assert!(!rewrites(&said), "{head:?}");
                assert!(said.len() < 2000, "{} bytes: {head:?}", said.len());
                assert!(
                    said.contains("\\u{1b}]0;pwned") && said.contains('…'),
                    "{head}"
                );
            }
        }
    }
}
