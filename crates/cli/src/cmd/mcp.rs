//! `nofxi mcp`: nofxi as an MCP server over stdin and stdout, for an agent or IDE that spawns
//! it (Claude Desktop, Cursor, codex). It acts as `--user` with every scope (whoever can
//! start the process owns the data) and, unless `--no-engine`, runs the trading engine beside
//! it so a trader the agent starts trades. Logs go to stderr: stdout carries the protocol.

use std::sync::Arc;

use anyhow::{Context, Result};
use clap::Args;
use nofxi_assistant::confirm_token::Confirmer;
use nofxi_assistant::{Assistant, AssistantOptions};
use nofxi_mcp::call::Calls;
use nofxi_mcp::{NofxiMcp, Principal};
use nofxi_skills::Lang;
use nofxi_trader::runtime::host::host_engine;
use tokio::sync::watch;

use super::chat::chat_library;
use super::common::open_store;
use super::run::{RunArgs, init_logging};
use crate::home::GlobalArgs;

#[derive(Debug, Args)]
pub struct McpArgs {
    /// The language of tool results: en or zh (a `nofxi_chat` message is answered in its own).
    #[arg(long, default_value = "en", value_parser = parse_lang)]
    pub lang: Lang,
    /// Serve tools only: run no trading engine in this process (`nofxi run` or `nofxi serve`
    /// runs the traders).
    #[arg(long)]
    pub no_engine: bool,
    #[command(flatten)]
    pub engine: RunArgs,
}

fn parse_lang(text: &str) -> Result<Lang, String> {
    match text {
        "en" => Ok(Lang::En),
        "zh" => Ok(Lang::Zh),
        // Not repeated: clap's "invalid value '…' for '--lang'" quotes it, escaped.
        _ => Err("not a language nofxi speaks: use en or zh".to_string()),
    }
}

pub fn run(global: &GlobalArgs, args: McpArgs) -> Result<()> {
    init_logging();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(serve(global, args))
}

async fn serve(global: &GlobalArgs, args: McpArgs) -> Result<()> {
    let store = Arc::new(open_store(global).await?);
    let library = Arc::new(chat_library(global)?);
    let assistant =
        Assistant::open(store.clone(), library.clone(), AssistantOptions::default()).await?;
    let calls = Arc::new(Calls {
        store: store.clone(),
        library,
        assistant: Arc::new(assistant),
        confirmer: Arc::new(Confirmer::default()),
        lang: args.lang,
    });
    let (stop_engine, engine_stop) = watch::channel(false);
    let engine = (!args.no_engine)
        .then(|| tokio::spawn(host_engine(store, args.engine.host_options(), engine_stop)));
    let server = NofxiMcp::for_principal(calls, Principal::local(global.user.clone()));
    let served = nofxi_mcp::serve_stdio(server)
        .await
        .context("the MCP connection failed");
    // The client closed the connection: each trader finishes its cycle, leases are released.
    let _ = stop_engine.send(true);
    if let Some(engine) = engine {
        match engine.await {
            Ok(result) => result?,
            Err(e) => tracing::warn!(error = %e, "the engine task ended abnormally"),
        }
    }
    served
}
