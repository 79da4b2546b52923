//! The signed USDⓈ-M futures account.
//!
//! Orders are idempotent by client order id: after a timeout or a 5xx on placement the order
//! may or may not exist, so the adapter looks the id up before it sends again, and a
//! "duplicated client order id" answer is resolved the same way. A second order is never
//! created by a retry.

use std::collections::HashMap;
use std::sync::Arc;

use async_trait::async_trait;
use nofxi_domain::market::Symbol;
use nofxi_domain::trading::{
    AccountSnapshot, Fill, MarginMode, Order, OrderRequest, OrderType, Position, PositionMode,
    SymbolRules,
};
use reqwest::Method;
use tokio::sync::Mutex;

use super::client::{Base, BinanceClient, Retry};
use super::wire;
use crate::{Exchange, VenueError};

#[derive(Debug, Clone)]
pub struct BinanceFutures {
    client: Arc<BinanceClient>,
    /// exchangeInfo is large and changes rarely: loaded once per adapter.
    rules: Arc<Mutex<HashMap<Symbol, SymbolRules>>>,
}

impl BinanceFutures {
    pub fn new(client: Arc<BinanceClient>) -> Self {
        BinanceFutures {
            client,
            rules: Arc::default(),
        }
    }

    pub fn client(&self) -> &Arc<BinanceClient> {
        &self.client
    }

    async fn get(
        &self,
        path: &str,
        params: &[(&str, String)],
        weight: u32,
    ) -> Result<serde_json::Value, VenueError> {
        self.client
            .signed(
                Method::GET,
                Base::Futures,
                path,
                params,
                weight,
                Retry::Safe,
            )
            .await
    }

    /// `GET path`, read by `parse`; an unreadable answer names this endpoint.
    async fn read<T>(
        &self,
        path: &str,
        params: &[(&str, String)],
        weight: u32,
        parse: impl FnOnce(&serde_json::Value) -> Result<T, VenueError>,
    ) -> Result<T, VenueError> {
        let v = self.get(path, params, weight).await?;
        parse(&v).map_err(|e| e.in_answer_to(&format!("GET {path}")))
    }

    async fn post(
        &self,
        path: &str,
        params: &[(&str, String)],
    ) -> Result<serde_json::Value, VenueError> {
        self.client
            .signed(Method::POST, Base::Futures, path, params, 1, Retry::Safe)
            .await
    }

    fn order_params(request: &OrderRequest) -> Vec<(&'static str, String)> {
        let mut p = vec![
            ("symbol", request.symbol.to_string()),
            ("side", request.side.as_str().to_string()),
            ("type", request.order_type.as_str().to_string()),
            ("quantity", request.quantity.normalize().to_string()),
            ("newClientOrderId", request.client_order_id.clone()),
            ("newOrderRespType", "RESULT".to_string()),
        ];
        if request.order_type == OrderType::Limit {
            if let Some(price) = request.price {
                p.push(("price", price.normalize().to_string()));
            }
            let tif = match request.time_in_force {
                Some(nofxi_domain::trading::TimeInForce::Ioc) => "IOC",
                Some(nofxi_domain::trading::TimeInForce::Gtx) => "GTX",
                _ => "GTC",
            };
            p.push(("timeInForce", tif.to_string()));
        }
        if let Some(stop) = request.stop_price {
            p.push(("stopPrice", stop.normalize().to_string()));
        }
        match request.position_side {
            // Hedge mode: the position side says what closes; Binance rejects reduceOnly there.
            Some(ps) => p.push(("positionSide", ps.as_str().to_string())),
            None if request.reduce_only => p.push(("reduceOnly", "true".to_string())),
            None => {}
        }
        p
    }
}

#[async_trait]
impl Exchange for BinanceFutures {
    fn venue(&self) -> &str {
        self.client.venue()
    }

    /// One attempt: an order whose outcome is unknown is never retried (see `Retry::Never`).
    fn request_timeout(&self) -> std::time::Duration {
        self.client.options().timeout
    }

    async fn symbol_rules(&self, symbol: &Symbol) -> Result<SymbolRules, VenueError> {
        if let Some(r) = self.rules.lock().await.get(symbol) {
            return Ok(r.clone());
        }
        let info = self.client.public("/fapi/v1/exchangeInfo", &[], 1).await?;
        let mut cache = self.rules.lock().await;
        let rules =
            wire::symbol_rules(&info).map_err(|e| e.in_answer_to("GET /fapi/v1/exchangeInfo"))?;
        for r in rules {
            cache.insert(r.symbol.clone(), r);
        }
        cache.get(symbol).cloned().ok_or_else(|| {
            VenueError::rejected(
                self.venue(),
                crate::RejectKind::UnknownSymbol,
                format!("{symbol} is not listed"),
            )
        })
    }

    async fn account(&self) -> Result<AccountSnapshot, VenueError> {
        self.read("/fapi/v2/account", &[], 5, wire::account).await
    }

    async fn positions(&self) -> Result<Vec<Position>, VenueError> {
        self.read("/fapi/v2/positionRisk", &[], 5, |v| {
            let mut out = Vec::new();
            for row in wire::array(v)? {
                if let Some(p) = wire::position(row)? {
                    out.push(p);
                }
            }
            Ok(out)
        })
        .await
    }

