//! The signed Bitget account, trading USDT-M perpetual futures (`productType=USDT-FUTURES`).
//!
//! Orders are idempotent by client order id: the adapter looks the id up before it sends, and
//! again after a timeout, a 5xx or a duplicate answer; a retry never creates a second order.
//!
//! Bitget keeps a margin mode per symbol (`set-margin-mode`, refused while the symbol has a
//! position or an order) and every order names it too (`marginMode`), so
//! [`BitgetFutures::set_margin_mode`] sets it only when it differs and remembers it for the
//! symbol's orders; a new adapter reads it back from the account.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use nofxi_domain::market::Symbol;
use nofxi_domain::trading::{
    AccountSnapshot, Fill, MarginMode, Order, OrderRequest, OrderStatus, OrderType, Position,
    PositionMode, SymbolRules,
};
use rust_decimal::Decimal;
use serde_json::{Value, json};

use super::client::{BitgetClient, Retry};
use super::codes::{is_duplicate_client_id, is_no_such_order};
use super::contracts::{Contract, Contracts, MARGIN_COIN, PRODUCT_TYPE, symbol_of};
use super::orders::{self, PROFIT_LOSS, client_id, margin_mode};
use super::wire;
use crate::{Exchange, RejectKind, VenueError};

const ACCOUNTS: &str = "/api/v2/mix/account/accounts";
const ACCOUNT: &str = "/api/v2/mix/account/account";
const POSITIONS: &str = "/api/v2/mix/position/all-position";
const SET_LEVERAGE: &str = "/api/v2/mix/account/set-leverage";
const SET_MARGIN_MODE: &str = "/api/v2/mix/account/set-margin-mode";
const SET_POSITION_MODE: &str = "/api/v2/mix/account/set-position-mode";
const FILLS: &str = "/api/v2/mix/order/fills";
/// The key's own description: permissions (`authorities`) and bound IPs (`ips`) (Bitget API
/// docs, "Spot" → "Account" → "Get Account Information").
const KEY_INFO: &str = "/api/v2/spot/account/info";
/// `GET /api/v2/mix/order/fills` answers at most this many rows a page.
const FILLS_PAGE: usize = 100;
/// The position mode is the product line's, but the only read of it names a symbol (`GET
/// /api/v2/mix/account/account` requires one); every symbol answers the same, and BTCUSDT is
/// always listed.
const MODE_PROBE: &str = "BTCUSDT";
/// "No change in leverage": the leverage asked is already set.
const LEVERAGE_UNCHANGED: [i64; 2] = [40814, 45054];

#[derive(Debug, Clone)]
pub struct BitgetFutures {
    client: Arc<BitgetClient>,
    contracts: Arc<Contracts>,
    margin_modes: Arc<Mutex<HashMap<Symbol, MarginMode>>>,
}

fn of(method: &str, path: &str) -> impl Fn(VenueError) -> VenueError {
    let endpoint = format!("{method} {path}");
    move |e| e.in_answer_to(&endpoint)
}

fn product(symbol: &str) -> Vec<(&'static str, String)> {
    vec![
        ("symbol", symbol.to_string()),
        ("productType", PRODUCT_TYPE.to_string()),
    ]
}

impl BitgetFutures {
    pub fn new(client: Arc<BitgetClient>) -> Self {
        BitgetFutures {
            contracts: Arc::new(Contracts::new(client.clone())),
            client,
            margin_modes: Arc::default(),
        }
    }

    pub fn client(&self) -> &Arc<BitgetClient> {
        &self.client
    }

    /// The contract rules this account trades by, for a market-data reader to share.
    pub fn contracts(&self) -> &Arc<Contracts> {
        &self.contracts
    }

    /// `GET /api/v2/spot/account/info`: the key's permissions and bound IPs.
    pub async fn key_info(&self) -> Result<Value, VenueError> {
        let data = self.client.get(KEY_INFO, &[]).await?;
        if data.is_object() {
            Ok(data)
        } else {
            Err(wire::bad(crate::error::WHOLE_ANSWER).in_answer_to(&format!("GET {KEY_INFO}")))
        }
    }

    /// `GET /api/v2/mix/account/account` for one symbol: its margin mode, leverage and the
    /// account's position mode.
    async fn symbol_account(&self, symbol: &str) -> Result<Value, VenueError> {
        let mut params = product(symbol);
        params.push(("marginCoin", MARGIN_COIN.to_string()));
        let data = self.client.get(ACCOUNT, &params).await?;
        if data.is_object() {
            Ok(data)
        } else {
            Err(wire::bad(crate::error::WHOLE_ANSWER).in_answer_to(&format!("GET {ACCOUNT}")))
        }
    }

