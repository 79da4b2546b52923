//! What a confirmation is bound to: a resource as it was when the person was asked.
//!
//! A confirmation shown in the chat, over MCP or by the HTTP API must act on exactly the
//! object its summary described. Binding it to a name is not enough (the object may be renamed
//! and another one given the name) and neither is an id (the object may be edited in between).
//! So it is bound to the id and a version that changes with every edit of the object — and, for
//! a trader, with every start and stop — read here, in one way for every surface.

use nofxi_domain::ResourceKind;
use sqlx::Row;

use crate::Store;
use crate::error::{DbContext, StoreError};

/// A live resource, named or identified, as it is now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceVersion {
    pub kind: ResourceKind,
    pub id: String,
    /// Its name now (a rename changes it, and the version with it).
    pub name: String,
    /// Changes with every edit; compare, never interpret.
    pub version: String,
}

impl Store {
    /// The live resource of `kind` named or identified by `reference`, with its version.
    pub async fn resource_version(
        &self,
        user: &str,
        kind: ResourceKind,
        reference: &str,
    ) -> Result<ResourceVersion, StoreError> {
        let (id, name, version) = match kind {
            ResourceKind::Trader => {
                let t = self.get_trader(user, reference).await?;
                let version = format!("{}:{}", t.updated_at, t.is_running);
                (t.id, t.spec.name, version)
            }
            ResourceKind::Exchange => {
                let e = self.get_exchange(user, reference).await?;
                (e.id, e.spec.account_name, e.updated_at.to_string())
            }
            ResourceKind::Model => {
                let m = self.get_model(user, reference).await?;
                (m.id, m.spec.name, m.updated_at.to_string())
            }
            ResourceKind::Strategy => {
                let s = self.get_strategy(user, reference).await?;
                (s.id, s.spec.name, s.updated_at.to_string())
            }
        };
        Ok(ResourceVersion {
            kind,
            id,
            name,
            version,
        })
    }
}

impl Store {
    /// A mark that changes whenever any of the user's resources is created, changed, started,
    /// stopped, deleted, restored or purged, by any process: what a cached index of the
    /// user's names compares to know it must read them again. One query over the four
    /// resource tables.
    pub async fn resources_mark(&self, user: &str) -> Result<String, StoreError> {
        let part = |table: &str| {
            format!(
                "(SELECT COUNT(*) FROM {table} WHERE user_id = $1) AS {table}_n, \
                 (SELECT COALESCE(MAX(updated_at), 0) FROM {table} WHERE user_id = $1) AS {table}_u, \
                 (SELECT COALESCE(MAX(deleted_at), 0) FROM {table} WHERE user_id = $1) AS {table}_d"
            )
        };
        let tables = ["traders", "exchanges", "models", "strategies"];
        let columns: Vec<String> = tables.iter().map(|t| part(t)).collect();
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {}",
            columns.join(", ")
        )))
        .bind(user)
        .fetch_one(&self.pool)
        .await
        .ctx("reading the resources' mark")?;
        let mut mark = String::new();
        for table in tables {
            for suffix in ["n", "u", "d"] {
                let value: i64 = row
                    .try_get(format!("{table}_{suffix}").as_str())
                    .ctx("reading the resources' mark")?;
                mark.push_str(&value.to_string());
                mark.push('/');
            }
        }
        Ok(mark)
    }
}
