use super::*;
use crate::ManualClock;

const NOW: i64 = 1_767_225_600_000 + 123_456; // 2026-01-01 plus a bit

fn market(seed: u64) -> SimMarket {
    SimMarket::new(seed, Arc::new(ManualClock::new(NOW)))
}

fn btc() -> Symbol {
    Symbol::parse("BTCUSDT").unwrap()
}

#[tokio::test]
async fn the_same_query_gives_the_same_candles_whatever_was_asked_before() {
    let a = market(7);
    let first = a
        .klines(&btc(), Interval::H1, KlineQuery::latest(50))
        .await
        .unwrap();
    let b = market(7);
    let _ = b
        .klines(&btc(), Interval::D1, KlineQuery::latest(10))
        .await
        .unwrap();
    let _ = b
        .klines(
            &Symbol::parse("ETH").unwrap(),
            Interval::M5,
            KlineQuery::latest(10),
        )
        .await;
    let second = b
        .klines(&btc(), Interval::H1, KlineQuery::latest(50))
        .await
        .unwrap();
    assert_eq!(first, second);
    assert_eq!(first.len(), 50);
    let other_seed = market(8)
        .klines(&btc(), Interval::H1, KlineQuery::latest(50))
        .await
        .unwrap();
    assert_ne!(first, other_seed);
}

#[tokio::test]
async fn longer_intervals_are_exact_aggregates_of_shorter_ones() {
    let m = market(1);
    let h4 = m.candle(&btc(), Interval::H4, NOW - 10 * 3_600_000);
    let hours: Vec<Candle> = (0..4)
        .map(|i| m.candle(&btc(), Interval::H1, h4.open_time_ms + i * 3_600_000))
        .collect();
    assert_eq!(h4.open, hours[0].open);
    assert_eq!(h4.close, hours[3].close);
    assert_eq!(h4.high, hours.iter().map(|c| c.high).max().unwrap());
    assert_eq!(h4.low, hours.iter().map(|c| c.low).min().unwrap());
    assert_eq!(h4.volume, hours.iter().map(|c| c.volume).sum::<Decimal>());
    for c in hours {
        assert!(c.low <= c.open.min(c.close) && c.high >= c.open.max(c.close));
    }
}

#[tokio::test]
async fn every_interval_is_served_and_only_closed_candles() {
    let m = market(3);
    for interval in Interval::ALL {
        let c = m
            .klines(&btc(), interval, KlineQuery::latest(3))
            .await
            .unwrap();
        assert_eq!(c.len(), 3, "{interval}");
        let step = interval.millis();
        assert!(
            c[2].open_time_ms + step <= NOW,
            "{interval} latest candle is not closed"
        );
        assert_eq!(c[1].open_time_ms + step, c[2].open_time_ms);
    }
}

#[tokio::test]
async fn symbols_have_their_own_levels_and_the_live_quotes_are_consistent() {
    let m = market(3);
    let btc_t = m.ticker(&btc()).await.unwrap();
    let doge = m.ticker(&Symbol::parse("DOGE").unwrap()).await.unwrap();
    assert!(btc_t.last > Decimal::from(20_000) && doge.last < Decimal::from(2));
    assert!(btc_t.bid < btc_t.last && btc_t.last < btc_t.ask);
    let book = m.order_book(&btc(), 5).await.unwrap();
    assert_eq!(book.bids.len(), 5);
    assert!(book.best_bid().unwrap() < book.best_ask().unwrap());
    let funding = m.funding_rate(&btc()).await.unwrap().unwrap();
    assert!(funding.next_funding_time_ms > NOW);
}

mod properties {
    use proptest::prelude::*;

    use super::*;

    /// (longer, shorter) pairs where the shorter interval tiles the longer one exactly.
    const NESTED: [(Interval, Interval); 6] = [
        (Interval::M5, Interval::M1),
        (Interval::M15, Interval::M5),
        (Interval::H1, Interval::M15),
        (Interval::H4, Interval::H1),
        (Interval::D1, Interval::H4),
        (Interval::W1, Interval::D1),
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        #[test]
        fn any_candle_is_the_aggregate_of_its_parts(
            pair in 0usize..NESTED.len(),
            seed in any::<u64>(),
            offset_min in 0i64..5_000_000,
        ) {
            let (long, short) = NESTED[pair];
            let m = market(seed);
            let sym = Symbol::parse(["BTC", "ETH", "DOGE", "PEPE"][(seed % 4) as usize]).unwrap();
            let parent = m.candle(&sym, long, NOW - offset_min * 60_000);
            let parts: Vec<Candle> = (0..long.millis() / short.millis())
                .map(|i| m.candle(&sym, short, parent.open_time_ms + i * short.millis()))
                .collect();
            prop_assert_eq!(parent.open, parts[0].open);
            prop_assert_eq!(parent.close, parts[parts.len() - 1].close);
            prop_assert_eq!(parent.high, parts.iter().map(|c| c.high).max().unwrap());
            prop_assert_eq!(parent.low, parts.iter().map(|c| c.low).min().unwrap());
            prop_assert_eq!(parent.volume, parts.iter().map(|c| c.volume).sum::<Decimal>());
            // And asking again, after all that, gives the same candle.
            prop_assert_eq!(parent, m.candle(&sym, long, parent.open_time_ms + 1));
        }
    }
}
