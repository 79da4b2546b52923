//! The scenarios every venue passes, each an `async fn(&dyn VenueFixture)`. They use only the
//! `Exchange` trait and the fixture, never a venue's own types: what holds here holds for the
//! trading cycle on any venue.
//!
//! Client order ids are short and alphanumeric (`cfOpen1`): the strictest venue's rule
//! (OKX: 1–32 letters and digits).

use nofxi_domain::market::Symbol;
use nofxi_domain::trading::{
    MarginMode, Order, OrderRequest, OrderStatus, OrderType, Position, PositionSide, Side,
};
use nofxi_venues::{Exchange, RejectKind, VenueError};
use rust_decimal::Decimal;
use rust_decimal_macros::dec;

use super::fixture::{BTC_START, INITIAL_BALANCE, VenueFixture};

fn btc() -> Symbol {
    Symbol::parse("BTC").unwrap()
}

fn market(side: Side, quantity: Decimal, id: &str) -> OrderRequest {
    OrderRequest::market(btc(), side, quantity, id)
}

/// Cross margin at 10×, then a quantity of about 740 USDT of BTC that fits the venue's step.
async fn prepare(ex: &dyn Exchange) -> Decimal {
    ex.set_margin_mode(&btc(), MarginMode::Cross).await.unwrap();
    ex.set_leverage(&btc(), 10).await.unwrap();
    let rules = ex.symbol_rules(&btc()).await.unwrap();
    rules.round_quantity(dec!(0.0123))
}

async fn btc_position(ex: &dyn Exchange) -> Option<Position> {
    let all = ex.positions().await.unwrap();
    let mut on_btc = all.into_iter().filter(|p| p.symbol == btc());
    let first = on_btc.next();
    assert!(on_btc.next().is_none(), "one-way mode holds one position");
    first
}

async fn status(ex: &dyn Exchange, id: &str) -> Order {
    ex.order_status(&btc(), id)
        .await
        .unwrap()
        .unwrap_or_else(|| panic!("the venue has no order {id}"))
}

fn refused_as(result: Result<Order, VenueError>, kind: RejectKind, venue: &str) {
    match result {
        Err(e) => assert_eq!(e.kind(), Some(kind), "{venue}: {e}"),
        Ok(o) => panic!("{venue}: expected a {kind} refusal, the venue took {o:?}"),
    }
}

/// A market order opens a position of exactly the quantity asked, and the wallet pays the
/// venue's fee for it, to the unit the fills report.
pub async fn a_market_order_opens_a_position(v: &dyn VenueFixture) {
    let ex = v.exchange();
    let qty = prepare(ex).await;
    let order = ex
        .place_order(&market(Side::Buy, qty, "cfOpen1"))
        .await
        .unwrap();
    assert_eq!(order.status, OrderStatus::Filled, "{}", v.name());
    assert_eq!(order.executed_quantity, qty);
    assert!(order.average_price > Decimal::ZERO);
    assert_eq!(order.client_order_id, "cfOpen1");

    let position = btc_position(ex).await.expect("a position");
    assert_eq!(
        (position.side, position.quantity, position.leverage),
        (PositionSide::Long, qty, 10)
    );
    assert_eq!(position.margin_mode, MarginMode::Cross);
    let fees: Decimal = ex
        .fills(&btc(), None)
        .await
        .unwrap()
        .iter()
        .map(|f| f.fee)
        .sum();
    assert!(fees > Decimal::ZERO, "{}: a taker pays a fee", v.name());
    let account = ex.account().await.unwrap();
    assert_eq!(
        account.wallet_balance,
        Decimal::from(INITIAL_BALANCE) - fees,
        "{}",
        v.name()
    );
    assert!(account.margin_used > Decimal::ZERO, "{}", v.name());
}

