//! Orders as Bybit takes them: a nofxi request becomes the JSON body of
//! `POST /v5/order/create`, with a client id (`orderLinkId`) Bybit accepts, checked against
//! the symbol's rules first.
//!
//! Parameters: Bybit API v5 docs, "Trade" → "Place Order"
//! (https://bybit-exchange.github.io/docs/v5/order/create-order).
//!
//! Stop-loss and take-profit go out as conditional orders (`triggerPrice`, with
//! `triggerDirection`, `reduceOnly` and `closeOnTrigger`), not as the position's own TP/SL
//! (`/v5/position/trading-stop`). The trading cycle places, finds after a crash, and cancels
//! each protective order by its own client id; a position's TP/SL has no `orderLinkId` and
//! only one of each per position in `Full` mode. The price of that choice: Bybit does not
//! cancel the other protective order when one closes the position (a close-on-trigger order
//! is cancelled only when it fires with nothing left to close, per Bybit's help centre,
//! "What is a Close On Trigger Order"), so the cycle cancels it, as it does on Binance.

use nofxi_domain::trading::{
    OrderRequest, OrderType, PositionSide, Side, SymbolRules, TimeInForce,
};
use rust_decimal::Decimal;
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use crate::{RejectKind, VenueError};

pub const PLACE: &str = "/v5/order/create";
pub const CANCEL: &str = "/v5/order/cancel";
/// `GET`: open orders, and (by `orderLinkId`) the most recent closed ones.
pub const REALTIME: &str = "/v5/order/realtime";
/// `GET`: older orders, and the ones Bybit dropped from `realtime` after a restart.
pub const HISTORY: &str = "/v5/order/history";

/// Bybit's longest client id: "A max of 36 characters. Combinations of numbers, letters
/// (upper and lower cases), dashes, and underscores are supported."
pub const CLIENT_ID_MAX: usize = 36;

/// The id Bybit keeps for the caller's `id`: the id itself when Bybit accepts it, otherwise
/// `h` and the first 35 hex digits of its SHA-256 (one id always maps to the same one, so a
/// retry or a lookup after a crash finds it). The trading cycle's ids (`nx…`, up to 36
/// characters) fit.
pub fn client_id(id: &str) -> Result<String, VenueError> {
    if id.is_empty() {
        return Err(VenueError::InvalidRequest(
            "an order needs a client order id: it is what makes a retry safe".into(),
        ));
    }
    let allowed = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    if id.len() <= CLIENT_ID_MAX && id.chars().all(allowed) {
        return Ok(id.to_string());
    }
    let digest = hex::encode(Sha256::digest(id.as_bytes()));
    Ok(format!("h{}", &digest[..CLIENT_ID_MAX - 1]))
}

fn side(side: Side) -> &'static str {
    match side {
        Side::Buy => "Buy",
        Side::Sell => "Sell",
    }
}

