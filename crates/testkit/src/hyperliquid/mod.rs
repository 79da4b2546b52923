//! A mock Hyperliquid on a loopback port, for USDC-margined perpetuals.
//!
//! It serves `POST /info` (meta, contexts, mids, books, candles, account state, open orders,
//! order status by oid or cloid, fills, user roles, agents, exchange status) and `POST
//! /exchange` (order, cancel, cancelByCloid, updateLeverage). Every action's EIP-712
//! signature is verified for real: the signer is recovered from the signature over the
//! mock's own MessagePack encoding of the action, and must be a user or an agent wallet
//! approved for one ([`MockHyperliquid::approve_agent`]); nonces are checked per signer. It
//! keeps each user's USDC, leverage and positions, fills orders against its own book, fires
//! stop-loss and take-profit triggers when [`MockHyperliquid::set_price`] moves the mark
//! across them, and answers in Hyperliquid's shapes and words. Tests steer it through
//! [`MockHyperliquid`]: add users, approve and revoke agents, skew the clock, queue
//! [`Fault`]s.
//!
//! Each module names the Hyperliquid documentation or reference-SDK source its shapes come
//! from.

mod auth;
mod exchange;
mod fault;
mod info;
mod routes;
mod state;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use rust_decimal::Decimal;
use tokio::sync::oneshot;

pub use auth::address_of_key;
pub use fault::{Fault, Route};
pub use state::{MockHlFill, MockHlOrder, MockHlPosition};

use routes::{Shared, system_ms};
use state::{MockHlUser, State, universe};

/// A running mock. Dropping it stops the server.
#[derive(Debug)]
pub struct MockHyperliquid {
    addr: SocketAddr,
    state: Shared,
    stop: Option<oneshot::Sender<()>>,
}

impl MockHyperliquid {
    /// Bind 127.0.0.1:0 and serve until dropped; signatures are checked as mainnet's.
    pub async fn start() -> std::io::Result<MockHyperliquid> {
        let state: Shared = Arc::new(Mutex::new(State {
            coins: universe(),
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
        Ok(MockHyperliquid {
            addr,
            state,
            stop: Some(tx),
        })
    }

    /// The base URL, e.g. `http://127.0.0.1:41234`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    fn with<R>(&self, f: impl FnOnce(&mut State) -> R) -> R {
        match self.state.lock() {
            Ok(mut st) => f(&mut st),
            Err(poisoned) => f(&mut poisoned.into_inner()),
        }
    }

    /// A main wallet holding `balance` USDC in its perp account.
    pub fn add_user(&self, wallet: &str, balance: Decimal) {
        self.with(|st| {
            st.users.insert(
                wallet.to_ascii_lowercase(),
                MockHlUser {
                    balance,
                    leverage: HashMap::new(),
                    positions: HashMap::new(),
                },
            );
        });
    }

    /// Approve `agent` (an address) to sign for `wallet`, as the main wallet's
    /// `approveAgent` does.
    pub fn approve_agent(&self, wallet: &str, agent: &str, name: &str) {
        self.with(|st| {
            st.agents.insert(
                agent.to_ascii_lowercase(),
                (wallet.to_ascii_lowercase(), name.to_string()),
            );
        });
    }

    /// Deregister `agent` (replaced by another unnamed agent, expired, or removed): its
    /// signatures recover to an address Hyperliquid no longer knows.
    pub fn revoke_agent(&self, agent: &str) {
        self.with(|st| {
            st.agents.remove(&agent.to_ascii_lowercase());
        });
    }

    /// Check signatures as testnet's (`source: "b"`) rather than mainnet's.
    pub fn set_testnet(&self, testnet: bool) {
        self.with(|st| st.testnet = testnet);
    }

    /// Move the server's clock: nonces from a client that trusts its own clock are then off
    /// (refused past the (T − 2 days, T + 1 day) window).
    pub fn set_clock_skew_ms(&self, skew_ms: i64) {
        self.with(|st| st.clock_skew_ms = skew_ms);
    }

    /// Set `wallet`'s USDC.
    pub fn set_balance(&self, wallet: &str, balance: Decimal) {
        self.with(|st| {
            st.users
                .entry(wallet.to_ascii_lowercase())
                .or_default()
                .balance = balance;
        });
    }

    /// Re-centre `coin`'s book (and mark) at `mid` with fresh liquidity, then fire the open
    /// triggers the new mark crosses.
    pub fn set_price(&self, coin: &str, mid: Decimal) {
        let now = system_ms();
        self.with(|st| {
            let Some((_, c)) = st.coin(coin) else {
                return;
            };
            exchange::rebook(st, &c, mid);
            exchange::fire_crossed(st, &c, now + st.clock_skew_ms);
        });
    }

    /// Apply `fault` to the next request matching `route` (faults queue in order).
    pub fn inject(&self, route: Route, fault: Fault) {
        self.with(|st| st.faults.push((route, fault)));
    }

    /// Every order the mock has accepted for `wallet`, oldest first.
    pub fn orders(&self, wallet: &str) -> Vec<MockHlOrder> {
        let wallet = wallet.to_ascii_lowercase();
        self.with(|st| {
            st.orders
                .iter()
                .filter(|o| o.user == wallet)
                .cloned()
                .collect()
        })
    }

    /// Every fill of `wallet`, oldest first.
    pub fn fills(&self, wallet: &str) -> Vec<MockHlFill> {
        let wallet = wallet.to_ascii_lowercase();
        self.with(|st| {
            st.fills
                .iter()
                .filter(|f| f.user == wallet)
                .cloned()
                .collect()
        })
    }

    /// `wallet`'s position on `coin`.
    pub fn position(&self, wallet: &str, coin: &str) -> Option<MockHlPosition> {
        let wallet = wallet.to_ascii_lowercase();
        self.with(|st| {
            st.users
                .get(&wallet)
                .and_then(|u| u.positions.get(coin).cloned())
        })
    }

    /// `wallet`'s USDC.
    pub fn balance(&self, wallet: &str) -> Option<Decimal> {
        let wallet = wallet.to_ascii_lowercase();
        self.with(|st| st.users.get(&wallet).map(|u| u.balance))
    }

    /// How many requests hit `path` (`/info`, `/exchange`) with this `type` so far.
    pub fn request_count(&self, path: &str, kind: &str) -> usize {
        self.with(|st| {
            st.requests
                .iter()
                .filter(|(p, k)| p == path && k == kind)
                .count()
        })
    }
}

impl Drop for MockHyperliquid {
    fn drop(&mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
    }
}
