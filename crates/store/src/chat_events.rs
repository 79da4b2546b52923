//! Chat events: the persisted stream of each conversation's turns as HTTP clients see them.
//!
//! A turn posted over HTTP runs on the server whatever the client does; its events are
//! written here as they happen, so any client (a reconnect, a second tab, a page served by
//! another process on the same PostgreSQL) replays them from the id it last saw. On
//! PostgreSQL each insert also notifies the `nofxi_chat` channel with the conversation id, in
//! the same transaction, so listeners in other processes wake when the row is visible.

use sqlx::Row;

use crate::error::{DbContext, StoreError};
use crate::{Backend, Database, Store};

/// The PostgreSQL channel chat inserts notify; the payload is the conversation id.
pub const CHAT_CHANNEL: &str = "nofxi_chat";

/// One stored event; `id` grows with every insert in the database.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatEvent {
    pub id: i64,
    pub conversation_id: String,
    pub turn_id: String,
    /// `user`, `delta`, `turn` or `error`.
    pub kind: String,
    /// Already redacted by the writer.
    pub data: serde_json::Value,
    pub at: i64,
}

impl Store {
    /// Appends one event and returns its id. `data` must already be free of secrets.
    pub async fn append_chat_event(
        &self,
        user: &str,
        conversation_id: &str,
        turn_id: &str,
        kind: &str,
        data: &serde_json::Value,
    ) -> Result<i64, StoreError> {
        let mut tx = self.begin_write().await?;
        let row = sqlx::query(
            "INSERT INTO chat_events (user_id, conversation_id, turn_id, kind, data, at) \
             VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
        )
        .bind(user)
        .bind(conversation_id)
        .bind(turn_id)
        .bind(kind)
        .bind(data.to_string())
        .bind(self.now_ms())
        .fetch_one(&mut *tx)
        .await
        .ctx("saving a chat event")?;
        let id: i64 = row.try_get("id").ctx("saving a chat event")?;
        if self.backend() == Backend::Postgres {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(CHAT_CHANNEL)
                .bind(conversation_id)
                .execute(&mut *tx)
                .await
                .ctx("notifying a chat event")?;
        }
        tx.commit().await.ctx("saving a chat event")?;
        Ok(id)
    }

    /// The user's events of one conversation after `after` (0: from the start), oldest
    /// first, at most `limit`. Another user's conversation reads as empty.
    pub async fn chat_events_after(
        &self,
        user: &str,
        conversation_id: &str,
        after: i64,
        limit: i64,
    ) -> Result<Vec<ChatEvent>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, conversation_id, turn_id, kind, data, at FROM chat_events \
             WHERE user_id = $1 AND conversation_id = $2 AND id > $3 ORDER BY id LIMIT $4",
        )
        .bind(user)
        .bind(conversation_id)
        .bind(after)
        .bind(limit)
        .fetch_all(&self.pool)
        .await
        .ctx("reading chat events")?;
        rows.iter().map(row_to_event).collect()
    }

    /// Whether the user owns a conversation with this id (one with a saved turn or an event).
    pub async fn owns_conversation(
        &self,
        user: &str,
        conversation_id: &str,
    ) -> Result<bool, StoreError> {
        if self
            .get_conversation(user, conversation_id)
            .await?
            .is_some()
        {
            return Ok(true);
        }
        let row = sqlx::query(
            "SELECT 1 AS one FROM chat_events WHERE user_id = $1 AND conversation_id = $2 LIMIT 1",
        )
        .bind(user)
        .bind(conversation_id)
        .fetch_optional(&self.pool)
        .await
        .ctx("finding a conversation")?;
        Ok(row.is_some())
    }

    /// A conversation id some *other* user already holds: a client must not write into it.
    pub async fn conversation_taken(
        &self,
        user: &str,
        conversation_id: &str,
    ) -> Result<bool, StoreError> {
        let row = sqlx::query(
            "SELECT 1 AS one FROM conversations WHERE id = $1 AND user_id <> $2 \
             UNION ALL SELECT 1 AS one FROM chat_events WHERE conversation_id = $1 AND user_id <> $2 \
             LIMIT 1",
        )
        .bind(conversation_id)
        .bind(user)
        .fetch_optional(&self.pool)
        .await
        .ctx("checking a conversation id")?;
        Ok(row.is_some())
    }

    /// A listener on the chat channel, for a process that serves chat streams begun in
    /// others. `None` on SQLite, where only one process serves a database file.
    pub async fn chat_listener(&self) -> Result<Option<sqlx::postgres::PgListener>, StoreError> {
        let Database::Postgres(url) = self.database() else {
            return Ok(None);
        };
        let mut listener = sqlx::postgres::PgListener::connect(url)
            .await
            .ctx("listening for chat events")?;
        listener
            .listen(CHAT_CHANNEL)
            .await
            .ctx("listening for chat events")?;
        Ok(Some(listener))
    }
}

fn row_to_event(row: &sqlx::any::AnyRow) -> Result<ChatEvent, StoreError> {
    let data: String = row.try_get("data").ctx("reading a chat event")?;
    Ok(ChatEvent {
        id: row.try_get("id").ctx("reading a chat event")?,
        conversation_id: row.try_get("conversation_id").ctx("reading a chat event")?,
        turn_id: row.try_get("turn_id").ctx("reading a chat event")?,
        kind: row.try_get("kind").ctx("reading a chat event")?,
        data: serde_json::from_str(&data).unwrap_or(serde_json::Value::Null),
        at: row.try_get("at").ctx("reading a chat event")?,
    })
}
