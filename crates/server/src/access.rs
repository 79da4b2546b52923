//! Who is calling, decided once per request before any handler runs, and what each route
//! lets them do.
//!
//! **Local mode** (no active user in the store): the server listens on loopback only and
//! every request acts as the single user `local`, the CLI's default user, so the page and the
//! terminal see the same traders. Two checks keep other web pages out of it:
//! - the `Host` header must name this server (a DNS-rebinding page reaches 127.0.0.1 under
//!   its own host name, and is refused);
//! - every state change must carry `X-CSRF-Token` with this process's token, which only a
//!   page of this origin can read (`GET /api/session`; browsers keep other origins from
//!   reading the response).
//!
//! **Multi-user mode** (at least one user added with `nofxi user add`): a request is
//! anonymous unless it carries a session cookie from `POST /api/login` (HttpOnly,
//! SameSite=Strict; every state change must also carry that session's CSRF token) or an API
//! token (`Authorization: Bearer nofxi_…`, scoped read / write / trade; no cookie, so no
//! CSRF). Every route states what it needs ([`Gate`]); the route layer [`require`] enforces it.

use std::net::SocketAddr;

use axum::extract::{FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use nofxi_domain::{Actor, Channel};
use nofxi_store::{Scope, constant_time_eq};
use rand::RngCore;

use crate::error::ApiError;
use crate::state::AppState;

pub const CSRF_HEADER: &str = "x-csrf-token";
/// The browser session's cookie.
pub const SESSION_COOKIE: &str = "nofxi_session";

/// The single user of local mode (the CLI's default `--user`).
pub const LOCAL_USER: &str = "local";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// One user, no login, loopback only.
    Local,
    /// Logins and tokens; anonymous requests reach only public routes.
    Users,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Local => "local",
            Mode::Users => "users",
        }
    }
}

/// What a route asks of its caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gate {
    /// Anyone: health, the API document, the web app's files, the login itself.
    Public,
    /// A known caller holding every one of these scopes (none: any caller).
    Caller(&'static [Scope]),
}

/// Starting and stopping traders.
pub const TRADE: Gate = Gate::Caller(&[Scope::Trade]);
/// A chat turn may change objects and, once confirmed, start or stop traders.
pub const CHAT: Gate = Gate::Caller(&[Scope::Write, Scope::Trade]);
/// Any known caller, whatever its scopes.
pub const ANY_CALLER: Gate = Gate::Caller(&[]);

/// How requests are let in.
#[derive(Debug)]
pub struct Access {
    mode: Mode,
    /// Local mode's CSRF token (multi-user mode: one per session, in the store).
    csrf_token: String,
    /// `host:port` forms the `Host` header may take in local mode.
    hosts: Vec<String>,
    /// Whose address a request comes from, for the login limit (`serve --behind-proxy`).
    pub proxy: crate::client_addr::ProxyTrust,
}

impl Access {
    /// Access for a server bound to `addr` (a loopback address in local mode).
    pub fn new(mode: Mode, addr: SocketAddr) -> Access {
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
            mode,
            csrf_token: hex::encode(bytes),
            hosts,
            proxy: crate::client_addr::ProxyTrust::default(),
        }
    }

    /// Behind the proxy `proxy` describes (the login limit keys on the address it forwards).
    pub fn behind(mut self, proxy: crate::client_addr::ProxyTrust) -> Access {
        self.proxy = proxy;
        self
    }

    pub fn mode(&self) -> Mode {
        self.mode
    }

    pub(crate) fn host_allowed(&self, host: &str) -> bool {
        self.hosts.iter().any(|h| h.eq_ignore_ascii_case(host))
    }
}

/// The caller of a request, for handlers: whose objects it may read and change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller {
    pub user: String,
    pub scopes: Vec<Scope>,
    /// The token state changes must carry (none for an API token: it is no ambient
    /// credential a foreign page could make the browser send).
    pub csrf_token: Option<String>,
}

impl Caller {
    /// The actor of a change made through the API; `confirmed` when the caller answered a
    /// confirmation for it.
    pub fn actor(&self, confirmed: bool) -> Actor {
        Actor::new(self.user.clone(), Channel::Api, confirmed)
    }

