//! The signed OKX account, trading USDT-margined perpetual swaps.
//!
//! Orders are idempotent by client order id, and OKX only refuses a client id that is still
//! pending (51016): a filled order's id may be sent again and would open a second order. So
//! the adapter looks the id up before it sends, and again after a timeout, a 5xx or a
//! duplicate answer; a retry never creates a second order.
//!
//! OKX has no per-symbol margin setting: the margin mode is each order's `tdMode` and each
//! leverage setting's `mgnMode`, so [`OkxSwap::set_margin_mode`] remembers the mode for the
//! symbol's next orders.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use nofxi_domain::market::Symbol;
use nofxi_domain::trading::{
    AccountSnapshot, Fill, MarginMode, Order, OrderRequest, OrderStatus, Position, PositionMode,
    SymbolRules,
};
use serde_json::{Value, json};

use super::client::{OkxClient, Retry};
use super::codes::{DUPLICATE_CLIENT_ID, NO_SUCH_ORDER};
use super::contracts::{Contract, Contracts, inst_id, symbol_of};
use super::orders::{self, client_id, td_mode};
use super::wire;
use crate::{Exchange, VenueError};

const CONFIG: &str = "/api/v5/account/config";
const BALANCE: &str = "/api/v5/account/balance";
const POSITIONS: &str = "/api/v5/account/positions";
const SET_LEVERAGE: &str = "/api/v5/account/set-leverage";
const SET_POSITION_MODE: &str = "/api/v5/account/set-position-mode";
const FILLS: &str = "/api/v5/trade/fills";
/// `GET /api/v5/trade/fills` answers at most this many rows a page.
const FILLS_PAGE: usize = 100;

#[derive(Debug, Clone)]
pub struct OkxSwap {
    client: Arc<OkxClient>,
    contracts: Arc<Contracts>,
    margin_modes: Arc<Mutex<HashMap<Symbol, MarginMode>>>,
}

impl OkxSwap {
    pub fn new(client: Arc<OkxClient>) -> Self {
        OkxSwap {
            contracts: Arc::new(Contracts::new(client.clone())),
            client,
            margin_modes: Arc::default(),
        }
    }

    pub fn client(&self) -> &Arc<OkxClient> {
        &self.client
    }

    /// The contract terms this account trades by, for a market-data reader to share.
    pub fn contracts(&self) -> &Arc<Contracts> {
        &self.contracts
    }

    /// `GET /api/v5/account/config`: position mode, account mode, permissions, bound IPs.
    pub async fn config(&self) -> Result<Value, VenueError> {
        let data = self.client.get(CONFIG, &[]).await?;
        wire::first(&data)
            .cloned()
            .map_err(|e| e.in_answer_to(&format!("GET {CONFIG}")))
    }

    fn margin_mode(&self, symbol: &Symbol) -> MarginMode {
        self.margin_modes
            .lock()
            .ok()
            .and_then(|m| m.get(symbol).copied())
            .unwrap_or(MarginMode::Cross)
    }

    /// The pending orders of `path` (regular, or `algo`), each read with its contract.
    async fn pending(
        &self,
        path: &str,
        params: &[(&str, String)],
        algo: bool,
    ) -> Result<Vec<Order>, VenueError> {
        let named = |e: VenueError| e.in_answer_to(&format!("GET {path}"));
        let data = self.client.get(path, params).await?;
        let mut out = Vec::new();
        for row in wire::rows(&data).map_err(named)? {
            let c = self
                .contracts
                .of_inst(wire::text(row, "instId").map_err(named)?)
                .await?;
            let order = if algo {
                wire::algo_order(row, &c, None)
            } else {
                wire::order(row, &c)
            };
            out.push(order.map_err(named)?);
        }
        Ok(out)
    }

    /// The order OKX keeps as `venue_id`, regular or algo, trying `trigger`'s kind first.
    async fn lookup(
        &self,
        c: &Contract,
        venue_id: &str,
        trigger: bool,
    ) -> Result<Option<Order>, VenueError> {
        let first = if trigger {
            self.algo(c, venue_id).await?
        } else {
            self.regular(c, &[("clOrdId", venue_id.to_string())])
                .await?
        };
        if first.is_some() {
            return Ok(first);
        }
        if trigger {
            self.regular(c, &[("clOrdId", venue_id.to_string())]).await
        } else {
            self.algo(c, venue_id).await
        }
    }

