//! A mock LLM server on a loopback port, speaking three providers' real wire formats.
//!
//! One server answers OpenAI chat completions (`…/chat/completions`), Anthropic messages
//! (`…/messages`) and Gemini (`…/models/{model}:generateContent` and
//! `…:streamGenerateContent`); the path picks the format, and any prefix before it is accepted,
//! so a client's base URL (`/v1`, `/compatible-mode/v1`, `/v1beta`) works unchanged. Streaming
//! is answered the way each provider streams: OpenAI `data:` chunks ending in `[DONE]`,
//! Anthropic's named event sequence, Gemini's `alt=sse` objects.
//!
//! What the model "says" is scripted per test: [`MockLlm::push`] queues [`Reply`]s that are
//! served in order, one per request, whatever the format. Every request is recorded, including
//! the ones the mock rejects, so a test can check what the client sent (headers, prompt, tools).
//!
//! It checks what the real servers check where a client can get it wrong: Anthropic needs
//! `x-api-key` and `anthropic-version`, Gemini needs a key in `x-goog-api-key` or `?key=`.
//! A rejected request does not consume a scripted reply.
//!
//! ```
//! use nofxi_testkit::{MockLlm, Reply};
//! use serde_json::json;
//!
//! # async fn demo() {
//! let mock = MockLlm::start().await;
//! mock.push(Reply::ToolCalls(vec![("get_price".into(), json!({"symbol": "BTCUSDT"}))]));
//! mock.push(Reply::Text("BTC is at 97,000 USDT.".into()));
//! // Point the client under test at format!("{}/v1", mock.base_url()), run the turn, then:
//! let sent = mock.requests();
//! # let _ = sent;
//! # }
//! ```

mod anthropic;
mod gemini;
mod openai;
mod recorded;
mod reply;
mod response;
mod routes;

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use tokio::sync::oneshot;

pub use recorded::RecordedRequest;
pub use reply::{Gate, Reply};

/// What the server and the test share: the script and the log.
#[derive(Debug, Default)]
pub(crate) struct Script {
    pub(crate) queue: VecDeque<Reply>,
    pub(crate) default: Option<Reply>,
    pub(crate) requests: Vec<RecordedRequest>,
    /// Feeds response and tool-call ids, so ids are unique within one mock.
    pub(crate) next_id: u64,
}

pub(crate) type Shared = Arc<Mutex<Script>>;

pub(crate) fn with<R>(shared: &Shared, f: impl FnOnce(&mut Script) -> R) -> R {
    match shared.lock() {
        Ok(mut s) => f(&mut s),
        Err(poisoned) => f(&mut poisoned.into_inner()),
    }
}

/// A running mock. Dropping it stops the server.
#[derive(Debug)]
pub struct MockLlm {
    addr: SocketAddr,
    shared: Shared,
    stop: Option<oneshot::Sender<()>>,
}

impl MockLlm {
    /// Bind 127.0.0.1:0 and serve until dropped.
    ///
    /// Panics if no loopback port can be bound: there is nothing a test could do instead.
    pub async fn start() -> MockLlm {
        let shared: Shared = Arc::default();
        // Prompts with long histories can pass axum's 2 MB default; a provider takes them.
        let app = axum::Router::new()
            .fallback(routes::handle)
            .layer(axum::extract::DefaultBodyLimit::disable())
            .with_state(shared.clone());
        let listener = match tokio::net::TcpListener::bind("127.0.0.1:0").await {
            Ok(l) => l,
            Err(e) => panic!("mock LLM: cannot bind a loopback port: {e}"),
        };
        let addr = match listener.local_addr() {
            Ok(a) => a,
            Err(e) => panic!("mock LLM: bound socket has no address: {e}"),
        };
        let (tx, rx) = oneshot::channel::<()>();
        tokio::spawn(async move {
            let _ = axum::serve(listener, app)
                .with_graceful_shutdown(async {
                    let _ = rx.await;
                })
                .await;
        });
        MockLlm {
            addr,
            shared,
            stop: Some(tx),
        }
    }

    /// `http://127.0.0.1:PORT`, without a trailing slash; append `/v1` or whatever prefix the
    /// client under test expects.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Queue `reply` for the next request that is not answered yet.
    pub fn push(&self, reply: Reply) {
        with(&self.shared, |s| s.queue.push_back(reply));
    }

    pub fn push_many(&self, replies: impl IntoIterator<Item = Reply>) {
        with(&self.shared, |s| s.queue.extend(replies));
    }

    /// Every request received so far, oldest first (rejected ones included).
    pub fn requests(&self) -> Vec<RecordedRequest> {
        with(&self.shared, |s| s.requests.clone())
    }

    /// The answer once the queue is empty. Without one, an empty queue answers HTTP 500
    /// `mock script exhausted`, so a test that makes more calls than it scripted fails loudly.
    pub fn set_default(&self, reply: Reply) {
        with(&self.shared, |s| s.default = Some(reply));
    }
}

impl Drop for MockLlm {
    fn drop(&mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
    }
}
