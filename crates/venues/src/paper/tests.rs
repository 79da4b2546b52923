//! Paper account arithmetic, checked against numbers computed by hand in the comments.

use rust_decimal_macros::dec;

use nofxi_domain::trading::{MarginMode, PositionSide};

use super::*;
use crate::Exchange;
use crate::ManualClock;
use crate::manual::ManualMarket;

const T0: i64 = 1_767_225_600_000;

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

fn eth() -> Symbol {
    Symbol::parse("ETHUSDT").unwrap()
}

#[tokio::test]
async fn a_leveraged_long_opens_holds_and_closes_with_the_right_fees_pnl_and_liquidation() {
    let rig = Rig::new();
    rig.market.set_price(&btc(), dec!(50000));
    let ex = rig.open(PaperConfig::with_balance(dec!(1000))).await;
    ex.set_leverage(&btc(), 10).await.unwrap();
    ex.set_margin_mode(&btc(), MarginMode::Isolated)
        .await
        .unwrap();

    // Open: 0.1 BTC at 50 000 = 5 000 notional; taker fee 0.05% = 2.5; margin 5 000 / 10 = 500.
    let o = ex
        .place_order(&OrderRequest::market(btc(), Side::Buy, dec!(0.1), "open-1"))
        .await
        .unwrap();
    assert_eq!(
        (o.status, o.average_price),
        (OrderStatus::Filled, dec!(50000))
    );
    let a = ex.account().await.unwrap();
    assert_eq!(a.wallet_balance, dec!(997.5));
    assert_eq!(a.margin_used, dec!(500));
    assert_eq!(a.available, dec!(497.5));
    // Isolated liquidation: (0.1·50 000 − 500) / (0.1·(1 − 0.004)) = 4 500 / 0.0996 = 45 180.72
    let p = &ex.positions().await.unwrap()[0];
    assert_eq!(p.liquidation_price.unwrap().round_dp(2), dec!(45180.72));

    // Hold: the price rises to 52 000; unrealized +200, equity 1 197.5.
    rig.market.set_price(&btc(), dec!(52000));
    let a = ex.account().await.unwrap();
    assert_eq!((a.unrealized_pnl, a.equity), (dec!(200), dec!(1197.5)));

    // Close: fee 0.05% of 5 200 = 2.6; wallet 997.5 + 200 − 2.6 = 1 194.9.
    let close = OrderRequest::market(btc(), Side::Sell, dec!(0.1), "close-1").reduce_only();
    ex.place_order(&close).await.unwrap();
    let a = ex.account().await.unwrap();
    assert_eq!(a.wallet_balance, dec!(1194.9));
    assert_eq!((a.margin_used, a.unrealized_pnl), (dec!(0), dec!(0)));
    assert!(ex.positions().await.unwrap().is_empty());
    let fills = ex.fills(&btc(), None).await.unwrap();
    assert_eq!(fills.iter().map(|f| f.fee).sum::<Decimal>(), dec!(5.1));
    assert_eq!(fills[1].realized_pnl, dec!(200));
}

#[tokio::test]
async fn a_cross_position_is_backed_by_the_whole_wallet() {
    let rig = Rig::new();
    rig.market.set_price(&btc(), dec!(50000));
    let ex = rig.open(PaperConfig::with_balance(dec!(1000))).await;
    ex.set_leverage(&btc(), 10).await.unwrap();
    ex.place_order(&OrderRequest::market(btc(), Side::Buy, dec!(0.1), "x"))
        .await
        .unwrap();
    // Wallet after fee 997.5 backs it: (5 000 − 997.5) / 0.0996 = 40 185.74
    let p = &ex.positions().await.unwrap()[0];
    assert_eq!(p.margin_mode, MarginMode::Cross);
    assert_eq!(p.liquidation_price.unwrap().round_dp(2), dec!(40185.74));
}