    /// `GET /api/v5/trade/order` by `clOrdId` or `ordId`; `None` for 51603.
    async fn regular(
        &self,
        c: &Contract,
        by: &[(&str, String)],
    ) -> Result<Option<Order>, VenueError> {
        let mut params = vec![("instId", c.inst_id.clone())];
        params.extend(by.iter().cloned());
        let data = match self.client.get(orders::ORDER, &params).await {
            Err(e) if e.code() == Some(NO_SUCH_ORDER) => return Ok(None),
            other => other?,
        };
        match wire::rows(&data)?.first() {
            None => Ok(None),
            Some(row) => wire::order(row, c)
                .map(Some)
                .map_err(|e| e.in_answer_to(&format!("GET {}", orders::ORDER))),
        }
    }

    /// `GET /api/v5/trade/order-algo` by `algoClOrdId`; once it fired, the order it placed.
    async fn algo(&self, c: &Contract, venue_id: &str) -> Result<Option<Order>, VenueError> {
        let params = [("algoClOrdId", venue_id.to_string())];
        let data = match self.client.get(orders::ALGO, &params).await {
            Err(e) if e.code() == Some(NO_SUCH_ORDER) => return Ok(None),
            other => other?,
        };
        let Some(row) = wire::rows(&data)?.first() else {
            return Ok(None);
        };
        let child = match row["ordId"].as_str().filter(|id| !id.is_empty()) {
            Some(id) => self.regular(c, &[("ordId", id.to_string())]).await?,
            None => None,
        };
        wire::algo_order(row, c, child.as_ref())
            .map(Some)
            .map_err(|e| e.in_answer_to(&format!("GET {}", orders::ALGO)))
    }

    /// `POST /api/v5/account/set-leverage` for one margin mode (and one side in long/short
    /// mode, where isolated leverage is per side).
    async fn post_leverage(
        &self,
        c: &Contract,
        leverage: u32,
        mode: MarginMode,
        side: Option<&str>,
    ) -> Result<(), VenueError> {
        let mut body =
            json!({"instId": c.inst_id, "lever": leverage.to_string(), "mgnMode": td_mode(mode)});
        if let Some(side) = side {
            body["posSide"] = json!(side);
        }
        self.client
            .post(SET_LEVERAGE, &body, Retry::Safe)
            .await
            .map(|_| ())
    }
}

/// The caller's id on an order found by the id OKX keeps (they differ when it was digested).
fn relabel(mut order: Order, caller_id: &str) -> Order {
    order.client_order_id = caller_id.to_string();
    order
}

#[async_trait]
impl Exchange for OkxSwap {
    fn venue(&self) -> &str {
        self.client.venue()
    }

    /// One attempt: an order whose outcome is unknown is looked up, never resent blindly.
    fn request_timeout(&self) -> std::time::Duration {
        self.client.options().timeout
    }

    async fn symbol_rules(&self, symbol: &Symbol) -> Result<SymbolRules, VenueError> {
        Ok(self.contracts.get(symbol).await?.rules())
    }

    async fn account(&self) -> Result<AccountSnapshot, VenueError> {
        let data = self
            .client
            .get(BALANCE, &[("ccy", "USDT".to_string())])
            .await?;
        wire::first(&data)
            .and_then(wire::account)
            .map_err(|e| e.in_answer_to(&format!("GET {BALANCE}")))
    }

    async fn positions(&self) -> Result<Vec<Position>, VenueError> {
        let named = |e: VenueError| e.in_answer_to(&format!("GET {POSITIONS}"));
        let data = self
            .client
            .get(POSITIONS, &[("instType", "SWAP".to_string())])
            .await?;
        let mut out = Vec::new();
        for row in wire::rows(&data).map_err(named)? {
            let inst = wire::text(row, "instId").map_err(named)?;
            // Positions of other instruments (inverse swaps, expiry futures) are not nofxi's.
            if symbol_of(inst).is_none() {
                continue;
            }
            let c = self.contracts.of_inst(inst).await?;
            out.extend(wire::position(row, &c).map_err(named)?);
        }
        Ok(out)
    }

