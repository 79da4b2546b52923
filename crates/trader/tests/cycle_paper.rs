//! The cycle on real parts: the paper exchange filling against the simulated market, in
//! simulated time, with the builtin decider and with a model answering from a script.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use nofxi_domain::market::Symbol;
use nofxi_domain::strategy_config::StrategyConfig;
use nofxi_domain::trading::{MarginMode, OrderType, PositionMode};
use nofxi_trader::cycle::{
    CyclePhase, CycleRecord, CycleWorld, ExecutionSettings, Journal, JournalError, MemoryJournal,
    TraderCycle,
};
use nofxi_trader::decider::builtin::{BuiltinDecider, BuiltinParams};
use nofxi_trader::decider::llm::{LlmDecider, ModelCallError, ModelClient, ModelText};
use nofxi_venues::paper::{MemoryPaperRepo, PaperConfig, PaperExchange};
use nofxi_venues::sim::SimMarket;
use nofxi_venues::{Exchange, ManualClock, MarketData, VenueError};
use rust_decimal::Decimal;

const START_MS: i64 = 1_767_225_600_000; // 2026-01-01T00:00:00Z

struct Rig {
    clock: Arc<ManualClock>,
    market: Arc<SimMarket>,
    paper: PaperExchange,
    journal: MemoryJournal,
}

async fn rig(balance: i64) -> Rig {
    let clock = Arc::new(ManualClock::new(START_MS));
    let market = Arc::new(SimMarket::new(7, clock.clone()));
    let paper = PaperExchange::open(
        "acct",
        PaperConfig::with_balance(Decimal::from(balance)),
        market.clone(),
        clock.clone(),
        Arc::new(MemoryPaperRepo::default()),
    )
    .await
    .unwrap();
    Rig {
        clock,
        market,
        paper,
        journal: MemoryJournal::default(),
    }
}

impl Rig {
    fn world(&self) -> CycleWorld<'_> {
        CycleWorld {
            exchange: &self.paper,
            market: self.market.as_ref(),
            clock: self.clock.as_ref(),
            journal: &self.journal,
        }
    }
}

fn cycle() -> TraderCycle {
    TraderCycle::new(
        "t-0001",
        "btc-bot",
        ExecutionSettings::new("t-0001", MarginMode::Cross, PositionMode::OneWay),
    )
}

#[tokio::test]
async fn builtin_trader_trades_the_simulated_market() {
    let rig = rig(1_000).await;
    let strategy = StrategyConfig::default();
    let mut decider = BuiltinDecider::new(BuiltinParams::default());
    let mut trader = cycle();
    let mut opened = 0;
    for _ in 0..600 {
        rig.clock.advance(Duration::from_secs(300));
        let record = trader
            .run(&strategy, &mut decider, &rig.world())
            .await
            .unwrap();
        assert_eq!(record.phase, CyclePhase::Done);
        assert!(record.error.is_none(), "{:?}", record.error);
        opened += record
            .executions
            .iter()
            .filter(|e| e.what == "open" && e.ok)
            .count();
        for e in &record.executions {
            assert!(e.ok, "execution failed: {e:?}");
        }
    }
    assert!(
        opened >= 2,
        "600 five-minute cycles of two coins should cross a few times; opened {opened}"
    );
    let records = rig.journal.records("t-0001");
    assert_eq!(records.len(), 600);
    assert_eq!(records.last().unwrap().cycle_number, 600);
    let equities: Vec<Decimal> = records.iter().filter_map(CycleRecord::equity).collect();
    assert_eq!(equities.len(), 600);
    assert!(
        equities.iter().any(|e| *e != Decimal::from(1_000)),
        "equity never moved"
    );
    // Fees were paid on every fill.
    let fills = rig
        .paper
        .fills(&Symbol::parse("BTCUSDT").unwrap(), None)
        .await
        .unwrap();
    let eth = rig
        .paper
        .fills(&Symbol::parse("ETHUSDT").unwrap(), None)
        .await
        .unwrap();
    assert!(fills.iter().chain(&eth).all(|f| f.fee > Decimal::ZERO));
}

