//! Actions as Hyperliquid takes them, field for field in the order the reference SDK sends
//! them (its `signing.py`: `order_request_to_order_wire`, `order_wires_to_order_action`;
//! `exchange.py`: `cancel_by_cloid`, `update_leverage`): the order matters, since the
//! signature covers their MessagePack encoding ([`super::sign`]).
//!
//! - `order`: `{"type": "order", "orders": [{a, b, p, s, r, t, c}], "grouping": "na"}` where
//!   `t` is `{"limit": {"tif": "Gtc" | "Ioc" | "Alo"}}` or `{"trigger": {"isMarket": true,
//!   "triggerPx": "…", "tpsl": "sl" | "tp"}}`. Hyperliquid has no market order: one is an IOC
//!   limit `market_slippage_pct` through the mid (the SDK's `market_open`), a market stop a
//!   trigger whose limit allows `trigger_slippage_pct`.
//! - `cancelByCloid`: `{"type": "cancelByCloid", "cancels": [{"asset", "cloid"}]}`.
//! - `updateLeverage`: `{"type": "updateLeverage", "asset", "isCross", "leverage"}`: the margin
//!   mode is part of the leverage setting.
//!
//! Client order ids (`cloid`) are 128-bit hex strings ("0x" and 32 digits). nofxi's id is
//! written into one ([`cloid`]) so that the same id always gives the same cloid (a lookup
//! after a crash finds the order) and, for ids of up to 21 letters and digits, the cloid
//! reads back as the id ([`client_id_of`]).

use nofxi_domain::trading::{OrderRequest, OrderType, Side, TimeInForce};
use rust_decimal::Decimal;
use serde::Serialize;
use sha2::{Digest, Sha256};

use super::assets::Asset;
use crate::{RejectKind, VenueError};

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Limit {
    pub tif: &'static str,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Trigger {
    pub is_market: bool,
    pub trigger_px: String,
    pub tpsl: &'static str,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Kind {
    Limit(Limit),
    Trigger(Trigger),
}

