//! A trader's P&L baseline: recorded at its first start, kept by every later start (a restart
//! on a grown account is not a new start), renewed only when the trader moves to another
//! account; a paper trader's is its sub-account's initial balance.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

use std::sync::Arc;

use nofxi_domain::{Actor, Channel, ExchangeSpec, TraderPatch, TraderSpec};
use nofxi_store::test_support::{PaperBasics, seed_paper_basics, sqlite_store};
use nofxi_trader::runtime::baseline::{PnlBasis, pnl_basis, record_first_start};
use nofxi_trader::runtime::preflight::preflight;
use nofxi_venues::SystemClock;
use rust_decimal::Decimal;

#[tokio::test]
async fn the_first_start_is_kept_across_restarts_and_renewed_on_another_account() {
    let ts = sqlite_store().await.unwrap();
    let actor = Actor::new("u1", Channel::Cli, true);
    let basics = seed_paper_basics(&ts, &actor, PaperBasics::default())
        .await
        .unwrap();
    let spec = TraderSpec::new(
        "alpha",
        &basics.model.id,
        &basics.exchange.id,
        &basics.strategy.id,
        Decimal::from(1_500),
    );
    let (trader, _) = ts.create_trader(&actor, spec).await.unwrap();
    // A paper trader's preflight records the balance its sub-account was funded with.
    preflight(ts.store.clone(), "u1", &trader.id, Arc::new(SystemClock))
        .await
        .unwrap();
    let basis = pnl_basis(&ts, "u1", &trader, true).await.unwrap();
    assert!(matches!(basis, PnlBasis::FirstStart(_)), "{basis:?}");
    assert_eq!(basis.equity(), Decimal::from(1_500));
    // A later edit of initial_balance does not move the start the sub-account was funded at.
    let patch = TraderPatch {
        initial_balance: Some(Decimal::from(9_000)),
        ..TraderPatch::default()
    };
    let edited = ts.update_trader(&actor, &trader.id, patch).await.unwrap().0;
    preflight(ts.store.clone(), "u1", &trader.id, Arc::new(SystemClock))
        .await
        .unwrap();
    let basis = pnl_basis(&ts, "u1", &edited, true).await.unwrap();
    assert_eq!(basis.equity(), Decimal::from(1_500));

    // A live start keeps the equity it found; a restart on a grown account keeps it too.
    let live = record_first_start(&ts, "u1", &edited, false, Decimal::from(12_400))
        .await
        .unwrap();
    assert_eq!(live.equity, Decimal::from(1_500), "same account: kept");
    let other = ts
        .create_exchange(
            &actor,
            ExchangeSpec {
                exchange_type: "paper".into(),
                account_name: "other".into(),
                enabled: true,
                testnet: false,
            },
            nofxi_domain::Credentials::new(),
        )
        .await
        .unwrap();
    let patch = TraderPatch {
        exchange_id: Some(other.id.clone()),
        ..TraderPatch::default()
    };
    let moved = ts.update_trader(&actor, &trader.id, patch).await.unwrap().0;
    let first = record_first_start(&ts, "u1", &moved, false, Decimal::from(12_400))
        .await
        .unwrap();
    assert_eq!(
        first.equity,
        Decimal::from(12_400),
        "another account: a new start"
    );
    let again = record_first_start(&ts, "u1", &moved, false, Decimal::from(13_000))
        .await
        .unwrap();
    assert_eq!(again, first, "a restart is not a new start");
    let basis = pnl_basis(&ts, "u1", &moved, false).await.unwrap();
    assert_eq!(basis.pnl(Decimal::from(12_400)).0, Decimal::ZERO);
}