#[tokio::test]
async fn an_isolated_short_is_liquidated_at_its_liquidation_price() {
    let rig = Rig::new();
    rig.market.set_price(&eth(), dec!(3000));
    let ex = rig.open(PaperConfig::with_balance(dec!(1000))).await;
    ex.set_leverage(&eth(), 5).await.unwrap();
    ex.set_margin_mode(&eth(), MarginMode::Isolated)
        .await
        .unwrap();
    // Short 1 ETH at 3 000: margin 600, fee 1.5.
    ex.place_order(&OrderRequest::market(eth(), Side::Sell, dec!(1), "s"))
        .await
        .unwrap();
    // (3 000 + 600) / (1 · 1.004) = 3 585.66
    let liq = ex.positions().await.unwrap()[0].liquidation_price.unwrap();
    assert_eq!(liq.round_dp(2), dec!(3585.66));
    rig.market.set_price(&eth(), dec!(3550));
    assert_eq!(ex.positions().await.unwrap().len(), 1, "not yet");
    rig.market.set_price(&eth(), dec!(3600));
    assert!(ex.positions().await.unwrap().is_empty(), "liquidated");
    // Closed at 3 585.657…: loss 585.66, fee 0.05% of 3 585.66 = 1.79;
    // wallet 1 000 − 1.5 − 585.66 − 1.79 = 411.05
    let a = ex.account().await.unwrap();
    assert_eq!(a.wallet_balance.round_dp(2), dec!(411.05));
    let state = ex.state().await;
    assert!(
        state
            .orders
            .iter()
            .any(|o| o.client_order_id.starts_with("liquidation-"))
    );
}

#[tokio::test]
async fn stop_loss_and_take_profit_fire_when_the_mark_crosses() {
    let rig = Rig::new();
    rig.market.set_price(&btc(), dec!(50000));
    let ex = rig.open(PaperConfig::with_balance(dec!(1000))).await;
    ex.place_order(&OrderRequest::market(btc(), Side::Buy, dec!(0.1), "open"))
        .await
        .unwrap();
    let sl = OrderRequest::trigger(
        btc(),
        OrderType::StopMarket,
        Side::Sell,
        dec!(0.1),
        dec!(49000),
        "sl",
    );
    let tp = OrderRequest::trigger(
        btc(),
        OrderType::TakeProfitMarket,
        Side::Sell,
        dec!(0.1),
        dec!(55000),
        "tp",
    );
    ex.place_order(&sl).await.unwrap();
    ex.place_order(&tp).await.unwrap();
    rig.market.set_price(&btc(), dec!(49500));
    assert_eq!(ex.open_orders(None).await.unwrap().len(), 2);
    // The stop fires at 48 900: loss 110, fee 0.05% of 4 890 = 2.445.
    rig.market.set_price(&btc(), dec!(48900));
    let a = ex.account().await.unwrap();
    assert_eq!(
        a.wallet_balance,
        dec!(1000) - dec!(2.5) - dec!(110) - dec!(2.445)
    );
    let sl = ex.order_status(&btc(), "sl").await.unwrap().unwrap();
    assert_eq!(
        (sl.status, sl.average_price),
        (OrderStatus::Filled, dec!(48900))
    );
    // The take-profit went with the position it protected (one cancels the other).
    let tp = ex.order_status(&btc(), "tp").await.unwrap().unwrap();
    assert_eq!(tp.status, OrderStatus::Canceled);
    rig.market.set_price(&btc(), dec!(56000));
    assert!(ex.positions().await.unwrap().is_empty());
}

/// One filling cancels the other: the stop that closed the position takes its take-profit
/// with it, so the old target cannot close a position opened later on the same symbol.
#[tokio::test]
async fn a_filled_stop_cancels_its_take_profit_before_the_next_position() {
    let rig = Rig::new();
    rig.market.set_price(&btc(), dec!(50000));
    let ex = rig.open(PaperConfig::with_balance(dec!(10000))).await;
    ex.place_order(&OrderRequest::market(btc(), Side::Buy, dec!(0.1), "open-1"))
        .await
        .unwrap();
    for (kind, trigger, id) in [
        (OrderType::StopMarket, dec!(49000), "sl-1"),
        (OrderType::TakeProfitMarket, dec!(55000), "tp-1"),
    ] {
        let req = OrderRequest::trigger(btc(), kind, Side::Sell, dec!(0.1), trigger, id);
        ex.place_order(&req).await.unwrap();
    }
    rig.market.set_price(&btc(), dec!(48900));
    assert!(ex.positions().await.unwrap().is_empty());
    let tp = ex.order_status(&btc(), "tp-1").await.unwrap().unwrap();
    assert_eq!(tp.status, OrderStatus::Canceled);
    assert!(ex.open_orders(None).await.unwrap().is_empty());

    // A new long, unprotected by the first one's orders: the old target does not touch it.
    ex.place_order(&OrderRequest::market(btc(), Side::Buy, dec!(0.2), "open-2"))
        .await
        .unwrap();
    rig.market.set_price(&btc(), dec!(56000));
    let held = ex.positions().await.unwrap();
    assert_eq!(held.len(), 1);
    assert_eq!(held[0].quantity, dec!(0.2));
}

