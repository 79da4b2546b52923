//! Logging in and out (multi-user mode). A login sets the session cookie: HttpOnly (no
//! script reads it), SameSite=Strict (no other site's page makes the browser send it), Path=/.
//! It is not marked Secure because `serve` speaks plain HTTP; put it behind TLS (a reverse
//! proxy) when it is reached over a network.

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use nofxi_domain::Secret;
use nofxi_store::LoginGate;

use super::Body;
use super::system::{Login, Session};
use crate::access::{Caller, Mode, SESSION_COOKIE, cookie};
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use crate::{client_addr, login_limit};

pub async fn login(
    State(state): State<AppState>,
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
    headers: HeaderMap,
    Body(body): Body<Login>,
) -> ApiResult<Response> {
    if state.access.mode() == Mode::Local {
        return Err(ApiError::catalog(
            StatusCode::BAD_REQUEST,
            "no_login",
            "http-no-login",
            &[],
        ));
    }
    let user = body.user.trim().to_lowercase();
    let peer = peer.map(|Extension(ConnectInfo(addr))| addr.ip());
    let client = client_addr::client(peer, &headers, &state.access.proxy);
    let keys = login_limit::LoginKeys::of(&user, client.as_deref());
    // Counted before the password is checked: guesses sent at once cannot all get through.
    if let LoginGate::Closed { wait_ms } = state.store.begin_login(&keys.budgets()).await? {
        return Ok(too_many(login_limit::wait_seconds(wait_ms)));
    }
    let password = Secret::new(body.password);
    let Some(user) = state.store.check_login(&user, &password).await? else {
        return Err(ApiError::catalog(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "http-bad-login",
            &[],
        ));
    };
    state
        .store
        .login_succeeded(keys.cleared(), &keys.taken_back())
        .await?;
    let (id, session) = state.store.open_session(&user).await?;
    let max_age = (session.expires_at - state.store.now_ms()) / 1000;
    let cookie = format!(
        "{SESSION_COOKIE}={}; HttpOnly; SameSite=Strict; Path=/; Max-Age={max_age}",
        id.as_str()
    );
    let caller = Caller {
        user,
        scopes: nofxi_store::Scope::ALL.to_vec(),
        csrf_token: Some(session.csrf_token),
    };
    let mut response = Json(Session::of(&state, caller)).into_response();
    response.headers_mut().insert(
        header::SET_COOKIE,
        HeaderValue::from_str(&cookie).map_err(|e| ApiError::internal(e.to_string()))?,
    );
    Ok(response)
}

fn too_many(wait: u64) -> Response {
    let seconds = wait.to_string();
    let mut response = ApiError::catalog(
        StatusCode::TOO_MANY_REQUESTS,
        "rate_limited",
        "http-login-limited",
        &[("seconds", &seconds)],
    )
    .into_response();
    if let Ok(value) = HeaderValue::from_str(&seconds) {
        response.headers_mut().insert(header::RETRY_AFTER, value);
    }
    response
}

pub async fn logout(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
) -> ApiResult<Response> {
    if let Some(id) = cookie(&headers, SESSION_COOKIE) {
        state.store.close_session(id).await?;
    }
    let mut response = Json(Session::of(&state, caller)).into_response();
    response.headers_mut().insert(
        header::SET_COOKIE,
        HeaderValue::from_static("nofxi_session=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0"),
    );
    Ok(response)
}