/// `positionIdx`: 0 in one-way mode, 1 and 2 for hedge mode's long and short sides.
pub fn position_idx(side: Option<PositionSide>) -> u8 {
    match side {
        None => 0,
        Some(PositionSide::Long) => 1,
        Some(PositionSide::Short) => 2,
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

fn on_step(value: Decimal, step: Decimal) -> bool {
    step <= Decimal::ZERO || (value / step).fract().is_zero()
}

/// What Bybit would refuse for the symbol's rules, refused here with the same kind: a
/// quantity off the step (or a price off the tick) is never rounded silently, and a quantity
/// under the minimum size never leaves. The minimum order value needs the price a market
/// order fills at, so Bybit judges that one (110094).
pub fn check(venue: &str, request: &OrderRequest, rules: &SymbolRules) -> Result<(), VenueError> {
    let refuse = |kind, message: String| Err(VenueError::rejected(venue, kind, message));
    if request.quantity <= Decimal::ZERO {
        return Err(VenueError::InvalidRequest(format!(
            "an order quantity must be above zero, not {}",
            request.quantity
        )));
    }
    if !on_step(request.quantity, rules.step_size) {
        return refuse(
            RejectKind::Precision,
            format!(
                "quantity {} of {} is not a multiple of its step {}",
                request.quantity, rules.symbol, rules.step_size
            ),
        );
    }
    if request.quantity < rules.min_quantity {
        return refuse(
            RejectKind::NotionalTooSmall,
            format!(
                "quantity {} of {} is below its minimum {}",
                request.quantity, rules.symbol, rules.min_quantity
            ),
        );
    }
    for price in [request.price, request.stop_price].into_iter().flatten() {
        if !on_step(price, rules.tick_size) {
            return refuse(
                RejectKind::Precision,
                format!(
                    "price {price} of {} is not a multiple of its tick {}",
                    rules.symbol, rules.tick_size
                ),
            );
        }
    }
    Ok(())
}

/// The JSON body placing `request` as `link_id`.
pub fn body(request: &OrderRequest, link_id: &str) -> Result<Value, VenueError> {
    let mut b = Map::new();
    b.insert("category".into(), json!("linear"));
    b.insert("symbol".into(), json!(request.symbol.as_str()));
    b.insert("side".into(), json!(side(request.side)));
    b.insert(
        "qty".into(),
        json!(request.quantity.normalize().to_string()),
    );
    b.insert("orderLinkId".into(), json!(link_id));
    b.insert(
        "positionIdx".into(),
        json!(position_idx(request.position_side)),
    );
    // "You must specify it as true when you are about to close/reduce the position", in
    // either position mode.
    if closes_only(request) {
        b.insert("reduceOnly".into(), json!(true));
    }
    match request.order_type {
        OrderType::Market => {
            b.insert("orderType".into(), json!("Market"));
        }
        OrderType::Limit => {
            let price = request
                .price
                .ok_or_else(|| VenueError::InvalidRequest("a limit order needs a price".into()))?;
            b.insert("orderType".into(), json!("Limit"));
            b.insert("price".into(), json!(price.normalize().to_string()));
            let tif = match request.time_in_force {
                Some(TimeInForce::Ioc) => "IOC",
                Some(TimeInForce::Gtx) => "PostOnly",
                Some(TimeInForce::Gtc) | None => "GTC",
            };
            b.insert("timeInForce".into(), json!(tif));
        }
        kind @ (OrderType::StopMarket | OrderType::TakeProfitMarket) => {
            let trigger = request.stop_price.ok_or_else(|| {
                VenueError::InvalidRequest(format!(
                    "a {} order needs a trigger price",
                    kind.as_str()
                ))
            })?;
            // A sell stop fires on a fall (2), a sell take-profit on a rise (1); a buy the
            // other way round.
            let falls = (kind == OrderType::StopMarket) == (request.side == Side::Sell);
            b.insert("orderType".into(), json!("Market"));
            b.insert(
                "triggerPrice".into(),
                json!(trigger.normalize().to_string()),
            );
            b.insert("triggerDirection".into(), json!(if falls { 2 } else { 1 }));
            b.insert("triggerBy".into(), json!("MarkPrice"));
            if closes_only(request) {
                b.insert("closeOnTrigger".into(), json!(true));
            }
        }
    }
    Ok(Value::Object(b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use nofxi_domain::market::Symbol;
    use rust_decimal_macros::dec;

    fn btc() -> Symbol {
        Symbol::parse("BTC").unwrap()
    }

    fn rules() -> SymbolRules {
        SymbolRules {
            symbol: btc(),
            tick_size: dec!(0.1),
            step_size: dec!(0.001),
            min_quantity: dec!(0.001),
            min_notional: dec!(5),
        }
    }

    #[test]
    fn client_ids_fit_bybit_and_map_the_same_way_every_time() {
        assert_eq!(
            client_id("nx1d2e3f4a5bc12i0o").unwrap(),
            "nx1d2e3f4a5bc12i0o"
        );
        assert_eq!(client_id("usdt-test_01").unwrap(), "usdt-test_01");
        let long = "nx1d2e3f4a5be18446744073709551615c7i0oxx";
        let mapped = client_id(long).unwrap();
        assert_eq!(mapped.len(), 36);
        assert_eq!(client_id(long).unwrap(), mapped);
        assert_ne!(client_id("a.b").unwrap(), "a.b");
        assert!(client_id("").is_err());
    }

    #[test]
    fn bodies_say_what_closes_and_which_way_a_trigger_fires() {
        let close = OrderRequest::market(btc(), Side::Sell, dec!(0.012), "c1").reduce_only();
        assert_eq!(
            body(&close, "c1").unwrap(),
            json!({"category": "linear", "symbol": "BTCUSDT", "side": "Sell", "qty": "0.012",
                   "orderLinkId": "c1", "positionIdx": 0, "reduceOnly": true, "orderType": "Market"})
        );
        let stop = OrderRequest::trigger(
            btc(),
            OrderType::StopMarket,
            Side::Sell,
            dec!(0.01),
            dec!(59000.0),
            "s1",
        );
        let b = body(&stop, "s1").unwrap();
        assert_eq!(
            (
                &b["triggerPrice"],
                &b["triggerDirection"],
                &b["reduceOnly"],
                &b["closeOnTrigger"]
            ),
            (&json!("59000"), &json!(2), &json!(true), &json!(true))
        );
        let tp = OrderRequest::trigger(
            btc(),
            OrderType::TakeProfitMarket,
            Side::Sell,
            dec!(0.01),
            dec!(61000),
            "t1",
        );
        assert_eq!(body(&tp, "t1").unwrap()["triggerDirection"], json!(1));
    }

    #[test]
    fn off_step_and_under_minimum_are_refused_before_sending() {
        let kind = |q| {
            check(
                "bybit",
                &OrderRequest::market(btc(), Side::Buy, q, "x"),
                &rules(),
            )
            .err()
            .and_then(|e| e.kind())
        };
        assert_eq!(kind(dec!(0.0123456)), Some(RejectKind::Precision));
        assert_eq!(kind(dec!(0.0005)), Some(RejectKind::Precision));
        assert_eq!(kind(dec!(0.012)), None);
        let small = SymbolRules {
            min_quantity: dec!(0.01),
            ..rules()
        };
        let e = check(
            "bybit",
            &OrderRequest::market(btc(), Side::Buy, dec!(0.005), "x"),
            &small,
        )
        .unwrap_err();
        assert_eq!(e.kind(), Some(RejectKind::NotionalTooSmall));
    }
}