/// The same in hedge mode, where closing orders name their position instead of being
/// reduce-only, and for a take-profit that fills first.
#[tokio::test]
async fn a_filled_take_profit_cancels_its_stop_in_hedge_mode() {
    let rig = Rig::new();
    rig.market.set_price(&btc(), dec!(50000));
    let ex = rig.open(PaperConfig::with_balance(dec!(10000))).await;
    ex.set_position_mode(PositionMode::Hedge).await.unwrap();
    let open = OrderRequest::market(btc(), Side::Sell, dec!(0.1), "open-s")
        .with_position_side(PositionSide::Short);
    ex.place_order(&open).await.unwrap();
    for (kind, trigger, id) in [
        (OrderType::StopMarket, dec!(51000), "sl-s"),
        (OrderType::TakeProfitMarket, dec!(47000), "tp-s"),
    ] {
        let mut req = OrderRequest::trigger(btc(), kind, Side::Buy, dec!(0.1), trigger, id)
            .with_position_side(PositionSide::Short);
        req.reduce_only = false;
        ex.place_order(&req).await.unwrap();
    }
    rig.market.set_price(&btc(), dec!(46900));
    assert!(ex.positions().await.unwrap().is_empty());
    let sl = ex.order_status(&btc(), "sl-s").await.unwrap().unwrap();
    assert_eq!(sl.status, OrderStatus::Canceled);
    let again = OrderRequest::market(btc(), Side::Sell, dec!(0.3), "open-s2")
        .with_position_side(PositionSide::Short);
    ex.place_order(&again).await.unwrap();
    rig.market.set_price(&btc(), dec!(51500));
    assert_eq!(ex.positions().await.unwrap()[0].quantity, dec!(0.3));
}

#[tokio::test]
async fn slippage_and_maker_fills_follow_the_config() {
    let rig = Rig::new();
    rig.market.set_price(&btc(), dec!(50000));
    let config = PaperConfig {
        slippage_bps: dec!(10),
        ..PaperConfig::with_balance(dec!(10000))
    };
    let ex = rig.open(config).await;
    // 10 bp worse than 50 000 = 50 050.
    let o = ex
        .place_order(&OrderRequest::market(btc(), Side::Buy, dec!(0.01), "m"))
        .await
        .unwrap();
    assert_eq!(o.average_price, dec!(50050));
    // A resting buy at 49 000 fills at its price, as maker (0.02% of 490 = 0.098).
    let l = ex
        .place_order(&OrderRequest::limit(
            btc(),
            Side::Buy,
            dec!(0.01),
            dec!(49000),
            "l",
        ))
        .await
        .unwrap();
    assert_eq!(l.status, OrderStatus::New);
    rig.market.set_price(&btc(), dec!(48950));
    let l = ex.order_status(&btc(), "l").await.unwrap().unwrap();
    assert_eq!(
        (l.status, l.average_price),
        (OrderStatus::Filled, dec!(49000))
    );
    let f = ex.fills(&btc(), None).await.unwrap();
    assert_eq!((f[1].is_maker, f[1].fee), (true, dec!(0.098)));
    // Average entry of 0.01 @ 50 050 and 0.01 @ 49 000 = 49 525.
    assert_eq!(ex.positions().await.unwrap()[0].entry_price, dec!(49525));
}

