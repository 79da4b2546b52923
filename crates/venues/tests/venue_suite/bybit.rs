//! Bybit USDT perpetuals against the testkit's mock Bybit over loopback HTTP: real
//! signatures and receive window, sizes in coins, matching on the mock's book, Bybit's own
//! error codes, and stop-loss / take-profit as conditional orders fired by the mock's mark.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use nofxi_domain::market::Symbol;
use nofxi_testkit::bybit::{Fault, MockBybit, Route};
use nofxi_venues::bybit::{
    BybitClient, BybitCredentials, BybitEndpoints, BybitLinear, BybitOptions,
};
use nofxi_venues::{Exchange, SystemClock};
use rust_decimal::Decimal;
use rust_decimal_macros::dec;

use super::fixture::{Guarantees, INITIAL_BALANCE, VenueFixture};

const KEY: &str = "conformanceBybitKey1";
const SECRET: &str = "conformanceBybitSecret1";

pub struct BybitVenue {
    mock: MockBybit,
    exchange: BybitLinear,
}

impl BybitVenue {
    pub async fn start() -> BybitVenue {
        let mock = MockBybit::start().await.unwrap();
        mock.add_account(KEY, SECRET, Decimal::from(INITIAL_BALANCE));
        let exchange = connect(&mock);
        BybitVenue { mock, exchange }
    }
}

fn connect(mock: &MockBybit) -> BybitLinear {
    let client = BybitClient::new(
        "bybit",
        BybitEndpoints::at(&mock.url(), "the conformance suite"),
        Some(BybitCredentials::new(KEY, SECRET)),
        BybitOptions {
            timeout: Duration::from_secs(5),
            ..BybitOptions::default()
        },
        Arc::new(SystemClock),
    )
    .unwrap();
    BybitLinear::new(Arc::new(client))
}

#[async_trait]
impl VenueFixture for BybitVenue {
    fn name(&self) -> &'static str {
        "bybit"
    }

    fn guarantees(&self) -> Guarantees {
        Guarantees {
            // Protective orders are standalone conditional orders (each with its client id):
            // Bybit leaves the other one waiting when one closes the position.
            cancels_siblings: false,
            rate_limited: true,
        }
    }

    fn exchange(&self) -> &dyn Exchange {
        &self.exchange
    }

    async fn reconnect(&self) -> Box<dyn Exchange> {
        Box::new(connect(&self.mock))
    }

    async fn move_market(&self, symbol: &Symbol, price: Decimal, _crossed: &[&str]) {
        // The mock's trigger engine fires what the new mark crosses.
        self.mock.set_price(symbol.as_str(), price);
    }

    fn rate_limit_next_order(&self) -> bool {
        self.mock.inject(Route::PlaceOrder, Fault::RateLimited);
        true
    }

    fn placements_sent(&self) -> usize {
        self.mock.request_count("POST", "/v5/order/create")
    }

    async fn orders_with_id(&self, client_order_id: &str) -> usize {
        self.mock
            .orders(KEY)
            .iter()
            .filter(|o| o.order_link_id == client_order_id)
            .count()
    }

    fn below_minimum(&self) -> (Symbol, Decimal) {
        // DOGE trades in whole coins from one coin at 0.1: ten are one USDT, under Bybit's
        // 5 USDT minimum order value.
        (Symbol::parse("DOGE").unwrap(), dec!(10))
    }
}
