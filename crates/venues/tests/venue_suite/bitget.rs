//! Bitget v2 USDT-M futures against the testkit's mock Bitget over loopback HTTP: real
//! signatures and passphrase, sizes in the base coin, matching on the mock's book, Bitget's
//! own error codes, and take-profit / stop-loss plans fired by the mock's mark.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use nofxi_domain::market::Symbol;
use nofxi_testkit::bitget::{Fault, MockBitget, Route};
use nofxi_venues::bitget::{
    BitgetClient, BitgetCredentials, BitgetEndpoints, BitgetFutures, BitgetOptions,
};
use nofxi_venues::{Exchange, SystemClock};
use rust_decimal::Decimal;
use rust_decimal_macros::dec;

use super::fixture::{Guarantees, INITIAL_BALANCE, VenueFixture};

const KEY: &str = "bg_conformanceKey1";
const SECRET: &str = "conformanceBitgetSecret1";
const PASSPHRASE: &str = "conformance Pass 1";

pub struct BitgetVenue {
    mock: MockBitget,
    exchange: BitgetFutures,
}

impl BitgetVenue {
    pub async fn start() -> BitgetVenue {
        let mock = MockBitget::start().await.unwrap();
        mock.add_account(KEY, SECRET, PASSPHRASE, Decimal::from(INITIAL_BALANCE));
        let exchange = connect(&mock);
        BitgetVenue { mock, exchange }
    }
}

fn connect(mock: &MockBitget) -> BitgetFutures {
    let client = BitgetClient::new(
        "bitget",
        BitgetEndpoints::at(&mock.url(), "the conformance suite"),
        Some(BitgetCredentials::new(KEY, SECRET, PASSPHRASE)),
        BitgetOptions {
            timeout: Duration::from_secs(5),
            ..BitgetOptions::default()
        },
        Arc::new(SystemClock),
    )
    .unwrap();
    BitgetFutures::new(Arc::new(client))
}

#[async_trait]
impl VenueFixture for BitgetVenue {
    fn name(&self) -> &'static str {
        "bitget"
    }

    fn guarantees(&self) -> Guarantees {
        Guarantees {
            // Stops and take-profits are position TP/SL plans, which belong to their position:
            // Bitget cancels them with it.
            cancels_siblings: true,
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
        self.mock
            .request_count("POST", "/api/v2/mix/order/place-order")
            + self
                .mock
                .request_count("POST", "/api/v2/mix/order/place-tpsl-order")
    }

    async fn orders_with_id(&self, client_order_id: &str) -> usize {
        let regular = self
            .mock
            .orders(KEY)
            .iter()
            .filter(|o| o.client_oid == client_order_id)
            .count();
        let plans = self
            .mock
            .plan_orders(KEY)
            .iter()
            .filter(|p| p.client_oid == client_order_id)
            .count();
        regular + plans
    }

    fn below_minimum(&self) -> (Symbol, Decimal) {
        // DOGE trades in whole coins from one coin, and an order must be worth 5 USDT: ten
        // DOGE at 0.1 are worth 1.
        (Symbol::parse("DOGE").unwrap(), dec!(10))
    }
}