#[tokio::test]
async fn refusals_are_typed_like_binance() {
    let rig = Rig::new();
    rig.market.set_price(&btc(), dec!(50000));
    let ex = rig.open(PaperConfig::with_balance(dec!(100))).await;
    ex.set_leverage(&btc(), 10).await.unwrap();
    let rules = ex.symbol_rules(&btc()).await.unwrap();
    assert_eq!(
        (rules.min_notional, rules.round_quantity(dec!(0.123456))),
        (dec!(5), dec!(0.123456))
    );
    let big = ex
        .place_order(&OrderRequest::market(btc(), Side::Buy, dec!(0.1), "big"))
        .await
        .unwrap_err();
    assert_eq!(
        (big.kind(), big.code()),
        (Some(RejectKind::InsufficientMargin), Some(-2019))
    );
    let tiny = ex
        .place_order(&OrderRequest::market(
            btc(),
            Side::Buy,
            dec!(0.00001),
            "tiny",
        ))
        .await
        .unwrap_err();
    assert_eq!(tiny.kind(), Some(RejectKind::NotionalTooSmall));
    let hedge = OrderRequest::market(btc(), Side::Buy, dec!(0.001), "h")
        .with_position_side(PositionSide::Long);
    let e = ex.place_order(&hedge).await.unwrap_err();
    assert_eq!(e.code(), Some(-4061));
    let nothing = OrderRequest::market(btc(), Side::Sell, dec!(0.001), "r").reduce_only();
    assert_eq!(
        ex.place_order(&nothing).await.unwrap_err().code(),
        Some(-2022)
    );
}

#[tokio::test]
async fn hedge_mode_keeps_long_and_short_apart_and_one_way_flips() {
    let rig = Rig::new();
    rig.market.set_price(&btc(), dec!(50000));
    let ex = rig.open(PaperConfig::with_balance(dec!(10000))).await;
    // One-way: buy 0.01 then sell 0.03 leaves a 0.02 short.
    ex.place_order(&OrderRequest::market(btc(), Side::Buy, dec!(0.01), "a"))
        .await
        .unwrap();
    ex.place_order(&OrderRequest::market(btc(), Side::Sell, dec!(0.03), "b"))
        .await
        .unwrap();
    let p = ex.positions().await.unwrap();
    assert_eq!(
        (p.len(), p[0].side, p[0].quantity),
        (1, PositionSide::Short, dec!(0.02))
    );
    ex.place_order(&OrderRequest::market(btc(), Side::Buy, dec!(0.02), "c"))
        .await
        .unwrap();
    ex.set_position_mode(PositionMode::Hedge).await.unwrap();
    let long = OrderRequest::market(btc(), Side::Buy, dec!(0.01), "l")
        .with_position_side(PositionSide::Long);
    let short = OrderRequest::market(btc(), Side::Sell, dec!(0.01), "s")
        .with_position_side(PositionSide::Short);
    ex.place_order(&long).await.unwrap();
    ex.place_order(&short).await.unwrap();
    assert_eq!(ex.positions().await.unwrap().len(), 2);
}

#[tokio::test]
async fn a_repeated_client_order_id_returns_the_first_order() {
    let rig = Rig::new();
    rig.market.set_price(&btc(), dec!(50000));
    let ex = rig.open(PaperConfig::default()).await;
    let req = OrderRequest::market(btc(), Side::Buy, dec!(0.01), "same");
    let a = ex.place_order(&req).await.unwrap();
    let b = ex.place_order(&req).await.unwrap();
    assert_eq!(a, b);
    assert_eq!(ex.fills(&btc(), None).await.unwrap().len(), 1);
}

#[tokio::test]
async fn the_account_survives_a_restart() {
    let rig = Rig::new();
    rig.market.set_price(&btc(), dec!(50000));
    let ex = rig.open(PaperConfig::with_balance(dec!(1000))).await;
    ex.set_leverage(&btc(), 20).await.unwrap();
    ex.place_order(&OrderRequest::market(btc(), Side::Buy, dec!(0.1), "o"))
        .await
        .unwrap();
    let sl = OrderRequest::trigger(
        btc(),
        OrderType::StopMarket,
        Side::Sell,
        dec!(0.1),
        dec!(48000),
        "sl",
    );
    ex.place_order(&sl).await.unwrap();
    let before = ex.state().await;
    drop(ex);
    let again = rig.open(PaperConfig::with_balance(dec!(999999))).await;
    assert_eq!(again.state().await, before);
    assert_eq!(again.account().await.unwrap().wallet_balance, dec!(997.5));
    rig.market.set_price(&btc(), dec!(47000));
    assert!(
        again.positions().await.unwrap().is_empty(),
        "the reloaded stop still fires"
    );
}

