//! Misbehaviour on demand: what a test can tell the mock to do to the next request(s).

use std::time::Duration;

/// Which requests a fault applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// Any request.
    Any,
    /// Any signed request (account, orders, settings).
    Signed,
    /// `POST /fapi/v1/order`.
    PlaceOrder,
    /// `GET /fapi/v1/order`.
    QueryOrder,
    /// `GET /fapi/v2/account` and `/fapi/v2/balance`.
    Account,
    /// `GET /fapi/v1/klines`.
    Klines,
}

impl Route {
    pub(crate) fn matches(self, method: &str, path: &str, signed: bool) -> bool {
        match self {
            Route::Any => true,
            Route::Signed => signed,
            Route::PlaceOrder => method == "POST" && path == "/fapi/v1/order",
            Route::QueryOrder => method == "GET" && path == "/fapi/v1/order",
            Route::Account => path == "/fapi/v2/account" || path == "/fapi/v2/balance",
            Route::Klines => method == "GET" && path == "/fapi/v1/klines",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Fault {
    /// Answer with this Binance error: `{"code": code, "msg": msg}` and the HTTP status.
    Error {
        http_status: u16,
        code: i64,
        msg: String,
    },
    /// HTTP 429 with `Retry-After: secs` (Binance code -1003).
    RateLimited { retry_after_secs: u64 },
    /// HTTP 418: the IP is banned.
    Banned { retry_after_secs: u64 },
    /// HTTP 503 with an unreadable body, as a gateway in trouble does.
    Unavailable,
    /// Sleep before handling, long enough for the client to time out; nothing is done.
    Delay(Duration),
    /// Carry the request out (an order is accepted and fills), then sleep before answering, so
    /// the client times out without knowing the order landed.
    AcceptThenDelay(Duration),
    /// Carry the request out, then answer HTTP 500.
    AcceptThenFail,
}

impl Fault {
    /// The error Binance sends for `code`, with its real message text.
    pub fn binance(code: i64) -> Fault {
        let (http_status, msg) = match code {
            -1021 => (
                400,
                "Timestamp for this request is outside of the recvWindow.",
            ),
            -1022 => (400, "Signature for this request is not valid."),
            -2014 => (401, "API-key format invalid."),
            -2015 => (
                401,
                "Invalid API-key, IP, or permissions for action, request ip: 127.0.0.1",
            ),
            -2019 => (400, "Margin is insufficient."),
            -4061 => (400, "Order's position side does not match user's setting."),
            -4164 => (
                400,
                "Order's notional must be no smaller than 5 (unless you choose reduce only).",
            ),
            -1111 => (400, "Precision is over the maximum defined for this asset."),
            -2013 => (400, "Order does not exist."),
            -2011 => (400, "Unknown order sent."),
            -1130 => (400, "Data sent for paramter 'limit' is not valid."),
            _ => (400, "Unknown error."),
        };
        Fault::Error {
            http_status,
            code,
            msg: msg.to_string(),
        }
    }
}

/// A server (or a proxy in front of it) that quotes the request in its errors: while set,
/// every request on `route` is refused with `{"code": code, "msg": …}` whose message carries the
/// request's `X-MBX-APIKEY` header and its whole query string, signature included. The client
/// under test must not pass that text on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EchoRequests {
    pub route: Route,
    pub http_status: u16,
    pub code: i64,
}

impl EchoRequests {
    pub(crate) fn message(
        &self,
        method: &str,
        path: &str,
        api_key: Option<&str>,
        query: &str,
    ) -> String {
        format!(
            "Invalid API-key, IP, or permissions for action. Request: {method} {path} X-MBX-APIKEY: {} query: {query}",
            api_key.map_or("(none)".to_string(), crate::disguise::disguises)
        )
    }
}