    /// The symbol's margin mode: as last set here, or as the account has it.
    async fn margin_mode(&self, symbol: &Symbol) -> Result<MarginMode, VenueError> {
        if let Some(mode) = self
            .margin_modes
            .lock()
            .ok()
            .and_then(|m| m.get(symbol).copied())
        {
            return Ok(mode);
        }
        let account = self.symbol_account(symbol.as_str()).await?;
        let mode = match wire::text(&account, "marginMode") {
            Ok("isolated") => MarginMode::Isolated,
            Ok("crossed") => MarginMode::Cross,
            _ => return Err(wire::bad("marginMode").in_answer_to(&format!("GET {ACCOUNT}"))),
        };
        self.remember(symbol, mode);
        Ok(mode)
    }

    fn remember(&self, symbol: &Symbol, mode: MarginMode) {
        if let Ok(mut modes) = self.margin_modes.lock() {
            modes.insert(symbol.clone(), mode);
        }
    }

    /// The order Bitget keeps as `venue_id`, regular or take-profit/stop-loss, trying
    /// `trigger`'s kind first.
    async fn lookup(
        &self,
        c: &Contract,
        venue_id: &str,
        trigger: bool,
    ) -> Result<Option<Order>, VenueError> {
        let first = if trigger {
            self.plan(c, venue_id).await?
        } else {
            self.regular(c, "clientOid", venue_id).await?
        };
        if first.is_some() {
            return Ok(first);
        }
        if trigger {
            self.regular(c, "clientOid", venue_id).await
        } else {
            self.plan(c, venue_id).await
        }
    }

    /// `GET /api/v2/mix/order/detail` by `clientOid` or `orderId`; `None` when Bitget has no
    /// such order.
    async fn regular(&self, c: &Contract, by: &str, id: &str) -> Result<Option<Order>, VenueError> {
        let mut params = product(c.symbol.as_str());
        params.push((by, id.to_string()));
        let data = match self.client.get(orders::DETAIL, &params).await {
            Err(e) if e.code().is_some_and(is_no_such_order) => return Ok(None),
            other => other?,
        };
        if data.is_null() {
            return Ok(None);
        }
        wire::order(&data, c)
            .map(Some)
            .map_err(of("GET", orders::DETAIL))
    }

    /// A take-profit or stop-loss by `clientOid`: pending, else in the history; once it
    /// fired, the order it placed.
    async fn plan(&self, c: &Contract, venue_id: &str) -> Result<Option<Order>, VenueError> {
        let mut params = product(c.symbol.as_str());
        params.push(("planType", PROFIT_LOSS.to_string()));
        params.push(("clientOid", venue_id.to_string()));
        for path in [orders::PENDING_PLANS, orders::PLAN_HISTORY] {
            let data = match self.client.get(path, &params).await {
                Err(e) if e.code().is_some_and(is_no_such_order) => continue,
                other => other?,
            };
            let rows = wire::list(&data, "entrustedList").map_err(of("GET", path))?;
            let Some(row) = rows
                .iter()
                .find(|r| r["clientOid"].as_str() == Some(venue_id))
            else {
                continue;
            };
            let child = match row["executeOrderId"].as_str().filter(|id| !id.is_empty()) {
                Some(id) => self.regular(c, "orderId", id).await?,
                None => None,
            };
            return wire::plan_order(row, c, child.as_ref())
                .map(Some)
                .map_err(of("GET", path));
        }
        Ok(None)
    }

    /// The pending orders of `path` (regular, or take-profit/stop-loss), each read with its
    /// contract.
    async fn pending(
        &self,
        path: &str,
        params: &[(&str, String)],
        plans: bool,
    ) -> Result<Vec<Order>, VenueError> {
        let named = of("GET", path);
        let data = self.client.get(path, params).await?;
        let mut out = Vec::new();
        for row in wire::list(&data, "entrustedList").map_err(&named)? {
            let c = self
                .contracts
                .of_name(wire::text(row, "symbol").map_err(&named)?)
                .await?;
            let order = if plans {
                wire::plan_order(row, &c, None)
            } else {
                wire::order(row, &c)
            };
            out.push(order.map_err(&named)?);
        }
        Ok(out)
    }

