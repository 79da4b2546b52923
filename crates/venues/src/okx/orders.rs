//! Orders as OKX takes them: a nofxi request becomes the JSON body of
//! `POST /api/v5/trade/order` (market and limit) or `POST /api/v5/trade/order-algo` (stop-loss
//! and take-profit, `ordType: conditional`), sized in contracts, with a client id OKX accepts.
//!
//! Parameters: OKX API v5 docs, "Order Book Trading" → "Trade" → "POST / Place order" and
//! "Algo Trading" → "POST / Place algo order"
//! (https://www.okx.com/docs-v5/en/#order-book-trading-trade-post-place-order,
//! https://www.okx.com/docs-v5/en/#order-book-trading-algo-trading-post-place-algo-order).
//! A protective trigger is sent with `cxlOnClosePos: true` ("the TP/SL order will be canceled
//! when the position is fully closed"), which requires `reduceOnly: true`: OKX then cancels a
//! position's take-profit when its stop closes it, and the other way round.

use nofxi_domain::trading::{MarginMode, OrderRequest, OrderType, PositionSide, Side, TimeInForce};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use super::contracts::Contract;
use crate::VenueError;

pub const PLACE: &str = "/api/v5/trade/order";
pub const PLACE_ALGO: &str = "/api/v5/trade/order-algo";
/// `GET` with `instId` and `clOrdId` (or `ordId`): one order.
pub const ORDER: &str = "/api/v5/trade/order";
/// `GET` with `algoClOrdId` (or `algoId`): one algo order.
pub const ALGO: &str = "/api/v5/trade/order-algo";
pub const CANCEL: &str = "/api/v5/trade/cancel-order";
pub const CANCEL_ALGOS: &str = "/api/v5/trade/cancel-algos";
pub const PENDING: &str = "/api/v5/trade/orders-pending";
pub const PENDING_ALGOS: &str = "/api/v5/trade/orders-algo-pending";

/// OKX's longest client id: "a combination of case-sensitive alphanumerics, all numbers, or
/// all letters of up to 32 characters".
pub const CLIENT_ID_MAX: usize = 32;

/// The id OKX keeps for the caller's `id`: the id itself when OKX accepts it, otherwise `h`
/// and the first 31 hex digits of its SHA-256 (one id always maps to the same one, so a
/// retry or a lookup after a crash finds it). The trading cycle's ids (`nx…`, up to 36
/// characters) mostly fit; a long epoch or cycle number makes them digest.
pub fn client_id(id: &str) -> Result<String, VenueError> {
    if id.is_empty() {
        return Err(VenueError::InvalidRequest(
            "an order needs a client order id: it is what makes a retry safe".into(),
        ));
    }
    if id.len() <= CLIENT_ID_MAX && id.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Ok(id.to_string());
    }
    let digest = hex::encode(Sha256::digest(id.as_bytes()));
    Ok(format!("h{}", &digest[..CLIENT_ID_MAX - 1]))
}

/// `tdMode`: the margin mode an order trades in (OKX has no per-symbol margin setting).
pub fn td_mode(mode: MarginMode) -> &'static str {
    match mode {
        MarginMode::Cross => "cross",
        MarginMode::Isolated => "isolated",
    }
}

fn side(side: Side) -> &'static str {
    match side {
        Side::Buy => "buy",
        Side::Sell => "sell",
    }
}

fn pos_side(side: PositionSide) -> &'static str {
    match side {
        PositionSide::Long => "long",
        PositionSide::Short => "short",
    }
}

/// Whether the order can only close: reduce-only in one-way mode, or the closing side of the
/// position it names in long/short mode.
fn closes_only(request: &OrderRequest) -> bool {
    match request.position_side {
        Some(ps) => request.side != ps.opening_side(),
        None => request.reduce_only,
    }
}

