//! The web app's files: embedded at build time (`build.rs`), or read from `NOFXI_WEB_DIR`
//! while developing the pages, so an edit shows on reload without a rebuild.

use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;
use crate::state::AppState;

include!(concat!(env!("OUT_DIR"), "/web_assets.rs"));

/// `GET /`: the app's single page.
pub async fn index(State(state): State<AppState>) -> Response {
    file(&state, "index.html").await
}

/// `GET /assets/{*path}`.
pub async fn asset(State(state): State<AppState>, Path(path): Path<String>) -> Response {
    file(&state, &path).await
}

async fn file(state: &AppState, path: &str) -> Response {
    // No way out of the web directory: only plain relative components.
    let safe = !path.is_empty()
        && path
            .split('/')
            .all(|c| !c.is_empty() && c != "." && c != ".." && !c.contains('\\'));
    let bytes = if !safe {
        None
    } else if let Some(dir) = &state.web_dir {
        tokio::fs::read(dir.join(path)).await.ok()
    } else {
        WEB_ASSETS
            .iter()
            .find(|(p, _)| *p == path)
            .map(|(_, b)| b.to_vec())
    };
    match bytes {
        Some(bytes) => (
            StatusCode::OK,
            [
                (header::CONTENT_TYPE, content_type(path)),
                (header::CACHE_CONTROL, "no-cache"),
                (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            ],
            bytes,
        )
            .into_response(),
        None => {
            let shown = format!("/assets/{path}");
            ApiError::catalog(
                StatusCode::NOT_FOUND,
                "not_found",
                "http-not-found",
                &[("path", &shown)],
            )
            .into_response()
        }
    }
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "txt" | "md" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}
