//! OKX trades perpetual swaps in contracts; nofxi speaks coins. A contract of
//! `BTC-USDT-SWAP` is worth `ctVal × ctMult` BTC (0.01), so 0.0123 BTC is 1.23 contracts, and
//! the instrument's lot (`lotSz`), minimum (`minSz`) and tick (`tickSz`) come from
//! `GET /api/v5/public/instruments?instType=SWAP` (OKX API v5 docs, "Public Data" → "Get
//! instruments", https://www.okx.com/docs-v5/en/#public-data-rest-api-get-instruments:
//! "ctVal … for linear contracts, in the base currency"; "All order quantities (sz) must be a
//! multiple of lotSz. Violation returns error 51121").
//!
//! Conversions are exact decimal arithmetic both ways, and a quantity that is no exact number
//! of contracts is refused rather than rounded: what was asked is what is sent.

use std::collections::HashMap;
use std::sync::Arc;

use nofxi_domain::market::Symbol;
use nofxi_domain::trading::SymbolRules;
use rust_decimal::Decimal;
use serde_json::Value;
use tokio::sync::Mutex;

use super::client::OkxClient;
use super::wire;
use crate::{RejectKind, VenueError};

const INSTRUMENTS: &str = "/api/v5/public/instruments";

/// One USDT-margined perpetual swap's contract terms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Contract {
    pub symbol: Symbol,
    /// `BTC-USDT-SWAP`.
    pub inst_id: String,
    /// Coins one contract is worth: `ctVal × ctMult`.
    pub coins_per_contract: Decimal,
    /// Order sizes are multiples of this many contracts.
    pub lot: Decimal,
    /// The smallest order, in contracts.
    pub min_size: Decimal,
    /// Prices are multiples of this.
    pub tick: Decimal,
}

impl Contract {
    /// `coins` as contracts, exactly; an error when no whole number of lots is meant but the
    /// division does not come out exact (a contract value with a repeating quotient).
    pub fn contracts(&self, coins: Decimal) -> Result<Decimal, VenueError> {
        let contracts = coins
            .checked_div(self.coins_per_contract)
            .ok_or_else(|| self.inexact(coins))?;
        if contracts * self.coins_per_contract != coins {
            return Err(self.inexact(coins));
        }
        Ok(contracts.normalize())
    }

    /// `contracts` as coins (exact: a product of decimals).
    pub fn coins(&self, contracts: Decimal) -> Decimal {
        (contracts * self.coins_per_contract).normalize()
    }

    fn inexact(&self, coins: Decimal) -> VenueError {
        VenueError::InvalidRequest(format!(
            "{coins} {} is no exact number of {} contracts ({} each): round it with the symbol's rules",
            self.symbol.base(),
            self.inst_id,
            self.coins_per_contract
        ))
    }

    /// The rules in coins, as the trading cycle rounds with them. OKX has no minimum order
    /// value, only a minimum size.
    pub fn rules(&self) -> SymbolRules {
        SymbolRules {
            symbol: self.symbol.clone(),
            tick_size: self.tick,
            step_size: self.coins(self.lot),
            min_quantity: self.coins(self.min_size),
            min_notional: Decimal::ZERO,
        }
    }
}

/// `BTC-USDT-SWAP` for `BTCUSDT`.
pub fn inst_id(symbol: &Symbol) -> String {
    format!("{}-USDT-SWAP", symbol.base())
}

/// `BTCUSDT` for `BTC-USDT-SWAP`; `None` for anything but a USDT perpetual.
pub fn symbol_of(inst_id: &str) -> Option<Symbol> {
    let base = inst_id.strip_suffix("-USDT-SWAP")?;
    if base.is_empty() || !base.chars().all(|c| c.is_ascii_alphanumeric()) {
        return None;
    }
    Symbol::parse(&format!("{base}USDT")).ok()
}

/// The contract terms of every USDT perpetual, read once per adapter: instruments change
/// rarely and every order and position needs them.
#[derive(Debug)]
pub struct Contracts {
    client: Arc<OkxClient>,
    by_symbol: Mutex<HashMap<Symbol, Contract>>,
}

