//! API tokens from the settings page (multi-user mode): list them, make one (its text shown
//! once, in the reply only), revoke one. Only a person logged in through the page may make or
//! revoke tokens, and never with scopes they lack: a token cannot mint a stronger token, nor
//! another one to outlive its own revocation.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{Method, StatusCode};
use axum::routing::{delete, get, post};
use nofxi_store::{ApiToken, Scope};
use serde::{Deserialize, Serialize};

use super::{Body, Op, Reply, schema};
use crate::access::{Caller, Mode};
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;

pub fn operations() -> Vec<Op> {
    vec![
        Op::new(
            Method::GET,
            "/api/tokens",
            "settings",
            "The caller's API tokens, revoked ones included, newest first (never their text)",
            Reply::Json(200, schema::<TokenList>),
            get(list),
        ),
        Op::new(
            Method::POST,
            "/api/tokens",
            "settings",
            "Make an API token (multi-user mode, from a logged-in page only, with scopes the caller holds); its text is in this reply and nowhere else",
            Reply::Json(200, schema::<TokenMade>),
            post(create),
        )
        .body(schema::<NewTokenBody>),
        Op::new(
            Method::DELETE,
            "/api/tokens/{id}",
            "settings",
            "Revoke one of the caller's tokens (from a logged-in page only); it stops working at once",
            Reply::Json(200, schema::<TokenView>),
            delete(revoke),
        ),
    ]
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct TokenList {
    pub items: Vec<TokenView>,
    /// `local`: no logins, so no tokens either (they are for multi-user mode).
    pub mode: String,
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct TokenView {
    /// The token's public part: `nofxi_<id>_…`.
    pub id: String,
    pub label: String,
    pub scopes: Vec<String>,
    pub created_at: i64,
    pub last_used_at: Option<i64>,
    pub revoked_at: Option<i64>,
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct TokenMade {
    pub token: TokenView,
    /// Send as `Authorization: Bearer …`. Shown once: nofxi keeps only its digest.
    pub text: String,
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NewTokenBody {
    /// What it is for (a script's name), up to 64 characters.
    pub label: String,
    /// Any of `read`, `write`, `trade`.
    pub scopes: Vec<String>,
}

impl From<ApiToken> for TokenView {
    fn from(t: ApiToken) -> TokenView {
        TokenView {
            id: t.id,
            label: t.label,
            scopes: t.scopes.iter().map(|s| s.as_str().to_string()).collect(),
            created_at: t.created_at,
            last_used_at: t.last_used_at,
            revoked_at: t.revoked_at,
        }
    }
}

async fn list(State(state): State<AppState>, caller: Caller) -> ApiResult<Json<TokenList>> {
    let mode = state.access.mode();
    let items = match mode {
        Mode::Local => Vec::new(),
        Mode::Users => state.store.list_tokens(&caller.user).await?,
    };
    Ok(Json(TokenList {
        items: items.into_iter().map(TokenView::from).collect(),
        mode: mode.as_str().into(),
    }))
}

async fn create(
    State(state): State<AppState>,
    caller: Caller,
    Body(body): Body<NewTokenBody>,
) -> ApiResult<Json<TokenMade>> {
    from_a_page(&state, &caller)?;
    let mut scopes = Vec::new();
    for word in &body.scopes {
        let Some(scope) = Scope::parse(word) else {
            return Err(ApiError::bad_request(
                "http-token-scope-unknown",
                &[("scope", &nofxi_domain::validation::shown_input(word))],
            ));
        };
        if !caller.scopes.contains(&scope) {
            return Err(ApiError::catalog(
                StatusCode::FORBIDDEN,
                "forbidden",
                "http-token-scope-not-held",
                &[("scope", scope.as_str())],
            ));
        }
        if !scopes.contains(&scope) {
            scopes.push(scope);
        }
    }
    let made = state
        .store
        .create_token(&caller.user, &body.label, &scopes)
        .await?;
    Ok(Json(TokenMade {
        text: made.text.as_str().to_string(),
        token: made.token.into(),
    }))
}

async fn revoke(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<TokenView>> {
    from_a_page(&state, &caller)?;
    Ok(Json(
        state.store.revoke_token(&caller.user, &id).await?.into(),
    ))
}

/// Tokens exist in multi-user mode, and are managed by a person logged in through the page
/// (a session carries a CSRF token; an API token carries none).
fn from_a_page(state: &AppState, caller: &Caller) -> ApiResult<()> {
    if state.access.mode() == Mode::Local {
        return Err(ApiError::catalog(
            StatusCode::CONFLICT,
            "conflict",
            "http-tokens-local",
            &[],
        ));
    }
    if caller.csrf_token.is_none() {
        return Err(ApiError::catalog(
            StatusCode::FORBIDDEN,
            "forbidden",
            "http-tokens-by-token",
            &[],
        ));
    }
    Ok(())
}
