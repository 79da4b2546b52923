//! Hyperliquid's perpetuals and their precision rules, from `{"type": "meta"}`: each
//! `universe` entry's index is its asset id ("Asset IDs": "the index of the coin found in the
//! meta info"), `szDecimals` its size precision and `maxLeverage` its cap.
//!
//! Prices have no fixed tick ("Tick and lot size"): "Prices can have up to 5 significant
//! figures, but no more than MAX_DECIMALS - szDecimals decimal places where MAX_DECIMALS is 6
//! for perps … Integer prices are always allowed, regardless of the number of significant
//! figures"; sizes are rounded to `szDecimals`. [`Asset::price`] rounds a price to that rule
//! exactly, in decimals; a size off its precision is refused, never rounded (what was asked is
//! what is sent). Coins are matched to nofxi's symbols case-blind (`kPEPE` is `KPEPEUSDT`).

use std::collections::HashMap;
use std::sync::Arc;

use nofxi_domain::market::Symbol;
use nofxi_domain::trading::SymbolRules;
use rust_decimal::{Decimal, RoundingStrategy};
use serde_json::{Value, json};
use tokio::sync::Mutex;

use super::client::HyperliquidClient;
use super::wire;
use crate::{RejectKind, VenueError};

/// "MAX_DECIMALS is 6 for perps."
const MAX_DECIMALS: u32 = 6;
/// "Prices can have up to 5 significant figures."
const SIGNIFICANT: u32 = 5;
/// "Order must have minimum value of $10." (docs, "Error responses").
const MIN_ORDER_VALUE: i64 = 10;

/// One perpetual.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Asset {
    pub symbol: Symbol,
    /// Hyperliquid's name for it: `BTC`, `kPEPE`.
    pub coin: String,
    /// The asset id orders name (`a`).
    pub index: u32,
    pub sz_decimals: u32,
    pub max_leverage: u32,
}

impl Asset {
    /// The smallest size step: `10^-szDecimals`.
    pub fn step(&self) -> Decimal {
        Decimal::new(1, self.sz_decimals)
    }

    /// Decimals a price may have: `6 - szDecimals`.
    fn price_decimals(&self) -> u32 {
        MAX_DECIMALS.saturating_sub(self.sz_decimals)
    }

    /// `px` as Hyperliquid takes it: an integer as it is (beyond five figures, rounded to a
    /// whole number), otherwise rounded to five significant figures and then to at most
    /// `6 - szDecimals` decimals. Ties round away from zero.
    pub fn price(&self, px: Decimal) -> Decimal {
        // One rounding to the stricter rule: rounding twice could round a tie that is none.
        px.round_dp_with_strategy(self.decimals(px), RoundingStrategy::MidpointAwayFromZero)
            .normalize()
    }

    /// The decimals a price of about `px` may have: what five significant figures leave
    /// (none past five integer digits; below 1 the figures start after the leading zeros),
    /// at most `6 - szDecimals`.
    fn decimals(&self, px: Decimal) -> u32 {
        let whole = px.abs().trunc();
        let by_figures = if whole.is_zero() {
            let leading_zeros = px.abs().scale() - significant_digits(px.abs());
            leading_zeros + SIGNIFICANT
        } else {
            SIGNIFICANT.saturating_sub(whole.to_string().len() as u32)
        };
        by_figures.min(self.price_decimals())
    }

    /// The rules nofxi rounds with. The tick is the price step at `reference` (the current
    /// mid): five significant figures there, no finer than `6 - szDecimals` decimals; the
    /// adapter rounds every price it sends with [`Asset::price`] anyway.
    pub fn rules(&self, reference: Decimal) -> SymbolRules {
        SymbolRules {
            symbol: self.symbol.clone(),
            tick_size: Decimal::new(1, self.decimals(self.price(reference))),
            step_size: self.step(),
            min_quantity: self.step(),
            min_notional: Decimal::from(MIN_ORDER_VALUE),
        }
    }

    /// `qty` when it is a positive multiple of the size step; a precision refusal otherwise.
    pub fn size(&self, venue: &str, qty: Decimal) -> Result<Decimal, VenueError> {
        if qty <= Decimal::ZERO || qty.normalize().scale() > self.sz_decimals {
            return Err(VenueError::rejected(
                venue,
                RejectKind::Precision,
                format!(
                    "quantity {qty} of {} is not a positive multiple of its size step {} (szDecimals {})",
                    self.coin,
                    self.step(),
                    self.sz_decimals
                ),
            ));
        }
        Ok(qty.normalize())
    }
}

/// Digits of `d` after its leading zeros (for a number below 1: its significant digits).
fn significant_digits(d: Decimal) -> u32 {
    let mantissa = d.mantissa().unsigned_abs();
    if mantissa == 0 {
        0
    } else {
        mantissa.to_string().len() as u32
    }
}

/// Every perpetual, read once per adapter: the universe changes rarely and every order and
/// position needs it.
#[derive(Debug)]
pub struct Assets {
    client: Arc<HyperliquidClient>,
    by_symbol: Mutex<HashMap<Symbol, Asset>>,
}

impl Assets {
    pub fn new(client: Arc<HyperliquidClient>) -> Self {
        Assets {
            client,
            by_symbol: Mutex::default(),
        }
    }

