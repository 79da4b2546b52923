//! The paper account against a hand-set market: prices are exactly where the fixture puts
//! them (bid = ask = mark), and a restart reopens the account from the same repository.

use std::sync::Arc;

use async_trait::async_trait;
use nofxi_domain::market::Symbol;
use nofxi_venues::manual::ManualMarket;
use nofxi_venues::paper::{MemoryPaperRepo, PaperConfig, PaperExchange};
use nofxi_venues::{Exchange, ManualClock};
use rust_decimal::Decimal;
use rust_decimal_macros::dec;

use super::fixture::{BTC_START, Guarantees, INITIAL_BALANCE, VenueFixture};

const ACCOUNT: &str = "conformance";

pub struct PaperVenue {
    market: ManualMarket,
    clock: ManualClock,
    repo: MemoryPaperRepo,
    exchange: PaperExchange,
}

impl PaperVenue {
    pub async fn start() -> PaperVenue {
        let clock = ManualClock::new(1_767_225_600_000);
        let market = ManualMarket::new(Arc::new(clock.clone()));
        market.set_price(&Symbol::parse("BTC").unwrap(), Decimal::from(BTC_START));
        market.set_price(&Symbol::parse("DOGE").unwrap(), dec!(0.1));
        let repo = MemoryPaperRepo::default();
        let exchange = open(&market, &clock, &repo).await;
        PaperVenue {
            market,
            clock,
            repo,
            exchange,
        }
    }
}

async fn open(market: &ManualMarket, clock: &ManualClock, repo: &MemoryPaperRepo) -> PaperExchange {
    PaperExchange::open(
        ACCOUNT,
        PaperConfig::with_balance(Decimal::from(INITIAL_BALANCE)),
        Arc::new(market.clone()),
        Arc::new(clock.clone()),
        Arc::new(repo.clone()),
    )
    .await
    .unwrap()
}

#[async_trait]
impl VenueFixture for PaperVenue {
    fn name(&self) -> &'static str {
        "paper"
    }

    fn guarantees(&self) -> Guarantees {
        Guarantees {
            cancels_siblings: true,
            rate_limited: false,
        }
    }

    fn exchange(&self) -> &dyn Exchange {
        &self.exchange
    }

    async fn reconnect(&self) -> Box<dyn Exchange> {
        Box::new(open(&self.market, &self.clock, &self.repo).await)
    }

    async fn move_market(&self, symbol: &Symbol, price: Decimal, _crossed: &[&str]) {
        // The account works its orders against the new price on its next call.
        self.market.set_price(symbol, price);
    }

    fn rate_limit_next_order(&self) -> bool {
        false
    }

    fn placements_sent(&self) -> usize {
        0
    }

    async fn orders_with_id(&self, client_order_id: &str) -> usize {
        let state = self.exchange.state().await;
        state
            .orders
            .iter()
            .filter(|o| o.client_order_id == client_order_id)
            .count()
    }

    fn below_minimum(&self) -> (Symbol, Decimal) {
        // 10 DOGE at 0.1 is 1 USDT, under the 5 USDT minimum.
        (Symbol::parse("DOGE").unwrap(), dec!(10))
    }
}
