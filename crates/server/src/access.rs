//! Who is calling, decided once per request before any handler runs.
//!
//! Local mode (no users configured): the server listens on loopback only and every request
//! acts as the single user `local`, the CLI's default user, so the page and the terminal see
//! the same traders. Two checks keep other web pages out of it:
//! - the `Host` header must name this server (a DNS-rebinding page reaches 127.0.0.1 under
//!   its own host name, and is refused);
//! - every state change must carry `X-CSRF-Token` with this process's token, which only a
//!   page of this origin can read (`GET /api/session`; browsers keep other origins from
//!   reading the response). The session cookie of multi-user mode is SameSite=Strict on top.

use std::net::SocketAddr;

use axum::extract::{FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use nofxi_domain::{Actor, Channel};
use rand::RngCore;

use crate::error::ApiError;
use crate::state::AppState;

pub const CSRF_HEADER: &str = "x-csrf-token";

/// The single user of local mode (the CLI's default `--user`).
pub const LOCAL_USER: &str = "local";

/// How requests are let in.
#[derive(Debug, Clone)]
pub struct Access {
    csrf_token: String,
    /// `host:port` forms the `Host` header may take.
    hosts: Vec<String>,
}

impl Access {
    /// Local mode for a server bound to `addr` (a loopback address).
    pub fn local(addr: SocketAddr) -> Access {
        let mut bytes = [0u8; 32];
        rand::rng().fill_bytes(&mut bytes);
        let port = addr.port();
        let mut hosts = vec![
            format!("127.0.0.1:{port}"),
            format!("localhost:{port}"),
            format!("[::1]:{port}"),
            addr.to_string(),
        ];
        // Browsers leave the port out of Host for the scheme's default port.
        if port == 80 {
            hosts.extend(["127.0.0.1".into(), "localhost".into(), "[::1]".into()]);
        }
        Access {
            csrf_token: hex::encode(bytes),
            hosts,
        }
    }

    pub fn csrf_token(&self) -> &str {
        &self.csrf_token
    }

    fn host_allowed(&self, host: &str) -> bool {
        self.hosts.iter().any(|h| h.eq_ignore_ascii_case(host))
    }

    fn csrf_ok(&self, given: Option<&str>) -> bool {
        given.is_some_and(|g| constant_time_eq(g.as_bytes(), self.csrf_token.as_bytes()))
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The caller of a request, for handlers: whose objects it may read and change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller {
    pub user: String,
}

impl Caller {
    /// The actor of a change made through the API; `confirmed` when the caller answered a
    /// confirmation for it.
    pub fn actor(&self, confirmed: bool) -> Actor {
        Actor::new(self.user.clone(), Channel::Api, confirmed)
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Caller {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Caller, Response> {
        parts.extensions.get::<Caller>().cloned().ok_or_else(|| {
            ApiError::internal("the access check did not run for this route").into_response()
        })
    }
}

/// Middleware: the Host check, the CSRF check on state changes, then the caller.
pub async fn guard(State(state): State<AppState>, mut request: Request, next: Next) -> Response {
    let access = &state.access;
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    if !access.host_allowed(host) {
        let host = host.to_string();
        return ApiError::catalog(
            StatusCode::FORBIDDEN,
            "forbidden",
            "http-host",
            &[("host", &host)],
        )
        .into_response();
    }
    let changes = !matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    );
    if changes {
        let given = request
            .headers()
            .get(CSRF_HEADER)
            .and_then(|h| h.to_str().ok());
        if !access.csrf_ok(given) {
            return ApiError::catalog(StatusCode::FORBIDDEN, "forbidden", "http-csrf", &[])
                .into_response();
        }
    }
    request.extensions_mut().insert(Caller {
        user: LOCAL_USER.to_string(),
    });
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_this_servers_hosts_pass() {
        let access = Access::local(SocketAddr::from(([127, 0, 0, 1], 8700)));
        assert!(access.host_allowed("127.0.0.1:8700"));
        assert!(access.host_allowed("LOCALHOST:8700"));
        assert!(!access.host_allowed("evil.example:8700"));
        assert!(!access.host_allowed("127.0.0.1:8701"));
        assert!(!access.host_allowed(""));
    }

    #[test]
    fn csrf_token_must_match_exactly() {
        let access = Access::local(SocketAddr::from(([127, 0, 0, 1], 8700)));
        let token = access.csrf_token().to_string();
        assert!(access.csrf_ok(Some(&token)));
        assert!(!access.csrf_ok(Some(&token[1..])));
        assert!(!access.csrf_ok(None));
        assert_ne!(
            token,
            Access::local(SocketAddr::from(([127, 0, 0, 1], 8700))).csrf_token()
        );
    }
}
