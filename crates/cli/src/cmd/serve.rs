//! `nofxi serve`: the web app and HTTP API on one address, with the trading engine in the
//! same process (a trader started in the page trades). Ctrl-C or SIGTERM stops it gracefully:
//! running chat turns finish, each trader finishes its cycle, leases are released.

use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::{Context, Result};
use clap::Args;
use nofxi_server::access::Mode;
use nofxi_server::{Cidr, ForwardedHeader, ProxyTrust, ServeOptions, serve};

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
    /// Behind a reverse proxy (reached only through it: listen on loopback or a private
    /// address): the login limit counts per client address as the proxy forwards it, the
    /// right-most entry of X-Forwarded-For (or with `=forwarded`, of the Forwarded header), not
    /// per the proxy's own address, which would lock every user out together. Without it
    /// those headers are ignored: any client can write them.
    #[arg(
        long,
        value_name = "HEADER",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "x-forwarded-for",
        value_enum
    )]
    pub behind_proxy: Option<ForwardedVia>,
    /// A proxy in front of that one (a CDN, a load balancer), by address or block
    /// (203.0.113.7, 10.0.0.0/8); repeat for several. Its entries in the forwarded header are
    /// skipped to reach the client's.
    #[arg(long = "trusted-proxy", value_name = "ADDR[/BITS]", requires = "behind_proxy", value_parser = parse_cidr)]
    pub trusted_proxies: Vec<Cidr>,
    #[command(flatten)]
    pub engine: RunArgs,
}

/// The header `--behind-proxy` reads the client's address from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ForwardedVia {
    XForwardedFor,
    Forwarded,
}

fn parse_cidr(text: &str) -> std::result::Result<Cidr, String> {
    text.parse()
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
        proxy: ProxyTrust {
            header: args.behind_proxy.map(|via| match via {
                ForwardedVia::XForwardedFor => ForwardedHeader::XForwardedFor,
                ForwardedVia::Forwarded => ForwardedHeader::Forwarded,
            }),
            trusted: args.trusted_proxies,
        },
        history_dir: Some(super::data::history_dir(global)?),
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
