//! The server itself: the session a page starts with, health, readiness, metrics, the API
//! document and the web app's files.

use std::sync::atomic::Ordering;

use axum::Json;
use axum::extract::State;
use axum::http::{Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};

use super::login;
use super::{Op, Reply, schema};
use crate::access::{ANY_CALLER, Caller, Gate};
use crate::state::AppState;

#[derive(Serialize, schemars::JsonSchema)]
pub struct Session {
    pub user: String,
    /// `local`: one user, no login; `users`: logins and API tokens.
    pub mode: String,
    /// Send it back as the `X-CSRF-Token` header with every state change (absent for an API
    /// token, which needs none).
    pub csrf_token: Option<String>,
    /// What this caller may do: `read`, `write`, `trade`.
    pub scopes: Vec<String>,
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct Login {
    pub user: String,
    pub password: String,
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct Health {
    pub status: String,
    /// Chat turns still running on the server.
    pub turns_in_flight: usize,
}

pub fn operations() -> Vec<Op> {
    vec![
        Op::new(
            Method::GET,
            "/api/session",
            "system",
            "Who the page acts as, and the CSRF token its changes must carry",
            Reply::Json(200, schema::<Session>),
            get(session),
        )
        .gate(ANY_CALLER),
        Op::new(
            Method::POST,
            "/api/login",
            "system",
            "Multi-user mode: log in; sets the HttpOnly session cookie and returns the session (429 with Retry-After after repeated failures)",
            Reply::Json(200, schema::<Session>),
            post(login::login),
        )
        .body(schema::<Login>)
        .gate(Gate::Public),
        Op::new(
            Method::POST,
            "/api/logout",
            "system",
            "End this browser session",
            Reply::Json(200, schema::<Session>),
            post(login::logout),
        )
        .gate(ANY_CALLER),
        Op::new(
            Method::GET,
            "/healthz",
            "system",
            "Liveness: the process answers",
            Reply::Json(200, schema::<Health>),
            get(healthz),
        )
        .gate(Gate::Public),
        Op::new(
            Method::GET,
            "/readyz",
            "system",
            "Readiness: the database answers and no shutdown has begun (503 otherwise)",
            Reply::Json(200, schema::<Health>),
            get(readyz),
        )
        .gate(Gate::Public),
        Op::new(
            Method::GET,
            "/metrics",
            "system",
            "Prometheus metrics: turns (rules or model), model calls and tokens, HTTP latency by route, traders and their cycles",
            Reply::Text("text/plain; version=0.0.4"),
            get(metrics),
        )
        .gate(ANY_CALLER),
        Op::new(
            Method::GET,
            "/api/openapi.json",
            "system",
            "This document",
            Reply::Text("application/json"),
            get(openapi),
        )
        .gate(Gate::Public),
        Op::new(
            Method::GET,
            "/",
            "web",
            "The web app",
            Reply::Text("text/html"),
            get(crate::assets::index),
        )
        .gate(Gate::Public),
        Op::new(
            Method::GET,
            "/assets/{*path}",
            "web",
            "The web app's files",
            Reply::Text("application/octet-stream"),
            get(crate::assets::asset),
        )
        .gate(Gate::Public),
    ]
}

async fn session(State(state): State<AppState>, caller: Caller) -> Json<Session> {
    Json(Session::of(&state, caller))
}

impl Session {
    pub fn of(state: &AppState, caller: Caller) -> Session {
        Session {
            user: caller.user,
            mode: state.access.mode().as_str().into(),
            csrf_token: caller.csrf_token,
            scopes: caller.scopes.iter().map(|s| s.as_str().into()).collect(),
        }
    }
}

fn health(state: &AppState, status: &str) -> Json<Health> {
    Json(Health {
        status: status.into(),
        turns_in_flight: state.hub.turns_in_flight(),
    })
}

async fn healthz(State(state): State<AppState>) -> Json<Health> {
    health(&state, "ok")
}

async fn readyz(State(state): State<AppState>) -> Response {
    if !state.ready.load(Ordering::SeqCst) {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            health(&state, "shutting_down"),
        )
            .into_response();
    }
    // The cheapest read that needs the database.
    match state.store.latest_conversation("-").await {
        Ok(_) => health(&state, "ready").into_response(),
        Err(_) => (
            StatusCode::SERVICE_UNAVAILABLE,
            health(&state, "database_unreachable"),
        )
            .into_response(),
    }
}

async fn metrics(State(state): State<AppState>) -> Response {
    let text = state.metrics.render(&state.store).await;
    (
        [(
            header::CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        text,
    )
        .into_response()
}

async fn openapi() -> Json<serde_json::Value> {
    Json(super::openapi_document(&super::operations()))
}