/// A model that answers from a script, recording the prompts it was sent.
struct Scripted {
    answers: Mutex<VecDeque<Result<String, String>>>,
    prompts: Mutex<Vec<(String, String)>>,
}

impl Scripted {
    fn new(answers: Vec<Result<&str, &str>>) -> Arc<Scripted> {
        Arc::new(Scripted {
            answers: Mutex::new(
                answers
                    .into_iter()
                    .map(|a| a.map(String::from).map_err(String::from))
                    .collect(),
            ),
            prompts: Mutex::new(Vec::new()),
        })
    }
}

#[async_trait]
impl ModelClient for Scripted {
    fn label(&self) -> String {
        "scripted".into()
    }

    async fn complete(&self, system: &str, user: &str) -> Result<ModelText, ModelCallError> {
        self.prompts
            .lock()
            .unwrap()
            .push((system.into(), user.into()));
        match self.answers.lock().unwrap().pop_front() {
            Some(Ok(text)) => Ok(ModelText {
                text,
                prompt_tokens: None,
                completion_tokens: None,
            }),
            Some(Err(e)) => Err(ModelCallError(e)),
            None => Err(ModelCallError("script exhausted".into())),
        }
    }
}

fn long_btc_answer(price: Decimal) -> String {
    let sl = (price * Decimal::new(98, 2)).round_dp(1);
    let tp = (price * Decimal::new(107, 2)).round_dp(1);
    format!(
        "Trend up on 5m and 4h.\n```json\n[{{\"symbol\":\"BTCUSDT\",\"action\":\"open_long\",\"leverage\":50,\
         \"position_size_usd\":300,\"stop_loss\":{sl},\"take_profit\":{tp},\"confidence\":85}},\
         {{\"symbol\":\"ETHUSDT\",\"action\":\"wait\"}}]\n```"
    )
}

#[tokio::test]
async fn a_model_decision_is_guarded_executed_and_journalled() {
    let rig = rig(1_000).await;
    rig.clock.advance(Duration::from_secs(3600));
    let btc = Symbol::parse("BTCUSDT").unwrap();
    let price = rig.market.ticker(&btc).await.unwrap().mark;
    let model = Scripted::new(vec![Ok(&long_btc_answer(price))]);
    let mut decider = LlmDecider::new(model.clone()).unwrap();
    let mut strategy = StrategyConfig::default();
    strategy.prompt_sections.custom_prompt = "Never trade DOGE.".into();
    let record = cycle()
        .run(&strategy, &mut decider, &rig.world())
        .await
        .unwrap();

    let (system, user) = model.prompts.lock().unwrap()[0].clone();
    assert!(system.contains("Never trade DOGE."));
    assert!(system.contains("BTC/ETH at most 10x"));
    assert!(user.contains("### BTCUSDT") && user.contains("### ETHUSDT"));
    assert!(user.contains("EMA20:") && user.contains("5m candles:"));

    assert_eq!(record.decider, "llm:scripted");
    assert_eq!(record.approved.len(), 1);
    assert_eq!(
        record.approved[0].adjustments,
        ["leverage 50 → 10: the strategy's BTC/ETH limit"]
    );
    let whats: Vec<&str> = record.executions.iter().map(|e| e.what.as_str()).collect();
    assert_eq!(whats, ["open", "stop_loss", "take_profit"]);
    assert!(
        record.executions.iter().all(|e| e.ok),
        "{:?}",
        record.executions
    );
    assert_eq!(
        record.raw_response.as_deref(),
        Some(long_btc_answer(price).as_str())
    );

    let positions = rig.paper.positions().await.unwrap();
    assert_eq!(positions.len(), 1);
    assert_eq!(positions[0].leverage, 10);
    let triggers = rig.paper.open_orders(Some(&btc)).await.unwrap();
    let kinds: Vec<OrderType> = triggers.iter().map(|o| o.order_type).collect();
    assert!(kinds.contains(&OrderType::StopMarket) && kinds.contains(&OrderType::TakeProfitMarket));
}