    /// Cancel the take-profit or stop-loss `order` (`POST …/cancel-plan-order` with its id
    /// always listed: without a list Bitget cancels every plan order of the symbol).
    async fn cancel_plan(&self, c: &Contract, order: &Order) -> Result<(), VenueError> {
        let plan_type = if order.order_type == OrderType::StopMarket {
            "loss_plan"
        } else {
            "profit_plan"
        };
        let body = json!({
            "orderIdList": [{"orderId": order.order_id, "clientOid": ""}],
            "symbol": c.symbol.as_str(), "productType": PRODUCT_TYPE, "marginCoin": MARGIN_COIN,
            "planType": plan_type,
        });
        let data = self
            .client
            .post(orders::CANCEL_PLAN, &body, Retry::Safe)
            .await?;
        // The envelope says success even when the one order listed was not cancelled.
        let failed = wire::list(&data, "failureList")
            .map_err(of("POST", orders::CANCEL_PLAN))?
            .first()
            .cloned();
        match failed {
            None => Ok(()),
            Some(f) => Err(VenueError::Rejected {
                venue: self.client.venue().to_string(),
                kind: RejectKind::Other,
                code: f["errorCode"]
                    .as_str()
                    .and_then(|c| c.trim().parse().ok())
                    .unwrap_or_default(),
                message: f["errorMsg"]
                    .as_str()
                    .unwrap_or("not cancelled")
                    .to_string(),
                http_status: 200,
                retry_after: None,
            }),
        }
    }

    /// What was accepted, as Bitget numbered it, when it cannot be read back yet.
    fn accepted(
        &self,
        request: &OrderRequest,
        placed: &Value,
        path: &str,
    ) -> Result<Order, VenueError> {
        let order_id = placed["orderId"]
            .as_str()
            .filter(|s| !s.is_empty())
            .ok_or_else(|| wire::bad("orderId").in_answer_to(&format!("POST {path}")))?;
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
            executed_quantity: Decimal::ZERO,
            average_price: Decimal::ZERO,
            reduce_only: request.reduce_only,
            position_side: request.position_side,
            updated_ms: self.client.clock().now_ms(),
        })
    }
}

/// The caller's id on an order found by the id Bitget keeps (they differ when it was digested).
fn relabel(mut order: Order, caller_id: &str) -> Order {
    order.client_order_id = caller_id.to_string();
    order
}

