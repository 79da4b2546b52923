//! A mock Bybit v5 server on a loopback port, for USDT perpetuals (`category=linear`) on a
//! Unified Trading Account.
//!
//! It serves the public and private REST endpoints nofxi uses, checks the `X-BAPI-*` headers
//! for real (HMAC-SHA256 signature, receive window, key, bound IP, write permission), keeps
//! each account's wallet, positions (in coins), orders (conditional ones included) and
//! executions, fills market orders against its own book, fires conditional orders when
//! [`MockBybit::set_price`] moves the mark across them, and answers in Bybit's own envelope
//! and codes. Tests steer it through [`MockBybit`]: add accounts, drop permissions, skew
//! clocks, queue [`Fault`]s.
//!
//! Each module names the Bybit API v5 documentation
//! (https://bybit-exchange.github.io/docs/v5/intro) its shapes come from.

mod account;
mod auth;
mod fault;
mod market;
mod matching;
mod routes;
mod state;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use rust_decimal::Decimal;
use tokio::sync::oneshot;

pub use auth::sign;
pub use fault::{Fault, Route};
pub use state::{MockBybitAccount, MockBybitOrder, MockPosition};

use routes::{Shared, system_ms};
use state::{Book, State, instruments};

/// A running mock. Dropping it stops the server.
#[derive(Debug)]
pub struct MockBybit {
    addr: SocketAddr,
    state: Shared,
    stop: Option<oneshot::Sender<()>>,
}

impl MockBybit {
    /// Bind 127.0.0.1:0 and serve until dropped.
    pub async fn start() -> std::io::Result<MockBybit> {
        let state: Shared = Arc::new(Mutex::new(State {
            instruments: instruments(),
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
        Ok(MockBybit {
            addr,
            state,
            stop: Some(tx),
        })
    }

    /// The REST base URL, e.g. `http://127.0.0.1:41234`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    fn with<R>(&self, f: impl FnOnce(&mut State) -> R) -> R {
        match self.state.lock() {
            Ok(mut st) => f(&mut st),
            Err(poisoned) => f(&mut poisoned.into_inner()),
        }
    }

    fn account(&self, api_key: &str, f: impl FnOnce(&mut MockBybitAccount)) {
        self.with(|st| {
            if let Some(a) = st.accounts.get_mut(api_key) {
                f(a);
            }
        });
    }

    /// Add a Unified Trading Account: read-write key with contract trade permission, bound
    /// to this IP, one-way mode, cross margin (`REGULAR_MARGIN`), `balance` USDT.
    pub fn add_account(&self, api_key: &str, secret: &str, balance: Decimal) {
        self.with(|st| {
            st.accounts.insert(
                api_key.to_string(),
                MockBybitAccount {
                    secret: secret.to_string(),
                    balance,
                    ip_whitelisted: true,
                    can_trade: true,
                    client_clock_off_ms: 0,
                    hedge: false,
                    margin_mode: "REGULAR_MARGIN".into(),
                    unified: true,
                    leverage: HashMap::new(),
                    positions: HashMap::new(),
                },
            );
        });
    }

    /// Pretend the caller's IP is not among the key's bound IPs: every private call answers
    /// 10010.
    pub fn set_ip_whitelisted(&self, api_key: &str, whitelisted: bool) {
        self.account(api_key, |a| a.ip_whitelisted = whitelisted);
    }

    /// Make the key read-only (`readOnly: 1`, no contract trade permission): reads work;
    /// orders and settings answer 10005.
    pub fn set_trade_permission(&self, api_key: &str, can_trade: bool) {
        self.account(api_key, |a| a.can_trade = can_trade);
    }

    /// Make the machine using `api_key` drift by `off_ms`: its requests are judged as if
    /// their timestamps were that far off (10002 outside the window), while the public time
    /// stays right.
    pub fn set_client_clock_off_ms(&self, api_key: &str, off_ms: i64) {
        self.account(api_key, |a| a.client_clock_off_ms = off_ms);
    }

    /// Hedge mode ("Both Sides") when true, one-way otherwise.
    pub fn set_hedge_mode(&self, api_key: &str, hedge: bool) {
        self.account(api_key, |a| a.hedge = hedge);
    }

    /// The account's margin mode: `REGULAR_MARGIN`, `ISOLATED_MARGIN`, `PORTFOLIO_MARGIN`.
    pub fn set_margin_mode(&self, api_key: &str, mode: &str) {
        self.account(api_key, |a| a.margin_mode = mode.to_string());
    }

    /// A classic account (`unifiedMarginStatus` 1, `uta` 0) when false.
    pub fn set_unified(&self, api_key: &str, unified: bool) {
        self.account(api_key, |a| a.unified = unified);
    }

    /// Move the server's clock: a client that trusts its own clock is then off.
    pub fn set_clock_skew_ms(&self, skew_ms: i64) {
        self.with(|st| st.clock_skew_ms = skew_ms);
    }

    /// Drop closed orders from `GET /v5/order/realtime`, as a Bybit restart does ("should
    /// only be queried through order history").
    pub fn forget_closed_realtime(&self) {
        self.with(|st| st.realtime_forgot_closed = true);
    }

    /// Re-centre a symbol's book (and mark) at `mid` with fresh liquidity, then fire the
    /// conditional orders the new mark crosses, as Bybit's trigger engine would.
    pub fn set_price(&self, symbol: &str, mid: Decimal) {
        let now = system_ms();
        self.with(|st| {
            let Some(inst) = st.instrument(symbol) else {
                return;
            };
            st.books
                .insert(symbol.to_string(), Book::around(&inst, mid));
            matching::fire_crossed(st, &inst, now + st.clock_skew_ms);
        });
    }

    /// Apply `fault` to the next request matching `route` (faults queue in order).
    pub fn inject(&self, route: Route, fault: Fault) {
        self.with(|st| st.faults.push((route, fault)));
    }

    /// Every order the mock has accepted for `api_key`, oldest first.
    pub fn orders(&self, api_key: &str) -> Vec<MockBybitOrder> {
        self.with(|st| {
            st.orders
                .iter()
                .filter(|o| o.api_key == api_key)
                .cloned()
                .collect()
        })
    }

    /// USDT wallet balance.
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

impl Drop for MockBybit {
    fn drop(&mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
    }
}
