//! Every route, once: a table of operations that builds the router and the OpenAPI 3.1
//! document (`/api/openapi.json`) from the same entries and the Rust types' JSON Schemas, so
//! the document cannot describe a route that is not served or a body the handler does not take.

mod backtest_data;
pub mod backtests;
mod body;
mod body_error;
pub mod chat;
pub mod dashboard;
mod login;
pub mod market;
mod openapi;
pub mod portfolio_import;
pub mod portfolio_marks;
pub mod portfolio_records;
pub mod portfolio_setup;
pub mod portfolios;
pub mod reads;
pub mod resources;
pub mod settings;
pub mod step;
pub mod strategy_form;
pub mod system;
pub mod tokens;
pub mod trader_controls;
pub mod trader_edit;
pub mod trader_trades;
pub mod traders;

use std::collections::BTreeMap;

use axum::Router;
use axum::extract::Request;
use axum::http::Method;
use axum::middleware::{self, Next};
use axum::routing::MethodRouter;
use nofxi_store::Scope;
use schemars::{JsonSchema, Schema, SchemaGenerator};

pub use body::{Body, MAX_BODY_BYTES};

use crate::access::{Gate, require};
use crate::state::AppState;

pub type SchemaFn = fn(&mut SchemaGenerator) -> Schema;

/// The schema of `T`, for an operation's body or reply.
pub fn schema<T: JsonSchema>(generator: &mut SchemaGenerator) -> Schema {
    generator.subschema_for::<T>()
}

/// What an operation answers with.
#[derive(Clone, Copy)]
pub enum Reply {
    Json(u16, SchemaFn),
    /// A `text/event-stream`; the events are described in the summary.
    EventStream,
    /// Another media type (the metrics' text format, the web app's files).
    Text(&'static str),
}

/// One operation: method, path (axum's and OpenAPI's `{param}` syntax), what it is for, who
/// may call it, and its handler.
pub struct Op {
    pub method: Method,
    pub path: &'static str,
    pub tag: &'static str,
    pub summary: &'static str,
    /// Reads need `read`, changes `write`, unless the operation says otherwise.
    pub gate: Gate,
    pub query: Option<SchemaFn>,
    pub body: Option<SchemaFn>,
    pub reply: Reply,
    pub handler: MethodRouter<AppState>,
}

impl Op {
    pub fn new(
        method: Method,
        path: &'static str,
        tag: &'static str,
        summary: &'static str,
        reply: Reply,
        handler: MethodRouter<AppState>,
    ) -> Op {
        let gate = if method == Method::GET {
            Gate::Caller(&[Scope::Read])
        } else {
            Gate::Caller(&[Scope::Write])
        };
        Op {
            method,
            path,
            tag,
            summary,
            gate,
            query: None,
            body: None,
            reply,
            handler,
        }
    }

    pub fn body(mut self, body: SchemaFn) -> Op {
        self.body = Some(body);
        self
    }

    pub fn query(mut self, query: SchemaFn) -> Op {
        self.query = Some(query);
        self
    }

    /// Who may call it, when not the default for its method.
    pub fn gate(mut self, gate: Gate) -> Op {
        self.gate = gate;
        self
    }
}

/// Every operation the server serves.
pub fn operations() -> Vec<Op> {
    let mut ops = Vec::new();
    ops.extend(system::operations());
    ops.extend(resources::operations());
    ops.extend(strategy_form::operations());
    ops.extend(traders::operations());
    ops.extend(trader_trades::operations());
    ops.extend(trader_controls::operations());
    ops.extend(dashboard::operations());
    ops.extend(portfolios::operations());
    ops.extend(portfolio_setup::operations());
    ops.extend(portfolio_import::operations());
    ops.extend(portfolio_records::operations());
    ops.extend(portfolio_marks::operations());
    ops.extend(chat::operations());
    ops.extend(backtests::operations());
    ops.extend(reads::operations());
    ops.extend(market::operations());
    ops.extend(settings::operations());
    ops.extend(tokens::operations());
    ops
}

/// The router of every operation, each behind its gate; one `route` per path, its methods
/// merged.
pub fn router(ops: Vec<Op>) -> Router<AppState> {
    let mut by_path: BTreeMap<&'static str, MethodRouter<AppState>> = BTreeMap::new();
    for op in ops {
        let gate = op.gate;
        let handler = op
            .handler
            .layer(middleware::from_fn(move |request: Request, next: Next| {
                require(gate, request, next)
            }));
        let merged = match by_path.remove(op.path) {
            Some(existing) => existing.merge(handler),
            None => handler,
        };
        by_path.insert(op.path, merged);
    }
    by_path
        .into_iter()
        .fold(Router::new(), |router, (path, handler)| {
            router.route(path, handler)
        })
}

pub use openapi::document as openapi_document;