impl Contracts {
    pub fn new(client: Arc<OkxClient>) -> Self {
        Contracts {
            client,
            by_symbol: Mutex::default(),
        }
    }

    pub async fn get(&self, symbol: &Symbol) -> Result<Contract, VenueError> {
        let mut cache = self.by_symbol.lock().await;
        if cache.is_empty() {
            let data = self
                .client
                .public(INSTRUMENTS, &[("instType", "SWAP".to_string())])
                .await?;
            for row in
                wire::rows(&data).map_err(|e| e.in_answer_to(&format!("GET {INSTRUMENTS}")))?
            {
                if let Some(contract) =
                    contract(row).map_err(|e| e.in_answer_to(&format!("GET {INSTRUMENTS}")))?
                {
                    cache.insert(contract.symbol.clone(), contract);
                }
            }
        }
        cache.get(symbol).cloned().ok_or_else(|| {
            VenueError::rejected(
                self.client.venue(),
                RejectKind::UnknownSymbol,
                format!("{} is not listed as a USDT perpetual swap", inst_id(symbol)),
            )
        })
    }

    /// The contract of an `instId` an answer names.
    pub async fn of_inst(&self, inst_id: &str) -> Result<Contract, VenueError> {
        let symbol = symbol_of(inst_id).ok_or_else(|| wire::bad("instId"))?;
        self.get(&symbol).await
    }
}

/// One instrument row; `None` for instruments that are not USDT-settled linear perpetuals.
fn contract(v: &Value) -> Result<Option<Contract>, VenueError> {
    let inst_id = wire::text(v, "instId")?;
    let Some(symbol) = symbol_of(inst_id) else {
        return Ok(None);
    };
    if v["settleCcy"].as_str().is_some_and(|c| c != "USDT")
        || v["ctType"]
            .as_str()
            .is_some_and(|t| !t.is_empty() && t != "linear")
    {
        return Ok(None);
    }
    let multiplier = wire::opt_dec(v, "ctMult").unwrap_or(Decimal::ONE);
    Ok(Some(Contract {
        symbol,
        inst_id: inst_id.to_string(),
        coins_per_contract: wire::dec(v, "ctVal")? * multiplier,
        lot: wire::dec(v, "lotSz")?,
        min_size: wire::dec(v, "minSz")?,
        tick: wire::dec(v, "tickSz")?,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal_macros::dec;

    fn btc() -> Contract {
        Contract {
            symbol: Symbol::parse("BTC").unwrap(),
            inst_id: "BTC-USDT-SWAP".into(),
            coins_per_contract: dec!(0.01),
            lot: dec!(0.01),
            min_size: dec!(0.01),
            tick: dec!(0.1),
        }
    }

    #[test]
    fn coins_and_contracts_convert_exactly_both_ways() {
        let c = btc();
        assert_eq!(c.contracts(dec!(0.0123)).unwrap(), dec!(1.23));
        assert_eq!(c.coins(dec!(1.23)), dec!(0.0123));
        assert_eq!(c.contracts(dec!(0.0123456)).unwrap(), dec!(1.23456));
        let rules = c.rules();
        assert_eq!(
            (rules.step_size, rules.min_quantity),
            (dec!(0.0001), dec!(0.0001))
        );
        let thirds = Contract {
            coins_per_contract: dec!(3),
            ..btc()
        };
        assert!(thirds.contracts(dec!(1)).is_err());
        assert_eq!(thirds.contracts(dec!(6)).unwrap(), dec!(2));
    }

    #[test]
    fn inst_ids_name_usdt_perpetuals_only() {
        let btc = Symbol::parse("BTC").unwrap();
        assert_eq!(inst_id(&btc), "BTC-USDT-SWAP");
        assert_eq!(symbol_of("BTC-USDT-SWAP"), Some(btc));
        assert_eq!(symbol_of("BTC-USD-SWAP"), None);
        assert_eq!(symbol_of("BTC-USDT"), None);
        assert_eq!(symbol_of("-USDT-SWAP"), None);
    }
}
