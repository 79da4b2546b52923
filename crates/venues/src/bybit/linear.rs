//! The signed Bybit account (Unified Trading Account), trading USDT perpetuals
//! (`category=linear`).
//!
//! Orders are idempotent by client id: Bybit keeps every `orderLinkId` unique and refuses a
//! repeated one (110072), so an order is sent once and looked up by its id after a duplicate
//! refusal, a timeout or a 5xx; a retry never creates a second order.
//!
//! A Unified Trading Account has one margin mode for the whole account ("Get Account Info" →
//! `marginMode`; the per-symbol switch is for classic accounts only, "Switch Cross/Isolated
//! Margin": "UTA2.0: not supported"), so [`BybitLinear::set_margin_mode`] sets the account's.
//! Position mode is kept per symbol with a default per settle coin ("Switch Position Mode"):
//! nofxi sets it for USDT and reads it from BTCUSDT's position slots.

use std::collections::HashMap;
use std::sync::Arc;

use async_trait::async_trait;
use nofxi_domain::market::Symbol;
use nofxi_domain::trading::{
    AccountSnapshot, Fill, MarginMode, Order, OrderRequest, OrderStatus, Position, PositionMode,
    SymbolRules,
};
use rust_decimal::Decimal;
use serde_json::{Value, json};

use super::client::{BybitClient, Retry};
use super::codes::{DUPLICATE_LINK_ID, NO_SUCH_ORDER, NOT_MODIFIED};
use super::instruments::Instruments;
use super::orders::{self, client_id};
use super::wire;
use crate::{Exchange, VenueError};

const ACCOUNT_INFO: &str = "/v5/account/info";
const WALLET: &str = "/v5/account/wallet-balance";
const SET_MARGIN_MODE: &str = "/v5/account/set-margin-mode";
const POSITIONS: &str = "/v5/position/list";
const SET_LEVERAGE: &str = "/v5/position/set-leverage";
const SWITCH_MODE: &str = "/v5/position/switch-mode";
const EXECUTIONS: &str = "/v5/execution/list";
const TRANSACTIONS: &str = "/v5/account/transaction-log";
const API_KEY: &str = "/v5/user/query-api";
/// The symbol whose position slots say the account's position mode.
const MODE_PROBE: &str = "BTCUSDT";
/// Trade history and the transaction log answer at most seven days a request.
const WINDOW_MS: i64 = 7 * 86_400_000;
/// Bybit keeps two years of trade history: this many windows reach back that far.
const MAX_WINDOWS: i64 = 105;
/// Pages of one list nofxi reads before it stops (a cursor that never ends is a server bug).
const MAX_PAGES: usize = 50;
/// Bybit's cancel refusals for an order no longer open: not there, finished, cancelled.
const NOT_OPEN: [i64; 3] = [NO_SUCH_ORDER, 110008, 110010];

#[derive(Debug, Clone)]
pub struct BybitLinear {
    client: Arc<BybitClient>,
    instruments: Arc<Instruments>,
}

fn of(method: &str, path: &str) -> impl Fn(VenueError) -> VenueError {
    let endpoint = format!("{method} {path}");
    move |e| e.in_answer_to(&endpoint)
}

/// Whether `e` says the setting already held (110025, 110026, 110043).
fn not_modified(e: &VenueError) -> bool {
    e.code().is_some_and(|c| NOT_MODIFIED.contains(&c))
}

fn margin_mode_of(account_info: &Value) -> Result<MarginMode, VenueError> {
    match wire::text(account_info, "marginMode") {
        Ok("ISOLATED_MARGIN") => Ok(MarginMode::Isolated),
        // Portfolio margin margins across positions, as cross does.
        Ok("REGULAR_MARGIN" | "PORTFOLIO_MARGIN") => Ok(MarginMode::Cross),
        _ => Err(wire::bad("marginMode").in_answer_to(&format!("GET {ACCOUNT_INFO}"))),
    }
}

impl BybitLinear {
    pub fn new(client: Arc<BybitClient>) -> Self {
        BybitLinear {
            instruments: Arc::new(Instruments::new(client.clone())),
            client,
        }
    }

    pub fn client(&self) -> &Arc<BybitClient> {
        &self.client
    }

    /// The symbol rules this account trades by, for a market-data reader to share.
    pub fn instruments(&self) -> &Arc<Instruments> {
        &self.instruments
    }

    /// `GET /v5/account/info`: margin mode and account status (`unifiedMarginStatus`).
    pub async fn account_info(&self) -> Result<Value, VenueError> {
        self.client.get(ACCOUNT_INFO, &[]).await
    }

