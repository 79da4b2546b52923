//! Funding on a paper account that follows a venue: settled once per funding time at the rate
//! announced for it, across restarts, and never for a time a position was not held at.

use rust_decimal_macros::dec;

use nofxi_domain::trading::{MarginMode, PositionSide};

use super::*;
use crate::manual::ManualMarket;
use crate::{Exchange, ManualClock};

const T0: i64 = 1_767_225_600_000;
const HOUR: i64 = 3_600_000;

struct Rig {
    market: ManualMarket,
    repo: MemoryPaperRepo,
    clock: ManualClock,
}

impl Rig {
    fn new() -> Rig {
        let clock = ManualClock::new(T0);
        Rig {
            market: ManualMarket::new(Arc::new(clock.clone())),
            repo: MemoryPaperRepo::default(),
            clock,
        }
    }

    async fn open(&self, config: PaperConfig) -> PaperExchange {
        PaperExchange::open(
            "acct",
            config,
            Arc::new(self.market.clone()),
            Arc::new(self.clock.clone()),
            Arc::new(self.repo.clone()),
        )
        .await
        .unwrap()
    }
}

fn btc() -> Symbol {
    Symbol::parse("BTCUSDT").unwrap()
}

fn on_binance() -> PaperConfig {
    PaperConfig::with_balance(dec!(10000)).following("binance")
}

#[tokio::test]
async fn a_long_pays_the_announced_rate_once_at_the_funding_time_even_after_a_restart() {
    let rig = Rig::new();
    rig.market.set_price(&btc(), dec!(50000));
    rig.market.set_funding(&btc(), dec!(0.0001), T0 + HOUR);
    let ex = rig.open(on_binance()).await;
    // 0.1 BTC at 50 000: Binance's taker fee 0.05 % of 5 000 = 2.5.
    ex.place_order(&OrderRequest::market(btc(), Side::Buy, dec!(0.1), "open"))
        .await
        .unwrap();
    // Read before the funding time: the announcement is kept, nothing is paid yet.
    assert_eq!(ex.account().await.unwrap().wallet_balance, dec!(9997.5));
    assert_eq!(ex.funding_payments(None).await.unwrap(), Some(Vec::new()));

    // Past the funding time, at a mark of 52 000: the long pays 0.1 × 52 000 × 0.0001 = 0.52.
    rig.clock.set(T0 + HOUR + 1_000);
    rig.market.set_price(&btc(), dec!(52000));
    let a = ex.account().await.unwrap();
    assert_eq!(a.wallet_balance, dec!(9996.98));
    let paid = ex.funding_payments(None).await.unwrap().unwrap();
    assert_eq!(paid.len(), 1);
    let p = &paid[0];
    assert_eq!(
        (p.side, p.quantity, p.mark_price, p.rate, p.amount),
        (
            PositionSide::Long,
            dec!(0.1),
            dec!(52000),
            dec!(0.0001),
            dec!(-0.52)
        )
    );
    assert_eq!(
        (p.funding_time_ms, p.booked_ms),
        (T0 + HOUR, T0 + HOUR + 1_000)
    );
    assert_eq!(p.said(), "paid 0.52 USDT");

    // Read again, and opened again from what was saved: the same time is never paid twice.
    ex.account().await.unwrap();
    drop(ex);
    let again = rig.open(on_binance()).await;
    rig.clock.set(T0 + HOUR + 60_000);
    assert_eq!(again.account().await.unwrap().wallet_balance, dec!(9996.98));
    assert_eq!(
        again.funding_payments(None).await.unwrap().unwrap().len(),
        1
    );
    let later = again
        .funding_payments(Some(T0 + HOUR + 1_000))
        .await
        .unwrap();
    assert_eq!(later, Some(Vec::new()));

    // The venue announces the next time; read once the old read is stale, then settled there.
    rig.market.set_funding(&btc(), dec!(0.0002), T0 + 2 * HOUR);
    rig.clock
        .set(T0 + HOUR + 60_000 + funding::FUNDING_REFRESH_MS);
    again.account().await.unwrap();
    rig.clock.set(T0 + 2 * HOUR);
    // 0.1 × 52 000 × 0.0002 = 1.04.
    assert_eq!(again.account().await.unwrap().wallet_balance, dec!(9995.94));
    assert_eq!(
        again.funding_payments(None).await.unwrap().unwrap().len(),
        2
    );
}

