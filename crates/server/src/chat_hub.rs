//! Chat turns posted over HTTP: each runs to completion on the server whatever its client does,
//! and every event it makes is persisted (`chat_events`) before anyone is woken for it.
//!
//! Streams never receive events from memory: a woken stream reads the rows after the last id
//! it sent. That one path serves a live tab, a reconnect with `Last-Event-ID`, a second tab,
//! and a stream begun in another `serve` process on the same PostgreSQL (whose inserts arrive
//! here as `NOTIFY nofxi_chat`, forwarded to the same wake-up channel).

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use nofxi_assistant::Assistant;
use nofxi_protocol::{Channel, TurnRequest, TurnResponse};
use nofxi_store::Store;
use serde_json::json;
use tokio::sync::{Notify, mpsc, watch};

use crate::access::Caller;
use crate::error::{ApiError, ApiResult};
use crate::metrics::Metrics;

/// Event kinds, as stored and as SSE `event:` names.
pub const USER: &str = "user";
pub const DELTA: &str = "delta";
pub const TURN: &str = "turn";
pub const ERROR: &str = "error";

/// A turn accepted for running.
#[derive(Debug, Clone, serde::Serialize, schemars::JsonSchema)]
pub struct Accepted {
    pub conversation_id: String,
    pub turn_id: String,
}

/// The streams following each conversation in this process, woken when it has new rows. One
/// channel per conversation: a turn wakes its own streams, not every open stream (with 500
/// open, waking all cost thousands of wake-ups a turn).
#[derive(Default)]
pub struct Wakeups {
    channels: std::sync::Mutex<HashMap<String, watch::Sender<u64>>>,
}

/// Sweep channels nobody follows once the table holds this many.
const SWEEP_AT: usize = 1024;

impl Wakeups {
    /// A receiver that changes whenever `conversation_id` has news.
    pub fn follow(&self, conversation_id: &str) -> watch::Receiver<u64> {
        let mut channels = self.lock();
        if channels.len() >= SWEEP_AT {
            channels.retain(|_, tx| tx.receiver_count() > 0);
        }
        channels
            .entry(conversation_id.to_string())
            .or_insert_with(|| watch::channel(0).0)
            .subscribe()
    }

