//! The trading rules of Bybit's USDT perpetuals, from `GET /v5/market/instruments-info`
//! (Bybit API v5 docs, "Market" → "Get Instruments Info",
//! https://bybit-exchange.github.io/docs/v5/market/instrument): `priceFilter.tickSize`,
//! `lotSizeFilter.qtyStep`, `minOrderQty` and `minNotionalValue`. Bybit's linear contracts
//! are sized in the base coin, so these are nofxi's rules as they are.
//!
//! There are more than 500 linear symbols (the docs' caution), so each symbol is read on its
//! own, once per adapter: rules change rarely and every order needs them.

use std::collections::HashMap;
use std::sync::Arc;

use nofxi_domain::market::Symbol;
use nofxi_domain::trading::SymbolRules;
use serde_json::Value;
use tokio::sync::Mutex;

use super::client::BybitClient;
use super::wire;
use crate::{RejectKind, VenueError};

const INSTRUMENTS: &str = "/v5/market/instruments-info";

#[derive(Debug)]
pub struct Instruments {
    client: Arc<BybitClient>,
    by_symbol: Mutex<HashMap<Symbol, SymbolRules>>,
}

impl Instruments {
    pub fn new(client: Arc<BybitClient>) -> Self {
        Instruments {
            client,
            by_symbol: Mutex::default(),
        }
    }

    /// The rules of `symbol`'s USDT perpetual; an unknown-symbol refusal when Bybit lists
    /// none (a spot-only coin, a USDC contract, a typo).
    pub async fn get(&self, symbol: &Symbol) -> Result<SymbolRules, VenueError> {
        if let Some(rules) = self.by_symbol.lock().await.get(symbol) {
            return Ok(rules.clone());
        }
        let named = |e: VenueError| e.in_answer_to(&format!("GET {INSTRUMENTS}"));
        let result = self
            .client
            .public(
                INSTRUMENTS,
                &[
                    ("category", "linear".to_string()),
                    ("symbol", symbol.as_str().to_string()),
                ],
            )
            .await?;
        let mut found = None;
        for row in wire::list(&result).map_err(named)? {
            if row["symbol"].as_str() == Some(symbol.as_str()) {
                found = rules(row, symbol).map_err(named)?;
            }
        }
        let rules = found.ok_or_else(|| {
            VenueError::rejected(
                self.client.venue(),
                RejectKind::UnknownSymbol,
                format!(
                    "{} is not listed as a USDT perpetual on Bybit",
                    symbol.as_str()
                ),
            )
        })?;
        self.by_symbol
            .lock()
            .await
            .insert(symbol.clone(), rules.clone());
        Ok(rules)
    }
}

/// One instrument row; `None` for anything but a USDT-settled linear perpetual.
fn rules(v: &Value, symbol: &Symbol) -> Result<Option<SymbolRules>, VenueError> {
    if v["settleCoin"].as_str() != Some("USDT")
        || v["contractType"]
            .as_str()
            .is_some_and(|t| t != "LinearPerpetual")
    {
        return Ok(None);
    }
    let price = &v["priceFilter"];
    let lot = &v["lotSizeFilter"];
    let nested = |e: VenueError, object: &str| match e {
        VenueError::Unreadable { venue, field, .. } => VenueError::Unreadable {
            venue,
            endpoint: None,
            field: format!("{object}.{field}"),
        },
        other => other,
    };
    Ok(Some(SymbolRules {
        symbol: symbol.clone(),
        tick_size: wire::dec(price, "tickSize").map_err(|e| nested(e, "priceFilter"))?,
        step_size: wire::dec(lot, "qtyStep").map_err(|e| nested(e, "lotSizeFilter"))?,
        min_quantity: wire::dec(lot, "minOrderQty").map_err(|e| nested(e, "lotSizeFilter"))?,
        // Absent on some older answers: no minimum value then, only the minimum size.
        min_notional: wire::opt_dec(lot, "minNotionalValue").unwrap_or_default(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal_macros::dec;
    use serde_json::json;

    /// The docs' response example for BTCUSDT.
    #[test]
    fn the_documented_row_gives_the_rules() {
        let btc = Symbol::parse("BTC").unwrap();
        let row = json!({"symbol": "BTCUSDT", "contractType": "LinearPerpetual", "status": "Trading",
            "settleCoin": "USDT", "priceFilter": {"minPrice": "0.10", "maxPrice": "1999999.80", "tickSize": "0.10"},
            "lotSizeFilter": {"maxOrderQty": "1190.000", "minOrderQty": "0.001", "qtyStep": "0.001",
                "maxMktOrderQty": "500.000", "minNotionalValue": "5"}});
        let r = rules(&row, &btc).unwrap().unwrap();
        assert_eq!(
            (r.tick_size, r.step_size, r.min_quantity, r.min_notional),
            (dec!(0.1), dec!(0.001), dec!(0.001), dec!(5))
        );
        let usdc =
            json!({"symbol": "BTCPERP", "contractType": "LinearPerpetual", "settleCoin": "USDC"});
        assert!(rules(&usdc, &btc).unwrap().is_none());
        let broken = json!({"settleCoin": "USDT", "priceFilter": {}, "lotSizeFilter": {}});
        let e = rules(&broken, &btc).unwrap_err().to_string();
        assert!(e.contains("priceFilter.tickSize"), "{e}");
    }
}
