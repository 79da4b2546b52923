//! The Hyperliquid account, trading USDC-margined perpetuals for the main wallet with the
//! agent wallet's signature.
//!
//! Orders are idempotent by cloid: the adapter looks the cloid up (`orderStatus` by cloid)
//! before it sends, and again after a timeout or a 5xx, so a retry never creates a second
//! order and a restarted process finds what the first one sent.
//!
//! Hyperliquid keeps one position per coin (one-way only: there is no position mode to set)
//! and sets the margin mode with the leverage (`updateLeverage`'s `isCross`), so
//! [`HyperliquidPerp::set_margin_mode`] remembers the mode for the symbol's next leverage
//! setting.

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

use super::assets::{Asset, Assets};
use super::client::{HyperliquidClient, Retry};
use super::orders::{self, CancelByCloid, CancelByCloidAction, UpdateLeverageAction};
use super::wire;
use crate::{Exchange, RejectKind, VenueError};

/// The client id of [`HyperliquidPerp::signed_probe`]'s cancel: never an order's.
const PROBE_ID: &str = "nofxiConnectivityProbe0";

/// `userFillsByTime` answers at most this many fills at a time ("Info endpoint").
const FILLS_PAGE: usize = 2_000;

#[derive(Debug, Clone)]
pub struct HyperliquidPerp {
    client: Arc<HyperliquidClient>,
    assets: Arc<Assets>,
    margin_modes: Arc<Mutex<HashMap<Symbol, MarginMode>>>,
}

impl HyperliquidPerp {
    pub fn new(client: Arc<HyperliquidClient>) -> Self {
        HyperliquidPerp {
            assets: Arc::new(Assets::new(client.clone())),
            client,
            margin_modes: Arc::default(),
        }
    }

    pub fn client(&self) -> &Arc<HyperliquidClient> {
        &self.client
    }

    /// The perpetuals this account trades, for a market-data reader to share.
    pub fn assets(&self) -> &Arc<Assets> {
        &self.assets
    }

    /// `{"type": "userRole", "user": address}`: `user`, `agent` (with the user it acts
    /// for), `vault`, `subAccount` or `missing`.
    pub async fn user_role(&self, address: &str) -> Result<Value, VenueError> {
        self.client
            .info(&json!({"type": "userRole", "user": address}))
            .await
    }

    /// One signed action that changes nothing: a cancel of a cloid nofxi never sends. An
    /// answer of any order status (`"Order was never placed, …"`) proves Hyperliquid took
    /// the signature; a refusal of the signer says it did not.
    pub async fn signed_probe(&self) -> Result<(), VenueError> {
        let asset = self
            .assets
            .get(&Symbol::parse("BTC").map_err(|_| wire::bad("BTC"))?)
            .await?;
        let action = CancelByCloidAction {
            r#type: "cancelByCloid",
            cancels: vec![CancelByCloid {
                asset: asset.index,
                cloid: orders::cloid(PROBE_ID)?,
            }],
        };
        let response = self.client.exchange(&action, Retry::Safe).await?;
        match self.first_status(&response, "POST /exchange cancelByCloid") {
            Err(e) if e.kind() == Some(RejectKind::OrderNotFound) => Ok(()),
            other => other.map(|_| ()),
        }
    }

    /// `clearinghouseState` of the main wallet: margin summary and positions.
    async fn state(&self) -> Result<Value, VenueError> {
        let user = self.client.wallet()?;
        self.client
            .info(&json!({"type": "clearinghouseState", "user": user}))
            .await
    }

    /// The mid of `asset`'s coin (`allMids`), a market order's reference.
    async fn mid(&self, asset: &Asset) -> Result<Decimal, VenueError> {
        let mids = self.client.info(&json!({"type": "allMids"})).await?;
        wire::dec(&mids, &asset.coin).map_err(|e| e.in_answer_to("POST /info allMids"))
    }

    fn margin_mode(&self, symbol: &Symbol) -> MarginMode {
        self.margin_modes
            .lock()
            .ok()
            .and_then(|m| m.get(symbol).copied())
            .unwrap_or(MarginMode::Cross)
    }