    async fn set_leverage(&self, symbol: &Symbol, leverage: u32) -> Result<(), VenueError> {
        let p = [
            ("symbol", symbol.to_string()),
            ("leverage", leverage.to_string()),
        ];
        self.post("/fapi/v1/leverage", &p).await.map(|_| ())
    }

    async fn set_margin_mode(&self, symbol: &Symbol, mode: MarginMode) -> Result<(), VenueError> {
        let kind = match mode {
            MarginMode::Cross => "CROSSED",
            MarginMode::Isolated => "ISOLATED",
        };
        let p = [
            ("symbol", symbol.to_string()),
            ("marginType", kind.to_string()),
        ];
        match self.post("/fapi/v1/marginType", &p).await {
            // -4046 "No need to change margin type": already there, which is what was asked.
            Err(e) if e.code() == Some(-4046) => Ok(()),
            other => other.map(|_| ()),
        }
    }

    async fn position_mode(&self) -> Result<PositionMode, VenueError> {
        // A missing flag is unreadable: reading it as one-way would pass a check it never made.
        let hedge = self
            .read("/fapi/v1/positionSide/dual", &[], 30, |v| {
                wire::flag(v, "dualSidePosition")
            })
            .await?;
        Ok(if hedge {
            PositionMode::Hedge
        } else {
            PositionMode::OneWay
        })
    }

    async fn set_position_mode(&self, mode: PositionMode) -> Result<(), VenueError> {
        let dual = (mode == PositionMode::Hedge).to_string();
        match self
            .post("/fapi/v1/positionSide/dual", &[("dualSidePosition", dual)])
            .await
        {
            Err(e) if e.code() == Some(-4059) => Ok(()),
            other => other.map(|_| ()),
        }
    }

    async fn place_order(&self, request: &OrderRequest) -> Result<Order, VenueError> {
        let params = Self::order_params(request);
        let mut attempt = 0;
        loop {
            let sent = self
                .client
                .signed(
                    Method::POST,
                    Base::Futures,
                    "/fapi/v1/order",
                    &params,
                    0,
                    Retry::Never,
                )
                .await;
            let err = match sent {
                Ok(v) => {
                    return wire::order(&v).map_err(|e| e.in_answer_to("POST /fapi/v1/order"));
                }
                Err(e) => e,
            };
            // -4116: the id exists already, from an earlier attempt that did land.
            let unknown = err.outcome_unknown() || err.code() == Some(-4116);
            if !unknown {
                return Err(err);
            }
            tracing::warn!(venue = self.venue(), client_order_id = %request.client_order_id, error = %err,
                "order outcome unknown; looking it up before resending");
            if let Some(existing) = self
                .order_status(&request.symbol, &request.client_order_id)
                .await?
            {
                return Ok(existing);
            }
            if attempt >= self.client.options().max_retries {
                return Err(err);
            }
            attempt += 1;
            let wait = self.client.options().backoff_base.saturating_mul(attempt);
            self.client.clock().sleep(wait).await;
        }
    }

    async fn cancel_order(
        &self,
        symbol: &Symbol,
        client_order_id: &str,
    ) -> Result<Order, VenueError> {
        let p = [
            ("symbol", symbol.to_string()),
            ("origClientOrderId", client_order_id.to_string()),
        ];
        let v = self
            .client
            .signed(
                Method::DELETE,
                Base::Futures,
                "/fapi/v1/order",
                &p,
                1,
                Retry::Safe,
            )
            .await?;
        wire::order(&v).map_err(|e| e.in_answer_to("DELETE /fapi/v1/order"))
    }

    async fn order_status(
        &self,
        symbol: &Symbol,
        client_order_id: &str,
    ) -> Result<Option<Order>, VenueError> {
        let p = [
            ("symbol", symbol.to_string()),
            ("origClientOrderId", client_order_id.to_string()),
        ];
        match self.get("/fapi/v1/order", &p, 1).await {
            Ok(v) => wire::order(&v)
                .map(Some)
                .map_err(|e| e.in_answer_to("GET /fapi/v1/order")),
            Err(e) if e.code() == Some(-2013) => Ok(None),
            Err(e) => Err(e),
        }
    }

    async fn open_orders(&self, symbol: Option<&Symbol>) -> Result<Vec<Order>, VenueError> {
        let p: Vec<(&str, String)> = symbol
            .map(|s| ("symbol", s.to_string()))
            .into_iter()
            .collect();
        let weight = if symbol.is_some() { 1 } else { 40 };
        self.read("/fapi/v1/openOrders", &p, weight, |v| {
            wire::array(v)?.iter().map(wire::order).collect()
        })
        .await
    }

    async fn fills(&self, symbol: &Symbol, since_ms: Option<i64>) -> Result<Vec<Fill>, VenueError> {
        let mut p = vec![("symbol", symbol.to_string())];
        if let Some(t) = since_ms {
            p.push(("startTime", t.to_string()));
        }
        self.read("/fapi/v1/userTrades", &p, 5, |v| {
            wire::array(v)?.iter().map(wire::fill).collect()
        })
        .await
    }
}
