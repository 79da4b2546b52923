//! Binding, the engine beside the server, and a graceful stop: on the signal the server stops
//! taking connections and ends its event streams, lets accepted chat turns finish, then
//! stops the engine (each trader finishes its cycle and its lease is released).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::middleware;
use axum::serve::ListenerExt;
use nofxi_assistant::{Assistant, AssistantOptions};
use nofxi_skills::Library;
use nofxi_store::Store;
use nofxi_trader::runtime::host::{HostOptions, host_engine};
use tokio::sync::watch;

use crate::access::{self, Access, Mode};
use crate::api;
use crate::api::backtests::Backtests;
use crate::chat_hub::ChatHub;
use crate::client_addr::ProxyTrust;
use crate::error::ApiError;
use crate::metrics::{self, Metrics};
use crate::state::AppState;
use nofxi_assistant::confirm_token::Confirmer;

/// How long a stop waits for chat turns still running.
const DRAIN_TURNS: Duration = Duration::from_secs(30);

#[derive(Debug, Clone)]
pub struct ServeOptions {
    pub addr: SocketAddr,
    /// Host the trading engine in this process (`--no-engine`: none).
    pub engine: Option<HostOptions>,
    /// Serve the web app from this directory instead of the embedded copy.
    pub web_dir: Option<PathBuf>,
    /// Behind a reverse proxy: where the client's address is forwarded (default: nowhere,
    /// the peer is the client).
    pub proxy: ProxyTrust,
    /// Where `nofxi data download` stores history (`<home>/history`): the backtest page can
    /// run on it. None: the page offers the simulated market only.
    pub history_dir: Option<PathBuf>,
}