    async fn set_leverage(&self, symbol: &Symbol, leverage: u32) -> Result<(), VenueError> {
        let c = self.contracts.get(symbol).await?;
        let mode = self.margin_mode(symbol);
        // Isolated leverage in long/short mode is set per side (the docs' scenario 11).
        if mode == MarginMode::Isolated && self.position_mode().await? == PositionMode::Hedge {
            for side in ["long", "short"] {
                self.post_leverage(&c, leverage, mode, Some(side)).await?;
            }
            return Ok(());
        }
        self.post_leverage(&c, leverage, mode, None).await
    }

    async fn set_margin_mode(&self, symbol: &Symbol, mode: MarginMode) -> Result<(), VenueError> {
        // Known symbols only: a typo is refused here, not at the first order.
        self.contracts.get(symbol).await?;
        if let Ok(mut modes) = self.margin_modes.lock() {
            modes.insert(symbol.clone(), mode);
        }
        Ok(())
    }

    async fn position_mode(&self) -> Result<PositionMode, VenueError> {
        let config = self.config().await?;
        // A missing mode is unreadable: reading it as one-way would pass a check never made.
        match wire::text(&config, "posMode") {
            Ok("long_short_mode") => Ok(PositionMode::Hedge),
            Ok("net_mode") => Ok(PositionMode::OneWay),
            _ => Err(wire::bad("posMode").in_answer_to(&format!("GET {CONFIG}"))),
        }
    }

    async fn set_position_mode(&self, mode: PositionMode) -> Result<(), VenueError> {
        let pos_mode = match mode {
            PositionMode::Hedge => "long_short_mode",
            PositionMode::OneWay => "net_mode",
        };
        self.client
            .post(
                SET_POSITION_MODE,
                &json!({"posMode": pos_mode}),
                Retry::Safe,
            )
            .await
            .map(|_| ())
    }

    async fn place_order(&self, request: &OrderRequest) -> Result<Order, VenueError> {
        let c = self.contracts.get(&request.symbol).await?;
        let id = client_id(&request.client_order_id)?;
        let trigger = request.order_type.is_trigger();
        if let Some(existing) = self.lookup(&c, &id, trigger).await? {
            return Ok(relabel(existing, &request.client_order_id));
        }
        let mode = self.margin_mode(&request.symbol);
        let (path, body) = orders::body(request, &c, &id, mode)?;
        let mut attempt = 0;
        let placed = loop {
            let err = match self.client.post(path, &body, Retry::Never).await {
                Ok(data) => break data,
                Err(e) => e,
            };
            // 51016: a pending order has the id already, from an attempt that did land.
            if !err.outcome_unknown() && err.code() != Some(DUPLICATE_CLIENT_ID) {
                return Err(err);
            }
            tracing::warn!(venue = self.venue(), client_order_id = %request.client_order_id, error = %err,
                "order outcome unknown; looking it up before resending");
            if let Some(existing) = self.lookup(&c, &id, trigger).await? {
                return Ok(relabel(existing, &request.client_order_id));
            }
            if attempt >= self.client.options().max_retries {
                return Err(err);
            }
            attempt += 1;
            let wait = self.client.options().backoff_base.saturating_mul(attempt);
            self.client.clock().sleep(wait).await;
        };
        if let Some(order) = self.lookup(&c, &id, trigger).await? {
            return Ok(relabel(order, &request.client_order_id));
        }
        // Accepted but not yet readable: what was accepted, as OKX numbered it.
        let row = wire::first(&placed).map_err(|e| e.in_answer_to(&format!("POST {path}")))?;
        let order_id = row["ordId"]
            .as_str()
            .or(row["algoId"].as_str())
            .filter(|s| !s.is_empty())
            .ok_or_else(|| wire::bad("ordId").in_answer_to(&format!("POST {path}")))?;
        Ok(Order {
            order_id: order_id.to_string(),
            client_order_id: request.client_order_id.clone(),
            symbol: request.symbol.clone(),
            side: request.side,
            order_type: request.order_type,
            status: OrderStatus::New,
            quantity: request.quantity,
            price: request.price,
            stop_price: request.stop_price,
            executed_quantity: rust_decimal::Decimal::ZERO,
            average_price: rust_decimal::Decimal::ZERO,
            reduce_only: request.reduce_only,
            position_side: request.position_side,
            updated_ms: self.client.clock().now_ms(),
        })
    }