#[tokio::test]
async fn three_model_failures_mean_safe_mode_and_no_opens() {
    let rig = rig(1_000).await;
    rig.clock.advance(Duration::from_secs(3600));
    let price = rig
        .market
        .ticker(&Symbol::parse("BTCUSDT").unwrap())
        .await
        .unwrap()
        .mark;
    let answer = long_btc_answer(price);
    let model = Scripted::new(vec![
        Err("401 invalid api key"),
        Ok("no json here"),
        Err("timeout"),
        Ok(&answer),
    ]);
    let mut decider = LlmDecider::new(model).unwrap();
    let strategy = StrategyConfig::default();
    let mut trader = cycle();
    for expected_safe in [false, false, true] {
        let record = trader
            .run(&strategy, &mut decider, &rig.world())
            .await
            .unwrap();
        assert!(record.error.is_some());
        assert_eq!(record.safe_mode, expected_safe);
    }
    let record = trader
        .run(&strategy, &mut decider, &rig.world())
        .await
        .unwrap();
    assert!(record.safe_mode);
    assert!(record.approved.is_empty());
    assert_eq!(record.refused.len(), 1);
    assert!(record.refused[0].reason.contains("safe mode"));
    assert!(rig.paper.positions().await.unwrap().is_empty());
    assert!(
        !trader.safe_mode,
        "a model that answers again leaves safe mode for the next cycle"
    );
}

/// Loses the `done` save of one cycle, as a crash between sending orders and journalling would.
struct CrashAfterOrders<'a> {
    inner: &'a MemoryJournal,
    crash_cycle: u64,
}

#[async_trait]
impl Journal for CrashAfterOrders<'_> {
    async fn save(&self, record: &CycleRecord) -> Result<(), JournalError> {
        if record.cycle_number == self.crash_cycle && record.phase == CyclePhase::Done {
            return Err(JournalError("process killed".into()));
        }
        self.inner.save(record).await
    }

    async fn last(&self, trader_id: &str) -> Result<Option<CycleRecord>, JournalError> {
        self.inner.last(trader_id).await
    }
}

#[tokio::test]
async fn a_cycle_cut_off_after_its_orders_is_finished_without_sending_them_again() {
    let rig = rig(1_000).await;
    rig.clock.advance(Duration::from_secs(3600));
    let btc = Symbol::parse("BTCUSDT").unwrap();
    let price = rig.market.ticker(&btc).await.unwrap().mark;
    let model = Scripted::new(vec![Ok(&long_btc_answer(price))]);
    let mut decider = LlmDecider::new(model).unwrap();
    let crashing = CrashAfterOrders {
        inner: &rig.journal,
        crash_cycle: 1,
    };
    let world = CycleWorld {
        exchange: &rig.paper,
        market: rig.market.as_ref(),
        clock: rig.clock.as_ref(),
        journal: &crashing,
    };
    assert!(
        cycle()
            .run(&StrategyConfig::default(), &mut decider, &world)
            .await
            .is_err()
    );
    let orders_before = rig.paper.state().await.orders.len();
    assert_eq!(
        rig.journal.last("t-0001").await.unwrap().unwrap().phase,
        CyclePhase::Planned
    );

    // A new process picks the trader up.
    rig.clock.advance(Duration::from_secs(20));
    let mut restarted = cycle();
    let finished = restarted
        .resume(&rig.world(), 60_000)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(finished.phase, CyclePhase::Done);
    assert_eq!(finished.executions.len(), 3);
    assert!(
        finished.executions.iter().all(|e| e.ok && e.recovered),
        "{:?}",
        finished.executions
    );
    assert_eq!(
        rig.paper.state().await.orders.len(),
        orders_before,
        "an order was sent twice"
    );
    assert_eq!(rig.paper.positions().await.unwrap().len(), 1);
    assert_eq!(restarted.cycle_number, 1);
    // Resuming again finds nothing left to do.
    assert!(
        cycle()
            .resume(&rig.world(), 60_000)
            .await
            .unwrap()
            .is_none()
    );
}

