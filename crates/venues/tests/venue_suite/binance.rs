//! Binance USDⓈ-M futures against the testkit's mock Binance over loopback HTTP: real
//! signatures, real matching on the mock's book, Binance's own error codes.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use nofxi_domain::market::Symbol;
use nofxi_testkit::binance::{Fault, MockBinance, Route};
use nofxi_venues::binance::{
    ApiCredentials, BinanceClient, BinanceEndpoints, BinanceFutures, BinanceOptions,
};
use nofxi_venues::{Exchange, SystemClock};
use rust_decimal::Decimal;

use super::fixture::{Guarantees, INITIAL_BALANCE, VenueFixture};

const KEY: &str = "conformanceKey1";
const SECRET: &str = "conformanceSecret1";

pub struct BinanceVenue {
    mock: MockBinance,
    exchange: BinanceFutures,
}

impl BinanceVenue {
    pub async fn start() -> BinanceVenue {
        let mock = MockBinance::start().await.unwrap();
        mock.add_account(KEY, SECRET, Decimal::from(INITIAL_BALANCE));
        let exchange = connect(&mock);
        BinanceVenue { mock, exchange }
    }
}

fn connect(mock: &MockBinance) -> BinanceFutures {
    let client = BinanceClient::new(
        "binance",
        BinanceEndpoints::single(&mock.url()),
        Some(ApiCredentials::new(KEY, SECRET)),
        BinanceOptions {
            timeout: Duration::from_secs(5),
            ..BinanceOptions::default()
        },
        Arc::new(SystemClock),
    )
    .unwrap();
    BinanceFutures::new(Arc::new(client))
}

#[async_trait]
impl VenueFixture for BinanceVenue {
    fn name(&self) -> &'static str {
        "binance"
    }

    fn guarantees(&self) -> Guarantees {
        Guarantees {
            // Binance leaves a position's other protective orders open when one fills.
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

    async fn move_market(&self, symbol: &Symbol, price: Decimal, crossed: &[&str]) {
        self.mock.set_price(symbol.as_str(), price);
        // The mock never watches its mark: it fires a trigger when told the market crossed it.
        for id in crossed {
            assert!(self.mock.fire_trigger(KEY, id), "no open trigger {id}");
        }
    }

    fn rate_limit_next_order(&self) -> bool {
        self.mock.inject(
            Route::PlaceOrder,
            Fault::RateLimited {
                retry_after_secs: 1,
            },
        );
        true
    }

    fn placements_sent(&self) -> usize {
        self.mock.request_count("POST", "/fapi/v1/order")
    }

    async fn orders_with_id(&self, client_order_id: &str) -> usize {
        self.mock
            .orders(KEY)
            .iter()
            .filter(|o| o.client_order_id == client_order_id)
            .count()
    }

    fn below_minimum(&self) -> (Symbol, Decimal) {
        // The mock's DOGE trades at 1 USDT in whole coins; its minimum notional is 5.
        (Symbol::parse("DOGE").unwrap(), Decimal::ONE)
    }
}