mod bars {
    use nofxi_domain::market::Candle;

    use super::*;

    fn bar(open: Decimal, high: Decimal, low: Decimal, close: Decimal) -> Candle {
        Candle {
            open_time_ms: T0,
            open,
            high,
            low,
            close,
            volume: Decimal::ONE,
        }
    }

    async fn long_with_stop(rig: &Rig, stop: Decimal) -> PaperExchange {
        long_with_stop_in(rig, stop, PaperConfig::with_balance(dec!(1000))).await
    }

    /// Bars of a random walk from 50 000 in steps of up to 1 500, with wicks of up to 400.
    fn random_bars(seed: u64, n: usize) -> Vec<Candle> {
        let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut next = move |spread: i64| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            (rng % (2 * spread as u64 + 1)) as i64 - spread
        };
        let mut close = 50_000i64;
        (0..n)
            .map(|_| {
                let open = close;
                close = (open + next(1_500)).max(1_000);
                let high = open.max(close) + next(400).abs();
                let low = open.min(close) - next(400).abs();
                bar(
                    Decimal::from(open),
                    Decimal::from(high),
                    Decimal::from(low),
                    Decimal::from(close),
                )
            })
            .collect()
    }

    async fn long_with_stop_in(rig: &Rig, stop: Decimal, config: PaperConfig) -> PaperExchange {
        rig.market.set_price(&btc(), dec!(50000));
        let ex = rig.open(config).await;
        ex.set_leverage(&btc(), 10).await.unwrap();
        ex.set_margin_mode(&btc(), MarginMode::Isolated)
            .await
            .unwrap();
        ex.place_order(&OrderRequest::market(btc(), Side::Buy, dec!(0.1), "open"))
            .await
            .unwrap();
        let sl = OrderRequest::trigger(
            btc(),
            OrderType::StopMarket,
            Side::Sell,
            dec!(0.1),
            stop,
            "sl",
        );
        ex.place_order(&sl).await.unwrap();
        let tp = OrderRequest::trigger(
            btc(),
            OrderType::TakeProfitMarket,
            Side::Sell,
            dec!(0.1),
            dec!(55000),
            "tp",
        );
        ex.place_order(&tp).await.unwrap();
        ex
    }

    /// Liquidation prices are cached between fills: another stop (an order without a fill)
    /// leaves the price as it was, a fill that adds to the position moves it.
    #[tokio::test]
    async fn the_liquidation_price_follows_every_fill() {
        let rig = Rig::new();
        let ex = long_with_stop(&rig, dec!(48000)).await;
        let first = ex.positions().await.unwrap()[0].liquidation_price;
        let another = OrderRequest::trigger(
            btc(),
            OrderType::StopMarket,
            Side::Sell,
            dec!(0.1),
            dec!(47000),
            "sl-2",
        );
        ex.place_order(&another).await.unwrap();
        assert_eq!(ex.positions().await.unwrap()[0].liquidation_price, first);

        rig.market.set_price(&btc(), dec!(52000));
        let add = OrderRequest::market(btc(), Side::Buy, dec!(0.05), "add-1");
        ex.place_order(&add).await.unwrap();
        let after = ex.positions().await.unwrap()[0].liquidation_price;
        assert_ne!(after, first);
        // As a state without any cached price computes it.
        let mmr = PaperConfig::default().maintenance_margin_rate;
        let fresh = ex.state().await.positions_view(mmr);
        assert_eq!(after, fresh[0].liquidation_price);
    }

    /// A cross short on BTC with a stop and a target, leveraged so that bars reach its
    /// liquidation price; with `and_eth`, a cross long on ETH too, whose P&L moves BTC's
    /// liquidation price (no band can be cached then).
    async fn short_with_stops(rig: &Rig, stop: Decimal, and_eth: bool) -> PaperExchange {
        rig.market.set_price(&btc(), dec!(50000));
        rig.market.set_price(&eth(), dec!(3000));
        let ex = rig.open(PaperConfig::with_balance(dec!(300))).await;
        ex.set_leverage(&btc(), 20).await.unwrap();
        ex.place_order(&OrderRequest::market(btc(), Side::Sell, dec!(0.1), "open"))
            .await
            .unwrap();
        for (t, level, id) in [
            (OrderType::StopMarket, stop, "sl"),
            (OrderType::TakeProfitMarket, dec!(47000), "tp"),
        ] {
            let req = OrderRequest::trigger(btc(), t, Side::Buy, dec!(0.1), level, id);
            ex.place_order(&req).await.unwrap();
        }
        if and_eth {
            ex.set_leverage(&eth(), 50).await.unwrap();
            ex.place_order(&OrderRequest::market(eth(), Side::Buy, dec!(0.5), "eth"))
                .await
                .unwrap();
        }
        ex
    }

    #[tokio::test]
    async fn a_wick_through_the_stop_closes_the_position_even_if_the_bar_recovers() {
        let rig = Rig::new();
        let ex = long_with_stop(&rig, dec!(49000)).await;
        ex.process_bar(
            &btc(),
            &bar(dec!(50000), dec!(50500), dec!(48800), dec!(50200)),
        )
        .await
        .unwrap();
        let state = ex.state().await;
        assert!(state.positions.is_empty());
        // 1 000 − 2.5 (open fee) − 100 (loss at 49 000) − 2.45 (0.05% of 4 900) = 895.05
        assert_eq!(state.wallet_balance, dec!(895.05));
        // The take-profit went with the position: reaching its price later does nothing.
        ex.process_bar(
            &btc(),
            &bar(dec!(54000), dec!(56000), dec!(53900), dec!(55500)),
        )
        .await
        .unwrap();
        let tp = ex
            .state()
            .await
            .orders
            .into_iter()
            .find(|o| o.client_order_id == "tp")
            .unwrap();
        assert_eq!(tp.status, OrderStatus::Canceled);
    }

    /// The quiet test must agree with the worker: a bar called quiet is one the worker would
    /// only have marked, and the account read from local state is the one `account()` reads.
    /// Bars wander around the stop, the take-profit and the liquidation price, so both answers
    /// come up many times.
    #[tokio::test]
    async fn a_quiet_bar_is_one_the_worker_would_only_mark() {
        let mut quiet_bars = 0;
        let mut busy_bars = 0;
        let mut run_steps = 0;
        for seed in 0..60u64 {
            let rig = Rig::new();
            // Stops before and beyond the liquidation price (long ~45 181, short ~52 764).
            let ex = match seed % 4 {
                0 => long_with_stop(&rig, dec!(48000)).await,
                1 => long_with_stop(&rig, dec!(44000)).await,
                2 => short_with_stops(&rig, dec!(53500), false).await,
                _ => short_with_stops(&rig, dec!(52500), true).await,
            };
            for candle in random_bars(seed, 60) {
                let before = ex.state().await;
                let mut probe = before.clone();
                let quiet = quiet::bar_is_quiet(&mut probe, &btc(), &candle, dec!(0.004));
                let mut worked = before.clone();
                ex.work_bar(&mut worked, &btc(), &candle);
                let mut marked = before.clone();
                set_mark(&mut marked, &btc(), candle.close);
                // Both ways: a bar called busy must really be worked, or the fast path is
                // merely slow where it could be fast.
                assert_eq!(quiet, worked == marked, "quiet {quiet} on {candle:?}");
                if quiet {
                    quiet_bars += 1;
                } else {
                    busy_bars += 1;
                }
                ex.process_bar(&btc(), &candle).await.unwrap();
                assert_eq!(ex.state().await, worked, "process_bar is the worker");
            }
        }
        // Quiet steps taken in runs leave the account, and the equity after each step, as
        // the bar-by-bar path does; steps the caller does not call idle are left to it.
        let bar_quotes = PaperConfig {
            quotes: Quotes::Bars,
            ..PaperConfig::with_balance(dec!(1000))
        };
        for seed in 0..12u64 {
            let walk = random_bars(seed, 300);
            let (one, other) = (Rig::new(), Rig::new());
            let (by_bar, by_run) = (
                long_with_stop_in(&one, dec!(48000), bar_quotes.clone()).await,
                long_with_stop_in(&other, dec!(48000), bar_quotes.clone()).await,
            );
            let mut expected = Vec::new();
            for bar in &walk {
                by_bar.process_bar(&btc(), bar).await.unwrap();
                expected.push(by_bar.account().await.unwrap().equity);
            }
            let mut equity = Vec::new();
            let mut t = 0;
            while t < walk.len() {
                let held_now: Vec<Symbol> = by_run
                    .positions()
                    .await
                    .unwrap()
                    .into_iter()
                    .map(|p| p.symbol)
                    .collect();
                assert_eq!(by_run.held_symbols(), Some(held_now));
                let (symbols, candles) = ([btc()], [&walk[t..]]);
                let run = BarRun {
                    symbols: &symbols,
                    candles: &candles,
                };
                // The caller's idle steps end before every step 5 mod 11.
                let idle = (0..).take_while(|step| (t + step) % 11 != 5).count();
                let taken = by_run.take_quiet_steps(&run, idle, &mut equity);
                run_steps += taken;
                t += taken;
                if let Some(bar) = walk.get(t) {
                    by_run.process_bar(&btc(), bar).await.unwrap();
                    equity.push(by_run.account().await.unwrap().equity);
                    t += 1;
                }
            }
            // To the digit: the same value at another scale prints differently in a report.
            let digits = |e: &[Decimal]| e.iter().map(|d| d.serialize()).collect::<Vec<_>>();
            assert_eq!(digits(&equity), digits(&expected), "seed {seed}");
            assert_eq!(by_run.state().await, by_bar.state().await, "seed {seed}");
        }
        assert!(
            quiet_bars > 500 && busy_bars > 20,
            "{quiet_bars} quiet, {busy_bars} busy"
        );
        assert!(run_steps > 2_000, "{run_steps}");
    }

    #[tokio::test]
    async fn liquidation_comes_first_when_the_stop_is_beyond_it() {
        let rig = Rig::new();
        // Liquidation at 45 180.72 is above this stop: falling through, it is hit first.
        let ex = long_with_stop(&rig, dec!(44000)).await;
        ex.process_bar(
            &btc(),
            &bar(dec!(50000), dec!(50000), dec!(43000), dec!(43500)),
        )
        .await
        .unwrap();
        let state = ex.state().await;
        assert!(state.positions.is_empty());
        assert!(
            state
                .orders
                .iter()
                .any(|o| o.client_order_id.starts_with("liquidation-"))
        );
        let sl = state
            .orders
            .iter()
            .find(|o| o.client_order_id == "sl")
            .unwrap();
        assert_eq!(sl.status, OrderStatus::Expired);
    }
}

