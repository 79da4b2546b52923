//! A mock Binance USDⓈ-M futures server on a loopback port.
//!
//! It serves the public and signed REST endpoints nofxi uses, checks signatures (HMAC-SHA256 of
//! query string + body) and timestamps against `recvWindow` for real, keeps its own order book
//! so market orders fill at real prices and move positions and balances, and counts request
//! weight in `X-MBX-USED-WEIGHT-1M`. Tests steer it through [`MockBinance`]: add accounts,
//! revoke permissions, skew its clock, queue [`Fault`]s for the next matching request.
//!
//! The same server answers the spot API's `/sapi/v1/account/apiRestrictions`, so one URL serves
//! as both the futures and the spot base URL of a connectivity check.

mod account;
mod auth;
mod fault;
mod market;
mod orders;
mod routes;
mod state;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use rust_decimal::Decimal;
use tokio::sync::oneshot;

pub use auth::sign as hmac_sha256_hex;
pub use fault::{EchoRequests, Fault, Route};
pub use state::{MockAccount, MockOrder};

use routes::Shared;
use state::{Book, State};

/// A running mock. Dropping it stops the server.
#[derive(Debug)]
pub struct MockBinance {
    addr: SocketAddr,
    state: Shared,
    stop: Option<oneshot::Sender<()>>,
}

impl MockBinance {
    /// Bind 127.0.0.1:0 and serve until dropped.
    pub async fn start() -> std::io::Result<MockBinance> {
        let state: Shared = Arc::new(Mutex::new(State {
            weight_limit: 2400,
            ..State::default()
        }));
        let app = axum::Router::new()
            .fallback(routes::handle)
            .with_state(state.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let (tx, rx) = oneshot::channel::<()>();
        tokio::spawn(async move {
            let _ = axum::serve(listener, app)
                .with_graceful_shutdown(async {
                    let _ = rx.await;
                })
                .await;
        });
        Ok(MockBinance {
            addr,
            state,
            stop: Some(tx),
        })
    }

    /// Base URL for both the futures and the spot API, e.g. `http://127.0.0.1:41234`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    fn with<R>(&self, f: impl FnOnce(&mut State) -> R) -> R {
        match self.state.lock() {
            Ok(mut st) => f(&mut st),
            Err(poisoned) => f(&mut poisoned.into_inner()),
        }
    }

    /// Add an account with futures enabled, whitelisted IP, one-way mode and `balance` USDT.
    pub fn add_account(&self, api_key: &str, secret: &str, balance: Decimal) {
        self.with(|st| {
            st.accounts.insert(
                api_key.to_string(),
                MockAccount {
                    secret: secret.to_string(),
                    balance,
                    futures_enabled: true,
                    ip_whitelisted: true,
                    dual_side: false,
                    client_clock_off_ms: 0,
                    leverage: HashMap::new(),
                    isolated: HashMap::new(),
                    positions: HashMap::new(),
                },
            );
        });
    }

    /// Turn the key's futures permission off: futures calls answer -2015, the spot
    /// `apiRestrictions` call still works and reports `enableFutures: false`.
    pub fn set_futures_enabled(&self, api_key: &str, enabled: bool) {
        self.with(|st| {
            if let Some(a) = st.accounts.get_mut(api_key) {
                a.futures_enabled = enabled;
            }
        });
    }

    /// Pretend the caller's IP is not on the key's whitelist: every signed call answers -2015.
    pub fn set_ip_whitelisted(&self, api_key: &str, whitelisted: bool) {
        self.with(|st| {
            if let Some(a) = st.accounts.get_mut(api_key) {
                a.ip_whitelisted = whitelisted;
            }
        });
    }

    /// Make the machine using `api_key` drift by `off_ms`: its signed requests are judged as
    /// if their timestamps were that far off (-1021 past the recvWindow), while every other
    /// key, and the public time endpoint, see the right time.
    pub fn set_client_clock_off_ms(&self, api_key: &str, off_ms: i64) {
        self.with(|st| {
            if let Some(a) = st.accounts.get_mut(api_key) {
                a.client_clock_off_ms = off_ms;
            }
        });
    }

    pub fn set_hedge_mode(&self, api_key: &str, hedge: bool) {
        self.with(|st| {
            if let Some(a) = st.accounts.get_mut(api_key) {
                a.dual_side = hedge;
            }
        });
    }