    /// The order Hyperliquid keeps under `cloid` (`orderStatus`), with the average price of
    /// its fills once something filled.
    async fn lookup(&self, asset: &Asset, cloid: &str) -> Result<Option<Order>, VenueError> {
        let user = self.client.wallet()?;
        let named = |e: VenueError| e.in_answer_to("POST /info orderStatus");
        let answer = self
            .client
            .info(&json!({"type": "orderStatus", "user": user, "oid": cloid}))
            .await?;
        match answer["status"].as_str() {
            Some("unknownOid") => return Ok(None),
            Some("order") => {}
            _ => return Err(named(wire::bad("status"))),
        }
        let found = &answer["order"];
        let status = wire::text(found, "status").map_err(named)?;
        let updated = found["statusTimestamp"].as_i64();
        let mut order =
            wire::order(&found["order"], status, asset, None, updated).map_err(named)?;
        if order.executed_quantity > Decimal::ZERO {
            let since = found["order"]["timestamp"].as_i64();
            order.average_price = self.average(asset, &order.order_id, since).await?;
        }
        Ok(Some(order))
    }

    /// The volume-weighted price of order `oid`'s fills.
    async fn average(
        &self,
        asset: &Asset,
        oid: &str,
        since: Option<i64>,
    ) -> Result<Decimal, VenueError> {
        let fills = self.fill_rows(asset, since).await?;
        let (mut value, mut size) = (Decimal::ZERO, Decimal::ZERO);
        for f in fills.iter().filter(|f| f.order_id == oid) {
            value += f.price * f.quantity;
            size += f.quantity;
        }
        Ok(if size.is_zero() {
            Decimal::ZERO
        } else {
            (value / size).normalize()
        })
    }

    /// Fills of `asset` from `since`, oldest first, a page of `userFillsByTime` at a time.
    async fn fill_rows(&self, asset: &Asset, since: Option<i64>) -> Result<Vec<Fill>, VenueError> {
        let user = self.client.wallet()?;
        let named = |e: VenueError| e.in_answer_to("POST /info userFillsByTime");
        let mut start = since.unwrap_or(0);
        let mut fills: Vec<Fill> = Vec::new();
        for _ in 0..10 {
            let rows = self
                .client
                .info(
                    &json!({"type": "userFillsByTime", "user": user, "startTime": start,
                    "aggregateByTime": false}),
                )
                .await?;
            let rows = rows
                .as_array()
                .ok_or_else(|| named(wire::bad(crate::error::WHOLE_ANSWER)))?;
            let mut newest = start;
            for row in rows {
                newest = newest.max(wire::ms(row, "time").map_err(named)?);
                if row["coin"].as_str() != Some(asset.coin.as_str()) {
                    continue;
                }
                let fill = wire::fill(row, asset).map_err(named)?;
                if !fills.iter().any(|f| f.trade_id == fill.trade_id) {
                    fills.push(fill);
                }
            }
            // A full page may stop mid-millisecond: the next starts at its newest one.
            if rows.len() < FILLS_PAGE || newest == start {
                break;
            }
            start = newest;
        }
        fills.sort_by_key(|f| f.time_ms);
        Ok(fills)
    }

    /// The statuses of an accepted batch: the first one's refusal, if it is one.
    fn first_status(&self, response: &Value, what: &str) -> Result<Value, VenueError> {
        let status = response["data"]["statuses"]
            .as_array()
            .and_then(|s| s.first())
            .cloned()
            .ok_or_else(|| wire::bad("response.data.statuses").in_answer_to(what))?;
        match status["error"].as_str() {
            Some(message) => Err(self.client.refusal(message, 200, None)),
            None => Ok(status),
        }
    }

    async fn send_order(&self, action: &orders::OrderAction) -> Result<Value, VenueError> {
        let response = self.client.exchange(action, Retry::Never).await?;
        self.first_status(&response, "POST /exchange order")
    }
}

/// The caller's id on an order found by its cloid.
fn relabel(mut order: Order, caller_id: &str) -> Order {
    order.client_order_id = caller_id.to_string();
    order
}

#[async_trait]
impl Exchange for HyperliquidPerp {
    fn venue(&self) -> &str {
        self.client.venue()
    }

    /// One attempt: an order whose outcome is unknown is looked up, never resent blindly.
    fn request_timeout(&self) -> std::time::Duration {
        self.client.options().timeout
    }