/// A reduce-only market order closes the position; the wallet moves by the realized P&L less
/// every fee, exactly as the fills say.
pub async fn a_reduce_only_order_closes_the_position(v: &dyn VenueFixture) {
    let ex = v.exchange();
    let qty = prepare(ex).await;
    ex.place_order(&market(Side::Buy, qty, "cfOpen2"))
        .await
        .unwrap();
    let close = ex
        .place_order(&market(Side::Sell, qty, "cfClose2").reduce_only())
        .await
        .unwrap();
    assert_eq!(close.status, OrderStatus::Filled, "{}", v.name());
    assert_eq!(close.executed_quantity, qty);
    assert!(btc_position(ex).await.is_none(), "{}", v.name());

    let fills = ex.fills(&btc(), None).await.unwrap();
    let realized: Decimal = fills.iter().map(|f| f.realized_pnl).sum();
    let fees: Decimal = fills.iter().map(|f| f.fee).sum();
    assert!(fills.iter().any(|f| f.side == Side::Sell));
    assert!(
        fills.windows(2).all(|w| w[0].time_ms <= w[1].time_ms),
        "oldest first"
    );
    let account = ex.account().await.unwrap();
    assert_eq!(
        account.wallet_balance,
        Decimal::from(INITIAL_BALANCE) + realized - fees,
        "{}",
        v.name()
    );
    assert_eq!(account.margin_used, Decimal::ZERO, "{}", v.name());
}

/// In one-way mode, selling twice what a long holds closes it and opens a short of the rest.
pub async fn selling_past_a_long_reverses_it(v: &dyn VenueFixture) {
    let ex = v.exchange();
    let qty = prepare(ex).await;
    ex.place_order(&market(Side::Buy, qty, "cfOpen3"))
        .await
        .unwrap();
    let flip = ex
        .place_order(&market(Side::Sell, qty * dec!(2), "cfFlip3"))
        .await
        .unwrap();
    assert_eq!(flip.status, OrderStatus::Filled, "{}", v.name());
    let position = btc_position(ex).await.expect("a short");
    assert_eq!(
        (position.side, position.quantity),
        (PositionSide::Short, qty)
    );
}

/// A resting stop waits, then fires when the market crosses it and closes the position at a
/// loss.
pub async fn a_stop_fires_when_the_market_crosses_it(v: &dyn VenueFixture) {
    let ex = v.exchange();
    let qty = prepare(ex).await;
    ex.place_order(&market(Side::Buy, qty, "cfOpen4"))
        .await
        .unwrap();
    let rules = ex.symbol_rules(&btc()).await.unwrap();
    let trigger = rules.round_price(dec!(59000.04));
    let stop = OrderRequest::trigger(
        btc(),
        OrderType::StopMarket,
        Side::Sell,
        qty,
        trigger,
        "cfStop4",
    );
    let placed = ex.place_order(&stop).await.unwrap();
    assert_eq!(placed.status, OrderStatus::New, "{}", v.name());
    assert_eq!(placed.order_type, OrderType::StopMarket);
    assert_eq!(placed.stop_price, Some(trigger));
    let open = ex.open_orders(Some(&btc())).await.unwrap();
    assert!(
        open.iter().any(|o| o.client_order_id == "cfStop4"),
        "{open:?}"
    );

    v.move_market(&btc(), dec!(58000), &["cfStop4"]).await;
    assert!(
        btc_position(ex).await.is_none(),
        "{}: stopped out",
        v.name()
    );
    let fired = status(ex, "cfStop4").await;
    assert_eq!(fired.status, OrderStatus::Filled, "{}", v.name());
    assert_eq!(fired.executed_quantity, qty);
    let realized: Decimal = ex
        .fills(&btc(), None)
        .await
        .unwrap()
        .iter()
        .map(|f| f.realized_pnl)
        .sum();
    assert!(realized < Decimal::ZERO, "{}: {realized}", v.name());
}