#[tokio::test]
async fn a_stale_interrupted_plan_sends_nothing_new() {
    let rig = rig(1_000).await;
    rig.clock.advance(Duration::from_secs(3600));
    let price = rig
        .market
        .ticker(&Symbol::parse("BTCUSDT").unwrap())
        .await
        .unwrap()
        .mark;
    let model = Scripted::new(vec![Ok(&long_btc_answer(price))]);
    let mut decider = LlmDecider::new(model).unwrap();
    let strategy = StrategyConfig::default();
    // Plan cycle 1 and "crash" before any order: save the planned record ourselves.
    let mut trader = cycle();
    let record = trader
        .run(&strategy, &mut decider, &rig.world())
        .await
        .unwrap();
    let mut planned = record.clone();
    planned.cycle_number = 2;
    planned.phase = CyclePhase::Planned;
    planned.executions.clear();
    rig.journal.save(&planned).await.unwrap();
    let orders_before = rig.paper.state().await.orders.len();

    rig.clock.advance(Duration::from_secs(6 * 3600));
    let finished = cycle()
        .resume(&rig.world(), 600_000)
        .await
        .unwrap()
        .unwrap();
    assert!(
        finished.executions.iter().all(|e| !e.ok),
        "{:?}",
        finished.executions
    );
    assert_eq!(rig.paper.state().await.orders.len(), orders_before);
}

#[tokio::test]
async fn hostile_answers_reach_the_venue_only_as_the_guard_allows() {
    let rig = rig(1_000).await;
    rig.clock.advance(Duration::from_secs(3600));
    let btc = Symbol::parse("BTCUSDT").unwrap();
    let price = rig.market.ticker(&btc).await.unwrap().mark;
    let (sl, tp) = (
        (price * Decimal::new(98, 2)).round_dp(1),
        (price * Decimal::new(107, 2)).round_dp(1),
    );
    let hostile = format!(
        "All in!\n[{{\"symbol\":\"BTCUSDT\",\"action\":\"open_long\",\"leverage\":100,\"position_size_usd\":300,\
         \"stop_loss\":{sl},\"take_profit\":{tp},\"confidence\":99}},\
         {{\"symbol\":\"ETHUSDT\",\"action\":\"open_long\",\"leverage\":5,\"position_size_usd\":1e9,\
         \"stop_loss\":1,\"take_profit\":999999,\"confidence\":99}},\
         {{\"symbol\":\"DOGEUSDT\",\"action\":\"open_short\",\"leverage\":5,\"position_size_usd\":100,\
         \"stop_loss\":0.0001,\"take_profit\":0.00001,\"confidence\":99}},\
         {{\"symbol\":\"RUGPULLUSDT\",\"action\":\"open_long\",\"leverage\":5,\"position_size_usd\":100,\
         \"stop_loss\":1,\"take_profit\":9,\"confidence\":99}}]"
    );
    let model = Scripted::new(vec![
        Ok(&hostile),
        Ok("[{\"symbol\": \"BTCUSDT\", \"action\": "),
    ]);
    let mut decider = LlmDecider::new(model).unwrap();
    let strategy = StrategyConfig::default();
    let mut trader = cycle();
    let record = trader
        .run(&strategy, &mut decider, &rig.world())
        .await
        .unwrap();

    // Only the BTC open passes, with leverage cut to the strategy's 10x.
    assert_eq!(record.approved.len(), 1, "{:?}", record.approved);
    assert_eq!(
        record.approved[0].adjustments,
        ["leverage 100 → 10: the strategy's BTC/ETH limit"]
    );
    let reasons: Vec<&str> = record.refused.iter().map(|r| r.reason.as_str()).collect();
    assert!(
        reasons
            .iter()
            .any(|r| r.contains("equity × max position value ratio")),
        "{reasons:?}"
    );
    assert!(
        reasons
            .iter()
            .filter(|r| r.contains("not among this cycle's candidates"))
            .count()
            == 2,
        "{reasons:?}"
    );
    let positions = rig.paper.positions().await.unwrap();
    assert_eq!(positions.len(), 1);
    assert_eq!(
        (positions[0].symbol.as_str(), positions[0].leverage),
        ("BTCUSDT", 10)
    );

    // Malformed JSON: an error in the journal, nothing sent.
    let orders = rig.paper.state().await.orders.len();
    let record = trader
        .run(&strategy, &mut decider, &rig.world())
        .await
        .unwrap();
    assert!(
        record
            .error
            .as_deref()
            .unwrap_or("")
            .contains("no JSON array"),
        "{:?}",
        record.error
    );
    assert_eq!(rig.paper.state().await.orders.len(), orders);
}