/// The endpoint and the JSON body placing `request` as `venue_id` on `contract`.
pub fn body(
    request: &OrderRequest,
    contract: &Contract,
    venue_id: &str,
    mode: MarginMode,
) -> Result<(&'static str, Value), VenueError> {
    let mut b = Map::new();
    b.insert("instId".into(), json!(contract.inst_id));
    b.insert("tdMode".into(), json!(td_mode(mode)));
    b.insert("side".into(), json!(side(request.side)));
    let size = contract.contracts(request.quantity)?;
    b.insert("sz".into(), json!(size.to_string()));
    if let Some(ps) = request.position_side {
        b.insert("posSide".into(), json!(pos_side(ps)));
    }
    let path = match request.order_type {
        OrderType::Market | OrderType::Limit => {
            b.insert("clOrdId".into(), json!(venue_id));
            let ord_type = match (request.order_type, request.time_in_force) {
                (OrderType::Market, _) => "market",
                (_, Some(TimeInForce::Ioc)) => "ioc",
                (_, Some(TimeInForce::Gtx)) => "post_only",
                _ => "limit",
            };
            b.insert("ordType".into(), json!(ord_type));
            if request.order_type == OrderType::Limit {
                let price = request.price.ok_or_else(|| {
                    VenueError::InvalidRequest("a limit order needs a price".into())
                })?;
                b.insert("px".into(), json!(price.normalize().to_string()));
            }
            // One-way mode only: in long/short mode the position side says what closes.
            if request.reduce_only && request.position_side.is_none() {
                b.insert("reduceOnly".into(), json!(true));
            }
            PLACE
        }
        kind @ (OrderType::StopMarket | OrderType::TakeProfitMarket) => {
            b.insert("algoClOrdId".into(), json!(venue_id));
            b.insert("ordType".into(), json!("conditional"));
            let trigger = request
                .stop_price
                .ok_or_else(|| {
                    VenueError::InvalidRequest(format!(
                        "a {} order needs a trigger price",
                        kind.as_str()
                    ))
                })?
                .normalize()
                .to_string();
            let leg = if kind == OrderType::StopMarket {
                "sl"
            } else {
                "tp"
            };
            b.insert(format!("{leg}TriggerPx"), json!(trigger));
            // `-1`: a market order once triggered; the mark price is what triggers it.
            b.insert(format!("{leg}OrdPx"), json!("-1"));
            b.insert(format!("{leg}TriggerPxType"), json!("mark"));
            if closes_only(request) {
                b.insert("reduceOnly".into(), json!(true));
                b.insert("cxlOnClosePos".into(), json!(true));
            }
            PLACE_ALGO
        }
    };
    Ok((path, Value::Object(b)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use nofxi_domain::market::Symbol;
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
    fn client_ids_fit_okx_and_map_the_same_way_every_time() {
        assert_eq!(
            client_id("nx1d2e3f4a5bc12i0o").unwrap(),
            "nx1d2e3f4a5bc12i0o"
        );
        let long = "nx1d2e3f4a5be18446744073709551615c7i0o";
        let mapped = client_id(long).unwrap();
        assert_eq!(mapped.len(), 32);
        assert!(mapped.chars().all(|c| c.is_ascii_alphanumeric()));
        assert_eq!(client_id(long).unwrap(), mapped);
        assert_ne!(client_id("a-b").unwrap(), "a-b");
        assert!(client_id("").is_err());
    }

    #[test]
    fn bodies_are_sized_in_contracts() {
        let market = OrderRequest::market(
            Symbol::parse("BTC").unwrap(),
            Side::Sell,
            dec!(0.0123),
            "c1",
        )
        .reduce_only();
        let (path, b) = body(&market, &btc(), "c1", MarginMode::Cross).unwrap();
        assert_eq!(path, PLACE);
        assert_eq!(
            b,
            json!({"instId": "BTC-USDT-SWAP", "tdMode": "cross", "side": "sell", "sz": "1.23",
                   "clOrdId": "c1", "ordType": "market", "reduceOnly": true})
        );
        let stop = OrderRequest::trigger(
            Symbol::parse("BTC").unwrap(),
            OrderType::StopMarket,
            Side::Sell,
            dec!(0.01),
            dec!(59000.0),
            "s1",
        );
        let (path, b) = body(&stop, &btc(), "s1", MarginMode::Isolated).unwrap();
        assert_eq!(path, PLACE_ALGO);
        assert_eq!(
            (
                &b["slTriggerPx"],
                &b["slOrdPx"],
                &b["cxlOnClosePos"],
                &b["tdMode"],
                &b["sz"]
            ),
            (
                &json!("59000"),
                &json!("-1"),
                &json!(true),
                &json!("isolated"),
                &json!("1")
            )
        );
    }
}
