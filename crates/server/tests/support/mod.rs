//! `nofxi serve` in the test's own process, on a loopback port the system picks: what every
//! test of the server starts from (the API, multi-user and browser tests).

#![allow(dead_code)]

pub mod api;
pub mod portfolio;
pub mod raw;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use nofxi_server::access::Mode;
use nofxi_server::serve::ServeError;
use nofxi_server::{ProxyTrust, ServeOptions, serve};
use nofxi_skills::Library;
use nofxi_store::Store;
use nofxi_trader::runtime::host::HostOptions;
use tokio::sync::oneshot;

pub type TestResult<T = ()> = Result<T, Box<dyn std::error::Error>>;

/// A server running until [`Running::stop`].
pub struct Running {
    pub base: String,
    pub mode: Mode,
    stop: Option<oneshot::Sender<()>>,
    done: tokio::task::JoinHandle<Result<(), ServeError>>,
}

/// The engine as tests host it: paper time 600× faster, a cycle each simulated minute, short
/// leases so a stop is seen quickly.
pub fn fast_engine(owner: &str) -> HostOptions {
    HostOptions {
        sim_speed: 600.0,
        cycle_seconds: Some(60),
        owner: format!("{owner}-{}", std::process::id()),
        lease_seconds: 5,
        time_label: |ms, _| ms.to_string(),
    }
}

/// Serves `store` on 127.0.0.1 (any free port) with the built-in skills.
pub async fn start_server(store: Arc<Store>, engine: Option<HostOptions>) -> TestResult<Running> {
    start_on(store, engine, SocketAddr::from(([127, 0, 0, 1], 0))).await
}

/// Serves `store` on `addr`.
pub async fn start_on(
    store: Arc<Store>,
    engine: Option<HostOptions>,
    addr: SocketAddr,
) -> TestResult<Running> {
    let options = ServeOptions {
        addr,
        engine,
        web_dir: None,
        proxy: ProxyTrust::default(),
        history_dir: None,
    };
    start_with(store, options).await
}

/// Serves `store` as `options` say.
pub async fn start_with(store: Arc<Store>, options: ServeOptions) -> TestResult<Running> {
    let library = Arc::new(Library::builtin()?);
    let (stop, stopped) = oneshot::channel::<()>();
    let (bound, listening) = oneshot::channel::<(SocketAddr, Mode)>();
    let done = tokio::spawn(serve(
        store,
        library,
        options,
        async move {
            let _ = stopped.await;
        },
        move |a, mode| {
            let _ = bound.send((a, mode));
        },
    ));
    let (addr, mode) = listening.await?;
    Ok(Running {
        base: format!("http://{addr}"),
        mode,
        stop: Some(stop),
        done,
    })
}

impl Running {
    /// Stops gracefully and waits for it (turns finish, the engine lets its traders go).
    pub async fn stop(mut self) -> TestResult {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        tokio::time::timeout(Duration::from_secs(30), self.done).await???;
        Ok(())
    }
}