    /// Give `api_key` an open position, as if its orders had filled: `amount` signed (negative
    /// is short), at `entry`, on `position_side` ("BOTH" in one-way mode, "LONG"/"SHORT").
    pub fn set_position(
        &self,
        api_key: &str,
        symbol: &str,
        position_side: &str,
        amount: Decimal,
        entry: Decimal,
    ) {
        self.with(|st| {
            if let Some(a) = st.accounts.get_mut(api_key) {
                a.positions.insert(
                    (symbol.to_string(), position_side.to_string()),
                    (amount, entry),
                );
            }
        });
    }

    /// Move the server's clock: a client that trusts its own clock then gets -1021.
    pub fn set_clock_skew_ms(&self, skew_ms: i64) {
        self.with(|st| st.clock_skew_ms = skew_ms);
    }

    /// Request weight allowed per minute before 429 (0 = unlimited).
    pub fn set_weight_limit(&self, limit: u32) {
        self.with(|st| st.weight_limit = limit);
    }

    /// Re-centre a symbol's book at `mid` with fresh liquidity.
    pub fn set_price(&self, symbol: &str, mid: Decimal) {
        self.with(|st| {
            st.books
                .insert(symbol.to_string(), Book::around(symbol, mid));
        });
    }

    /// Apply `fault` to the next request matching `route` (faults queue in order).
    pub fn inject(&self, route: Route, fault: Fault) {
        self.with(|st| st.faults.push((route, fault)));
    }

    /// Apply `fault` to the request matching `route` after `let_through` more such requests
    /// have been answered normally: `inject_after(Route::Klines, 2, …)` spares two pages of
    /// a download and hits the third.
    pub fn inject_after(&self, route: Route, let_through: usize, fault: Fault) {
        self.with(|st| st.later_faults.push((route, let_through, fault)));
    }

    /// No `symbol` candles open in `from_ms..to_ms`, as over a trading halt: klines skip them,
    /// as Binance's do.
    pub fn set_kline_gap(&self, symbol: &str, from_ms: i64, to_ms: i64) {
        self.with(|st| st.kline_gaps.push((symbol.to_string(), from_ms, to_ms)));
    }

    /// Announce `rate` for `symbol`'s funding at `next_funding_time_ms` in
    /// `/fapi/v1/premiumIndex` (its `lastFundingRate` and `nextFundingTime`).
    pub fn set_funding(&self, symbol: &str, rate: Decimal, next_funding_time_ms: i64) {
        self.with(|st| {
            st.funding
                .insert(symbol.to_string(), (rate, next_funding_time_ms));
        });
    }

    /// From now on, refuse every request on `route` with an error quoting the request's API
    /// key header and signed query string (`None` turns it off); see [`EchoRequests`].
    pub fn echo_requests(&self, echo: Option<EchoRequests>) {
        self.with(|st| st.echo = echo);
    }

    /// From now on, answer every request except `GET /fapi/v1/time` with HTTP 200 and `body`
    /// (`{}`, or `{"serverTime": …}`), unauthenticated and unchanged: a server that is not
    /// Binance, or a proxy that mangles answers. `None` turns it off. A client must not take
    /// such an answer for a passed check.
    pub fn hollow_answers(&self, body: Option<serde_json::Value>) {
        self.with(|st| st.hollow = body);
    }

    /// Every order the mock has accepted for `api_key`, oldest first.
    pub fn orders(&self, api_key: &str) -> Vec<MockOrder> {
        self.with(|st| {
            st.orders
                .iter()
                .filter(|o| o.api_key == api_key)
                .cloned()
                .collect()
        })
    }

    /// Fire the resting stop or take-profit `client_order_id` now, as if the mark had crossed
    /// its trigger (the mock never moves the mark by itself). Its siblings stay open, as on
    /// Binance. False when `api_key` has no such open trigger order.
    pub fn fire_trigger(&self, api_key: &str, client_order_id: &str) -> bool {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis() as i64)
            .unwrap_or(0);
        self.with(|st| {
            let now = now + st.clock_skew_ms;
            orders::fire(st, api_key, client_order_id, now)
        })
    }

    pub fn balance(&self, api_key: &str) -> Option<Decimal> {
        self.with(|st| st.accounts.get(api_key).map(|a| a.balance))
    }

    /// How many requests hit `method path` so far.
    pub fn request_count(&self, method: &str, path: &str) -> usize {
        self.with(|st| {
            st.requests
                .iter()
                .filter(|(m, p)| m == method && p == path)
                .count()
        })
    }
}

impl Drop for MockBinance {
    fn drop(&mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
    }
}