#[async_trait]
impl Exchange for BitgetFutures {
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
            .get(ACCOUNTS, &[("productType", PRODUCT_TYPE.to_string())])
            .await?;
        wire::account(&data).map_err(of("GET", ACCOUNTS))
    }

    async fn positions(&self) -> Result<Vec<Position>, VenueError> {
        let named = of("GET", POSITIONS);
        let params = [
            ("productType", PRODUCT_TYPE.to_string()),
            ("marginCoin", MARGIN_COIN.to_string()),
        ];
        let data = self.client.get(POSITIONS, &params).await?;
        let mut out = Vec::new();
        for row in wire::rows(&data).map_err(&named)? {
            let name = wire::text(row, "symbol").map_err(&named)?;
            if symbol_of(name).is_none() {
                continue;
            }
            let c = self.contracts.of_name(name).await?;
            out.extend(wire::position(row, &c).map_err(&named)?);
        }
        Ok(out)
    }

    async fn set_leverage(&self, symbol: &Symbol, leverage: u32) -> Result<(), VenueError> {
        let c = self.contracts.get(symbol).await?;
        let mode = self.margin_mode(symbol).await?;
        let lever = leverage.to_string();
        let mut body = json!({"symbol": c.symbol.as_str(), "productType": PRODUCT_TYPE,
            "marginCoin": MARGIN_COIN, "leverage": lever});
        // Isolated leverage in hedge mode is per side: both sides at once need no holdSide.
        if mode == MarginMode::Isolated && self.position_mode().await? == PositionMode::Hedge {
            body["longLeverage"] = json!(lever);
            body["shortLeverage"] = json!(lever);
        }
        match self.client.post(SET_LEVERAGE, &body, Retry::Safe).await {
            Err(e) if e.code().is_some_and(|c| LEVERAGE_UNCHANGED.contains(&c)) => Ok(()),
            other => other.map(|_| ()),
        }
    }

    async fn set_margin_mode(&self, symbol: &Symbol, mode: MarginMode) -> Result<(), VenueError> {
        let c = self.contracts.get(symbol).await?;
        // The account's own mode decides, not one remembered from before.
        if let Ok(mut modes) = self.margin_modes.lock() {
            modes.remove(symbol);
        }
        if self.margin_mode(symbol).await? == mode {
            return Ok(());
        }
        let body = json!({"symbol": c.symbol.as_str(), "productType": PRODUCT_TYPE,
            "marginCoin": MARGIN_COIN, "marginMode": margin_mode(mode)});
        self.client
            .post(SET_MARGIN_MODE, &body, Retry::Safe)
            .await?;
        self.remember(symbol, mode);
        Ok(())
    }

    async fn position_mode(&self) -> Result<PositionMode, VenueError> {
        let account = self.symbol_account(MODE_PROBE).await?;
        // A missing mode is unreadable: reading it as one-way would pass a check never made.
        match wire::text(&account, "posMode") {
            Ok("hedge_mode") => Ok(PositionMode::Hedge),
            Ok("one_way_mode") => Ok(PositionMode::OneWay),
            _ => Err(wire::bad("posMode").in_answer_to(&format!("GET {ACCOUNT}"))),
        }
    }

    async fn set_position_mode(&self, mode: PositionMode) -> Result<(), VenueError> {
        let pos_mode = match mode {
            PositionMode::Hedge => "hedge_mode",
            PositionMode::OneWay => "one_way_mode",
        };
        self.client
            .post(
                SET_POSITION_MODE,
                &json!({"productType": PRODUCT_TYPE, "posMode": pos_mode}),
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
        // "Ignore the tradeSide parameter when position mode is in one-way-mode": a hedge
        // close sent to a one-way account would be a buy that opens. It is not sent.
        if request.position_side.is_some() && self.position_mode().await? != PositionMode::Hedge {
            return Err(VenueError::rejected(
                self.venue(),
                RejectKind::PositionModeMismatch,
                "the Bitget account is in one-way mode, where Bitget ignores the position side \
                 of a hedge-mode order: not sent",
            ));
        }
        let mode = self.margin_mode(&request.symbol).await?;
        let (path, body) = orders::body(request, &c, &id, mode)?;
        let mut attempt = 0;
        let placed = loop {
            let err = match self.client.post(path, &body, Retry::Never).await {
                Ok(data) => break data,
                Err(e) => e,
            };
            // A duplicate: an attempt that did land has the id already.
            if !err.outcome_unknown() && !err.code().is_some_and(is_duplicate_client_id) {
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
        self.accepted(request, &placed, path)
    }

    async fn cancel_order(
        &self,
        symbol: &Symbol,
        client_order_id: &str,
    ) -> Result<Order, VenueError> {
        let c = self.contracts.get(symbol).await?;
        let id = client_id(client_order_id)?;
        let found = self.lookup(&c, &id, false).await?;
        // An order that is not open (or not there) is still sent: Bitget's own refusal says
        // which, in its words.
        match &found {
            Some(o) if o.order_type.is_trigger() => self.cancel_plan(&c, o).await?,
            _ => {
                let body = json!({"symbol": c.symbol.as_str(), "productType": PRODUCT_TYPE,
                    "marginCoin": MARGIN_COIN, "clientOid": id});
                self.client.post(orders::CANCEL, &body, Retry::Safe).await?;
            }
        }
        let trigger = found.as_ref().is_some_and(|o| o.order_type.is_trigger());
        let order = self
            .lookup(&c, &id, trigger)
            .await?
            .ok_or_else(|| VenueError::NoData {
                venue: self.venue().into(),
                what: format!("order {client_order_id} on {symbol}"),
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
        let mut params = vec![("productType", PRODUCT_TYPE.to_string())];
        if let Some(s) = symbol {
            params.push(("symbol", s.as_str().to_string()));
        }
        let mut open = self.pending(orders::PENDING, &params, false).await?;
        params.push(("planType", PROFIT_LOSS.to_string()));
        open.extend(self.pending(orders::PENDING_PLANS, &params, true).await?);
        Ok(open)
    }

    async fn fills(&self, symbol: &Symbol, since_ms: Option<i64>) -> Result<Vec<Fill>, VenueError> {
        let c = self.contracts.get(symbol).await?;
        let named = of("GET", FILLS);
        let mut params = product(c.symbol.as_str());
        params.push(("limit", FILLS_PAGE.to_string()));
        if let Some(t) = since_ms {
            params.push(("startTime", t.to_string()));
        }
        let mut fills = Vec::new();
        // Newest first, a page at a time, older pages before the last trade id.
        for _ in 0..10 {
            let data = self.client.get(FILLS, &params).await?;
            let rows = wire::list(&data, "fillList").map_err(&named)?;
            for row in rows {
                fills.push(wire::fill(row, &c).map_err(&named)?);
            }
            let last = rows.last().and_then(|r| r["tradeId"].as_str());
            match last {
                Some(trade) if rows.len() == FILLS_PAGE => {
                    params.retain(|(k, _)| *k != "idLessThan");
                    params.push(("idLessThan", trade.to_string()));
                }
                _ => break,
            }
        }
        fills.retain(|f| since_ms.is_none_or(|t| f.time_ms >= t));
        fills.sort_by_key(|f| f.time_ms);
        fills.dedup_by(|a, b| a.trade_id == b.trade_id);
        Ok(fills)
    }
}