#[test]
fn finished_orders_are_bounded_and_open_ones_kept() {
    use nofxi_domain::trading::{Order, OrderStatus, OrderType, Side};
    let mut st = PaperState::new(&PaperConfig::default());
    let order = |i: usize, status| Order {
        order_id: i.to_string(),
        client_order_id: format!("c{i}"),
        symbol: nofxi_domain::market::Symbol::parse("BTCUSDT").unwrap(),
        side: Side::Buy,
        order_type: OrderType::StopMarket,
        status,
        quantity: Decimal::ONE,
        price: None,
        stop_price: None,
        executed_quantity: Decimal::ZERO,
        average_price: Decimal::ZERO,
        reduce_only: true,
        position_side: None,
        updated_ms: 0,
    };
    st.push_order(order(0, OrderStatus::New));
    for i in 1..=3000 {
        st.push_order(order(i, OrderStatus::Filled));
    }
    let finished = st.orders.iter().filter(|o| !o.status.is_open()).count();
    assert!(
        (crate::paper::state::KEPT_FINISHED_ORDERS..=1250).contains(&finished),
        "{finished}"
    );
    assert_eq!(
        st.orders[0].client_order_id, "c0",
        "the open order was dropped"
    );
    assert_eq!(
        st.orders.last().unwrap().client_order_id,
        "c3000",
        "the newest finished order was dropped"
    );
}
