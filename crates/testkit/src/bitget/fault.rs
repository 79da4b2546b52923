//! Misbehaviour on demand: what a test can tell the mock to do to the next request(s).
//!
//! Codes and messages are Bitget's (Bitget API docs, "Futures" → "Error Code" → "Rest API",
//! https://www.bitget.com/api-doc/contract/error-code/restapi), sent in its envelope with
//! HTTP 400 (BitgetLimited/v3-bitget-api-sdk issue #7 shows `40009` arriving so) or 429.

use std::time::Duration;

/// Which requests a fault applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// Any request.
    Any,
    /// Any signed request (`/api/v2/mix/account/…`, `/api/v2/mix/order/…`,
    /// `/api/v2/mix/position/…`, `/api/v2/spot/account/…`).
    Private,
    /// `POST /api/v2/mix/order/place-order`.
    PlaceOrder,
    /// `POST /api/v2/mix/order/place-tpsl-order`.
    PlaceTpsl,
    /// `GET /api/v2/mix/order/detail`.
    OrderDetail,
    /// `GET /api/v2/spot/account/info`.
    KeyInfo,
    /// `GET /api/v2/mix/account/accounts`.
    Accounts,
    /// `POST /api/v2/mix/account/set-leverage`.
    SetLeverage,
}

pub(crate) fn is_private(path: &str) -> bool {
    [
        "/api/v2/mix/account/",
        "/api/v2/mix/order/",
        "/api/v2/mix/position/",
        "/api/v2/spot/account/",
    ]
    .iter()
    .any(|p| path.starts_with(p))
}

impl Route {
    pub(crate) fn matches(self, method: &str, path: &str) -> bool {
        match self {
            Route::Any => true,
            Route::Private => is_private(path),
            Route::PlaceOrder => method == "POST" && path == "/api/v2/mix/order/place-order",
            Route::PlaceTpsl => method == "POST" && path == "/api/v2/mix/order/place-tpsl-order",
            Route::OrderDetail => method == "GET" && path == "/api/v2/mix/order/detail",
            Route::KeyInfo => path == "/api/v2/spot/account/info",
            Route::Accounts => path == "/api/v2/mix/account/accounts",
            Route::SetLeverage => path == "/api/v2/mix/account/set-leverage",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Fault {
    /// `{"code": code, "msg": msg, "requestTime": …, "data": null}` with the HTTP status.
    Error {
        http_status: u16,
        code: String,
        msg: String,
    },
    /// HTTP 429 `{"code": "429", "msg": "Too Many Requests", …}`.
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
    /// The refusal Bitget sends for `code`, with its documented message.
    pub fn bitget(code: u32) -> Fault {
        let msg = match code {
            429 => return Fault::RateLimited,
            22001 => "No order to cancel",
            22002 => "No position to close",
            22038 => "Please enter the quantity as an integral multiple of the size step",
            40001 => "ACCESS_KEY cannot be empty",
            40002 => "ACCESS_SIGN cannot be empty",
            40005 => "Invalid ACCESS_TIMESTAMP",
            40006 => "Invalid ACCESS_KEY",
            40008 => "Request timestamp expired",
            40009 => "sign signature error",
            40011 => "ACCESS_PASSPHRASE cannot be empty",
            40012 => "apikey/password is incorrect",
            40014 => "Incorrect permissions, need coow permissions",
            40018 => "Invalid IP",
            40102 => "Symbol does not exist",
            40109 => "The data of the order cannot be found, please confirm the order number",
            40304 => "clientOid or clientOrderId length cannot greater than 50",
            40305 => {
                "clientOid or clientOrderId length cannot greater than 64, and cannot be Martian characters"
            }
            40404 => "Request URL NOT FOUND",
            40774 => {
                "The order type for unilateral position must also be the unilateral position type."
            }
            40814 => "No change in leverage",
            40920 => "Position or order exists, the position mode cannot be switched",
            43012 => "Insufficient balance",
            43023 => "Insufficient position, can not set profit or stop loss",
            43075 => "Position pattern mismatch",
            45034 => "clientOid duplicate",
            45045 => "Exceeds the maximum possible leverage",
            45111 => "less than the minimum order quantity",
            45117 => "Currently holding positions or orders, the margin mode cannot be adjusted",
            40830 => {
                "The take profit price of the long position should be greater than the current price"
            }
            40832 => {
                "The take profit price of short positions should be less than the current price"
            }
            40834 => {
                "The stop loss price of the long position should be less than the current price"
            }
            40836 => {
                "The stop loss price of the short position should be greater than the current price"
            }
            _ => "Operation failed",
        };
        Fault::Error {
            http_status: 400,
            code: code.to_string(),
            msg: msg.into(),
        }
    }

    /// 40019 "Parameter {0} cannot be empty".
    pub fn empty(name: &str) -> Fault {
        Fault::Error {
            http_status: 400,
            code: "40019".into(),
            msg: format!("Parameter {name} cannot be empty"),
        }
    }

    /// 40020 "Parameter {0} error".
    pub fn parameter(name: &str) -> Fault {
        Fault::Error {
            http_status: 400,
            code: "40020".into(),
            msg: format!("Parameter {name} error"),
        }
    }

    /// 40808 "Parameter verification exception {0}", as a size with too many decimals gets it
    /// ("size checkBDScale error value=2293.577 checkScale=2", quoted in ccxt's Bitget table).
    pub fn scale(value: &str, places: u32) -> Fault {
        Fault::Error {
            http_status: 400,
            code: "40808".into(),
            msg: format!(
                "Parameter verification exception size checkBDScale error value={value} checkScale={places}"
            ),
        }
    }

    /// 45110 "less than the minimum amount {0} USDT".
    pub fn below_minimum_amount(minimum: &str) -> Fault {
        Fault::Error {
            http_status: 400,
            code: "45110".into(),
            msg: format!("less than the minimum amount {minimum} USDT"),
        }
    }

    /// 45115 "The price you enter should be a multiple of {0}".
    pub fn price_step(tick: &str) -> Fault {
        Fault::Error {
            http_status: 400,
            code: "45115".into(),
            msg: format!("The price you enter should be a multiple of {tick}"),
        }
    }
}
