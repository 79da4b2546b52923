//! Finding a resource the way people refer to it: by id, or by name in any letter case.
//!
//! An exact id wins over a name; a name matching several trashed resources is ambiguous and
//! the caller is told the ids, never given a guess.

use nofxi_domain::validation::name_key;
use nofxi_domain::{FieldProblem, Problem, ResourceKind};
use sqlx::{AnyConnection, AssertSqlSafe, Row};

use crate::Store;
use crate::error::{DbContext, StoreError};

/// The table and name column of each kind. Only these constants are ever spliced into SQL.
pub(crate) fn table(kind: ResourceKind) -> &'static str {
    match kind {
        ResourceKind::Model => "models",
        ResourceKind::Exchange => "exchanges",
        ResourceKind::Strategy => "strategies",
        ResourceKind::Trader => "traders",
    }
}

pub(crate) fn name_column(kind: ResourceKind) -> &'static str {
    match kind {
        ResourceKind::Exchange => "account_name",
        _ => "name",
    }
}

/// The field users know the name by, for validation messages.
pub(crate) fn name_field(kind: ResourceKind) -> &'static str {
    name_column(kind)
}

/// Whether to look among live resources or in the trash.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Where {
    Live,
    Trash,
}

/// A resolved resource: its id and display name.
#[derive(Debug, Clone)]
pub(crate) struct Found {
    pub id: String,
    pub name: String,
    pub deleted_at: Option<i64>,
}

pub(crate) async fn resolve(
    conn: &mut AnyConnection,
    user: &str,
    kind: ResourceKind,
    reference: &str,
    place: Where,
) -> Result<Found, StoreError> {
    let reference = reference.trim();
    let filter = match place {
        Where::Live => "deleted_at IS NULL",
        Where::Trash => "deleted_at IS NOT NULL",
    };
    let sql = format!(
        "SELECT id, {name} AS name, deleted_at FROM {table} \
         WHERE user_id = $1 AND (id = $2 OR name_key = $3) AND {filter} \
         ORDER BY deleted_at DESC",
        name = name_column(kind),
        table = table(kind),
    );
    let rows = sqlx::query(AssertSqlSafe(sql))
        .bind(user)
        .bind(reference)
        .bind(name_key(reference))
        .fetch_all(&mut *conn)
        .await
        .ctx("looking a resource up")?;
    let mut found = Vec::with_capacity(rows.len());
    for row in rows {
        found.push(Found {
            id: row.try_get("id").ctx("reading a resource id")?,
            name: row.try_get("name").ctx("reading a resource name")?,
            deleted_at: row.try_get("deleted_at").ctx("reading deleted_at")?,
        });
    }
    if let Some(exact) = found.iter().find(|f| f.id == reference) {
        return Ok(exact.clone());
    }
    match found.len() {
        0 => Err(StoreError::NotFound {
            kind,
            reference: reference.to_string(),
        }),
        1 => Ok(found.remove(0)),
        _ => Err(StoreError::Ambiguous {
            kind,
            reference: reference.to_string(),
            ids: found.into_iter().map(|f| f.id).collect(),
        }),
    }
}

/// A problem when another live resource of this user and kind already has `name`.
pub(crate) async fn name_taken(
    conn: &mut AnyConnection,
    user: &str,
    kind: ResourceKind,
    name: &str,
    except_id: &str,
) -> Result<Option<FieldProblem>, StoreError> {
    if name.trim().is_empty() {
        return Ok(None);
    }
    let sql = format!(
        "SELECT COUNT(*) AS n FROM {table} \
         WHERE user_id = $1 AND name_key = $2 AND deleted_at IS NULL AND id <> $3",
        table = table(kind)
    );
    let n: i64 = sqlx::query(AssertSqlSafe(sql))
        .bind(user)
        .bind(name_key(name))
        .bind(except_id)
        .fetch_one(&mut *conn)
        .await
        .and_then(|row| row.try_get("n"))
        .ctx("checking the name is free")?;
    if n > 0 {
        return Ok(Some(FieldProblem::new(
            name_field(kind),
            Problem::DuplicateName {
                name: name.to_string(),
            },
        )));
    }
    is_an_id(conn, user, name, except_id).await.map(|taken| {
        taken.then(|| {
            FieldProblem::new(
                name_field(kind),
                Problem::NameIsAnId {
                    id: name.trim().to_string(),
                },
            )
        })
    })
}

/// Whether `name` is the id of another of this user's resources, of any kind, live or in
/// the trash: a reference is resolved by id first, so such a name could never be reached.
async fn is_an_id(
    conn: &mut AnyConnection,
    user: &str,
    name: &str,
    except_id: &str,
) -> Result<bool, StoreError> {
    let name = name.trim();
    if name == except_id {
        return Ok(false);
    }
    for kind in ResourceKind::ALL {
        let sql = format!(
            "SELECT COUNT(*) AS n FROM {table} WHERE user_id = $1 AND id = $2",
            table = table(kind)
        );
        let n: i64 = sqlx::query(AssertSqlSafe(sql))
            .bind(user)
            .bind(name)
            .fetch_one(&mut *conn)
            .await
            .and_then(|row| row.try_get("n"))
            .ctx("checking the name is no id")?;
        if n > 0 {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Joins the domain's verdict with the store's own findings into one error listing all.
pub(crate) fn combine(
    domain: Result<(), nofxi_domain::ValidationError>,
    extra: Vec<FieldProblem>,
) -> Result<(), StoreError> {
    let mut problems = match domain {
        Ok(()) => Vec::new(),
        Err(e) => e.problems,
    };
    problems.extend(extra);
    if problems.is_empty() {
        Ok(())
    } else {
        Err(nofxi_domain::ValidationError { problems }.into())
    }
}

/// Adds the store's findings to a domain validation error.
pub(crate) fn with_extra(
    mut err: nofxi_domain::ValidationError,
    extra: Vec<FieldProblem>,
) -> StoreError {
    err.problems.extend(extra);
    err.into()
}

/// Maps a unique-index violation (a concurrent insert won the name) to the same typed error
/// the pre-check gives.
pub(crate) fn unique_to_duplicate(
    err: sqlx::Error,
    kind: ResourceKind,
    name: &str,
    context: &'static str,
) -> StoreError {
    if let sqlx::Error::Database(db) = &err
        && db.is_unique_violation()
    {
        return nofxi_domain::ValidationError::single(
            name_field(kind),
            Problem::DuplicateName {
                name: name.to_string(),
            },
        )
        .into();
    }
    StoreError::Database {
        context,
        cause: err,
    }
}

impl Store {
    /// The id of a live resource named or identified by `reference`.
    pub async fn resolve_id(
        &self,
        user: &str,
        kind: ResourceKind,
        reference: &str,
    ) -> Result<String, StoreError> {
        let mut conn = self.pool.acquire().await.ctx("getting a connection")?;
        Ok(resolve(&mut conn, user, kind, reference, Where::Live)
            .await?
            .id)
    }
}