/// Issue 23 item 11: a cycle that sends no order still journals the positions it read. Its
/// record is the newest one, and "how's btc-bot doing" read "no open positions" from it while
/// the account held a short with margin in use.
#[tokio::test]
async fn a_cycle_without_orders_journals_the_positions_it_holds() {
    let rig = rig(1_000).await;
    let strategy = StrategyConfig::default();
    let mut decider = BuiltinDecider::new(BuiltinParams::default());
    let mut trader = cycle();
    let mut checked = 0;
    for _ in 0..600 {
        rig.clock.advance(Duration::from_secs(300));
        let record = trader
            .run(&strategy, &mut decider, &rig.world())
            .await
            .unwrap();
        let held = rig.paper.positions().await.unwrap();
        if record.executions.is_empty() && !held.is_empty() {
            checked += 1;
            let journalled: Vec<_> = record
                .positions_after
                .iter()
                .map(|p| (p.symbol.clone(), p.side, p.quantity, p.entry_price))
                .collect();
            let actual: Vec<_> = held
                .iter()
                .map(|p| (p.symbol.clone(), p.side, p.quantity, p.entry_price))
                .collect();
            assert_eq!(journalled, actual, "cycle #{}", record.cycle_number);
        }
    }
    assert!(
        checked > 0,
        "no quiet cycle held a position: nothing was checked"
    );
}

/// A market that cannot be reached: every read fails as an unreachable venue's does.
struct Unreachable;

#[async_trait]
impl MarketData for Unreachable {
    fn source(&self) -> &str {
        "binance"
    }

    async fn ticker(&self, _: &Symbol) -> Result<nofxi_domain::market::Ticker, VenueError> {
        Err(down())
    }

    async fn order_book(
        &self,
        _: &Symbol,
        _: usize,
    ) -> Result<nofxi_domain::market::OrderBook, VenueError> {
        Err(down())
    }

    async fn klines(
        &self,
        _: &Symbol,
        _: nofxi_domain::Interval,
        _: nofxi_venues::KlineQuery,
    ) -> Result<Vec<nofxi_domain::market::Candle>, VenueError> {
        Err(down())
    }

    async fn funding_rate(
        &self,
        _: &Symbol,
    ) -> Result<Option<nofxi_domain::market::FundingRate>, VenueError> {
        Err(down())
    }
}

fn down() -> VenueError {
    VenueError::BadResponse {
        venue: "binance".into(),
        status: 503,
        detail: "unreachable in this test".into(),
    }
}

#[tokio::test]
async fn a_cycle_with_no_market_data_is_a_failed_cycle_not_a_quiet_one() {
    let rig = rig(1_000).await;
    let world = CycleWorld {
        exchange: &rig.paper,
        market: &Unreachable,
        clock: rig.clock.as_ref(),
        journal: &rig.journal,
    };
    let mut decider = BuiltinDecider::new(BuiltinParams::default());
    let record = cycle()
        .run(&StrategyConfig::default(), &mut decider, &world)
        .await
        .unwrap();
    let error = record.error.expect("a cycle over no prices failed");
    assert!(error.contains("no market data"), "{error}");
    assert!(record.decisions.is_empty() && record.approved.is_empty());
    assert_eq!(record.phase, CyclePhase::Done);
    assert!(record.account_before.is_some(), "the account is still read");
}