    fn missing(&self, needs: &[Scope]) -> Option<Scope> {
        needs.iter().copied().find(|s| !self.scopes.contains(s))
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Caller {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Caller, Response> {
        parts
            .extensions
            .get::<Caller>()
            .cloned()
            .ok_or_else(|| unauthorized().into_response())
    }
}

fn unauthorized() -> ApiError {
    ApiError::catalog(StatusCode::UNAUTHORIZED, "unauthorized", "http-login", &[])
}

fn forbidden(id: &str, args: &[(&str, &str)]) -> ApiError {
    ApiError::catalog(StatusCode::FORBIDDEN, "forbidden", id, args)
}

fn changes_state(method: &Method) -> bool {
    !matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
}

/// The value of one cookie in the request's `Cookie` headers.
pub fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

pub(crate) fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then_some(token.trim())
}

/// Middleware: finds the caller (local mode: always `local`; multi-user: a token or a
/// session, else anonymous) and checks the CSRF token of a cookie-borne state change.
pub async fn guard(State(state): State<AppState>, mut request: Request, next: Next) -> Response {
    let (headers, method) = (request.headers(), request.method());
    let caller = match state.access.mode {
        Mode::Local => match local_caller(&state.access, headers, method) {
            Ok(caller) => Some(caller),
            Err(refused) => return refused.into_response(),
        },
        Mode::Users => match user_caller(&state, headers, method).await {
            Ok(caller) => caller,
            Err(refused) => return refused.into_response(),
        },
    };
    if let Some(caller) = caller {
        request.extensions_mut().insert(caller);
    }
    next.run(request).await
}

fn local_caller(access: &Access, headers: &HeaderMap, method: &Method) -> Result<Caller, ApiError> {
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    if !access.host_allowed(host) {
        let host = host.to_string();
        return Err(forbidden("http-host", &[("host", &host)]));
    }
    let caller = Caller {
        user: LOCAL_USER.to_string(),
        scopes: Scope::ALL.to_vec(),
        csrf_token: Some(access.csrf_token.clone()),
    };
    csrf_checked(caller, headers, method)
}

async fn user_caller(
    state: &AppState,
    headers: &HeaderMap,
    method: &Method,
) -> Result<Option<Caller>, ApiError> {
    if let Some(text) = bearer(headers) {
        // A token that does not work is refused outright, not treated as anonymous: the
        // script should hear that its token is wrong, not that the route needs a login.
        return match state.store.token_for(text).await {
            Ok(Some(token)) => Ok(Some(Caller {
                user: token.user,
                scopes: token.scopes,
                csrf_token: None,
            })),
            Ok(None) => Err(ApiError::catalog(
                StatusCode::UNAUTHORIZED,
                "unauthorized",
                "http-token",
                &[],
            )),
            Err(e) => Err(e.into()),
        };
    }
    let Some(id) = cookie(headers, SESSION_COOKIE) else {
        return Ok(None);
    };
    match state.store.session(id).await {
        Ok(Some(session)) => {
            let caller = Caller {
                user: session.user,
                scopes: Scope::ALL.to_vec(),
                csrf_token: Some(session.csrf_token),
            };
            csrf_checked(caller, headers, method).map(Some)
        }
        // An expired or closed session is anonymous: the page shows the login.
        Ok(None) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// The caller, if a state change carries the CSRF token its credential came with.
fn csrf_checked(caller: Caller, headers: &HeaderMap, method: &Method) -> Result<Caller, ApiError> {
    let Some(expected) = caller.csrf_token.as_deref() else {
        return Ok(caller);
    };
    if !changes_state(method) {
        return Ok(caller);
    }
    let given = headers.get(CSRF_HEADER).and_then(|h| h.to_str().ok());
    if given.is_some_and(|g| constant_time_eq(g.as_bytes(), expected.as_bytes())) {
        Ok(caller)
    } else {
        Err(forbidden("http-csrf", &[]))
    }
}

/// Route layer: lets the request through if its caller satisfies the route's gate.
pub async fn require(gate: Gate, request: Request, next: Next) -> Response {
    let Gate::Caller(needs) = gate else {
        return next.run(request).await;
    };
    let Some(caller) = request.extensions().get::<Caller>() else {
        return unauthorized().into_response();
    };
    if let Some(scope) = caller.missing(needs) {
        return forbidden("http-scope", &[("scope", scope.as_str())]).into_response();
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn local() -> Access {
        Access::new(Mode::Local, SocketAddr::from(([127, 0, 0, 1], 8700)))
    }

    #[test]
    fn only_this_servers_hosts_pass() {
        let access = local();
        assert!(access.host_allowed("127.0.0.1:8700"));
        assert!(access.host_allowed("LOCALHOST:8700"));
        assert!(!access.host_allowed("evil.example:8700"));
        assert!(!access.host_allowed("127.0.0.1:8701"));
        assert!(!access.host_allowed(""));
    }

    #[test]
    fn each_server_has_its_own_csrf_token() {
        assert_ne!(local().csrf_token, local().csrf_token);
        assert_eq!(local().csrf_token.len(), 64);
    }

    #[test]
    fn cookies_and_bearer_tokens_are_read_from_their_headers() {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::COOKIE,
            "a=1; nofxi_session=abc; b=2"
                .parse()
                .unwrap_or(header::HeaderValue::from_static("")),
        );
        headers.insert(
            header::AUTHORIZATION,
            header::HeaderValue::from_static("Bearer nofxi_x"),
        );
        assert_eq!(cookie(&headers, SESSION_COOKIE), Some("abc"));
        assert_eq!(cookie(&headers, "missing"), None);
        assert_eq!(bearer(&headers), Some("nofxi_x"));
    }

    #[test]
    fn a_caller_lacking_a_scope_names_it() {
        let caller = Caller {
            user: "a".into(),
            scopes: vec![Scope::Read],
            csrf_token: None,
        };
        assert_eq!(caller.missing(&[Scope::Read]), None);
        assert_eq!(
            caller.missing(&[Scope::Write, Scope::Trade]),
            Some(Scope::Write)
        );
    }
}
