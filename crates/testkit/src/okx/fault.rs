//! Misbehaviour on demand: what a test can tell the mock to do to the next request(s).
//!
//! Codes, messages and HTTP statuses are OKX's (OKX API v5 docs, "Error Code" → "REST API" →
//! "Public", https://www.okx.com/docs-v5/en/#error-code-rest-api-public).

use std::time::Duration;

/// Which requests a fault applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// Any request.
    Any,
    /// Any signed request (`/api/v5/account/…`, `/api/v5/trade/…`).
    Private,
    /// `POST /api/v5/trade/order`.
    PlaceOrder,
    /// `POST /api/v5/trade/order-algo`.
    PlaceAlgo,
    /// `GET /api/v5/trade/order`.
    QueryOrder,
    /// `GET /api/v5/account/config`.
    Config,
    /// `GET /api/v5/account/balance`.
    Balance,
}

impl Route {
    pub(crate) fn matches(self, method: &str, path: &str) -> bool {
        let private = path.starts_with("/api/v5/account/") || path.starts_with("/api/v5/trade/");
        match self {
            Route::Any => true,
            Route::Private => private,
            Route::PlaceOrder => method == "POST" && path == "/api/v5/trade/order",
            Route::PlaceAlgo => method == "POST" && path == "/api/v5/trade/order-algo",
            Route::QueryOrder => method == "GET" && path == "/api/v5/trade/order",
            Route::Config => path == "/api/v5/account/config",
            Route::Balance => path == "/api/v5/account/balance",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Fault {
    /// `{"code": code, "msg": msg, "data": []}` with the HTTP status.
    Error {
        http_status: u16,
        code: String,
        msg: String,
    },
    /// An order's own refusal, HTTP 200: `{"code": "1", "msg": "All operations failed",
    /// "data": [{"sCode": code, "sMsg": msg, …}]}`.
    Item { code: String, msg: String },
    /// HTTP 429 `{"code": "50011", "msg": "Too Many Requests"}`.
    RateLimited,
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
    /// The refusal OKX sends for `code`, with its documented message and status; trade codes
    /// (51xxx) come as an order's own refusal.
    pub fn okx(code: u32) -> Fault {
        let top = |http_status: u16, msg: &str| Fault::Error {
            http_status,
            code: code.to_string(),
            msg: msg.into(),
        };
        let item = |msg: &str| Fault::Item {
            code: code.to_string(),
            msg: msg.into(),
        };
        match code {
            50011 => Fault::RateLimited,
            50101 => top(401, "APIKey does not match current environment."),
            50102 => top(401, "Timestamp request expired."),
            50103 => top(401, "Request header \"OK-ACCESS-KEY\" cannot be empty."),
            50104 => top(
                401,
                "Request header \"OK-ACCESS-PASSPHRASE\" cannot be empty.",
            ),
            50105 => top(401, "Request header \"OK-ACCESS-PASSPHRASE\" incorrect."),
            50106 => top(401, "Request header \"OK-ACCESS-SIGN\" cannot be empty."),
            50107 => top(
                401,
                "Request header \"OK-ACCESS-TIMESTAMP\" cannot be empty.",
            ),
            50110 => top(
                401,
                "Your IP 127.0.0.1 is not included in your API key's IP whitelist.",
            ),
            50111 => top(401, "Invalid OK-ACCESS-KEY."),
            50112 => top(401, "Invalid OK-ACCESS-TIMESTAMP."),
            50113 => top(401, "Invalid signature."),
            50115 => top(405, "Invalid request method."),
            50120 => top(
                200,
                "This API key doesn't have permission to use this function",
            ),
            51603 => top(200, "Order does not exist."),
            59000 => top(
                200,
                "Settings failed. Close any open positions or orders before modifying settings.",
            ),
            59102 => top(
                200,
                "Leverage exceeds the maximum limit. Please lower the leverage.",
            ),
            51001 => item("Instrument ID, Instrument ID code or Spread ID doesn't exist."),
            51008 => item("Order failed. Insufficient USDT margin in account"),
            51016 => item("Client order ID already exists."),
            51020 => item("Your order should meet or exceed the minimum order amount."),
            51121 => item("Order quantity must be a multiple of the lot size."),
            51169 => item(
                "Order failed because you don't have any positions in this direction for this contract to reduce or close.",
            ),
            51277 => item("TP trigger price cannot be higher than the last price."),
            51278 => item("SL trigger price cannot be lower than the last price."),
            51279 => item("TP trigger price cannot be lower than the last price."),
            51280 => item("SL trigger price cannot be higher than the last price."),
            51400 => item(
                "Order cancellation failed as the order has been filled, canceled or does not exist.",
            ),
            _ => top(400, "Operation failed."),
        }
    }

    /// 51000 "Parameter {param0} error", as an order's refusal.
    pub fn parameter(name: &str) -> Fault {
        Fault::Item {
            code: "51000".into(),
            msg: format!("Parameter {name} error"),
        }
    }

    /// 50014 "Parameter {param0} can not be empty." (HTTP 400).
    pub fn empty(name: &str) -> Fault {
        Fault::Error {
            http_status: 400,
            code: "50014".into(),
            msg: format!("Parameter {name} can not be empty."),
        }
    }
}