    /// `GET /v5/user/query-api`: the key's permissions, read-only flag, bound IPs and whether
    /// its account is unified ("Any permission can access this endpoint").
    pub async fn api_key_info(&self) -> Result<Value, VenueError> {
        self.client.get(API_KEY, &[]).await
    }

    /// Every page of a signed list, following `nextPageCursor`.
    async fn pages(&self, path: &str, params: &[(&str, String)]) -> Result<Vec<Value>, VenueError> {
        let mut rows = Vec::new();
        let mut cursor: Option<String> = None;
        for _ in 0..MAX_PAGES {
            let mut p = params.to_vec();
            if let Some(c) = &cursor {
                p.push(("cursor", c.clone()));
            }
            let result = self.client.get(path, &p).await?;
            rows.extend(
                wire::list(&result)
                    .map_err(of("GET", path))?
                    .iter()
                    .cloned(),
            );
            match wire::next_cursor(&result) {
                Some(next) if Some(&next) != cursor.as_ref() => cursor = Some(next),
                _ => break,
            }
        }
        Ok(rows)
    }

    /// The order Bybit keeps as `link_id`: the real-time list first (open orders and the
    /// latest closed ones), then the history ("After a server release or restart, filled,
    /// cancelled, and rejected orders … should only be queried through order history").
    async fn lookup(&self, symbol: &Symbol, link_id: &str) -> Result<Option<Order>, VenueError> {
        let params = [
            ("category", "linear".to_string()),
            ("symbol", symbol.as_str().to_string()),
            ("orderLinkId", link_id.to_string()),
        ];
        for path in [orders::REALTIME, orders::HISTORY] {
            let result = self.client.get(path, &params).await?;
            let named = of("GET", path);
            if let Some(row) = wire::list(&result).map_err(&named)?.first() {
                return wire::order(row).map(Some).map_err(named);
            }
        }
        Ok(None)
    }

    /// The realized P&L the transaction log booked for each trade in `[start, end]`, by the
    /// log's `tradeId`: the trade history's `execId` of the same trade (Bybit's execution
    /// stream says its `execPnl` "keeps consistent with the field cashFlow in Get Transaction
    /// Log", the REST trade history carries no P&L of its own).
    async fn booked_pnl(
        &self,
        start: i64,
        end: i64,
    ) -> Result<HashMap<String, Decimal>, VenueError> {
        let rows = self
            .pages(
                TRANSACTIONS,
                &[
                    ("accountType", "UNIFIED".to_string()),
                    ("category", "linear".to_string()),
                    ("currency", "USDT".to_string()),
                    ("type", "TRADE".to_string()),
                    ("startTime", start.to_string()),
                    ("endTime", end.to_string()),
                    ("limit", "50".to_string()),
                ],
            )
            .await?;
        let mut booked = HashMap::new();
        for row in rows {
            let named = of("GET", TRANSACTIONS);
            let id = wire::text(&row, "tradeId").map_err(&named)?.to_string();
            // `cashFlow`: "close the position, and unRPL converts to RPL"; fees apart.
            booked.insert(id, wire::dec(&row, "cashFlow").map_err(named)?);
        }
        Ok(booked)
    }
}

/// The caller's id on an order found by the id Bybit keeps (they differ when it was digested).
fn relabel(mut order: Order, caller_id: &str) -> Order {
    order.client_order_id = caller_id.to_string();
    order
}

#[async_trait]
impl Exchange for BybitLinear {
    fn venue(&self) -> &str {
        self.client.venue()
    }

    /// One attempt: an order whose outcome is unknown is looked up, never resent blindly.
    fn request_timeout(&self) -> std::time::Duration {
        self.client.options().timeout
    }

    async fn symbol_rules(&self, symbol: &Symbol) -> Result<SymbolRules, VenueError> {
        self.instruments.get(symbol).await
    }

    async fn account(&self) -> Result<AccountSnapshot, VenueError> {
        let result = self
            .client
            .get(
                WALLET,
                &[
                    ("accountType", "UNIFIED".to_string()),
                    ("coin", "USDT".to_string()),
                ],
            )
            .await?;
        let named = of("GET", WALLET);
        let row = wire::list(&result)
            .map_err(&named)?
            .first()
            .ok_or_else(|| named(wire::bad("result.list[0]")))?;
        wire::account(row).map_err(named)
    }