    pub fn wake(&self, conversation_id: &str) {
        let mut channels = self.lock();
        let Some(tx) = channels.get(conversation_id) else {
            return;
        };
        if tx.receiver_count() == 0 {
            channels.remove(conversation_id);
        } else {
            tx.send_modify(|n| *n = n.wrapping_add(1));
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, watch::Sender<u64>>> {
        match self.channels.lock() {
            Ok(c) => c,
            Err(poisoned) => poisoned.into_inner(),
        }
    }
}

/// Where a conversation's events go: the table first, then a wake-up for the streams
/// following that conversation in this process (other processes hear the insert's NOTIFY).
#[derive(Clone)]
struct EventLog {
    store: Arc<Store>,
    wakeups: Arc<Wakeups>,
}

impl EventLog {
    async fn append(
        &self,
        user: &str,
        conversation_id: &str,
        turn_id: &str,
        kind: &str,
        data: &serde_json::Value,
    ) -> Result<i64, nofxi_store::StoreError> {
        let id = self
            .store
            .append_chat_event(user, conversation_id, turn_id, kind, data)
            .await?;
        self.wakeups.wake(conversation_id);
        Ok(id)
    }
}

pub struct ChatHub {
    store: Arc<Store>,
    assistant: Arc<Assistant>,
    metrics: Arc<Metrics>,
    log: EventLog,
    in_flight: Arc<AtomicUsize>,
    idle: Arc<Notify>,
}

impl ChatHub {
    pub fn new(store: Arc<Store>, assistant: Arc<Assistant>, metrics: Arc<Metrics>) -> ChatHub {
        ChatHub {
            log: EventLog {
                store: store.clone(),
                wakeups: Arc::default(),
            },
            store,
            assistant,
            metrics,
            in_flight: Arc::new(AtomicUsize::new(0)),
            idle: Arc::new(Notify::new()),
        }
    }

    pub fn assistant(&self) -> &Arc<Assistant> {
        &self.assistant
    }

    /// Changes whenever `conversation_id` has new events.
    pub fn follow(&self, conversation_id: &str) -> watch::Receiver<u64> {
        self.log.wakeups.follow(conversation_id)
    }

    /// Accepts a turn: persists the user's message (as it will be stored: secrets masked) and
    /// starts the turn in the background.
    pub async fn post(
        &self,
        caller: &Caller,
        conversation_id: Option<String>,
        message: String,
        seen_confirmation: Option<String>,
    ) -> ApiResult<Accepted> {
        if message.trim().is_empty() {
            return Err(ApiError::bad_request("http-empty-message", &[]));
        }
        let conversation_id = match conversation_id.filter(|c| !c.trim().is_empty()) {
            Some(id) => {
                // Another user's id reads as unknown: it must not even be confirmed to exist.
                if self.store.conversation_taken(&caller.user, &id).await? {
                    return Err(unknown_conversation(&id));
                }
                id
            }
            None => uuid::Uuid::now_v7().to_string(),
        };
        let shown = self
            .assistant
            .shown_message(&caller.user, Some(&conversation_id), &message)
            .await
            .map_err(ApiError::internal)?;
        let turn_id = uuid::Uuid::now_v7().to_string();
        let at = self.store.now_ms();
        self.log
            .append(
                &caller.user,
                &conversation_id,
                &turn_id,
                USER,
                &json!({"turn_id": turn_id, "message": shown, "at": at}),
            )
            .await?;
        let request = TurnRequest {
            conversation_id: Some(conversation_id.clone()),
            user: caller.user.clone(),
            message,
            channel: Channel::Api,
            seen_confirmation,
            received_bytes: None,
        };
        self.spawn_turn(request, turn_id.clone());
        Ok(Accepted {
            conversation_id,
            turn_id,
        })
    }

    fn spawn_turn(&self, request: TurnRequest, turn_id: String) {
        let log = self.log.clone();
        let assistant = self.assistant.clone();
        let metrics = self.metrics.clone();
        let in_flight = self.in_flight.clone();
        let idle = self.idle.clone();
        in_flight.fetch_add(1, Ordering::SeqCst);
        tokio::spawn(async move {
            let runner = TurnRunner {
                log,
                user: request.user.clone(),
                conversation_id: request.conversation_id.clone().unwrap_or_default(),
                turn_id,
            };
            runner.run(&assistant, &metrics, request).await;
            if in_flight.fetch_sub(1, Ordering::SeqCst) == 1 {
                idle.notify_waiters();
            }
        });
    }

    /// Waits until every accepted turn has finished: a graceful shutdown lets them end.
    pub async fn drain(&self) {
        loop {
            let idle = self.idle.notified();
            if self.in_flight.load(Ordering::SeqCst) == 0 {
                return;
            }
            idle.await;
        }
    }

    pub fn turns_in_flight(&self) -> usize {
        self.in_flight.load(Ordering::SeqCst)
    }

    /// Forwards PostgreSQL notifications of chat inserts (from any process) to the wake-up
    /// channel, reconnecting when the connection drops. Returns at once on SQLite.
    pub async fn listen_for_other_processes(self: Arc<Self>) {
        loop {
            let mut listener = match self.store.chat_listener().await {
                Ok(Some(l)) => l,
                Ok(None) => return,
                Err(e) => {
                    tracing::warn!(error = %e, "cannot listen for chat events; retrying in 5 s");
                    tokio::time::sleep(std::time::Duration::from_secs(5)).await;
                    continue;
                }
            };
            while let Ok(note) = listener.recv().await {
                self.log.wakeups.wake(note.payload());
            }
            tracing::warn!("the chat event listener lost its connection; reconnecting");
        }
    }
}

pub fn unknown_conversation(id: &str) -> ApiError {
    ApiError::catalog(
        axum::http::StatusCode::NOT_FOUND,
        "not_found",
        "http-conversation-unknown",
        &[("id", id)],
    )
}

/// One turn in the background: streamed text persisted as it comes, then the whole response.
struct TurnRunner {
    log: EventLog,
    user: String,
    conversation_id: String,
    turn_id: String,
}

impl TurnRunner {
    async fn run(&self, assistant: &Assistant, metrics: &Metrics, request: TurnRequest) {
        let started = Instant::now();
        // The assistant calls back synchronously; a writer task persists each piece in order.
        let (tx, mut rx) = mpsc::unbounded_channel::<String>();
        let writer = {
            let log = self.log.clone();
            let (user, conv, turn) = (
                self.user.clone(),
                self.conversation_id.clone(),
                self.turn_id.clone(),
            );
            tokio::spawn(async move {
                while let Some(mut text) = rx.recv().await {
                    // Pieces that arrived while the last one was being saved go out as one
                    // event: one write transaction, not one per token.
                    while let Ok(more) = rx.try_recv() {
                        text.push_str(&more);
                    }
                    let data = json!({"turn_id": turn, "text": text});
                    if let Err(e) = log.append(&user, &conv, &turn, DELTA, &data).await {
                        tracing::warn!(error = %e, turn = %turn, "cannot save streamed text");
                    }
                }
            })
        };
        let on_delta = move |text: &str| {
            let _ = tx.send(nofxi_assistant::scrub::scrub(text));
        };
        let outcome = assistant.turn_streaming(request, &on_delta).await;
        drop(on_delta);
        let _ = writer.await;
        metrics.observe_turn(&outcome, started.elapsed());
        let (kind, data) = match outcome {
            Ok(response) => (TURN, turn_data(&self.turn_id, &response)),
            Err(e) => (
                ERROR,
                json!({"turn_id": self.turn_id, "message": nofxi_assistant::scrub::scrub(&e.to_string())}),
            ),
        };
        let saved = self
            .log
            .append(
                &self.user,
                &self.conversation_id,
                &self.turn_id,
                kind,
                &data,
            )
            .await;
        if let Err(e) = saved {
            tracing::warn!(error = %e, turn = %self.turn_id, "cannot save a chat turn's end");
        }
    }
}

fn turn_data(turn_id: &str, response: &TurnResponse) -> serde_json::Value {
    json!({"turn_id": turn_id, "response": response})
}
