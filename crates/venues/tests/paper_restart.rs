//! A paper account keeps its state in the real store (SQLite file) and survives a restart:
//! the exchange and the store are both dropped and opened again from the same file.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

use std::sync::Arc;

use async_trait::async_trait;
use nofxi_domain::market::Symbol;
use nofxi_domain::trading::{MarginMode, OrderRequest, OrderType, Side};
use nofxi_store::test_support::{TEST_KEY_HEX, sqlite_store};
use nofxi_store::{Database, KeySpec, Store, StoreConfig};
use nofxi_venues::manual::ManualMarket;
use nofxi_venues::paper::{PaperConfig, PaperExchange, PaperStateRepo};
use nofxi_venues::{Exchange, ManualClock, VenueError};
use rust_decimal_macros::dec;
use serde_json::Value;

/// The adapter the application uses: scope `paper`, key = the exchange config's id.
struct StoreRepo {
    store: Arc<Store>,
    user: String,
}

#[async_trait]
impl PaperStateRepo for StoreRepo {
    async fn load(&self, account: &str) -> Result<Option<Value>, VenueError> {
        self.store
            .get_state(&self.user, "paper", account)
            .await
            .map_err(|e| VenueError::Storage(e.to_string()))
    }

    async fn save(&self, account: &str, state: &Value) -> Result<(), VenueError> {
        self.store
            .put_state(&self.user, "paper", account, state)
            .await
            .map_err(|e| VenueError::Storage(e.to_string()))
    }
}

#[tokio::test]
async fn a_paper_account_survives_a_restart_on_a_real_sqlite_file() {
    let test_store = sqlite_store().await.unwrap();
    let db_path = test_store.home().join(nofxi_store::SQLITE_FILE_NAME);
    let clock = ManualClock::new(1_767_225_600_000);
    let market = ManualMarket::new(Arc::new(clock.clone()));
    let btc = Symbol::parse("比特币").unwrap();
    market.set_price(&btc, dec!(50000));

    let open = |store: Arc<Store>| {
        let (market, clock) = (market.clone(), clock.clone());
        async move {
            let repo = StoreRepo {
                store,
                user: "local".into(),
            };
            PaperExchange::open(
                "paper-1",
                PaperConfig::with_balance(dec!(1000)),
                Arc::new(market),
                Arc::new(clock),
                Arc::new(repo),
            )
            .await
            .unwrap()
        }
    };

    let first_store = Arc::new(
        Store::open_with(StoreConfig {
            database: Database::SqliteFile(db_path.clone()),
            key: KeySpec::Text(zeroize::Zeroizing::new(TEST_KEY_HEX.into())),
        })
        .await
        .unwrap(),
    );
    let ex = open(first_store.clone()).await;
    ex.set_leverage(&btc, 10).await.unwrap();
    ex.set_margin_mode(&btc, MarginMode::Isolated)
        .await
        .unwrap();
    ex.place_order(&OrderRequest::market(
        btc.clone(),
        Side::Buy,
        dec!(0.1),
        "open",
    ))
    .await
    .unwrap();
    let stop = OrderRequest::trigger(
        btc.clone(),
        OrderType::StopMarket,
        Side::Sell,
        dec!(0.1),
        dec!(48000),
        "sl",
    );
    ex.place_order(&stop).await.unwrap();
    let before = ex.state().await;
    drop(ex);
    first_store.close().await;
    drop(first_store);

    // Restart: a new store on the same file, a new exchange.
    let second_store = Arc::new(
        Store::open_with(StoreConfig {
            database: Database::SqliteFile(db_path),
            key: KeySpec::Text(zeroize::Zeroizing::new(TEST_KEY_HEX.into())),
        })
        .await
        .unwrap(),
    );
    let ex = open(second_store).await;
    assert_eq!(ex.state().await, before);
    let account = ex.account().await.unwrap();
    assert_eq!(
        (account.wallet_balance, account.margin_used),
        (dec!(997.5), dec!(500))
    );
    let p = &ex.positions().await.unwrap()[0];
    assert_eq!(p.liquidation_price.unwrap().round_dp(2), dec!(45180.72));
    // The stop placed before the restart still protects the position.
    market.set_price(&btc, dec!(47900));
    assert!(ex.positions().await.unwrap().is_empty());
    drop(test_store);
}