    async fn positions(&self) -> Result<Vec<Position>, VenueError> {
        let mode = margin_mode_of(&self.account_info().await?)?;
        let rows = self
            .pages(
                POSITIONS,
                &[
                    ("category", "linear".to_string()),
                    ("settleCoin", "USDT".to_string()),
                    ("limit", "200".to_string()),
                ],
            )
            .await?;
        let mut out = Vec::new();
        for row in &rows {
            out.extend(wire::position(row, mode).map_err(of("GET", POSITIONS))?);
        }
        Ok(out)
    }

    async fn set_leverage(&self, symbol: &Symbol, leverage: u32) -> Result<(), VenueError> {
        self.instruments.get(symbol).await?;
        // One-way mode and cross margin need both sides equal; isolated hedge sides may
        // differ, and nofxi keeps them equal too.
        let body = json!({"category": "linear", "symbol": symbol.as_str(),
            "buyLeverage": leverage.to_string(), "sellLeverage": leverage.to_string()});
        match self.client.post(SET_LEVERAGE, &body, Retry::Safe).await {
            Err(e) if !not_modified(&e) => Err(e),
            _ => Ok(()),
        }
    }

    async fn set_margin_mode(&self, symbol: &Symbol, mode: MarginMode) -> Result<(), VenueError> {
        // Known symbols only: a typo is refused here, not at the first order.
        self.instruments.get(symbol).await?;
        if margin_mode_of(&self.account_info().await?)? == mode {
            return Ok(());
        }
        let wanted = match mode {
            MarginMode::Cross => "REGULAR_MARGIN",
            MarginMode::Isolated => "ISOLATED_MARGIN",
        };
        match self
            .client
            .post(
                SET_MARGIN_MODE,
                &json!({"setMarginMode": wanted}),
                Retry::Safe,
            )
            .await
        {
            Err(e) if !not_modified(&e) => Err(e),
            _ => Ok(()),
        }
    }

    async fn position_mode(&self) -> Result<PositionMode, VenueError> {
        let result = self
            .client
            .get(
                POSITIONS,
                &[
                    ("category", "linear".to_string()),
                    ("symbol", MODE_PROBE.to_string()),
                ],
            )
            .await?;
        let named = of("GET", POSITIONS);
        let slots: Vec<i64> = wire::list(&result)
            .map_err(&named)?
            .iter()
            .filter_map(|row| row["positionIdx"].as_i64())
            .collect();
        // A missing slot is unreadable: reading it as one-way would pass a check never made.
        if slots.iter().any(|i| *i == 1 || *i == 2) {
            Ok(PositionMode::Hedge)
        } else if slots.contains(&0) {
            Ok(PositionMode::OneWay)
        } else {
            Err(named(wire::bad("positionIdx")))
        }
    }

    async fn set_position_mode(&self, mode: PositionMode) -> Result<(), VenueError> {
        // "`0`: Merged Single. `3`: Both Sides".
        let code = match mode {
            PositionMode::OneWay => 0,
            PositionMode::Hedge => 3,
        };
        let body = json!({"category": "linear", "coin": "USDT", "mode": code});
        match self.client.post(SWITCH_MODE, &body, Retry::Safe).await {
            Err(e) if !not_modified(&e) => Err(e),
            _ => Ok(()),
        }
    }

