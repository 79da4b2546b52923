//! `nofxi serve`: one process that serves the HTTP API, chat over SSE and the embedded web
//! app, and hosts the trading engine beside them.
//!
//! - [`api`] holds every route once, in a table that builds both the router and the OpenAPI
//!   document, so the document cannot drift from what is served;
//! - [`access`] decides who calls (local mode: the single user `local`, guarded by a CSRF
//!   token and a Host check; multi-user mode: a session cookie or a scoped API token) before
//!   any handler runs, and each route's gate says what the caller must hold;
//! - [`chat_hub`] runs posted turns to completion on the server and persists their events, so
//!   a reconnecting client or a second tab replays what it missed;
//! - [`mcp_route`] serves MCP (streamable HTTP) at `/mcp` to API tokens;
//! - [`serve`] binds, refuses what is unsafe, and shuts down gracefully.

pub mod access;
pub mod api;
mod assets;
pub mod chat_hub;
pub mod client_addr;
pub mod error;
pub mod lang;
pub mod login_limit;
pub mod mcp_route;
pub mod metrics;
pub mod serve;
pub mod state;

pub use client_addr::{Cidr, ForwardedHeader, ProxyTrust};
pub use serve::{ServeOptions, serve};
pub use state::AppState;
