//! The paper exchange's per-call cost, as a backtest's trading cycle pays it: the twelve calls
//! of a reversal (read the account, close, list and cancel the old stop and target, read the
//! symbol's rules, set margin mode and leverage, open, place the new stop and target, read the
//! account again), against an
//! account quoting from bars. This is the layer a faster backtest has to make cheaper, so it
//! is measured on its own.
//!
//! cargo bench -p nofxi-venues --bench paper -- --warm-up-time 1 --measurement-time 3

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use nofxi_domain::Interval;
use nofxi_domain::market::{Candle, Symbol};
use nofxi_domain::trading::{MarginMode, OrderRequest, OrderType, Side};
use nofxi_venues::csv_source::CsvMarket;
use nofxi_venues::paper::{EphemeralPaperRepo, PaperConfig, PaperExchange, Quotes};
use nofxi_venues::{Exchange, ManualClock};
use rust_decimal::Decimal;

/// The shipping binary's allocator: these calls allocate many small strings.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const OPEN_MS: i64 = 1_767_225_600_000;

fn candle() -> Candle {
    let price = Decimal::from(30_000);
    Candle {
        open_time_ms: OPEN_MS,
        open: price,
        high: price + Decimal::from(10),
        low: price - Decimal::from(10),
        close: price,
        volume: Decimal::ONE,
    }
}

/// A paper account quoting from one bar of BTCUSDT, with 1e9 USDT.
async fn account(btc: &Symbol) -> PaperExchange {
    let clock = Arc::new(ManualClock::new(OPEN_MS + Interval::M1.millis()));
    let market =
        CsvMarket::new(clock.clone()).with_candles(btc.clone(), Interval::M1, vec![candle()]);
    let config = PaperConfig {
        initial_balance: Decimal::from(1_000_000_000),
        quotes: Quotes::Bars,
        ..PaperConfig::default()
    };
    let paper = PaperExchange::open(
        "bench",
        config,
        Arc::new(market),
        clock,
        Arc::new(EphemeralPaperRepo),
    )
    .await
    .unwrap();
    paper.process_bar(btc, &candle()).await.unwrap();
    paper
}

/// The client ids of reversal `n`: close, open, stop, target. Made before the clock starts:
/// the executor builds its own without `format!`.
fn client_ids(n: u64) -> [String; 4] {
    ["c", "o", "s", "t"].map(|leg| format!("b{n}{leg}"))
}

/// Reverse the position (or open one): the calls a backtest's trading cycle makes, with
/// client ids fresh each time, as the executor's are. `n` numbers the reversal.
async fn reverse(paper: &PaperExchange, btc: &Symbol, n: u64, ids: &[String; 4]) {
    let [close_id, open_id, stop_id, target_id] = ids;
    let quantity = Decimal::new(1, 2);
    let side = if n.is_multiple_of(2) {
        Side::Buy
    } else {
        Side::Sell
    };
    let held = paper.account_and_positions().await.unwrap().1;
    if let Some(p) = held.first() {
        let close = OrderRequest::market(btc.clone(), side, p.quantity, close_id).reduce_only();
        paper.place_order(&close).await.unwrap();
        for o in paper.open_orders(Some(btc)).await.unwrap() {
            paper.cancel_order(btc, &o.client_order_id).await.unwrap();
        }
    }
    paper.symbol_rules(btc).await.unwrap();
    paper.set_margin_mode(btc, MarginMode::Cross).await.unwrap();
    paper.set_leverage(btc, 3).await.unwrap();
    let open = OrderRequest::market(btc.clone(), side, quantity, open_id);
    paper.place_order(&open).await.unwrap();
    let (stop, target) = match side {
        Side::Buy => (Decimal::from(29_000), Decimal::from(33_000)),
        Side::Sell => (Decimal::from(31_000), Decimal::from(27_000)),
    };
    for (kind, trigger, id) in [
        (OrderType::StopMarket, stop, stop_id),
        (OrderType::TakeProfitMarket, target, target_id),
    ] {
        let request =
            OrderRequest::trigger(btc.clone(), kind, side.opposite(), quantity, trigger, id);
        paper.place_order(&request).await.unwrap();
    }
    paper.account_and_positions().await.unwrap();
}

/// Reversals per fresh account: a backtest's account holds tens of thousands of fills, not
/// the millions a long measurement would pile into one.
const REVERSALS_PER_ACCOUNT: u64 = 1_000;

fn calls(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let btc = Symbol::parse("BTCUSDT").unwrap();
    let mut group = c.benchmark_group("paper exchange");
    let paper = rt.block_on(account(&btc));
    group.bench_function("account and positions", |b| {
        b.iter(|| rt.block_on(paper.account_and_positions()).unwrap())
    });
    group.throughput(Throughput::Elements(12));
    group.bench_function("a reversal's twelve calls", |b| {
        b.iter_custom(|iters| {
            let mut spent = Duration::ZERO;
            let mut done = 0;
            while done < iters {
                let paper = rt.block_on(account(&btc));
                let batch = REVERSALS_PER_ACCOUNT.min(iters - done);
                let ids: Vec<[String; 4]> = (0..batch).map(client_ids).collect();
                let started = Instant::now();
                rt.block_on(async {
                    for (n, ids) in (0..batch).zip(&ids) {
                        reverse(&paper, &btc, n, ids).await;
                    }
                });
                spent += started.elapsed();
                done += batch;
            }
            spent
        })
    });
    group.finish();
}

criterion_group!(benches, calls);
criterion_main!(benches);