    async fn symbol_rules(&self, symbol: &Symbol) -> Result<SymbolRules, VenueError> {
        let asset = self.assets.get(symbol).await?;
        let mid = self.mid(&asset).await?;
        Ok(asset.rules(mid))
    }

    async fn account(&self) -> Result<AccountSnapshot, VenueError> {
        wire::account(&self.state().await?)
            .map_err(|e| e.in_answer_to("POST /info clearinghouseState"))
    }

    async fn positions(&self) -> Result<Vec<Position>, VenueError> {
        Ok(self.account_and_positions().await?.1)
    }

    /// One `clearinghouseState` answers both.
    async fn account_and_positions(&self) -> Result<(AccountSnapshot, Vec<Position>), VenueError> {
        let named = |e: VenueError| e.in_answer_to("POST /info clearinghouseState");
        let state = self.state().await?;
        let account = wire::account(&state).map_err(named)?;
        let mut positions = Vec::new();
        for row in state["assetPositions"]
            .as_array()
            .ok_or_else(|| named(wire::bad("assetPositions")))?
        {
            let p = &row["position"];
            let coin = wire::text(p, "coin").map_err(named)?;
            let Some(asset) = self.assets.listed(coin).await? else {
                continue;
            };
            positions.extend(wire::position(p, &asset).map_err(named)?);
        }
        Ok((account, positions))
    }

    async fn set_leverage(&self, symbol: &Symbol, leverage: u32) -> Result<(), VenueError> {
        let asset = self.assets.get(symbol).await?;
        if leverage == 0 || leverage > asset.max_leverage {
            return Err(VenueError::InvalidRequest(format!(
                "leverage {leverage} is out of range for {} on Hyperliquid: use 1 to {}",
                asset.coin, asset.max_leverage
            )));
        }
        let action = UpdateLeverageAction {
            r#type: "updateLeverage",
            asset: asset.index,
            is_cross: self.margin_mode(symbol) == MarginMode::Cross,
            leverage,
        };
        self.client.exchange(&action, Retry::Safe).await.map(|_| ())
    }

    async fn set_margin_mode(&self, symbol: &Symbol, mode: MarginMode) -> Result<(), VenueError> {
        // Known symbols only: a typo is refused here, not at the first order.
        self.assets.get(symbol).await?;
        if let Ok(mut modes) = self.margin_modes.lock() {
            modes.insert(symbol.clone(), mode);
        }
        Ok(())
    }

    async fn position_mode(&self) -> Result<PositionMode, VenueError> {
        Ok(PositionMode::OneWay)
    }

    async fn set_position_mode(&self, mode: PositionMode) -> Result<(), VenueError> {
        match mode {
            PositionMode::OneWay => Ok(()),
            PositionMode::Hedge => Err(VenueError::Unsupported {
                venue: self.venue().into(),
                what: "hedge mode: Hyperliquid keeps one position per coin (one-way only)".into(),
            }),
        }
    }

    async fn place_order(&self, request: &OrderRequest) -> Result<Order, VenueError> {
        let asset = self.assets.get(&request.symbol).await?;
        let cloid = orders::cloid(&request.client_order_id)?;
        if let Some(existing) = self.lookup(&asset, &cloid).await? {
            return Ok(relabel(existing, &request.client_order_id));
        }
        let mid = match request.order_type {
            OrderType::Market => Some(self.mid(&asset).await?),
            _ => None,
        };
        let options = self.client.options();
        let wire = orders::wire(
            self.venue(),
            request,
            &asset,
            &cloid,
            mid,
            options.market_slippage_pct,
            options.trigger_slippage_pct,
        )?;
        let action = orders::order_action(wire);
        let mut attempt = 0;
        let placed = loop {
            let err = match self.send_order(&action).await {
                Ok(status) => break status,
                Err(e) => e,
            };
            if !err.outcome_unknown() {
                return Err(err);
            }
            tracing::warn!(venue = self.venue(), client_order_id = %request.client_order_id, error = %err,
                "order outcome unknown; looking it up before resending");
            if let Some(existing) = self.lookup(&asset, &cloid).await? {
                return Ok(relabel(existing, &request.client_order_id));
            }
            if attempt >= options.max_retries {
                return Err(err);
            }
            attempt += 1;
            let wait = options.backoff_base.saturating_mul(attempt);
            self.client.clock().sleep(wait).await;
        };
        if let Some(order) = self.lookup(&asset, &cloid).await? {
            return Ok(relabel(order, &request.client_order_id));
        }
        // Accepted but not yet readable: what was accepted, as Hyperliquid numbered it.
        let (oid, status, executed, average) = if let Some(f) = placed.get("filled") {
            (
                &f["oid"],
                OrderStatus::Filled,
                wire::opt_dec(f, "totalSz").unwrap_or(request.quantity),
                wire::opt_dec(f, "avgPx").unwrap_or_default(),
            )
        } else {
            (
                &placed["resting"]["oid"],
                OrderStatus::New,
                Decimal::ZERO,
                Decimal::ZERO,
            )
        };
        let oid = oid
            .as_u64()
            .ok_or_else(|| wire::bad("oid").in_answer_to("POST /exchange order"))?;
        Ok(Order {
            order_id: oid.to_string(),
            client_order_id: request.client_order_id.clone(),
            symbol: request.symbol.clone(),
            side: request.side,
            order_type: request.order_type,
            status,
            quantity: request.quantity,
            price: request.price,
            stop_price: request.stop_price,
            executed_quantity: executed,
            average_price: average,
            reduce_only: request.reduce_only,
            position_side: None,
            updated_ms: self.client.clock().now_ms(),
        })
    }

