//! Hyperliquid perpetuals against the testkit's mock Hyperliquid over loopback HTTP: EIP-712
//! signatures by an agent wallet recovered and checked against the main wallet's approved
//! agents, sizes in coins to `szDecimals`, prices to five figures, matching on the mock's
//! book, Hyperliquid's own refusal texts, and stop-loss / take-profit triggers fired by the
//! mock's mark.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use nofxi_domain::market::Symbol;
use nofxi_testkit::hyperliquid::{Fault, MockHyperliquid, Route, address_of_key};
use nofxi_venues::hyperliquid::{
    HyperliquidClient, HyperliquidCredentials, HyperliquidEndpoints, HyperliquidOptions,
    HyperliquidPerp, cloid,
};
use nofxi_venues::{Exchange, SystemClock};
use rust_decimal::Decimal;
use rust_decimal_macros::dec;

use super::fixture::{Guarantees, INITIAL_BALANCE, VenueFixture};

/// The agent wallet's key (a test key, nothing else) and the main wallet it trades for.
const AGENT_KEY: &str = "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6";
const WALLET: &str = "0x5e9ee1089755c3435139848e47e6635505d5a13a";

pub struct HyperliquidVenue {
    mock: MockHyperliquid,
    exchange: HyperliquidPerp,
}

impl HyperliquidVenue {
    pub async fn start() -> HyperliquidVenue {
        let mock = MockHyperliquid::start().await.unwrap();
        mock.add_user(WALLET, Decimal::from(INITIAL_BALANCE));
        mock.approve_agent(WALLET, &address_of_key(AGENT_KEY).unwrap(), "nofxi");
        let exchange = connect(&mock);
        HyperliquidVenue { mock, exchange }
    }
}

fn connect(mock: &MockHyperliquid) -> HyperliquidPerp {
    let client = HyperliquidClient::new(
        "hyperliquid",
        HyperliquidEndpoints::at(&mock.url(), "the conformance suite", false),
        Some(HyperliquidCredentials::new(AGENT_KEY, WALLET).unwrap()),
        HyperliquidOptions {
            timeout: Duration::from_secs(5),
            ..HyperliquidOptions::default()
        },
        Arc::new(SystemClock),
    )
    .unwrap();
    HyperliquidPerp::new(Arc::new(client))
}

#[async_trait]
impl VenueFixture for HyperliquidVenue {
    fn name(&self) -> &'static str {
        "hyperliquid"
    }

    fn guarantees(&self) -> Guarantees {
        Guarantees {
            // A stop and a take-profit go out as standalone reduce-only triggers (grouping
            // "na"), each with its own cloid: Hyperliquid leaves the other open when one
            // closes the position, for the cycle to cancel.
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
        // The mock fires the triggers its new mark crosses.
        self.mock.set_price(symbol.base(), price);
    }

    fn rate_limit_next_order(&self) -> bool {
        self.mock
            .inject(Route::Exchange("order"), Fault::RateLimited);
        true
    }

    fn placements_sent(&self) -> usize {
        self.mock.request_count("/exchange", "order")
    }

    async fn orders_with_id(&self, client_order_id: &str) -> usize {
        let cloid = cloid(client_order_id).unwrap();
        self.mock
            .orders(WALLET)
            .iter()
            .filter(|o| o.cloid.as_deref() == Some(cloid.as_str()))
            .count()
    }

    fn below_minimum(&self) -> (Symbol, Decimal) {
        // ETH sizes have four decimals; 0.0001 ETH at 3 000 is 0.30 USDC, under the $10
        // minimum order value.
        (Symbol::parse("ETH").unwrap(), dec!(0.0001))
    }
}