/// One order of an `order` action (`OrderWire`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OrderWire {
    pub a: u32,
    pub b: bool,
    pub p: String,
    pub s: String,
    pub r: bool,
    pub t: Kind,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub c: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OrderAction {
    pub r#type: &'static str,
    pub orders: Vec<OrderWire>,
    pub grouping: &'static str,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CancelByCloid {
    pub asset: u32,
    pub cloid: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CancelByCloidAction {
    pub r#type: &'static str,
    pub cancels: Vec<CancelByCloid>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UpdateLeverageAction {
    pub r#type: &'static str,
    pub asset: u32,
    pub is_cross: bool,
    pub leverage: u32,
}

/// Letters and digits as 6-bit codes (0–61); 63 ends the text.
const ALPHABET: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const END: u8 = 63;
/// The longest id written out in a cloid: 21 codes of 6 bits after a 2-bit tag.
const TEXT_MAX: usize = 21;

/// The cloid for nofxi's client order id `id`:
/// - a cloid already (`0x` and 32 hex digits): itself, lower case (an id read back from an
///   order nofxi could not name, sent again to cancel it);
/// - up to 21 letters and digits: tag `01`, then each character as a 6-bit code, then end
///   codes: it reads back as `id`;
/// - anything else: tag `00` and the first 126 bits of the SHA-256 of `id`.
pub fn cloid(id: &str) -> Result<String, VenueError> {
    if id.is_empty() {
        return Err(VenueError::InvalidRequest(
            "an order needs a client order id: it is what makes a retry safe".into(),
        ));
    }
    if let Some(hex) = as_cloid(id) {
        return Ok(format!("0x{hex}"));
    }
    let codes: Option<Vec<u8>> = id
        .bytes()
        .map(|b| ALPHABET.iter().position(|a| *a == b).map(|p| p as u8))
        .collect();
    let bits: u128 = match codes {
        Some(codes) if codes.len() <= TEXT_MAX => {
            let mut bits: u128 = 0b01;
            for i in 0..TEXT_MAX {
                bits = (bits << 6) | u128::from(codes.get(i).copied().unwrap_or(END));
            }
            bits
        }
        _ => {
            let digest = Sha256::digest(id.as_bytes());
            let mut first = [0u8; 16];
            first.copy_from_slice(&digest[..16]);
            u128::from_be_bytes(first) >> 2
        }
    };
    Ok(format!("0x{bits:032x}"))
}

/// The 32 hex digits of `id` when it is written as a cloid.
fn as_cloid(id: &str) -> Option<String> {
    let hex = id.strip_prefix("0x").or_else(|| id.strip_prefix("0X"))?;
    (hex.len() == 32 && hex.chars().all(|c| c.is_ascii_hexdigit()))
        .then(|| hex.to_ascii_lowercase())
}

/// The client order id a cloid stands for: the id it spells when it was written from one
/// ([`cloid`]), otherwise the cloid itself (which [`cloid`] maps back to the same order).
pub fn client_id_of(cloid_text: &str) -> String {
    let Some(hex) = as_cloid(cloid_text) else {
        return cloid_text.to_string();
    };
    let Ok(bits) = u128::from_str_radix(&hex, 16) else {
        return cloid_text.to_string();
    };
    let spelled = || -> Option<String> {
        if bits >> 126 != 0b01 {
            return None;
        }
        let mut text = String::new();
        let mut ended = false;
        for i in (0..TEXT_MAX).rev() {
            let code = ((bits >> (6 * i)) & 0x3f) as u8;
            match (code, ended) {
                (END, _) => ended = true,
                (c, false) => text.push(char::from(*ALPHABET.get(usize::from(c))?)),
                (_, true) => return None,
            }
        }
        (!text.is_empty()).then_some(text)
    };
    spelled().unwrap_or_else(|| format!("0x{hex}"))
}

/// The limit a market order (or a market trigger) may fill to: `pct` through `reference`,
/// rounded to the price rule.
pub fn through(asset: &Asset, side: Side, reference: Decimal, pct: u32) -> Decimal {
    let pct = Decimal::new(i64::from(pct), 2);
    let px = match side {
        Side::Buy => reference * (Decimal::ONE + pct),
        Side::Sell => reference * (Decimal::ONE - pct),
    };
    asset.price(px)
}

/// The order wire of `request` as `cloid`. `mid`: the coin's mid price, for a market order's
/// limit. Hedge-mode requests are refused: Hyperliquid keeps one position per coin.
pub fn wire(
    venue: &str,
    request: &OrderRequest,
    asset: &Asset,
    cloid: &str,
    mid: Option<Decimal>,
    market_slippage_pct: u32,
    trigger_slippage_pct: u32,
) -> Result<OrderWire, VenueError> {
    if request.position_side.is_some() {
        return Err(VenueError::rejected(
            venue,
            RejectKind::PositionModeMismatch,
            "Hyperliquid has no hedge mode (one position per coin, one-way only): send the order without a position side",
        ));
    }
    let size = asset.size(venue, request.quantity)?;
    let buy = request.side == Side::Buy;
    let (price, kind) = match request.order_type {
        OrderType::Market => {
            let mid = mid.ok_or_else(|| {
                VenueError::InvalidRequest(format!(
                    "no mid price of {} to send a market order at",
                    asset.coin
                ))
            })?;
            let limit = through(asset, request.side, mid, market_slippage_pct);
            (limit, Kind::Limit(Limit { tif: "Ioc" }))
        }
        OrderType::Limit => {
            let price = request
                .price
                .ok_or_else(|| VenueError::InvalidRequest("a limit order needs a price".into()))?;
            let tif = match request.time_in_force {
                Some(TimeInForce::Ioc) => "Ioc",
                Some(TimeInForce::Gtx) => "Alo",
                _ => "Gtc",
            };
            (asset.price(price), Kind::Limit(Limit { tif }))
        }
        kind @ (OrderType::StopMarket | OrderType::TakeProfitMarket) => {
            let trigger = request.stop_price.ok_or_else(|| {
                VenueError::InvalidRequest(format!(
                    "a {} order needs a trigger price",
                    kind.as_str()
                ))
            })?;
            let trigger = asset.price(trigger);
            let tpsl = if kind == OrderType::StopMarket {
                "sl"
            } else {
                "tp"
            };
            (
                through(asset, request.side, trigger, trigger_slippage_pct),
                Kind::Trigger(Trigger {
                    is_market: true,
                    trigger_px: trigger.to_string(),
                    tpsl,
                }),
            )
        }
    };
    Ok(OrderWire {
        a: asset.index,
        b: buy,
        p: price.to_string(),
        s: size.to_string(),
        r: request.reduce_only,
        t: kind,
        c: Some(cloid.to_string()),
    })
}

/// The `order` action placing `wire` on its own ("na": no grouping; a stop and a take-profit
/// each keep their own cloid).
pub fn order_action(wire: OrderWire) -> OrderAction {
    OrderAction {
        r#type: "order",
        orders: vec![wire],
        grouping: "na",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nofxi_domain::market::Symbol;
    use nofxi_domain::trading::PositionSide;
    use rust_decimal_macros::dec;

    fn btc() -> Asset {
        Asset {
            symbol: Symbol::parse("BTC").unwrap(),
            coin: "BTC".into(),
            index: 0,
            sz_decimals: 5,
            max_leverage: 50,
        }
    }

    #[test]
    fn cloids_spell_short_ids_and_digest_long_ones_the_same_way_every_time() {
        let short = cloid("cfStop4").unwrap();
        assert_eq!(short.len(), 34);
        assert!(short.starts_with("0x"));
        assert_eq!(client_id_of(&short), "cfStop4");
        let trader = "nx1d2e3f4a5bc1234i0o";
        assert_eq!(client_id_of(&cloid(trader).unwrap()), trader);
        let long = "nx1d2e3f4a5be18446744073709551615c7i0o";
        let digest = cloid(long).unwrap();
        assert_eq!(cloid(long).unwrap(), digest);
        assert_eq!(client_id_of(&digest), digest);
        // An id read back as a cloid maps to the same cloid.
        assert_eq!(cloid(&digest).unwrap(), digest);
        assert_eq!(
            cloid(&short.to_uppercase().replace("0X", "0x")).unwrap(),
            short
        );
        assert_ne!(cloid("a-b").unwrap(), cloid("ab").unwrap());
        assert!(cloid("").is_err());
        // Every spelled id reads back, and a foreign cloid that does not spell one stays hex.
        for id in ["a", "Z9", "abcdefghijklmnopqrstu"] {
            assert_eq!(client_id_of(&cloid(id).unwrap()), id);
        }
        let foreign = "0x00000000000000000000000000000001";
        assert_eq!(client_id_of(foreign), foreign);
    }

    #[test]
    fn wires_carry_rounded_prices_and_exact_sizes() {
        let market =
            OrderRequest::market(Symbol::parse("BTC").unwrap(), Side::Buy, dec!(0.0123), "c1");
        let w = wire(
            "hyperliquid",
            &market,
            &btc(),
            "0xc",
            Some(dec!(60000.5)),
            5,
            10,
        )
        .unwrap();
        assert_eq!(
            (w.p.as_str(), w.s.as_str(), w.b, w.r),
            ("63001", "0.0123", true, false)
        );
        assert_eq!(w.t, Kind::Limit(Limit { tif: "Ioc" }));
        let stop = OrderRequest::trigger(
            Symbol::parse("BTC").unwrap(),
            OrderType::StopMarket,
            Side::Sell,
            dec!(0.0123),
            dec!(59000.4),
            "s1",
        );
        let w = wire("hyperliquid", &stop, &btc(), "0xs", None, 5, 10).unwrap();
        assert_eq!((w.p.as_str(), w.r), ("53100", true));
        assert_eq!(
            w.t,
            Kind::Trigger(Trigger {
                is_market: true,
                trigger_px: "59000".into(),
                tpsl: "sl"
            })
        );
        let rough = OrderRequest::market(
            Symbol::parse("BTC").unwrap(),
            Side::Buy,
            dec!(0.0123456),
            "c2",
        );
        let e = wire(
            "hyperliquid",
            &rough,
            &btc(),
            "0xc",
            Some(dec!(60000)),
            5,
            10,
        )
        .unwrap_err();
        assert_eq!(e.kind(), Some(RejectKind::Precision));
        let hedge = market.with_position_side(PositionSide::Long);
        let e = wire(
            "hyperliquid",
            &hedge,
            &btc(),
            "0xc",
            Some(dec!(60000)),
            5,
            10,
        )
        .unwrap_err();
        assert_eq!(e.kind(), Some(RejectKind::PositionModeMismatch));
    }
}
