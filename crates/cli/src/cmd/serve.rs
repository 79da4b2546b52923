//! `nofxi serve`: the web app and HTTP API on one address, with the trading engine in the
//! same process (a trader started in the page trades). Ctrl-C or SIGTERM stops it gracefully:
//! running chat turns finish, each trader finishes its cycle, leases are released.

use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::{Context, Result};
use clap::Args;
use nofxi_server::access::Mode;
use nofxi_server::{ServeOptions, serve};

use super::chat::chat_library;
use super::common::open_store;
use super::run::{RunArgs, init_logging, wait_for_signal};
use crate::home::GlobalArgs;

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Where to listen. With no users (`nofxi user add`) the server acts as the single user
    /// `local` and listens on loopback only; with users, every request logs in or brings an
    /// API token, and any address may be used.
    #[arg(long, default_value = "127.0.0.1:8700")]
    pub addr: SocketAddr,
    /// Serve only: run no trading engine in this process (another `nofxi run` runs traders).
    #[arg(long)]
    pub no_engine: bool,
    /// Serve the web app's files from this directory instead of the copy built into the
    /// binary (for working on the pages).
    #[arg(long, env = "NOFXI_WEB_DIR", value_name = "DIR")]
    pub web_dir: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub engine: RunArgs,
}

pub fn run(global: &GlobalArgs, args: ServeArgs) -> Result<()> {
    init_logging();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(run_server(global, args))
}

async fn run_server(global: &GlobalArgs, args: ServeArgs) -> Result<()> {
    let store = Arc::new(open_store(global).await?);
    let library = Arc::new(chat_library(global)?);
    let options = ServeOptions {
        addr: args.addr,
        engine: (!args.no_engine).then(|| args.engine.host_options()),
        web_dir: args.web_dir,
    };
    serve(store, library, options, wait_for_signal(), |addr, mode| {
        println!("nofxi is serving on http://{addr}/ — open it in a browser (Ctrl-C stops it)");
        match mode {
            Mode::Local => println!(
                "local mode: no login, you act as user `local` (add users with `nofxi user add NAME` to require logins)"
            ),
            Mode::Users => println!(
                "multi-user mode: log in with a user from `nofxi user list`; scripts use `nofxi token create`"
            ),
        }
    })
    .await?;
    tracing::info!("server stopped");
    Ok(())
}
