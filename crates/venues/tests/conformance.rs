//! The venue conformance suite: every scenario in `venue_suite/scenarios.rs`, on every venue
//! in the list below, each against its own fresh fixture (`venue_suite/<venue>.rs`).
//!
//! `cargo test -p nofxi-venues --test conformance` runs it; `… -- okx::` one venue.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

mod venue_suite;

/// One `#[tokio::test]` per scenario for `$venue`, built from `$fixture::start()`.
macro_rules! scenarios_for {
    ($venue:ident, $fixture:path, [$($scenario:ident),* $(,)?]) => {
        mod $venue {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $scenario() {
                    let fixture = <$fixture>::start().await;
                    crate::venue_suite::scenarios::$scenario(&fixture).await;
                }
            )*
        }
    };
}

/// Every scenario on every venue: `every_venue!([(name, Fixture), …], [scenario, …])`.
macro_rules! every_venue {
    ([$(($venue:ident, $fixture:path)),* $(,)?], $scenarios:tt) => {
        $( scenarios_for!($venue, $fixture, $scenarios); )*
    };
}

every_venue!(
    [
        (paper, crate::venue_suite::paper::PaperVenue),
        (binance, crate::venue_suite::binance::BinanceVenue),
        (okx, crate::venue_suite::okx::OkxVenue),
        (bitget, crate::venue_suite::bitget::BitgetVenue),
        (bybit, crate::venue_suite::bybit::BybitVenue),
        (
            hyperliquid,
            crate::venue_suite::hyperliquid::HyperliquidVenue
        ),
    ],
    [
        a_market_order_opens_a_position,
        a_reduce_only_order_closes_the_position,
        selling_past_a_long_reverses_it,
        a_stop_fires_when_the_market_crosses_it,
        rounded_quantities_are_taken_and_unrounded_ones_refused,
        an_order_below_the_minimum_is_refused,
        an_order_beyond_the_margin_is_refused,
        a_rate_limited_order_is_retried_and_lands_once,
        orders_are_found_by_client_id_after_a_restart,
        a_repeated_client_id_returns_the_first_order,
        a_fired_stop_leaves_its_take_profit_as_the_venue_promises,
    ]
);
