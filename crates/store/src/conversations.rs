//! Conversations: the assistant's per-conversation state (task stack, references, recent turns)
//! kept as one JSON document. The store does not interpret it; the assistant owns its shape.
//!
//! A turn's new state and its trace are written by [`Store::save_turn`] in one transaction,
//! so a trace never describes a turn whose state was lost, nor the reverse.

use sqlx::Row;

use crate::Store;
use crate::error::{DbContext, StoreError};
use crate::traces::{NewTrace, insert_trace};

/// One stored conversation.
#[derive(Debug, Clone, PartialEq)]
pub struct ConversationRow {
    pub id: String,
    pub user_id: String,
    pub state: serde_json::Value,
    pub created_at: i64,
    pub updated_at: i64,
}

fn parse_state(text: &str) -> Result<serde_json::Value, StoreError> {
    serde_json::from_str(text).map_err(|e| StoreError::Corrupt {
        what: "conversation state",
        detail: e.to_string(),
    })
}

impl Store {
    /// The conversation `id` of `user`, if it exists (another user's id reads as absent).
    pub async fn get_conversation(
        &self,
        user: &str,
        id: &str,
    ) -> Result<Option<ConversationRow>, StoreError> {
        let row = sqlx::query(
            "SELECT id, user_id, state, created_at, updated_at FROM conversations \
             WHERE user_id = $1 AND id = $2",
        )
        .bind(user)
        .bind(id)
        .fetch_optional(&self.pool)
        .await
        .ctx("reading a conversation")?;
        let Some(row) = row else {
            return Ok(None);
        };
        let state: String = row.try_get("state").ctx("reading a conversation")?;
        Ok(Some(ConversationRow {
            id: row.try_get("id").ctx("reading a conversation")?,
            user_id: row.try_get("user_id").ctx("reading a conversation")?,
            state: parse_state(&state)?,
            created_at: row.try_get("created_at").ctx("reading a conversation")?,
            updated_at: row.try_get("updated_at").ctx("reading a conversation")?,
        }))
    }

    /// The id of the user's most recently active conversation, for `nofxi chat` to continue.
    pub async fn latest_conversation(&self, user: &str) -> Result<Option<String>, StoreError> {
        let row = sqlx::query(
            "SELECT id FROM conversations WHERE user_id = $1 ORDER BY updated_at DESC, id DESC LIMIT 1",
        )
        .bind(user)
        .fetch_optional(&self.pool)
        .await
        .ctx("finding the latest conversation")?;
        row.map(|r| r.try_get("id"))
            .transpose()
            .ctx("finding the latest conversation")
    }

    /// Writes the conversation's state after a turn and the turn's trace, atomically.
    pub async fn save_turn(
        &self,
        user: &str,
        conversation_id: &str,
        state: &serde_json::Value,
        trace: &NewTrace,
    ) -> Result<(), StoreError> {
        let now = self.clock.now_ms();
        let mut tx = self.begin_write().await?;
        sqlx::query(
            "INSERT INTO conversations (id, user_id, state, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $4) \
             ON CONFLICT (id) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at \
             WHERE conversations.user_id = excluded.user_id",
        )
        .bind(conversation_id)
        .bind(user)
        .bind(state.to_string())
        .bind(now)
        .execute(&mut *tx)
        .await
        .ctx("saving the conversation")?;
        insert_trace(&mut tx, user, conversation_id, now, trace).await?;
        tx.commit().await.ctx("saving the conversation")?;
        Ok(())
    }
}
