//! nofxi as an MCP tool server, for other agents and IDEs (Claude Desktop, Cursor, codex,
//! goose): `nofxi mcp` over stdio, and `/mcp` (streamable HTTP) in `nofxi serve` behind its
//! API tokens.
//!
//! - [`catalog`] lists the tools: every management action of the skill library (the names,
//!   input schemas and annotations the skill exporter writes), the market functions nofxi can
//!   run, and `nofxi_chat`; each with one output schema, the [`outcome::Outcome`];
//! - [`call`] runs a tool call as the typed command a rule or a model would emit
//!   (`StartTask` with the arguments as slots), through the assistant's own turn: the same
//!   policy, validation, confirmations, tool inspectors, redaction and trace as a chat turn;
//! - [`pending`] makes the second step of a risky call: the first call returns the summary
//!   and a pending id bound to the user, the exact arguments, the summary and the objects'
//!   versions, good for five minutes; only a call with it acts;
//! - [`resources`] serves the traders, their journals and equity curves as resources;
//! - [`handler`] is the `rmcp` server over all of it;
//! - [`stdio`] carries it over stdin and stdout, a parse error for every line that is not JSON.

pub mod call;
pub mod catalog;
pub mod handler;
pub mod outcome;
pub mod pending;
pub mod resources;
pub mod stdio;

use nofxi_store::Scope;

pub use handler::NofxiMcp;

/// Who calls: the user whose objects the calls read and change, and what the credential may
/// do. Over stdio it is the `--user` of `nofxi mcp` with every scope; over HTTP, the API
/// token's user and scopes, put into the request's extensions by the server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Principal {
    pub user: String,
    pub scopes: Vec<Scope>,
}

impl Principal {
    /// A local user holding every scope (stdio: whoever can start the process owns the data).
    pub fn local(user: impl Into<String>) -> Principal {
        Principal {
            user: user.into(),
            scopes: Scope::ALL.to_vec(),
        }
    }
}

/// Serves MCP over this process's stdin and stdout until the client closes them, answering
/// every line that is not JSON ([`stdio`]). Logs must go to stderr: stdout carries the
/// protocol.
pub async fn serve_stdio(server: NofxiMcp) -> Result<(), std::io::Error> {
    stdio::serve_lines(server, tokio::io::stdin(), tokio::io::stdout()).await
}

/// The streamable HTTP transport, for `/mcp` in `nofxi serve`. Each request's caller is the
/// [`Principal`] the server's authentication put into its extensions (an API token); the Host
/// check is the server's, so the SDK's loopback-only default is off. Cancel
/// `service.config.cancellation_token` to end its open streams on shutdown.
pub fn http_service(
    calls: std::sync::Arc<call::Calls>,
) -> rmcp::transport::streamable_http_server::StreamableHttpService<
    NofxiMcp,
    rmcp::transport::streamable_http_server::session::local::LocalSessionManager,
> {
    use rmcp::transport::streamable_http_server::{
        StreamableHttpServerConfig, StreamableHttpService,
    };
    StreamableHttpService::new(
        move || Ok(NofxiMcp::per_request(calls.clone())),
        std::sync::Arc::default(),
        StreamableHttpServerConfig::default().disable_allowed_hosts(),
    )
}
