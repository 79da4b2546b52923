//! Bitget's USDT-M futures are sized in the base coin, as nofxi is: no conversion, only the
//! contract's rules, read from `GET /api/v2/mix/market/contracts?productType=USDT-FUTURES`
//! (Bitget API docs, "Futures" → "Market" → "Get Contract Config",
//! https://www.bitget.com/api-doc/contract/market/Get-All-Symbols-Contracts): the price tick is
//! `priceEndStep` in units of the last of `pricePlace` decimals; "the quantity of the order
//! must be greater than minTradeNum and is a multiple of sizeMultiplier"; `minTradeUSDT` is
//! the smallest order value.

use std::collections::HashMap;
use std::sync::Arc;

use nofxi_domain::market::Symbol;
use nofxi_domain::trading::SymbolRules;
use rust_decimal::Decimal;
use serde_json::Value;
use tokio::sync::Mutex;

use super::client::BitgetClient;
use super::wire;
use crate::{RejectKind, VenueError};

const CONTRACTS: &str = "/api/v2/mix/market/contracts";
/// The product line nofxi trades: USDT-margined perpetual futures.
pub const PRODUCT_TYPE: &str = "USDT-FUTURES";
pub const MARGIN_COIN: &str = "USDT";

/// One USDT-M perpetual's rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Contract {
    pub symbol: Symbol,
    pub tick: Decimal,
    /// Order sizes are multiples of this (base coin).
    pub step: Decimal,
    /// The smallest order (base coin).
    pub min_size: Decimal,
    /// The smallest order value (USDT).
    pub min_value: Decimal,
}

impl Contract {
    pub fn rules(&self) -> SymbolRules {
        SymbolRules {
            symbol: self.symbol.clone(),
            tick_size: self.tick,
            step_size: self.step,
            min_quantity: self.min_size,
            min_notional: self.min_value,
        }
    }
}

/// `BTCUSDT` for `BTCUSDT` or `btcusdt` (the docs' examples answer in lower case); `None`
/// for anything but a USDT-quoted name.
pub fn symbol_of(name: &str) -> Option<Symbol> {
    let upper = name.trim().to_ascii_uppercase();
    let base = upper.strip_suffix("USDT")?;
    if base.is_empty() || !base.chars().all(|c| c.is_ascii_alphanumeric()) {
        return None;
    }
    Symbol::parse(&upper).ok()
}

/// The rules of every USDT-M perpetual, read once per adapter: they change rarely and every
/// order needs them.
#[derive(Debug)]
pub struct Contracts {
    client: Arc<BitgetClient>,
    by_symbol: Mutex<HashMap<Symbol, Contract>>,
}

impl Contracts {
    pub fn new(client: Arc<BitgetClient>) -> Self {
        Contracts {
            client,
            by_symbol: Mutex::default(),
        }
    }

    pub async fn get(&self, symbol: &Symbol) -> Result<Contract, VenueError> {
        let mut cache = self.by_symbol.lock().await;
        if cache.is_empty() {
            let named = |e: VenueError| e.in_answer_to(&format!("GET {CONTRACTS}"));
            let data = self
                .client
                .public(CONTRACTS, &[("productType", PRODUCT_TYPE.to_string())])
                .await?;
            for row in wire::rows(&data).map_err(named)? {
                if let Some(contract) = contract(row).map_err(named)? {
                    cache.insert(contract.symbol.clone(), contract);
                }
            }
        }
        cache.get(symbol).cloned().ok_or_else(|| {
            VenueError::rejected(
                self.client.venue(),
                RejectKind::UnknownSymbol,
                format!("{symbol} is not listed as a USDT-M perpetual on Bitget"),
            )
        })
    }

    /// The contract of a `symbol` an answer names.
    pub async fn of_name(&self, name: &str) -> Result<Contract, VenueError> {
        let symbol = symbol_of(name).ok_or_else(|| wire::bad("symbol"))?;
        self.get(&symbol).await
    }
}

/// One contract row; `None` for what is not a perpetual settled in USDT.
fn contract(v: &Value) -> Result<Option<Contract>, VenueError> {
    let Some(symbol) = symbol_of(wire::text(v, "symbol")?) else {
        return Ok(None);
    };
    if v["symbolType"].as_str().is_some_and(|t| t != "perpetual")
        || v["quoteCoin"].as_str().is_some_and(|q| q != MARGIN_COIN)
    {
        return Ok(None);
    }
    let places = |field: &str| -> Result<u32, VenueError> {
        wire::text(v, field)?
            .parse::<u32>()
            .ok()
            .filter(|p| *p <= 18)
            .ok_or_else(|| wire::bad(field))
    };
    let tick = wire::dec(v, "priceEndStep")? * Decimal::new(1, places("pricePlace")?);
    let step = match wire::opt_dec(v, "sizeMultiplier").filter(|s| *s > Decimal::ZERO) {
        Some(step) => step,
        None => Decimal::new(1, places("volumePlace")?),
    };
    Ok(Some(Contract {
        symbol,
        tick: tick.normalize(),
        step: step.normalize(),
        min_size: wire::dec(v, "minTradeNum")?.normalize(),
        min_value: wire::opt_dec(v, "minTradeUSDT")
            .unwrap_or_default()
            .normalize(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal_macros::dec;
    use serde_json::json;

    /// The docs' response example: BTCUSDT with pricePlace 1 and priceEndStep 1.
    #[test]
    fn the_documented_row_reads_as_rules() {
        let row = json!({"symbol": "BTCUSDT", "baseCoin": "BTC", "quoteCoin": "USDT",
            "minTradeNum": "0.01", "priceEndStep": "1", "volumePlace": "2", "pricePlace": "1",
            "sizeMultiplier": "0.01", "symbolType": "perpetual", "minTradeUSDT": "5"});
        let c = contract(&row).unwrap().unwrap();
        assert_eq!(
            (c.tick, c.step, c.min_size, c.min_value),
            (dec!(0.1), dec!(0.01), dec!(0.01), dec!(5))
        );
        let rules = c.rules();
        assert_eq!(rules.symbol.as_str(), "BTCUSDT");
        let five = json!({"symbol": "ETHUSDT", "quoteCoin": "USDT", "minTradeNum": "0.01",
            "priceEndStep": "5", "pricePlace": "2", "volumePlace": "2", "symbolType": "perpetual"});
        assert_eq!(contract(&five).unwrap().unwrap().tick, dec!(0.05));
        let delivery = json!({"symbol": "BTCUSDT", "symbolType": "delivery"});
        assert!(contract(&delivery).unwrap().is_none());
        assert!(contract(&json!({"symbol": "BTCUSDT", "pricePlace": "1"})).is_err());
    }

    #[test]
    fn names_are_usdt_perpetuals_in_either_case() {
        let btc = Symbol::parse("BTC").unwrap();
        assert_eq!(symbol_of("btcusdt"), Some(btc.clone()));
        assert_eq!(symbol_of("BTCUSDT"), Some(btc));
        assert_eq!(symbol_of("BTCUSD"), None);
        assert_eq!(symbol_of("USDT"), None);
    }
}
