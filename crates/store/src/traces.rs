//! Traces: the record of one assistant turn (commands, tool calls with redacted arguments and
//! results, timings, model usage). Written only through [`Store::save_turn`], together with
//! the conversation state; the caller redacts before handing a record over, since a trace is
//! shown verbatim by `nofxi trace show`.

use sqlx::{AnyConnection, Row};

use crate::Store;
use crate::error::{DbContext, StoreError};

/// A trace about to be written.
#[derive(Debug, Clone, PartialEq)]
pub struct NewTrace {
    pub id: String,
    /// The user's message, already masked.
    pub message: String,
    pub record: serde_json::Value,
}

/// A stored trace.
#[derive(Debug, Clone, PartialEq)]
pub struct TraceRow {
    pub id: String,
    pub user_id: String,
    pub conversation_id: String,
    /// Epoch milliseconds.
    pub at: i64,
    pub message: String,
    pub record: serde_json::Value,
}

pub(crate) async fn insert_trace(
    conn: &mut AnyConnection,
    user: &str,
    conversation_id: &str,
    at: i64,
    trace: &NewTrace,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO traces (id, user_id, conversation_id, at, message, record) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(&trace.id)
    .bind(user)
    .bind(conversation_id)
    .bind(at)
    .bind(&trace.message)
    .bind(trace.record.to_string())
    .execute(&mut *conn)
    .await
    .ctx("saving a trace")?;
    Ok(())
}

fn row_to_trace(row: &sqlx::any::AnyRow) -> Result<TraceRow, StoreError> {
    let record: String = row.try_get("record").ctx("reading a trace")?;
    Ok(TraceRow {
        id: row.try_get("id").ctx("reading a trace")?,
        user_id: row.try_get("user_id").ctx("reading a trace")?,
        conversation_id: row.try_get("conversation_id").ctx("reading a trace")?,
        at: row.try_get("at").ctx("reading a trace")?,
        message: row.try_get("message").ctx("reading a trace")?,
        record: serde_json::from_str(&record).map_err(|e| StoreError::Corrupt {
            what: "trace record",
            detail: e.to_string(),
        })?,
    })
}

impl Store {
    /// The user's latest traces, newest first; one conversation's when `conversation` is set.
    pub async fn list_traces(
        &self,
        user: &str,
        conversation: Option<&str>,
        limit: i64,
    ) -> Result<Vec<TraceRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, user_id, conversation_id, at, message, record FROM traces \
             WHERE user_id = $1 AND ($2 = '' OR conversation_id = $2) \
             ORDER BY at DESC, id DESC LIMIT $3",
        )
        .bind(user)
        .bind(conversation.unwrap_or(""))
        .bind(limit)
        .fetch_all(&self.pool)
        .await
        .ctx("listing traces")?;
        rows.iter().map(row_to_trace).collect()
    }

    /// One trace by id (a unique prefix of at least 8 characters works too).
    pub async fn get_trace(&self, user: &str, id: &str) -> Result<Option<TraceRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, user_id, conversation_id, at, message, record FROM traces \
             WHERE user_id = $1 AND (id = $2 OR (LENGTH($2) >= 8 AND id LIKE $3)) LIMIT 2",
        )
        .bind(user)
        .bind(id)
        .bind(format!("{id}%"))
        .fetch_all(&self.pool)
        .await
        .ctx("reading a trace")?;
        match rows.as_slice() {
            [one] => row_to_trace(one).map(Some),
            _ => Ok(None),
        }
    }
}
