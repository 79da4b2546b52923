//! `/mcp`: nofxi's MCP server over streamable HTTP, for agents on other machines or in other
//! processes. Only an API token opens it (`Authorization: Bearer …`, in local mode too): a
//! browser page cannot send one, so neither a session cookie nor the CSRF token is involved.
//! The token's user and scopes become the calls' [`Principal`]: a token of one user reaches
//! only that user's objects, and a read-only token only the read-only tools.

use axum::Router;
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use nofxi_mcp::Principal;

use crate::access::bearer;
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
        .route_layer(middleware::from_fn_with_state(state.clone(), token_only))
}

/// Lets a request through with the [`Principal`] of its API token, or refuses it.
async fn token_only(State(state): State<AppState>, mut request: Request, next: Next) -> Response {
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