    pub async fn get(&self, symbol: &Symbol) -> Result<Asset, VenueError> {
        let mut cache = self.by_symbol.lock().await;
        if cache.is_empty() {
            let meta = self.client.info(&json!({"type": "meta"})).await?;
            for asset in read_meta(&meta).map_err(|e| e.in_answer_to("POST /info meta"))? {
                cache.insert(asset.symbol.clone(), asset);
            }
        }
        cache.get(symbol).cloned().ok_or_else(|| {
            VenueError::rejected(
                self.client.venue(),
                RejectKind::UnknownSymbol,
                format!("{} is not listed as a Hyperliquid perpetual", symbol.base()),
            )
        })
    }

    /// The listed perpetual Hyperliquid calls `coin`; `None` for anything else (a spot pair
    /// `@107`, a coin no longer listed).
    pub async fn listed(&self, coin: &str) -> Result<Option<Asset>, VenueError> {
        let Ok(symbol) = Symbol::parse(coin) else {
            return Ok(None);
        };
        match self.get(&symbol).await {
            Ok(asset) if asset.coin == coin => Ok(Some(asset)),
            Ok(_) => Ok(None),
            Err(e) if e.kind() == Some(RejectKind::UnknownSymbol) => Ok(None),
            Err(e) => Err(e),
        }
    }
}

/// The listed perpetuals of a `meta` answer; delisted ones are left out.
pub fn read_meta(meta: &Value) -> Result<Vec<Asset>, VenueError> {
    let universe = meta["universe"]
        .as_array()
        .ok_or_else(|| wire::bad("universe"))?;
    let mut out = Vec::new();
    for (index, row) in universe.iter().enumerate() {
        if row["isDelisted"].as_bool() == Some(true) {
            continue;
        }
        let coin = wire::text(row, "name")?;
        let Ok(symbol) = Symbol::parse(coin) else {
            continue;
        };
        let int = |field: &str| {
            row[field]
                .as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .ok_or_else(|| wire::bad(field))
        };
        out.push(Asset {
            symbol,
            coin: coin.to_string(),
            index: u32::try_from(index).map_err(|_| wire::bad("universe"))?,
            sz_decimals: int("szDecimals")?,
            max_leverage: int("maxLeverage")?,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal_macros::dec;

    fn asset(coin: &str, sz_decimals: u32) -> Asset {
        Asset {
            symbol: Symbol::parse(coin).unwrap(),
            coin: coin.into(),
            index: 0,
            sz_decimals,
            max_leverage: 50,
        }
    }

    /// The docs' examples ("Tick and lot size"): 1234.5 is valid, 1234.56 is not (six
    /// figures); 0.001234 is valid, 0.0012345 is not (more than 6 − szDecimals decimals with
    /// szDecimals 0 … and six figures); integers always are.
    #[test]
    fn prices_round_to_five_figures_and_the_decimals_left() {
        let btc = asset("BTC", 5);
        assert_eq!(btc.price(dec!(60000.04)), dec!(60000));
        assert_eq!(btc.price(dec!(123456.7)), dec!(123457));
        assert_eq!(btc.price(dec!(1234.56)), dec!(1234.6));
        assert_eq!(btc.price(dec!(59000)), dec!(59000));
        let eth = asset("ETH", 4);
        assert_eq!(eth.price(dec!(3000.15)), dec!(3000.2));
        assert_eq!(eth.price(dec!(12.3456)), dec!(12.35));
        let small = asset("DOGE", 0);
        assert_eq!(small.price(dec!(0.0012345)), dec!(0.001235));
        assert_eq!(small.price(dec!(0.00123449)), dec!(0.001234));
        assert_eq!(small.price(dec!(0.123456)), dec!(0.12346));
        let pepe = asset("kPEPE", 0);
        assert_eq!(pepe.price(dec!(0.0000123456)), dec!(0.000012));
    }

    #[test]
    fn rules_follow_the_price_and_sizes_are_never_rounded() {
        let btc = asset("BTC", 5);
        let rules = btc.rules(dec!(60000));
        assert_eq!(
            (rules.tick_size, rules.step_size, rules.min_notional),
            (dec!(1), dec!(0.00001), dec!(10))
        );
        assert_eq!(asset("ETH", 4).rules(dec!(3000)).tick_size, dec!(0.1));
        assert_eq!(asset("DOGE", 0).rules(dec!(0.1)).tick_size, dec!(0.00001));
        assert_eq!(
            btc.size("hyperliquid", dec!(0.01230)).unwrap(),
            dec!(0.0123)
        );
        let e = btc.size("hyperliquid", dec!(0.0123456)).unwrap_err();
        assert_eq!(e.kind(), Some(RejectKind::Precision));
        assert!(btc.size("hyperliquid", dec!(0)).is_err());
    }

    #[test]
    fn the_universe_index_is_the_asset_id() {
        let meta = serde_json::json!({"universe": [
            {"name": "BTC", "szDecimals": 5, "maxLeverage": 50},
            {"name": "OLD", "szDecimals": 1, "maxLeverage": 3, "isDelisted": true},
            {"name": "kPEPE", "szDecimals": 0, "maxLeverage": 10}]});
        let assets = read_meta(&meta).unwrap();
        assert_eq!(assets.len(), 2);
        assert_eq!((assets[1].coin.as_str(), assets[1].index), ("kPEPE", 2));
        assert_eq!(assets[1].symbol, Symbol::parse("KPEPE").unwrap());
        assert!(read_meta(&serde_json::json!({})).is_err());
    }
}