    async fn cancel_order(
        &self,
        symbol: &Symbol,
        client_order_id: &str,
    ) -> Result<Order, VenueError> {
        let c = self.contracts.get(symbol).await?;
        let id = client_id(client_order_id)?;
        let found = self.lookup(&c, &id, false).await?;
        // An order that is not open (or not there) is still sent: OKX's own refusal (51400)
        // says which, in its words.
        match &found {
            Some(o) if o.order_type.is_trigger() => {
                let body = json!([{"instId": c.inst_id, "algoId": o.order_id}]);
                self.client
                    .post(orders::CANCEL_ALGOS, &body, Retry::Safe)
                    .await?;
            }
            _ => {
                let body = json!({"instId": c.inst_id, "clOrdId": id});
                self.client.post(orders::CANCEL, &body, Retry::Safe).await?;
            }
        }
        let trigger = found.as_ref().is_some_and(|o| o.order_type.is_trigger());
        let order = self
            .lookup(&c, &id, trigger)
            .await?
            .ok_or_else(|| VenueError::NoData {
                venue: self.venue().into(),
                what: format!("order {client_order_id} on {}", inst_id(symbol)),
            })?;
        Ok(relabel(order, client_order_id))
    }

    async fn order_status(
        &self,
        symbol: &Symbol,
        client_order_id: &str,
    ) -> Result<Option<Order>, VenueError> {
        let c = self.contracts.get(symbol).await?;
        let id = client_id(client_order_id)?;
        Ok(self
            .lookup(&c, &id, false)
            .await?
            .map(|o| relabel(o, client_order_id)))
    }

    async fn open_orders(&self, symbol: Option<&Symbol>) -> Result<Vec<Order>, VenueError> {
        let mut params = vec![("instType", "SWAP".to_string())];
        if let Some(s) = symbol {
            params.push(("instId", inst_id(s)));
        }
        let mut open = self.pending(orders::PENDING, &params, false).await?;
        params.push(("ordType", "conditional".to_string()));
        open.extend(self.pending(orders::PENDING_ALGOS, &params, true).await?);
        Ok(open)
    }

    async fn fills(&self, symbol: &Symbol, since_ms: Option<i64>) -> Result<Vec<Fill>, VenueError> {
        let c = self.contracts.get(symbol).await?;
        let mut params = vec![
            ("instType", "SWAP".to_string()),
            ("instId", c.inst_id.clone()),
            ("limit", FILLS_PAGE.to_string()),
        ];
        if let Some(t) = since_ms {
            // `begin` is exclusive; the trait's `since` is not.
            params.push(("begin", (t - 1).to_string()));
        }
        let mut fills = Vec::new();
        // Newest first, a page at a time, older pages `after` the last bill id.
        for _ in 0..10 {
            let data = self.client.get(FILLS, &params).await?;
            let rows = wire::rows(&data).map_err(|e| e.in_answer_to(&format!("GET {FILLS}")))?;
            for row in rows {
                fills.push(
                    wire::fill(row, &c).map_err(|e| e.in_answer_to(&format!("GET {FILLS}")))?,
                );
            }
            let last_bill = rows.last().and_then(|r| r["billId"].as_str());
            match last_bill {
                Some(bill) if rows.len() == FILLS_PAGE => {
                    params.retain(|(k, _)| *k != "after");
                    params.push(("after", bill.to_string()));
                }
                _ => break,
            }
        }
        fills.retain(|f| since_ms.is_none_or(|t| f.time_ms >= t));
        fills.sort_by_key(|f| f.time_ms);
        Ok(fills)
    }
}