    async fn place_order(&self, request: &OrderRequest) -> Result<Order, VenueError> {
        let rules = self.instruments.get(&request.symbol).await?;
        orders::check(self.venue(), request, &rules)?;
        let id = client_id(&request.client_order_id)?;
        let body = orders::body(request, &id)?;
        let mut attempt = 0;
        let placed = loop {
            let err = match self.client.post(orders::PLACE, &body, Retry::Never).await {
                Ok(result) => break result,
                Err(e) => e,
            };
            // 110072: Bybit has an order with this id already, from an attempt that landed
            // (or a run before a crash).
            if !err.outcome_unknown() && err.code() != Some(DUPLICATE_LINK_ID) {
                return Err(err);
            }
            tracing::warn!(venue = self.venue(), client_order_id = %request.client_order_id, error = %err,
                "order outcome unknown; looking it up before resending");
            if let Some(existing) = self.lookup(&request.symbol, &id).await? {
                return Ok(relabel(existing, &request.client_order_id));
            }
            if err.code() == Some(DUPLICATE_LINK_ID) || attempt >= self.client.options().max_retries
            {
                return Err(err);
            }
            attempt += 1;
            let wait = self.client.options().backoff_base.saturating_mul(attempt);
            self.client.clock().sleep(wait).await;
        };
        // The placement only acknowledges ("This request is asynchronous"): the order as it
        // stands is read back.
        if let Some(order) = self.lookup(&request.symbol, &id).await? {
            return Ok(relabel(order, &request.client_order_id));
        }
        let order_id = wire::text(&placed, "orderId")
            .map_err(of("POST", orders::PLACE))?
            .to_string();
        Ok(Order {
            order_id,
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

    async fn cancel_order(
        &self,
        symbol: &Symbol,
        client_order_id: &str,
    ) -> Result<Order, VenueError> {
        let id = client_id(client_order_id)?;
        let body = json!({"category": "linear", "symbol": symbol.as_str(), "orderLinkId": id});
        let sent = self.client.post(orders::CANCEL, &body, Retry::Safe).await;
        let found = self.lookup(symbol, &id).await?;
        match (sent, found) {
            (Ok(_), Some(order)) => Ok(relabel(order, client_order_id)),
            // A retried cancel whose first attempt landed: Bybit says the order is no longer
            // open, and it is cancelled.
            (Err(e), Some(order))
                if e.code().is_some_and(|c| NOT_OPEN.contains(&c))
                    && order.status == OrderStatus::Canceled =>
            {
                Ok(relabel(order, client_order_id))
            }
            // Otherwise Bybit's own refusal says why (filled, not there).
            (Err(e), _) => Err(e),
            (Ok(_), None) => Err(VenueError::NoData {
                venue: self.venue().into(),
                what: format!("order {client_order_id} on {}", symbol.as_str()),
            }),
        }
    }

    async fn order_status(
        &self,
        symbol: &Symbol,
        client_order_id: &str,
    ) -> Result<Option<Order>, VenueError> {
        let id = client_id(client_order_id)?;
        Ok(self
            .lookup(symbol, &id)
            .await?
            .map(|o| relabel(o, client_order_id)))
    }

    async fn open_orders(&self, symbol: Option<&Symbol>) -> Result<Vec<Order>, VenueError> {
        let mut params = vec![
            ("category", "linear".to_string()),
            ("openOnly", "0".to_string()),
            ("limit", "50".to_string()),
        ];
        match symbol {
            Some(s) => params.push(("symbol", s.as_str().to_string())),
            None => params.push(("settleCoin", "USDT".to_string())),
        }
        self.pages(orders::REALTIME, &params)
            .await?
            .iter()
            .map(|row| wire::order(row).map_err(of("GET", orders::REALTIME)))
            .collect()
    }

    async fn fills(&self, symbol: &Symbol, since_ms: Option<i64>) -> Result<Vec<Fill>, VenueError> {
        let now = self.client.server_now_ms();
        // Without `since`, Bybit's own default: the last seven days.
        let first = since_ms
            .unwrap_or(now - WINDOW_MS)
            .max(now - MAX_WINDOWS * WINDOW_MS);
        let mut fills: Vec<Fill> = Vec::new();
        let mut start = first;
        while start <= now {
            let end = (start + WINDOW_MS - 1).min(now);
            let rows = self
                .pages(
                    EXECUTIONS,
                    &[
                        ("category", "linear".to_string()),
                        ("symbol", symbol.as_str().to_string()),
                        ("startTime", start.to_string()),
                        ("endTime", end.to_string()),
                        ("limit", "100".to_string()),
                    ],
                )
                .await?;
            let trades: Vec<&Value> = rows.iter().filter(|r| wire::is_trade(r)).collect();
            // Only a trade that closed something realized P&L, and only the transaction log
            // says how much: the trade history has no P&L field.
            let booked = if trades.iter().any(|t| !wire::closed_size(t).is_zero()) {
                self.booked_pnl(start, end).await?
            } else {
                HashMap::new()
            };
            for row in trades {
                let named = of("GET", EXECUTIONS);
                let id = wire::text(row, "execId").map_err(&named)?;
                let pnl = match booked.get(id) {
                    Some(pnl) => *pnl,
                    None if wire::closed_size(row).is_zero() => Decimal::ZERO,
                    None => {
                        return Err(VenueError::NoData {
                            venue: self.venue().into(),
                            what: format!(
                                "the realized P&L of trade {id} on {} (its transaction-log entry is not booked yet; ask again)",
                                symbol.as_str()
                            ),
                        });
                    }
                };
                fills.push(wire::fill(row, pnl).map_err(named)?);
            }
            start = end + 1;
        }
        fills.retain(|f| since_ms.is_none_or(|t| f.time_ms >= t));
        fills.sort_by(|a, b| (a.time_ms, &a.trade_id).cmp(&(b.time_ms, &b.trade_id)));
        fills.dedup_by(|a, b| a.trade_id == b.trade_id);
        Ok(fills)
    }
}
