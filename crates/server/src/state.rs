//! What every handler shares.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use futures::{Stream, StreamExt};
use nofxi_skills::Library;
use nofxi_store::Store;
use tokio::sync::watch;

use crate::access::Access;
use crate::api::backtests::Backtests;
use crate::chat_hub::ChatHub;
use crate::metrics::Metrics;
use nofxi_assistant::confirm_token::Confirmer;

#[derive(Clone)]
pub struct AppState {
    pub store: Arc<Store>,
    pub library: Arc<Library>,
    pub hub: Arc<ChatHub>,
    pub metrics: Arc<Metrics>,
    pub access: Arc<Access>,
    pub confirmer: Arc<Confirmer>,
    /// What `/mcp`'s tool calls run with (the chat's assistant, this confirmer).
    pub mcp: Arc<nofxi_mcp::call::Calls>,
    pub backtests: Arc<Backtests>,
    /// Serve the web app from this directory instead of the embedded copy (development).
    pub web_dir: Option<PathBuf>,
    /// The speed of simulated paper time in the engine this server hosts; `None`: it hosts
    /// none (`--no-engine`).
    pub engine_sim_speed: Option<f64>,
    /// False once a shutdown began: `/readyz` tells load balancers to stop sending.
    pub ready: Arc<AtomicBool>,
    /// Turns true when a shutdown begins: event streams end so the server can stop.
    pub stopping: watch::Receiver<bool>,
}

impl AppState {
    /// `stream`, ended when a shutdown begins (an open event stream would hold it forever).
    pub fn until_stopping<S: Stream>(&self, stream: S) -> impl Stream<Item = S::Item> + use<S> {
        let mut stopping = self.stopping.clone();
        stream.take_until(async move {
            // A dropped sender is a server that is gone: stop as well.
            let _ = stopping.wait_for(|s| *s).await;
        })
    }
}

impl std::fmt::Debug for AppState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AppState").finish_non_exhaustive()
    }
}
