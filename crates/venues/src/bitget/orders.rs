//! Orders as Bitget takes them: a nofxi request becomes the JSON body of
//! `POST /api/v2/mix/order/place-order` (market and limit) or
//! `POST /api/v2/mix/order/place-tpsl-order` (stop-loss and take-profit), sized in the base
//! coin, with a client id Bitget accepts.
//!
//! Parameters: Bitget API docs, "Futures" → "Trade" → "Place Order" and "Futures" → "Trigger
//! Order" → "Stop-profit and stop-loss plan orders"
//! (https://www.bitget.com/api-doc/contract/trade/Place-Order,
//! https://www.bitget.com/api-doc/contract/plan/Place-Tpsl-Order). In hedge mode `side` names
//! the position and `tradeSide` says open or close ("Close long: side=buy, tradeSide=close");
//! in one-way mode `side` is the trade and `reduceOnly` closes. A take-profit or stop-loss
//! names the position it protects by `holdSide` (`long`/`short` in hedge mode, `buy`/`sell`,
//! the position's direction, in one-way mode) and belongs to that position: Bitget's TP/SL
//! orders only ever close ("Is the take profit and stop loss based on the position? Yes",
//! Bitget support article 360053251411, "Bitget Futures: Take Profit/Stop Loss").

use nofxi_domain::trading::{MarginMode, OrderRequest, OrderType, PositionSide, Side, TimeInForce};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use super::contracts::{Contract, MARGIN_COIN, PRODUCT_TYPE};
use crate::VenueError;

pub const PLACE: &str = "/api/v2/mix/order/place-order";
pub const PLACE_TPSL: &str = "/api/v2/mix/order/place-tpsl-order";
/// `GET` with `symbol`, `productType` and `clientOid` (or `orderId`): one order.
pub const DETAIL: &str = "/api/v2/mix/order/detail";
pub const CANCEL: &str = "/api/v2/mix/order/cancel-order";
pub const CANCEL_PLAN: &str = "/api/v2/mix/order/cancel-plan-order";
pub const PENDING: &str = "/api/v2/mix/order/orders-pending";
pub const PENDING_PLANS: &str = "/api/v2/mix/order/orders-plan-pending";
pub const PLAN_HISTORY: &str = "/api/v2/mix/order/orders-plan-history";
/// The `planType` that lists take-profit and stop-loss orders ("profit_loss: take profit and
/// stop loss orders (including the profit_plan, loss_plan, moving_plan, pos_profit and
/// pos_loss)").
pub const PROFIT_LOSS: &str = "profit_loss";

/// Bitget's longest client id: "clientOid or clientOrderId length cannot greater than 50"
/// (40304).
pub const CLIENT_ID_MAX: usize = 50;

/// The id Bitget keeps for the caller's `id`: the id itself when it is at most 50 letters,
/// digits, `-` or `_`, otherwise `h` and the first 49 hex digits of its SHA-256 (one id
/// always maps to the same one, so a retry or a lookup after a crash finds it).
pub fn client_id(id: &str) -> Result<String, VenueError> {
    if id.is_empty() {
        return Err(VenueError::InvalidRequest(
            "an order needs a client order id: it is what makes a retry safe".into(),
        ));
    }
    let plain = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    if id.len() <= CLIENT_ID_MAX && id.chars().all(plain) {
        return Ok(id.to_string());
    }
    let digest = hex::encode(Sha256::digest(id.as_bytes()));
    Ok(format!("h{}", &digest[..CLIENT_ID_MAX - 1]))
}

/// `marginMode` as Bitget spells it.
pub fn margin_mode(mode: MarginMode) -> &'static str {
    match mode {
        MarginMode::Cross => "crossed",
        MarginMode::Isolated => "isolated",
    }
}

fn side(side: Side) -> &'static str {
    match side {
        Side::Buy => "buy",
        Side::Sell => "sell",
    }
}

fn hold(side: PositionSide) -> &'static str {
    match side {
        PositionSide::Long => "long",
        PositionSide::Short => "short",
    }
}