#[tokio::test]
async fn an_isolated_short_pays_a_negative_rate_from_its_own_margin() {
    let rig = Rig::new();
    rig.market.set_price(&btc(), dec!(40000));
    rig.market.set_funding(&btc(), dec!(-0.0005), T0 + 8 * HOUR);
    let ex = rig.open(on_binance()).await;
    ex.set_leverage(&btc(), 4).await.unwrap();
    ex.set_margin_mode(&btc(), MarginMode::Isolated)
        .await
        .unwrap();
    // 0.5 BTC at 40 000 = 20 000 notional: margin 5 000, taker fee 10.
    ex.place_order(&OrderRequest::market(btc(), Side::Sell, dec!(0.5), "short"))
        .await
        .unwrap();
    let before = ex.positions().await.unwrap()[0].clone();
    assert_eq!(before.margin, dec!(5000));
    rig.clock.set(T0 + 8 * HOUR);
    // Shorts pay a negative rate: 0.5 × 40 000 × 0.0005 = 10, from the wallet and the margin.
    let (a, positions) = ex.account_and_positions().await.unwrap();
    assert_eq!(a.wallet_balance, dec!(9980));
    assert_eq!(positions[0].margin, dec!(4990));
    // Less margin brings the liquidation price closer: (0.5·40 000 + 4 990) / (0.5·1.004).
    assert_eq!(
        positions[0].liquidation_price.unwrap().round_dp(2),
        dec!(49780.88)
    );
    assert!(positions[0].liquidation_price < before.liquidation_price);
}

#[tokio::test]
async fn a_position_reopened_after_a_funding_time_owes_nothing_for_it() {
    let rig = Rig::new();
    rig.market.set_price(&btc(), dec!(50000));
    rig.market.set_funding(&btc(), dec!(0.0001), T0 + HOUR);
    let ex = rig.open(on_binance()).await;
    ex.place_order(&OrderRequest::market(btc(), Side::Buy, dec!(0.1), "open"))
        .await
        .unwrap();
    ex.account().await.unwrap();
    // Closed before the funding time, opened again after it: not held at it, nothing owed.
    ex.place_order(&OrderRequest::market(btc(), Side::Sell, dec!(0.1), "close"))
        .await
        .unwrap();
    rig.clock.set(T0 + HOUR + 5_000);
    ex.place_order(&OrderRequest::market(btc(), Side::Buy, dec!(0.1), "again"))
        .await
        .unwrap();
    ex.account().await.unwrap();
    assert_eq!(ex.funding_payments(None).await.unwrap(), Some(Vec::new()));
    // Three fills at 50 000, 0.05 % each: 7.5 in fees and no funding.
    assert_eq!(ex.account().await.unwrap().wallet_balance, dec!(9992.5));
}

#[tokio::test]
async fn the_simulated_market_settles_no_funding() {
    let rig = Rig::new();
    rig.market.set_price(&btc(), dec!(50000));
    rig.market.set_funding(&btc(), dec!(0.01), T0 + HOUR);
    let ex = rig.open(PaperConfig::with_balance(dec!(10000))).await;
    ex.place_order(&OrderRequest::market(btc(), Side::Buy, dec!(0.1), "open"))
        .await
        .unwrap();
    ex.account().await.unwrap();
    rig.clock.set(T0 + 2 * HOUR);
    assert_eq!(ex.account().await.unwrap().wallet_balance, dec!(9997.5));
    assert_eq!(ex.funding_payments(None).await.unwrap(), None);
    assert!(ex.state().await.funding.is_empty());
}
