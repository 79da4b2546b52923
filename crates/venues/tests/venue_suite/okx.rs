//! OKX USDT perpetual swaps against the testkit's mock OKX over loopback HTTP: real
//! signatures and passphrase, sizes in contracts, matching on the mock's book, OKX's own
//! error codes, and stop-loss / take-profit algo orders fired by the mock's mark.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use nofxi_domain::market::Symbol;
use nofxi_testkit::okx::{Fault, MockOkx, Route};
use nofxi_venues::okx::{OkxClient, OkxCredentials, OkxEndpoints, OkxOptions, OkxSwap, inst_id};
use nofxi_venues::{Exchange, SystemClock};
use rust_decimal::Decimal;
use rust_decimal_macros::dec;

use super::fixture::{Guarantees, INITIAL_BALANCE, VenueFixture};

const KEY: &str = "conformanceOkxKey1";
const SECRET: &str = "conformanceOkxSecret1";
const PASSPHRASE: &str = "conformance Pass 1";

pub struct OkxVenue {
    mock: MockOkx,
    exchange: OkxSwap,
}

impl OkxVenue {
    pub async fn start() -> OkxVenue {
        let mock = MockOkx::start().await.unwrap();
        mock.add_account(KEY, SECRET, PASSPHRASE, Decimal::from(INITIAL_BALANCE));
        let exchange = connect(&mock);
        OkxVenue { mock, exchange }
    }
}

fn connect(mock: &MockOkx) -> OkxSwap {
    let client = OkxClient::new(
        "okx",
        OkxEndpoints::at(&mock.url(), "the conformance suite"),
        Some(OkxCredentials::new(KEY, SECRET, PASSPHRASE)),
        OkxOptions {
            timeout: Duration::from_secs(5),
            ..OkxOptions::default()
        },
        Arc::new(SystemClock),
    )
    .unwrap();
    OkxSwap::new(Arc::new(client))
}

#[async_trait]
impl VenueFixture for OkxVenue {
    fn name(&self) -> &'static str {
        "okx"
    }

    fn guarantees(&self) -> Guarantees {
        Guarantees {
            // Protective triggers go out with `cxlOnClosePos`: OKX cancels them with their
            // position.
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
        self.mock.set_price(&inst_id(symbol), price);
    }

    fn rate_limit_next_order(&self) -> bool {
        self.mock.inject(Route::PlaceOrder, Fault::RateLimited);
        true
    }

    fn placements_sent(&self) -> usize {
        self.mock.request_count("POST", "/api/v5/trade/order")
            + self.mock.request_count("POST", "/api/v5/trade/order-algo")
    }

    async fn orders_with_id(&self, client_order_id: &str) -> usize {
        let regular = self
            .mock
            .orders(KEY)
            .iter()
            .filter(|o| o.cl_ord_id == client_order_id)
            .count();
        let algo = self
            .mock
            .algo_orders(KEY)
            .iter()
            .filter(|a| a.algo_cl_ord_id == client_order_id)
            .count();
        regular + algo
    }

    fn below_minimum(&self) -> (Symbol, Decimal) {
        // ETH trades in lots of 0.1 contract of 0.1 ETH, from 1 contract: 0.05 ETH is five
        // lots, half the minimum.
        (Symbol::parse("ETH").unwrap(), dec!(0.05))
    }
}
