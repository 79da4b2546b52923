//! A mock Bitget v2 server on a loopback port, for USDT-M perpetual futures.
//!
//! It serves the public and private REST endpoints nofxi uses, checks the four `ACCESS-*`
//! headers for real (HMAC-SHA256 signature, passphrase, 30-second timestamp window, a demo key
//! only with `paptrading: 1`, IP whitelist, futures-orders permission), keeps each account's
//! balance, positions, orders, take-profit/stop-loss plans and fills, fills market orders
//! against its own book, fires plans when [`MockBitget::set_price`] moves the mark across
//! them, and answers in Bitget's own envelope and error codes. Tests steer it through
//! [`MockBitget`]: add accounts, drop permissions, skew clocks, queue [`Fault`]s.
//!
//! Each module names the Bitget API documentation (https://www.bitget.com/api-doc/) its
//! shapes come from, and says where an answer is the mock's own choice.

mod account;
mod auth;
mod fault;
mod market;
mod matching;
mod plans;
mod routes;
mod state;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use rust_decimal::Decimal;
use tokio::sync::oneshot;

pub use auth::sign;
pub use fault::{Fault, Route};
pub use state::{MockBitgetAccount, MockBitgetOrder, MockBitgetPlan, MockPosition};

use routes::{Shared, system_ms};
use state::{Book, State, contracts};

/// A running mock. Dropping it stops the server.
#[derive(Debug)]
pub struct MockBitget {
    addr: SocketAddr,
    state: Shared,
    stop: Option<oneshot::Sender<()>>,
}

impl MockBitget {
    /// Bind 127.0.0.1:0 and serve until dropped.
    pub async fn start() -> std::io::Result<MockBitget> {
        let state: Shared = Arc::new(Mutex::new(State {
            contracts: contracts(),
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
        Ok(MockBitget {
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

    fn account(&self, api_key: &str, f: impl FnOnce(&mut MockBitgetAccount)) {
        self.with(|st| {
            if let Some(a) = st.accounts.get_mut(api_key) {
                f(a);
            }
        });
    }

    /// Add a live-trading account: read and futures-orders permission, this IP whitelisted,
    /// one-way position mode, cross margin, `balance` USDT.
    pub fn add_account(&self, api_key: &str, secret: &str, passphrase: &str, balance: Decimal) {
        self.with(|st| {
            st.accounts.insert(
                api_key.to_string(),
                MockBitgetAccount {
                    secret: secret.to_string(),
                    passphrase: passphrase.to_string(),
                    balance,
                    demo: false,
                    ip_whitelisted: true,
                    can_trade: true,
                    client_clock_off_ms: 0,
                    hedge: false,
                    margin_modes: HashMap::new(),
                    leverage: HashMap::new(),
                    positions: HashMap::new(),
                },
            );
        });
    }

    /// A demo-trading key: accepted only with `paptrading: 1` (40006 without, and a live key
    /// with it).
    pub fn set_demo(&self, api_key: &str, demo: bool) {
        self.account(api_key, |a| a.demo = demo);
    }

    /// Change the passphrase the key was created with: requests with the old one get 40012.
    pub fn set_passphrase(&self, api_key: &str, passphrase: &str) {
        self.account(api_key, |a| a.passphrase = passphrase.to_string());
    }

    /// Pretend the caller's IP is not on the key's whitelist: every private call answers 40018.
    pub fn set_ip_whitelisted(&self, api_key: &str, whitelisted: bool) {
        self.account(api_key, |a| a.ip_whitelisted = whitelisted);
    }

    /// Take the key's futures-orders permission away (reads still work; orders and settings
    /// answer 40014, and the key's description lists no `coow`).
    pub fn set_trade_permission(&self, api_key: &str, can_trade: bool) {
        self.account(api_key, |a| a.can_trade = can_trade);
    }

    /// Make the machine using `api_key` drift by `off_ms`: its requests are judged as if their
    /// timestamps were that far off (40008 past 30 s), while the public time stays right.
    pub fn set_client_clock_off_ms(&self, api_key: &str, off_ms: i64) {
        self.account(api_key, |a| a.client_clock_off_ms = off_ms);
    }

    /// `hedge_mode` when true, `one_way_mode` otherwise.
    pub fn set_hedge_mode(&self, api_key: &str, hedge: bool) {
        self.account(api_key, |a| a.hedge = hedge);
    }

    /// Move the server's clock: a client that trusts its own clock is then off.
    pub fn set_clock_skew_ms(&self, skew_ms: i64) {
        self.with(|st| st.clock_skew_ms = skew_ms);
    }

    /// Re-centre a symbol's book (and mark) at `mid` with fresh liquidity, then fire the live
    /// take-profit and stop-loss plans the new mark crosses, as Bitget's trigger engine would.
    pub fn set_price(&self, symbol: &str, mid: Decimal) {
        let now = system_ms();
        self.with(|st| {
            let Some(c) = st.contract(symbol) else {
                return;
            };
            st.books.insert(c.symbol.to_string(), Book::around(&c, mid));
            plans::fire_crossed(st, &c, now + st.clock_skew_ms);
        });
    }

    /// Apply `fault` to the next request matching `route` (faults queue in order).
    pub fn inject(&self, route: Route, fault: Fault) {
        self.with(|st| st.faults.push((route, fault)));
    }

    /// Every regular order the mock has accepted for `api_key`, oldest first (the market
    /// orders fired plans placed included).
    pub fn orders(&self, api_key: &str) -> Vec<MockBitgetOrder> {
        self.with(|st| {
            st.orders
                .iter()
                .filter(|o| o.api_key == api_key)
                .cloned()
                .collect()
        })
    }

    /// Every take-profit and stop-loss plan the mock has accepted for `api_key`, oldest first.
    pub fn plan_orders(&self, api_key: &str) -> Vec<MockBitgetPlan> {
        self.with(|st| {
            st.plans
                .iter()
                .filter(|p| p.api_key == api_key)
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

impl Drop for MockBitget {
    fn drop(&mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
    }
}
