//! Misbehaviour on demand: what a test can tell the mock to do to the next request(s).
//!
//! Codes and messages are Bybit's (Bybit API v5 docs, "Error Codes" → "UTA",
//! https://bybit-exchange.github.io/docs/v5/error; 10006's message and reset header: "Rate
//! Limit Rules", https://bybit-exchange.github.io/docs/v5/rate-limit). Bybit answers its
//! refusals with HTTP 200 (its SDK, bybit-exchange/pybit, reads `retCode` from 200 answers);
//! where the docs give a code no message of its own, the message is the mock's and says so.

use std::time::Duration;

use serde_json::Value;

/// Which requests a fault applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// Any request.
    Any,
    /// Any signed request.
    Private,
    /// `POST /v5/order/create`.
    PlaceOrder,
    /// `POST /v5/order/cancel`.
    CancelOrder,
    /// `GET /v5/order/realtime`.
    QueryOrder,
    /// `GET /v5/user/query-api`.
    ApiKey,
    /// `GET /v5/account/wallet-balance`.
    Wallet,
}

/// Bybit's private endpoints: account, position, order, execution, user.
pub(crate) fn is_private(path: &str) -> bool {
    [
        "/v5/account/",
        "/v5/position/",
        "/v5/order/",
        "/v5/execution/",
        "/v5/user/",
    ]
    .iter()
    .any(|p| path.starts_with(p))
}

impl Route {
    pub(crate) fn matches(self, method: &str, path: &str) -> bool {
        match self {
            Route::Any => true,
            Route::Private => is_private(path),
            Route::PlaceOrder => method == "POST" && path == "/v5/order/create",
            Route::CancelOrder => method == "POST" && path == "/v5/order/cancel",
            Route::QueryOrder => method == "GET" && path == "/v5/order/realtime",
            Route::ApiKey => path == "/v5/user/query-api",
            Route::Wallet => path == "/v5/account/wallet-balance",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Fault {
    /// `{"retCode": code, "retMsg": msg, "result": {}, …}` with HTTP 200.
    Error { code: i64, msg: String },
    /// A refusal whose `result` says more (the `reasons` of "Set Margin Mode").
    Refusal {
        code: i64,
        msg: String,
        result: Value,
    },
    /// 10006 "Too many visits!", HTTP 200, with the reset header.
    RateLimited,
    /// HTTP 403 "access too frequent": the IP is over its limit.
    IpRateLimited,
    /// HTTP 503 with an HTML body, as a gateway in trouble answers.
    Unavailable,
    /// Sleep before handling, long enough for the client to time out; nothing is done.
    Delay(Duration),
    /// Carry the request out (an order is accepted and fills), then sleep before answering.
    AcceptThenDelay(Duration),
    /// Carry the request out, then answer HTTP 500.
    AcceptThenFail,
}

impl Fault {
    /// The refusal Bybit sends for `code`, with its documented message.
    pub fn bybit(code: i64) -> Fault {
        let msg = match code {
            10001 => "Request parameter error",
            10002 => "The request time exceeds the time window range.",
            10003 => "API key is invalid.",
            10004 => "Error sign, please check your signature generation algorithm.",
            10005 => "Permission denied, please check your API key permissions.",
            10006 => return Fault::RateLimited,
            10010 => "Unmatched IP, please check your API key's bound IP addresses.",
            10016 => "Server error.",
            110001 => "Order does not exist",
            110007 => "Available balance is insufficient",
            110017 => "orderQty will be truncated to zero",
            110024 => "You have an existing position, so the position mode cannot be switched.",
            110025 => "Position mode has not been modified.",
            110026 => "Cross/isolated margin mode has not been modified.",
            110028 => "You have existing open orders, so the position mode cannot be switched.",
            110043 => "Set leverage has not been modified.",
            110072 => "OrderLinkedID is duplicate",
            110094 => "Order notional value below the lower limit",
            _ => "Request parameter error",
        };
        Fault::Error {
            code,
            msg: msg.into(),
        }
    }

    /// 10001 naming the parameter: the docs give only "Request parameter error", so the
    /// words after it are the mock's.
    pub fn param(what: &str) -> Fault {
        Fault::Error {
            code: 10001,
            msg: format!("params error: {what}"),
        }
    }
}