/// Quantities rounded with the venue's own rules are taken as they are; where the venue has
/// a step, a quantity off it is refused as a precision error, never rounded silently.
pub async fn rounded_quantities_are_taken_and_unrounded_ones_refused(v: &dyn VenueFixture) {
    let ex = v.exchange();
    prepare(ex).await;
    let rules = ex.symbol_rules(&btc()).await.unwrap();
    let raw = dec!(0.0123456);
    let rounded = rules.round_quantity(raw);
    assert!(rounded > Decimal::ZERO && rounded <= raw);
    rules
        .check(rounded, Decimal::from(BTC_START), false)
        .unwrap();
    let order = ex
        .place_order(&market(Side::Buy, rounded, "cfRound5"))
        .await
        .unwrap();
    assert_eq!(order.executed_quantity, rounded, "{}", v.name());
    if rules.tick_size > Decimal::ZERO {
        let price = rules.round_price(dec!(60000.04));
        assert!((price / rules.tick_size).fract().is_zero(), "{price}");
    }

    if rules.step_size > Decimal::ZERO {
        assert_ne!(raw, rounded);
        let sent = ex.place_order(&market(Side::Buy, raw, "cfRaw5")).await;
        refused_as(sent, RejectKind::Precision, v.name());
        assert_eq!(v.orders_with_id("cfRaw5").await, 0);
    } else {
        // This venue takes any precision (the paper account): the raw quantity fills as is.
        let order = ex
            .place_order(&market(Side::Buy, raw, "cfRaw5"))
            .await
            .unwrap();
        assert_eq!(order.executed_quantity, raw);
    }
}

/// An order below the venue's minimum is refused as such and leaves nothing on the venue.
pub async fn an_order_below_the_minimum_is_refused(v: &dyn VenueFixture) {
    let ex = v.exchange();
    let (symbol, qty) = v.below_minimum();
    let rules = ex.symbol_rules(&symbol).await.unwrap();
    assert_eq!(rules.round_quantity(qty), qty, "the quantity fits the step");
    let sent = ex
        .place_order(&OrderRequest::market(symbol, Side::Buy, qty, "cfMin6"))
        .await;
    refused_as(sent, RejectKind::NotionalTooSmall, v.name());
    assert_eq!(v.orders_with_id("cfMin6").await, 0, "{}", v.name());
}

/// An order whose margin the account cannot cover is refused as such; nothing opens.
pub async fn an_order_beyond_the_margin_is_refused(v: &dyn VenueFixture) {
    let ex = v.exchange();
    prepare(ex).await;
    ex.set_leverage(&btc(), 2).await.unwrap();
    let rules = ex.symbol_rules(&btc()).await.unwrap();
    let available = ex.account().await.unwrap().available;
    // Four times the balance in value at 2×: twice the margin there is.
    let qty = rules.round_quantity(available * dec!(4) / Decimal::from(BTC_START));
    let sent = ex.place_order(&market(Side::Buy, qty, "cfBig7")).await;
    refused_as(sent, RejectKind::InsufficientMargin, v.name());
    assert_eq!(v.orders_with_id("cfBig7").await, 0, "{}", v.name());
    assert!(btc_position(ex).await.is_none());
}

/// A placement refused for the rate limit is sent again by the adapter and lands once.
pub async fn a_rate_limited_order_is_retried_and_lands_once(v: &dyn VenueFixture) {
    let ex = v.exchange();
    let qty = prepare(ex).await;
    if !v.rate_limit_next_order() {
        assert!(!v.guarantees().rate_limited, "{}", v.name());
        return;
    }
    assert!(v.guarantees().rate_limited, "{}", v.name());
    let before = v.placements_sent();
    let order = ex
        .place_order(&market(Side::Buy, qty, "cfLimit8"))
        .await
        .unwrap();
    assert_eq!(order.status, OrderStatus::Filled, "{}", v.name());
    assert_eq!(
        v.placements_sent(),
        before + 2,
        "{}: refused once, then sent again",
        v.name()
    );
    assert_eq!(v.orders_with_id("cfLimit8").await, 1);
    assert_eq!(btc_position(ex).await.map(|p| p.quantity), Some(qty));
}

