//! `/mcp`: nofxi's MCP server over streamable HTTP, for agents in other processes or on other
//! machines. Neither a session cookie nor the CSRF token opens it; who calls is decided as:
//! - multi-user mode: only an API token (`Authorization: Bearer …`); its user and scopes
//!   become the calls' [`Principal`], so a token reaches only its user's objects, and a
//!   read-only token only the read-only tools;
//! - local mode (no users; loopback only): the single user `local`, as for the rest of the
//!   API, for a request to one of this server's own Host names that carries no `Origin`. A web
//!   page always sends an `Origin` with a cross-site request, so no page the user visits can
//!   drive the tools; an agent does not send one.

use axum::Router;
use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use nofxi_mcp::Principal;

use crate::access::{LOCAL_USER, Mode, bearer};
use crate::error::ApiError;
use crate::state::AppState;

pub const PATH: &str = "/mcp";

pub fn router(state: &AppState) -> Router<AppState> {
    let service = nofxi_mcp::http_service(state.mcp.clone());
    // Open event streams end when the server begins to stop, or it would wait on them.
    let cancel = service.config.cancellation_token.clone();
    let mut stopping = state.stopping.clone();
    if let Ok(runtime) = tokio::runtime::Handle::try_current() {
        runtime.spawn(async move {
            let _ = stopping.wait_for(|s| *s).await;
            cancel.cancel();
        });
    }
    Router::new()
        .route_service(PATH, service)
        .route_layer(middleware::from_fn_with_state(state.clone(), caller_only))
}

/// Lets a request through with its caller's [`Principal`], or refuses it.
async fn caller_only(State(state): State<AppState>, mut request: Request, next: Next) -> Response {
    if state.access.mode() == Mode::Local {
        let headers = request.headers();
        let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
        if !state.access.host_allowed(host.unwrap_or_default()) {
            let host = host.unwrap_or_default().to_string();
            return ApiError::catalog(
                StatusCode::FORBIDDEN,
                "forbidden",
                "http-host",
                &[("host", &host)],
            )
            .into_response();
        }
        if headers.contains_key(header::ORIGIN) {
            return ApiError::catalog(StatusCode::FORBIDDEN, "forbidden", "http-mcp-origin", &[])
                .into_response();
        }
        request
            .extensions_mut()
            .insert(Principal::local(LOCAL_USER));
        return next.run(request).await;
    }
    let Some(text) = bearer(request.headers()) else {
        return ApiError::catalog(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "http-mcp-token",
            &[],
        )
        .into_response();
    };
    match state.store.token_for(text).await {
        Ok(Some(token)) => {
            request.extensions_mut().insert(Principal {
                user: token.user,
                scopes: token.scopes,
            });
            next.run(request).await
        }
        Ok(None) => ApiError::catalog(StatusCode::UNAUTHORIZED, "unauthorized", "http-token", &[])
            .into_response(),
        Err(e) => ApiError::from(e).into_response(),
    }
}