    async fn cancel_order(
        &self,
        symbol: &Symbol,
        client_order_id: &str,
    ) -> Result<Order, VenueError> {
        let asset = self.assets.get(symbol).await?;
        let cloid = orders::cloid(client_order_id)?;
        let action = CancelByCloidAction {
            r#type: "cancelByCloid",
            cancels: vec![CancelByCloid {
                asset: asset.index,
                cloid: cloid.clone(),
            }],
        };
        // An order that is not open is still sent: Hyperliquid's own refusal says so.
        let response = self.client.exchange(&action, Retry::Safe).await?;
        self.first_status(&response, "POST /exchange cancelByCloid")?;
        let order = self
            .lookup(&asset, &cloid)
            .await?
            .ok_or_else(|| VenueError::NoData {
                venue: self.venue().into(),
                what: format!("order {client_order_id} on {}", asset.coin),
            })?;
        Ok(relabel(order, client_order_id))
    }

    async fn order_status(
        &self,
        symbol: &Symbol,
        client_order_id: &str,
    ) -> Result<Option<Order>, VenueError> {
        let asset = self.assets.get(symbol).await?;
        let cloid = orders::cloid(client_order_id)?;
        Ok(self
            .lookup(&asset, &cloid)
            .await?
            .map(|o| relabel(o, client_order_id)))
    }

    async fn open_orders(&self, symbol: Option<&Symbol>) -> Result<Vec<Order>, VenueError> {
        let user = self.client.wallet()?;
        let named = |e: VenueError| e.in_answer_to("POST /info frontendOpenOrders");
        let rows = self
            .client
            .info(&json!({"type": "frontendOpenOrders", "user": user}))
            .await?;
        let mut open = Vec::new();
        for row in rows
            .as_array()
            .ok_or_else(|| named(wire::bad(crate::error::WHOLE_ANSWER)))?
        {
            let coin = wire::text(row, "coin").map_err(named)?;
            // Spot orders (`@107`, `PURR/USDC`) share the list: only listed perpetuals count.
            let Some(asset) = self.assets.listed(coin).await? else {
                continue;
            };
            if symbol.is_some_and(|s| *s != asset.symbol) {
                continue;
            }
            open.push(wire::order(row, "open", &asset, None, None).map_err(named)?);
        }
        Ok(open)
    }

    async fn fills(&self, symbol: &Symbol, since_ms: Option<i64>) -> Result<Vec<Fill>, VenueError> {
        let asset = self.assets.get(symbol).await?;
        let mut fills = self.fill_rows(&asset, since_ms).await?;
        fills.retain(|f| since_ms.is_none_or(|t| f.time_ms >= t));
        Ok(fills)
    }
}

/// Whether `e` is Hyperliquid refusing the signer: an agent wallet it does not know.
pub fn unknown_signer(e: &VenueError) -> bool {
    match e {
        VenueError::Rejected { kind, message, .. } => {
            *kind == RejectKind::KeyIpOrPermission && message.contains(super::codes::UNKNOWN_SIGNER)
        }
        _ => false,
    }
}