/// After a crash, a new adapter finds every order by the client id it was sent with: a filled
/// entry, a resting stop, and nothing for an id never sent.
pub async fn orders_are_found_by_client_id_after_a_restart(v: &dyn VenueFixture) {
    let qty = prepare(v.exchange()).await;
    let entry = v
        .exchange()
        .place_order(&market(Side::Buy, qty, "cfEntry9"))
        .await
        .unwrap();
    let stop = OrderRequest::trigger(
        btc(),
        OrderType::StopMarket,
        Side::Sell,
        qty,
        dec!(50000),
        "cfStop9",
    );
    let resting = v.exchange().place_order(&stop).await.unwrap();

    let after = v.reconnect().await;
    let found = status(after.as_ref(), "cfEntry9").await;
    assert_eq!(
        (
            found.order_id.as_str(),
            found.status,
            found.executed_quantity
        ),
        (entry.order_id.as_str(), OrderStatus::Filled, qty),
        "{}",
        v.name()
    );
    let found = status(after.as_ref(), "cfStop9").await;
    assert_eq!(
        (found.order_id.as_str(), found.status, found.order_type),
        (
            resting.order_id.as_str(),
            OrderStatus::New,
            OrderType::StopMarket
        ),
        "{}",
        v.name()
    );
    assert!(
        after
            .order_status(&btc(), "cfNeverSent9")
            .await
            .unwrap()
            .is_none()
    );
    let open = after.open_orders(Some(&btc())).await.unwrap();
    assert_eq!(
        open.iter()
            .filter(|o| o.client_order_id == "cfStop9")
            .count(),
        1,
        "{open:?}"
    );
    assert_eq!(
        btc_position(after.as_ref()).await.map(|p| p.quantity),
        Some(qty)
    );
}

/// Placing an id the venue already has returns that order, from the same adapter or a new
/// one (a retry after a crash): the venue never holds two, and the position is not doubled.
pub async fn a_repeated_client_id_returns_the_first_order(v: &dyn VenueFixture) {
    let ex = v.exchange();
    let qty = prepare(ex).await;
    let request = market(Side::Buy, qty, "cfTwice10");
    let first = ex.place_order(&request).await.unwrap();
    let again = ex.place_order(&request).await.unwrap();
    assert_eq!(again.order_id, first.order_id, "{}", v.name());
    assert_eq!(again.status, OrderStatus::Filled);
    let after = v.reconnect().await;
    let retried = after.place_order(&request).await.unwrap();
    assert_eq!(retried.order_id, first.order_id, "{}", v.name());
    assert_eq!(v.orders_with_id("cfTwice10").await, 1, "{}", v.name());
    assert_eq!(btc_position(ex).await.map(|p| p.quantity), Some(qty));
}

/// A stop and a take-profit protect one position. When the stop fires, the take-profit has
/// nothing left to protect: the venue cancels it, or (where it does not) it stays open for
/// the trading cycle to cancel. Either way the suite checks what the venue promises.
pub async fn a_fired_stop_leaves_its_take_profit_as_the_venue_promises(v: &dyn VenueFixture) {
    let ex = v.exchange();
    let qty = prepare(ex).await;
    ex.place_order(&market(Side::Buy, qty, "cfOpen11"))
        .await
        .unwrap();
    for (kind, trigger, id) in [
        (OrderType::StopMarket, dec!(59000), "cfSl11"),
        (OrderType::TakeProfitMarket, dec!(61000), "cfTp11"),
    ] {
        let request = OrderRequest::trigger(btc(), kind, Side::Sell, qty, trigger, id);
        assert_eq!(
            ex.place_order(&request).await.unwrap().status,
            OrderStatus::New
        );
    }
    v.move_market(&btc(), dec!(58000), &["cfSl11"]).await;
    assert!(btc_position(ex).await.is_none(), "{}", v.name());
    assert_eq!(status(ex, "cfSl11").await.status, OrderStatus::Filled);

    let take_profit = status(ex, "cfTp11").await;
    let still_open = ex
        .open_orders(Some(&btc()))
        .await
        .unwrap()
        .iter()
        .any(|o| o.client_order_id == "cfTp11");
    if v.guarantees().cancels_siblings {
        assert_eq!(take_profit.status, OrderStatus::Canceled, "{}", v.name());
        assert!(!still_open, "{}", v.name());
    } else {
        assert_eq!(take_profit.status, OrderStatus::New, "{}", v.name());
        assert!(still_open, "{}: left for the cycle to cancel", v.name());
    }
}
