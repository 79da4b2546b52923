//! Misbehaviour on demand: what a test can tell the mock to do to the next request(s).
//!
//! The answers are Hyperliquid's shapes: a refused request `{"status": "err", "response":
//! "<message>"}`, a refused order `{"error": "<message>"}` in `response.data.statuses` (docs,
//! "Error responses"), HTTP 429 over the rate limit ("Rate limits"; the docs give no body for
//! it: the mock answers `null`, its own choice).

use std::time::Duration;

/// Which requests a fault applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// Any request.
    Any,
    /// `POST /info` of this `type` (`clearinghouseState`, `orderStatus`, …).
    Info(&'static str),
    /// `POST /exchange` of this action `type` (`order`, `cancelByCloid`, `updateLeverage`).
    Exchange(&'static str),
}

impl Route {
    pub(crate) fn matches(self, path: &str, kind: &str) -> bool {
        match self {
            Route::Any => true,
            Route::Info(t) => path == "/info" && kind == t,
            Route::Exchange(t) => path == "/exchange" && kind == t,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Fault {
    /// HTTP 429.
    RateLimited,
    /// `{"status": "err", "response": message}`, HTTP 200.
    Err(String),
    /// The order's own refusal in an accepted batch: `{"error": message}`.
    OrderError(String),
    /// HTTP 502 with an HTML body, as a gateway in trouble answers.
    Unavailable,
    /// Sleep before handling, long enough for the client to time out; nothing is done.
    Delay(Duration),
    /// Carry the request out (an order is accepted and fills), then sleep before answering.
    AcceptThenDelay(Duration),
    /// Carry the request out, then answer HTTP 500.
    AcceptThenFail,
}

impl Fault {
    /// "Insufficient margin to place order." (docs, "Error responses": PerpMargin).
    pub fn insufficient_margin() -> Fault {
        Fault::OrderError("Insufficient margin to place order.".into())
    }

    /// A nonce the chain already saw ("Invalid nonce: duplicate nonce …").
    pub fn duplicate_nonce(nonce: u64) -> Fault {
        Fault::Err(format!("Invalid nonce: duplicate nonce {nonce}"))
    }
}
