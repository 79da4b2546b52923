//! Chat over HTTP, the protocol of `nofxi chat --json`: a turn is posted and runs on the
//! server; its events stream over SSE from the conversation's persisted log, so a client that
//! reconnects (`Last-Event-ID`) or a second tab replays what it missed.

use std::convert::Infallible;
use std::time::Duration;

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::routing::{get, post};
use futures::Stream;
use nofxi_store::{ChatEvent, Store};
use serde::{Deserialize, Serialize};

use super::{Body, Op, Reply, schema};
use crate::access::{CHAT, Caller};
use crate::chat_hub::{Accepted, unknown_conversation};
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;

/// Rows read per database round trip while replaying.
const PAGE: i64 = 200;
/// A stream with nothing new looks again this often even without a wake-up (a missed
/// notification costs at most this much delay).
const IDLE_RECHECK: Duration = Duration::from_secs(15);

pub fn operations() -> Vec<Op> {
    vec![
        Op::new(Method::GET, "/api/chat/latest", "chat", "The caller's most recent conversation, to attach to", Reply::Json(200, schema::<Latest>), get(latest)),
        Op::new(Method::POST, "/api/chat/turns", "chat", "Post a message; 202 with the turn's id. The turn runs to completion on the server whatever the client does", Reply::Json(202, schema::<Accepted>), post(post_turn)).body(schema::<PostTurn>).gate(CHAT),
        Op::new(Method::POST, "/api/chat/confirm", "chat", "Answer the pending confirmation it names (a Confirm / Deny button); 409 when that is not the pending one any more", Reply::Json(202, schema::<Accepted>), post(confirm)).body(schema::<ConfirmAnswer>).gate(CHAT),
        Op::new(Method::GET, "/api/chat/conversations/{id}/events", "chat", "Server-sent events of a conversation from its start (or after `Last-Event-ID` / `?after=`), then live: `user` {turn_id, message, at}, `delta` {turn_id, text}, `turn` {turn_id, response: the chat protocol's turn}, `error` {turn_id, message}", Reply::EventStream, get(events)).query(schema::<After>),
    ]
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct Latest {
    pub conversation_id: Option<String>,
}

async fn latest(State(state): State<AppState>, caller: Caller) -> ApiResult<Json<Latest>> {
    Ok(Json(Latest {
        conversation_id: state.store.latest_conversation(&caller.user).await?,
    }))
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PostTurn {
    /// Absent or null: a new conversation.
    pub conversation_id: Option<String>,
    pub message: String,
    /// The binding of the last confirmation this client showed (see the chat protocol).
    pub seen_confirmation: Option<String>,
}

async fn post_turn(
    State(state): State<AppState>,
    caller: Caller,
    Body(body): Body<PostTurn>,
) -> ApiResult<(StatusCode, Json<Accepted>)> {
    let accepted = state
        .hub
        .post(
            &caller,
            body.conversation_id,
            body.message,
            body.seen_confirmation,
        )
        .await?;
    Ok((StatusCode::ACCEPTED, Json(accepted)))
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ConfirmAnswer {
    pub conversation_id: String,
    /// The `binding` of the `confirmation_requested` event the button belongs to.
    pub binding: String,
    pub answer: YesNo,
    /// The language of the page, for the word the answer is sent as (default English).
    pub lang: Option<String>,
}

#[derive(Debug, Clone, Copy, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum YesNo {
    Yes,
    No,
}

async fn confirm(
    State(state): State<AppState>,
    caller: Caller,
    Body(body): Body<ConfirmAnswer>,
) -> ApiResult<(StatusCode, Json<Accepted>)> {
    let pending = state
        .hub
        .assistant()
        .pending_binding(&caller.user, &body.conversation_id)
        .await
        .map_err(ApiError::internal)?;
    match pending {
        None => {
            return Err(ApiError::catalog(
                StatusCode::CONFLICT,
                "stale_confirmation",
                "http-no-confirmation",
                &[],
            ));
        }
        Some(binding) if binding != body.binding => {
            return Err(ApiError::catalog(
                StatusCode::CONFLICT,
                "stale_confirmation",
                "http-stale-confirmation",
                &[],
            ));
        }
        Some(_) => {}
    }
    // The answer goes in as the user's word for it, in the page's language, so the turn, its
    // trace and the transcript read as if typed; the binding makes it count for this one.
    let lang = match body.lang.as_deref() {
        Some(l) if l.to_ascii_lowercase().starts_with("zh") => nofxi_skills::text::Lang::Zh,
        _ => nofxi_skills::text::Lang::En,
    };
    let id = match body.answer {
        YesNo::Yes => "button-yes",
        YesNo::No => "button-no",
    };
    let word = nofxi_skills::Catalog::builtin().text(lang, id, &[]);
    let accepted = state
        .hub
        .post(
            &caller,
            Some(body.conversation_id),
            word,
            Some(body.binding),
        )
        .await?;
    Ok((StatusCode::ACCEPTED, Json(accepted)))
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct After {
    /// Replay events after this id (what `Last-Event-ID` says on a reconnect).
    pub after: Option<i64>,
}

async fn events(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Query(q): Query<After>,
    headers: HeaderMap,
) -> ApiResult<Sse<impl Stream<Item = Result<Event, Infallible>>>> {
    if !state.store.owns_conversation(&caller.user, &id).await? {
        return Err(unknown_conversation(&id));
    }
    let last_event_id = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<i64>().ok());
    let after = last_event_id.or(q.after).unwrap_or(0).max(0);
    // Subscribed before the first read: a row written between the read and the wait still
    // wakes this stream.
    let replay = Replay {
        store: state.store.clone(),
        wake: state.hub.follow(&id),
        user: caller.user,
        conversation_id: id,
        after,
        buffered: std::collections::VecDeque::new(),
    };
    let stream = futures::stream::unfold(replay, |mut replay| async move {
        let event = replay.next().await;
        Some((Ok(event), replay))
    });
    Ok(Sse::new(state.until_stopping(stream)).keep_alive(KeepAlive::default()))
}

/// A conversation's events from `after` on: stored rows first, then each new row as it is
/// written.
struct Replay {
    store: std::sync::Arc<Store>,
    wake: tokio::sync::watch::Receiver<u64>,
    user: String,
    conversation_id: String,
    after: i64,
    buffered: std::collections::VecDeque<ChatEvent>,
}

impl Replay {
    async fn next(&mut self) -> Event {
        loop {
            if let Some(row) = self.buffered.pop_front() {
                self.after = row.id;
                return Event::default()
                    .id(row.id.to_string())
                    .event(row.kind)
                    .data(row.data.to_string());
            }
            if let Ok(rows) = self
                .store
                .chat_events_after(&self.user, &self.conversation_id, self.after, PAGE)
                .await
                && !rows.is_empty()
            {
                self.buffered.extend(rows);
                continue;
            }
            self.wait().await;
        }
    }

    /// Until this conversation has news (or a while passed, to look anyway).
    async fn wait(&mut self) {
        let deadline = tokio::time::sleep(IDLE_RECHECK);
        tokio::pin!(deadline);
        tokio::select! {
            _ = &mut deadline => {}
            woke = self.wake.changed() => {
                // The hub is gone (shutting down): only the recheck is left.
                if woke.is_err() {
                    deadline.as_mut().await;
                }
            }
        }
    }
}
