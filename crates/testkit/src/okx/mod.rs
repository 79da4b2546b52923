//! A mock OKX v5 server on a loopback port, for USDT-margined perpetual swaps.
//!
//! It serves the public and private REST endpoints nofxi uses, checks the four `OK-ACCESS-*`
//! headers for real (HMAC-SHA256 signature, passphrase, 30-second timestamp window, the demo
//! header against a demo key, IP whitelist, trade permission), keeps each account's balance,
//! positions (in contracts), orders, algo orders and fills, fills market orders against its
//! own book, fires stop-loss and take-profit algo orders when [`MockOkx::set_price`] moves the
//! mark across them, and answers in OKX's own envelope and error codes. Tests steer it through
//! [`MockOkx`]: add accounts, drop permissions, skew clocks, queue [`Fault`]s.
//!
//! Each module names the OKX API v5 documentation (https://www.okx.com/docs-v5/en/) its
//! shapes come from.

mod account;
mod algos;
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
pub use state::{MockOkxAccount, MockOkxAlgo, MockOkxOrder, MockPosition};

use routes::{Shared, system_ms};
use state::{Book, State, instruments};

/// A running mock. Dropping it stops the server.
#[derive(Debug)]
pub struct MockOkx {
    addr: SocketAddr,
    state: Shared,
    stop: Option<oneshot::Sender<()>>,
}

impl MockOkx {
    /// Bind 127.0.0.1:0 and serve until dropped.
    pub async fn start() -> std::io::Result<MockOkx> {
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
        Ok(MockOkx {
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

    fn account(&self, api_key: &str, f: impl FnOnce(&mut MockOkxAccount)) {
        self.with(|st| {
            if let Some(a) = st.accounts.get_mut(api_key) {
                f(a);
            }
        });
    }

    /// Add a live-trading account in Futures mode: read and trade permission, this IP
    /// whitelisted, net (one-way) position mode, `balance` USDT.
    pub fn add_account(&self, api_key: &str, secret: &str, passphrase: &str, balance: Decimal) {
        self.with(|st| {
            st.accounts.insert(
                api_key.to_string(),
                MockOkxAccount {
                    secret: secret.to_string(),
                    passphrase: passphrase.to_string(),
                    balance,
                    demo: false,
                    ip_whitelisted: true,
                    can_trade: true,
                    client_clock_off_ms: 0,
                    long_short: false,
                    acct_lv: "2",
                    leverage: HashMap::new(),
                    positions: HashMap::new(),
                },
            );
        });
    }

    /// A demo-trading key: accepted only with `x-simulated-trading: 1` (50101 without, and a
    /// live key with it).
    pub fn set_demo(&self, api_key: &str, demo: bool) {
        self.account(api_key, |a| a.demo = demo);
    }

    /// Change the passphrase the key was created with: requests with the old one get 50105.
    pub fn set_passphrase(&self, api_key: &str, passphrase: &str) {
        self.account(api_key, |a| a.passphrase = passphrase.to_string());
    }

    /// Pretend the caller's IP is not on the key's whitelist: every private call answers 50110.
    pub fn set_ip_whitelisted(&self, api_key: &str, whitelisted: bool) {
        self.account(api_key, |a| a.ip_whitelisted = whitelisted);
    }

    /// Take the key's `trade` permission away (reads still work; orders and settings answer
    /// 50120, and `GET /api/v5/account/config` shows `perm: read_only`).
    pub fn set_trade_permission(&self, api_key: &str, can_trade: bool) {
        self.account(api_key, |a| a.can_trade = can_trade);
    }

    /// Make the machine using `api_key` drift by `off_ms`: its requests are judged as if their
    /// timestamps were that far off (50102 past 30 s), while the public time stays right.
    pub fn set_client_clock_off_ms(&self, api_key: &str, off_ms: i64) {
        self.account(api_key, |a| a.client_clock_off_ms = off_ms);
    }

    /// `long_short_mode` (hedge) when true, `net_mode` otherwise.
    pub fn set_long_short_mode(&self, api_key: &str, long_short: bool) {
        self.account(api_key, |a| a.long_short = long_short);
    }

    /// The account mode (`acctLv`): "1" spot, "2" futures, "3" multi-currency, "4" portfolio.
    pub fn set_account_mode(&self, api_key: &str, acct_lv: &'static str) {
        self.account(api_key, |a| a.acct_lv = acct_lv);
    }

    /// Move the server's clock: a client that trusts its own clock is then off.
    pub fn set_clock_skew_ms(&self, skew_ms: i64) {
        self.with(|st| st.clock_skew_ms = skew_ms);
    }

    /// Re-centre an instrument's book (and mark) at `mid` with fresh liquidity, then fire the
    /// live algo orders the new mark crosses, as OKX's trigger engine would.
    pub fn set_price(&self, inst_id: &str, mid: Decimal) {
        let now = system_ms();
        self.with(|st| {
            let Some(inst) = st.instrument(inst_id) else {
                return;
            };
            st.books
                .insert(inst_id.to_string(), Book::around(&inst, mid));
            algos::fire_crossed(st, &inst, now + st.clock_skew_ms);
        });
    }

    /// Apply `fault` to the next request matching `route` (faults queue in order).
    pub fn inject(&self, route: Route, fault: Fault) {
        self.with(|st| st.faults.push((route, fault)));
    }

    /// Every regular order the mock has accepted for `api_key`, oldest first (the market
    /// orders fired algo orders placed included).
    pub fn orders(&self, api_key: &str) -> Vec<MockOkxOrder> {
        self.with(|st| {
            st.orders
                .iter()
                .filter(|o| o.api_key == api_key)
                .cloned()
                .collect()
        })
    }

    /// Every algo order the mock has accepted for `api_key`, oldest first.
    pub fn algo_orders(&self, api_key: &str) -> Vec<MockOkxAlgo> {
        self.with(|st| {
            st.algos
                .iter()
                .filter(|a| a.api_key == api_key)
                .cloned()
                .collect()
        })
    }

    /// USDT cash balance.
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

impl Drop for MockOkx {
    fn drop(&mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
    }
}