#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error(
        "refusing to listen on {0}: there are no users yet, so anyone who reaches that address would act as you. Add a user who logs in (`nofxi user add NAME`) and start again, or listen on loopback (--addr 127.0.0.1:{port}) and reach it from another machine through an SSH tunnel: ssh -L {port}:127.0.0.1:{port} THIS-HOST",
        port = .0.port()
    )]
    NotLoopback(SocketAddr),
    #[error(
        "cannot listen on {addr} (is another nofxi serve running? pick another port with --addr 127.0.0.1:PORT)"
    )]
    Bind {
        addr: SocketAddr,
        source: std::io::Error,
    },
    #[error("the assistant cannot start: {0}")]
    Assistant(#[from] nofxi_assistant::AssistantError),
    #[error("the server failed: {0}")]
    Io(#[from] std::io::Error),
    #[error("the engine failed: {0}")]
    Engine(#[from] nofxi_store::StoreError),
}

impl AppState {
    /// Everything the handlers share, for a server bound to `addr`.
    pub async fn open(
        store: Arc<Store>,
        library: Arc<Library>,
        access: Access,
        web_dir: Option<PathBuf>,
    ) -> Result<AppState, ServeError> {
        let assistant = Arc::new(
            Assistant::open(store.clone(), library.clone(), AssistantOptions::default()).await?,
        );
        let metrics = Arc::new(Metrics::default());
        let hub = Arc::new(ChatHub::new(
            store.clone(),
            assistant.clone(),
            metrics.clone(),
        ));
        let confirmer = Arc::new(Confirmer::default());
        let mcp = Arc::new(nofxi_mcp::call::Calls {
            store: store.clone(),
            library: library.clone(),
            assistant,
            confirmer: confirmer.clone(),
            lang: nofxi_skills::Lang::En,
        });
        let (_, stopping) = watch::channel(false);
        Ok(AppState {
            store,
            library,
            hub,
            metrics,
            access: Arc::new(access),
            confirmer,
            mcp,
            backtests: Arc::default(),
            web_dir,
            engine_sim_speed: None,
            ready: Arc::new(AtomicBool::new(true)),
            stopping,
        })
    }
}

/// The whole HTTP surface: every operation, a JSON 404 for the rest, and the layers every
/// request passes (its reply language, the access check, latency by route).
pub fn app(state: AppState) -> Router {
    api::router(api::operations())
        .fallback(not_found)
        // Said in the body extractor's 413, so the limit is set here rather than left to
        // axum's default.
        .layer(DefaultBodyLimit::max(api::MAX_BODY_BYTES))
        .route_layer(middleware::from_fn_with_state(
            state.clone(),
            metrics::track,
        ))
        .layer(middleware::from_fn_with_state(state.clone(), access::guard))
        // `/mcp` has its own door: API tokens only, in either mode (see `mcp_route`).
        .merge(crate::mcp_route::router(&state))
        .layer(middleware::from_fn(crate::lang::with_reply_lang))
        .with_state(state)
}

async fn not_found(uri: axum::http::Uri) -> ApiError {
    let path = uri.path().to_string();
    ApiError::catalog(
        axum::http::StatusCode::NOT_FOUND,
        "not_found",
        "http-not-found",
        &[("path", &path)],
    )
}

/// Serves until `shutdown` resolves, then stops gracefully. `on_listening` gets the bound
/// address (the port, when 0 was asked for) and the access mode.
pub async fn serve(
    store: Arc<Store>,
    library: Arc<Library>,
    options: ServeOptions,
    shutdown: impl Future<Output = ()> + Send + 'static,
    on_listening: impl FnOnce(SocketAddr, Mode),
) -> Result<(), ServeError> {
    // With an active user every request must log in or bring a token; without one the
    // server acts as `local` for whoever reaches it, which only loopback keeps to this machine.
    let mode = if store.active_user_count().await? > 0 {
        Mode::Users
    } else {
        Mode::Local
    };
    if mode == Mode::Local && !options.addr.ip().is_loopback() {
        return Err(ServeError::NotLoopback(options.addr));
    }
    let listener = tokio::net::TcpListener::bind(options.addr)
        .await
        .map_err(|source| ServeError::Bind {
            addr: options.addr,
            source,
        })?;
    let addr = listener.local_addr()?;
    let access = Access::new(mode, addr).behind(options.proxy.clone());
    let mut state = AppState::open(store.clone(), library, access, options.web_dir.clone()).await?;
    let (stop_streams, stopping) = watch::channel(false);
    state.stopping = stopping;
    state.backtests = Arc::new(Backtests::with_history(options.history_dir.clone()));
    state.engine_sim_speed = options.engine.as_ref().map(|host| host.sim_speed);
    tokio::spawn(state.hub.clone().listen_for_other_processes());

    let (stop_engine, engine_stop) = watch::channel(false);
    let engine = options
        .engine
        .clone()
        .map(|host| tokio::spawn(host_engine(store.clone(), host, engine_stop)));

    let ready = state.ready.clone();
    let hub = state.hub.clone();
    let router = app(state);
    on_listening(addr, mode);
    let signalled = async move {
        shutdown.await;
        tracing::info!("stopping: new requests are refused, running chat turns finish");
        ready.store(false, Ordering::SeqCst);
        let _ = stop_streams.send(true);
    };
    // Events are small writes in a row: without TCP_NODELAY each waits for the client's
    // delayed ACK (~40 ms). The peer address feeds the login rate limit.
    let listener = listener.tap_io(|tcp| {
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!(error = %e, "cannot set TCP_NODELAY");
        }
    });
    axum::serve(
        listener,
        router.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(signalled)
    .await?;
    if tokio::time::timeout(DRAIN_TURNS, hub.drain())
        .await
        .is_err()
    {
        tracing::warn!(
            turns = hub.turns_in_flight(),
            "chat turns still running after {} s; stopping anyway",
            DRAIN_TURNS.as_secs()
        );
    }
    let _ = stop_engine.send(true);
    if let Some(engine) = engine {
        match engine.await {
            Ok(result) => result?,
            Err(e) => tracing::warn!(error = %e, "the engine task ended abnormally"),
        }
    }
    Ok(())
}