/// Whether the order can only close: reduce-only in one-way mode, or the closing side of the
/// position it names in hedge mode.
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
    b.insert("symbol".into(), json!(contract.symbol.as_str()));
    b.insert("productType".into(), json!(PRODUCT_TYPE));
    b.insert("marginCoin".into(), json!(MARGIN_COIN));
    b.insert(
        "size".into(),
        json!(request.quantity.normalize().to_string()),
    );
    b.insert("clientOid".into(), json!(venue_id));
    let path = match request.order_type {
        OrderType::Market | OrderType::Limit => {
            b.insert("marginMode".into(), json!(margin_mode(mode)));
            match request.position_side {
                Some(ps) => {
                    b.insert("side".into(), json!(side(ps.opening_side())));
                    let trade = if closes_only(request) {
                        "close"
                    } else {
                        "open"
                    };
                    b.insert("tradeSide".into(), json!(trade));
                }
                None => {
                    b.insert("side".into(), json!(side(request.side)));
                    if request.reduce_only {
                        b.insert("reduceOnly".into(), json!("YES"));
                    }
                }
            }
            if request.order_type == OrderType::Market {
                b.insert("orderType".into(), json!("market"));
            } else {
                let price = request.price.ok_or_else(|| {
                    VenueError::InvalidRequest("a limit order needs a price".into())
                })?;
                b.insert("orderType".into(), json!("limit"));
                b.insert("price".into(), json!(price.normalize().to_string()));
                let force = match request.time_in_force {
                    Some(TimeInForce::Ioc) => "ioc",
                    Some(TimeInForce::Gtx) => "post_only",
                    _ => "gtc",
                };
                b.insert("force".into(), json!(force));
            }
            PLACE
        }
        kind @ (OrderType::StopMarket | OrderType::TakeProfitMarket) => {
            if !closes_only(request) {
                return Err(VenueError::Unsupported {
                    venue: "bitget".into(),
                    what: format!(
                        "a {} order that opens a position: Bitget's take-profit and stop-loss orders only close one",
                        kind.as_str()
                    ),
                });
            }
            let trigger = request.stop_price.ok_or_else(|| {
                VenueError::InvalidRequest(format!(
                    "a {} order needs a trigger price",
                    kind.as_str()
                ))
            })?;
            let plan = if kind == OrderType::StopMarket {
                "loss_plan"
            } else {
                "profit_plan"
            };
            b.insert("planType".into(), json!(plan));
            b.insert(
                "triggerPrice".into(),
                json!(trigger.normalize().to_string()),
            );
            // The mark price triggers it, as on every other venue nofxi trades; "0": a market
            // order once triggered.
            b.insert("triggerType".into(), json!("mark_price"));
            b.insert("executePrice".into(), json!("0"));
            let hold_side = match request.position_side {
                Some(ps) => hold(ps),
                // One-way: the direction of the position it closes.
                None => side(request.side.opposite()),
            };
            b.insert("holdSide".into(), json!(hold_side));
            PLACE_TPSL
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
            tick: dec!(0.1),
            step: dec!(0.0001),
            min_size: dec!(0.0001),
            min_value: dec!(5),
        }
    }

    #[test]
    fn client_ids_fit_bitget_and_map_the_same_way_every_time() {
        assert_eq!(
            client_id("nx1d2e3f4a5be18446744073709551615i0o").unwrap(),
            "nx1d2e3f4a5be18446744073709551615i0o"
        );
        let odd = "a b#c";
        let mapped = client_id(odd).unwrap();
        assert_eq!(mapped.len(), CLIENT_ID_MAX);
        assert_eq!(client_id(odd).unwrap(), mapped);
        assert_eq!(client_id(&"x".repeat(51)).unwrap().len(), CLIENT_ID_MAX);
        assert!(client_id("").is_err());
    }

    #[test]
    fn bodies_speak_bitgets_one_way_and_hedge_dialects() {
        let sym = Symbol::parse("BTC").unwrap();
        let close = OrderRequest::market(sym.clone(), Side::Sell, dec!(0.0123), "c1").reduce_only();
        let (path, b) = body(&close, &btc(), "c1", MarginMode::Cross).unwrap();
        assert_eq!(path, PLACE);
        assert_eq!(
            b,
            json!({"symbol": "BTCUSDT", "productType": "USDT-FUTURES", "marginCoin": "USDT",
                   "size": "0.0123", "clientOid": "c1", "marginMode": "crossed", "side": "sell",
                   "reduceOnly": "YES", "orderType": "market"})
        );
        let close_long = OrderRequest::market(sym.clone(), Side::Sell, dec!(0.01), "h1")
            .with_position_side(PositionSide::Long);
        let (_, b) = body(&close_long, &btc(), "h1", MarginMode::Isolated).unwrap();
        assert_eq!(
            (&b["side"], &b["tradeSide"], &b["marginMode"]),
            (&json!("buy"), &json!("close"), &json!("isolated"))
        );
        let stop = OrderRequest::trigger(
            sym.clone(),
            OrderType::StopMarket,
            Side::Sell,
            dec!(0.01),
            dec!(59000.0),
            "s1",
        );
        let (path, b) = body(&stop, &btc(), "s1", MarginMode::Cross).unwrap();
        assert_eq!(path, PLACE_TPSL);
        assert_eq!(
            (
                &b["planType"],
                &b["triggerPrice"],
                &b["holdSide"],
                &b["executePrice"]
            ),
            (
                &json!("loss_plan"),
                &json!("59000"),
                &json!("buy"),
                &json!("0")
            )
        );
        let mut opening = stop.clone();
        opening.reduce_only = false;
        assert!(matches!(
            body(&opening, &btc(), "s2", MarginMode::Cross),
            Err(VenueError::Unsupported { .. })
        ));
    }
}
