//! The cycle itself: read → candidates → market data → decide → guard → journal the plan →
//! execute → journal the result. Live traders and backtests both call [`TraderCycle::run`].

use std::collections::{BTreeMap, BTreeSet};

use nofxi_domain::market::{Candle, Symbol};
use nofxi_domain::strategy_config::StrategyConfig;
use nofxi_domain::trading::{AccountSnapshot, Position};
use nofxi_venues::{Clock, Exchange, KlineQuery, MarketData, VenueError};
use rust_decimal::Decimal;

use super::execute::{ExecutionSettings, Mode, execute};
use super::idle::{self, Bar, CycleOutcome, recorded};
use super::journal::{Journal, JournalError};
use super::orphans;
use super::record::{CyclePhase, CycleRecord, ModelUsed, RefusedDecision};
use super::{CandidateData, CycleInput};
use crate::decider::{Decider, SeriesRequest};
use crate::guard::{GuardContext, guard};

/// Model failures in a row before a trader stops opening positions (REFERENCE §2).
pub const SAFE_MODE_AFTER_FAILURES: u32 = 3;

/// What a trader carries from one cycle to the next.
#[derive(Debug, Clone)]
pub struct TraderCycle {
    pub trader_id: String,
    pub trader_name: String,
    pub settings: ExecutionSettings,
    /// Recorded in every cycle record: which engine process ran it.
    pub engine: String,
    /// Recorded in every cycle record: what the account's prices are (the venue's `prices`).
    pub prices: String,
    /// Recorded in every cycle record: the model config the decider stands for (the engine
    /// sets it whenever it builds the decider; backtests leave it out).
    pub model: Option<ModelUsed>,
    pub cycle_number: u64,
    pub failures_in_a_row: u32,
    pub safe_mode: bool,
    /// Whether [`TraderCycle::run_bar`] may take the idle fast path (see [`super::idle`]).
    /// Off, every bar runs the whole cycle: slower, and the reference the fast path is
    /// tested against.
    pub idle_fast_path: bool,
    /// The strategy's coin lists as last parsed: parsing a symbol walks the alias table, and
    /// the lists rarely change between cycles.
    pub(super) coins: ParsedCoins,
    /// Equity points of the last run of idle steps, kept to be refilled without allocating.
    pub(super) idle_equity: Vec<Decimal>,
    /// Funding booked after this time is not journalled yet (`None`: none is).
    pub(super) funding_seen_ms: Option<i64>,
}

/// The world a cycle acts on.
pub struct CycleWorld<'a> {
    pub exchange: &'a dyn Exchange,
    pub market: &'a dyn MarketData,
    pub clock: &'a dyn Clock,
    pub journal: &'a dyn Journal,
}

impl TraderCycle {
    pub fn new(trader_id: &str, trader_name: &str, settings: ExecutionSettings) -> TraderCycle {
        TraderCycle {
            trader_id: trader_id.into(),
            trader_name: trader_name.into(),
            settings,
            engine: String::new(),
            prices: String::new(),
            model: None,
            cycle_number: 0,
            failures_in_a_row: 0,
            safe_mode: false,
            idle_fast_path: true,
            coins: ParsedCoins::default(),
            idle_equity: Vec::new(),
            funding_seen_ms: None,
        }
    }

    /// Continue from the journal: number cycles on from the last one, and if the last one was
    /// cut off after planning, finish its orders (looked up by client id, never sent twice).
    /// A plan older than `max_plan_age_ms` sends nothing new: its prices are history.
    pub async fn resume(
        &mut self,
        world: &CycleWorld<'_>,
        max_plan_age_ms: i64,
    ) -> Result<Option<CycleRecord>, JournalError> {
        let Some(mut last) = world.journal.last(&self.trader_id).await? else {
            return Ok(None);
        };
        self.cycle_number = last.cycle_number;
        self.safe_mode = last.safe_mode;
        // What the last cycle journalled: its funding, or none booked from its start on.
        self.funding_seen_ms = last
            .funding
            .iter()
            .map(|f| f.booked_ms)
            .max()
            .or(Some(last.started_ms - 1));
        if last.phase == CyclePhase::Done {
            return Ok(None);
        }
        let fresh = world.clock.now_ms() - last.started_ms <= max_plan_age_ms;
        let mode = if fresh {
            Mode::Resume
        } else {
            Mode::LookupOnly
        };
        // The planned record holds only what ran before the plan (orphaned orders cancelled).
        // Its orders carry the epoch it was planned under: they are looked up by those ids.
        let sent = execute(
            &last.approved,
            world.exchange,
            &self.settings.with_epoch(last.epoch),
            last.cycle_number,
            mode,
        )
        .await;
        last.executions.extend(sent);
        last.notes
            .push("resumed after an interruption; orders were looked up before sending".into());
        finish(&mut last, world).await;
        world.journal.save(&last).await?;
        Ok(Some(last))
    }

    pub async fn run(
        &mut self,
        strategy: &StrategyConfig,
        decider: &mut dyn Decider,
        world: &CycleWorld<'_>,
    ) -> Result<CycleRecord, JournalError> {
        match self.run_cycle(strategy, decider, world, None).await? {
            CycleOutcome::Recorded(record) => Ok(*record),
            // Without a bar there is no fast path; this arm is never taken.
            CycleOutcome::Idle { .. } => {
                Err(JournalError("a cycle without a bar cannot be idle".into()))
            }
        }
    }

    /// One cycle at the close of `bar`, for drivers that step through candles (backtests).
    /// When the decider can tell from the bar alone that it has nothing to propose, the cycle
    /// is idle: it reads the account as always, marks the equity in the journal and stops
    /// there. Otherwise, or with [`TraderCycle::idle_fast_path`] off, it is [`TraderCycle::run`].
    pub async fn run_bar(
        &mut self,
        strategy: &StrategyConfig,
        decider: &mut dyn Decider,
        world: &CycleWorld<'_>,
        bar: &Bar<'_>,
    ) -> Result<CycleOutcome, JournalError> {
        let bar = self.idle_fast_path.then_some(bar);
        self.run_cycle(strategy, decider, world, bar).await
    }

    async fn run_cycle(
        &mut self,
        strategy: &StrategyConfig,
        decider: &mut dyn Decider,
        world: &CycleWorld<'_>,
        bar: Option<&Bar<'_>>,
    ) -> Result<CycleOutcome, JournalError> {
        self.cycle_number += 1;
        let now = world.clock.now_ms();
        self.coins.refresh(strategy);
        // Before the positions: see `orphans` for why the order matters.
        let open_orders = orphans::read_open_orders(world.exchange).await;
        let (account, positions) = match read_account(world.exchange).await {
            Ok(read) => read,
            Err(e) => {
                let record = self.new_record(now, world.clock.simulated(), decider.name());
                return self
                    .give_up(record, format!("account unreadable: {e}"), world)
                    .await
                    .map(recorded);
            }
        };
        let held: Vec<Symbol> = positions.iter().map(|p| p.symbol.clone()).collect();
        let symbols: Vec<Symbol> = self.coins.candidates(&held).cloned().collect();
        if let Some(bar) = bar
            && idle::is_idle(
                symbols.iter().map(|s| (s, bar.candle(s))),
                bar.interval,
                decider,
            )
        {
            let equity = account.equity;
            self.mark_idle(world, now, 0, &[equity])?;
            return Ok(CycleOutcome::Idle { equity });
        }
        let mut record = self.new_record(now, world.clock.simulated(), decider.name());
        record.notes = self.coins.notes.clone();
        self.journal_funding(&mut record, world.exchange).await;
        match open_orders {
            Some(Ok(open)) => {
                record.executions =
                    orphans::cancel_orphans(world.exchange, &open, &positions).await;
            }
            Some(Err(e)) => record.notes.push(format!(
                "open orders unreadable, orphaned stops not checked: {e}"
            )),
            None => {}
        }
        self.decide_and_execute(
            record, strategy, decider, world, account, positions, symbols,
        )
        .await
        .map(recorded)
    }

    /// What the full cycle does when its decider proposes nothing, for `equity.len()` cycles
    /// in a row from the current one, `step_ms` apart from `now`: the model answered (no
    /// failure), nothing was refused, and the account before is the equity.
    pub(super) fn mark_idle(
        &mut self,
        world: &CycleWorld<'_>,
        now: i64,
        step_ms: i64,
        equity: &[Decimal],
    ) -> Result<(), JournalError> {
        let Some(more) = equity.len().checked_sub(1) else {
            return Ok(());
        };
        self.failures_in_a_row = 0;
        self.safe_mode = false;
        let first = self.cycle_number;
        self.cycle_number += u64::try_from(more).unwrap_or(u64::MAX);
        world
            .journal
            .mark_idle(&self.trader_id, first, now, step_ms, equity)
    }

    /// The funding booked since the last cycle journalled it, read after the account (whose
    /// read settles what came due).
    async fn journal_funding(&mut self, record: &mut CycleRecord, exchange: &dyn Exchange) {
        match exchange.funding_payments(self.funding_seen_ms).await {
            Ok(Some(paid)) => {
                if let Some(last) = paid.iter().map(|f| f.booked_ms).max() {
                    self.funding_seen_ms = Some(last);
                }
                record.funding = paid;
            }
            Ok(None) => {}
            Err(e) => record.notes.push(format!("funding unreadable: {e}")),
        }
    }

    pub(super) fn new_record(&self, now: i64, simulated: bool, decider: String) -> CycleRecord {
        let mut record = CycleRecord::new(&self.trader_id, self.cycle_number, now, decider);
        record.engine = self.engine.clone();
        record.market = self.prices.clone();
        record.model.clone_from(&self.model);
        record.epoch = self.settings.epoch;
        record.simulated = simulated;
        record.safe_mode = self.safe_mode;
        record
    }

    #[allow(clippy::too_many_arguments)]
    async fn decide_and_execute(
        &mut self,
        mut record: CycleRecord,
        strategy: &StrategyConfig,
        decider: &mut dyn Decider,
        world: &CycleWorld<'_>,
        account: AccountSnapshot,
        positions: Vec<Position>,
        symbols: Vec<Symbol>,
    ) -> Result<CycleRecord, JournalError> {
        let now = record.started_ms;
        // Ask the decider what it wants before any await: it is not borrowed while waiting.
        let wants_funding = strategy.indicators.enable_funding_rate && decider.wants_funding();
        let wanted: Vec<(Symbol, Vec<SeriesRequest>)> = symbols
            .into_iter()
            .map(|s| {
                let w = decider.series_wanted(&s, strategy);
                (s, w)
            })
            .collect();
        let mut candidates_data = Vec::with_capacity(wanted.len());
        for (symbol, requests) in wanted {
            match gather(&symbol, &requests, wants_funding, world.market, now).await {
                Ok(data) => candidates_data.push(data),
                Err(e) => record
                    .notes
                    .push(format!("{symbol}: market data unavailable: {e}")),
            }
        }
        if candidates_data.is_empty() && !record.notes.is_empty() {
            // Nothing to decide on: a decision over no prices would read as "no setup",
            // and a diagnosis as "nothing is broken", while the market is what failed.
            record.account_before = Some(account);
            record.positions_after = positions;
            let why = format!("no market data for any symbol: {}", record.notes.join("; "));
            return self.give_up(record, why, world).await;
        }
        let input = CycleInput {
            trader_name: &self.trader_name,
            cycle_number: self.cycle_number,
            now_ms: now,
            account: &account,
            positions: &positions,
            candidates: &candidates_data,
            strategy,
        };
        let decided = decider.decide(&input).await;
        record.account_before = Some(account.clone());
        // What the account holds when no order moves it (no decision, model failed, all
        // refused); `finish` replaces it after execution. Without it the newest record of a
        // quiet trader said "no positions" while the account held some.
        record.positions_after.clone_from(&positions);
        let output = match decided {
            Ok(output) => {
                self.failures_in_a_row = 0;
                output
            }
            Err(e) => {
                self.failures_in_a_row += 1;
                if self.failures_in_a_row >= SAFE_MODE_AFTER_FAILURES {
                    self.safe_mode = true;
                }
                record.safe_mode = self.safe_mode;
                if let Some(exchange) = e.exchange() {
                    record.keep_model_exchange(exchange);
                }
                return self.give_up(record, e.to_string(), world).await;
            }
        };
        record.keep_model_exchange(&output);
        record.reasoning = output.reasoning;
        record.invalid = output
            .rejected
            .iter()
            .map(|r| r.error.to_string())
            .collect();
        record.decisions = output.decisions.clone();

        let prices: BTreeMap<Symbol, Decimal> = candidates_data
            .iter()
            .map(|c| (c.symbol.clone(), c.price))
            .collect();
        let ctx = GuardContext {
            risk: &strategy.risk_control,
            account: &account,
            positions: &positions,
            prices: &prices,
            safe_mode: self.safe_mode,
        };
        let plan = guard(output.decisions, &ctx);
        // A model that answers again leaves safe mode, but this cycle's plan was guarded in it.
        self.safe_mode = false;
        record.refused = plan
            .refused
            .into_iter()
            .map(|(decision, why)| RefusedDecision {
                decision,
                reason: why.to_string(),
                refusal: Some(why),
            })
            .collect();
        record.approved = plan.approved;
        self.carry_out(record, world).await
    }

    /// The approved orders sent (the record saved first, so a crash finds them), the account
    /// read after, and the cycle journalled as done; with none approved, only the latter.
    /// Executions already on the record (orphans cancelled) stay before the new ones.
    pub(super) async fn carry_out(
        &self,
        mut record: CycleRecord,
        world: &CycleWorld<'_>,
    ) -> Result<CycleRecord, JournalError> {
        if record.approved.is_empty() {
            record.phase = CyclePhase::Done;
            record.finished_ms = Some(world.clock.now_ms());
        } else {
            world.journal.save(&record).await?;
            let sent = execute(
                &record.approved,
                world.exchange,
                &self.settings,
                self.cycle_number,
                Mode::Fresh,
            )
            .await;
            record.executions.extend(sent);
            finish(&mut record, world).await;
        }
        world.journal.save(&record).await?;
        Ok(record)
    }

    pub(super) async fn give_up(
        &self,
        mut record: CycleRecord,
        error: String,
        world: &CycleWorld<'_>,
    ) -> Result<CycleRecord, JournalError> {
        record.error = Some(error);
        record.phase = CyclePhase::Done;
        record.finished_ms = Some(world.clock.now_ms());
        world.journal.save(&record).await?;
        Ok(record)
    }
}

pub(super) async fn finish(record: &mut CycleRecord, world: &CycleWorld<'_>) {
    match read_account(world.exchange).await {
        Ok((account, positions)) => {
            record.account_after = Some(account);
            record.positions_after = positions;
        }
        Err(e) => record
            .notes
            .push(format!("account unreadable after execution: {e}")),
    }
    record.phase = CyclePhase::Done;
    record.finished_ms = Some(world.clock.now_ms());
}

pub(super) async fn read_account(
    exchange: &dyn Exchange,
) -> Result<(AccountSnapshot, Vec<Position>), VenueError> {
    exchange.account_and_positions().await
}

/// The strategy's coin lists, parsed once per change of the lists.
#[derive(Debug, Clone, Default)]
pub(super) struct ParsedCoins {
    static_coins: Vec<String>,
    excluded_coins: Vec<String>,
    listed: Vec<Symbol>,
    excluded: BTreeSet<Symbol>,
    /// Coins that did not parse, said again every cycle as the uncached parse did.
    notes: Vec<String>,
}

impl ParsedCoins {
    /// Parse the strategy's lists again if they changed since the last cycle.
    pub(super) fn refresh(&mut self, strategy: &StrategyConfig) {
        let source = &strategy.coin_source;
        if source.static_coins != self.static_coins || source.excluded_coins != self.excluded_coins
        {
            *self = ParsedCoins::parse(&source.static_coins, &source.excluded_coins);
        }
    }

    /// The strategy's coins minus its exclusions, plus every symbol in `held` (a position
    /// must stay manageable even after its coin leaves the strategy), each once, listed coins
    /// first. Lazy, so an idle bar checks its candidates without collecting them.
    pub(super) fn candidates<'a>(
        &'a self,
        held: &'a [Symbol],
    ) -> impl Iterator<Item = &'a Symbol> + Clone {
        let listed = self.listed.iter().enumerate().filter(move |&(i, s)| {
            !self.listed[..i].contains(s) && (!self.excluded.contains(s) || held.contains(s))
        });
        let only_held = held
            .iter()
            .enumerate()
            .filter(move |&(i, s)| !self.listed.contains(s) && !held[..i].contains(s));
        listed.chain(only_held).map(|(_, s)| s)
    }

    fn parse(static_coins: &[String], excluded_coins: &[String]) -> ParsedCoins {
        let mut notes = Vec::new();
        let mut parse = |raw: &String| match Symbol::parse(raw) {
            Ok(s) => Some(s),
            Err(e) => {
                notes.push(format!("strategy coin skipped: {e}"));
                None
            }
        };
        // Exclusions first, as before: the notes keep their order.
        let excluded = excluded_coins.iter().filter_map(&mut parse).collect();
        let listed = static_coins.iter().filter_map(&mut parse).collect();
        ParsedCoins {
            static_coins: static_coins.to_vec(),
            excluded_coins: excluded_coins.to_vec(),
            listed,
            excluded,
            notes,
        }
    }
}

/// One candidate's price and the closed candles the decider asked for.
async fn gather(
    symbol: &Symbol,
    requests: &[SeriesRequest],
    wants_funding: bool,
    market: &dyn MarketData,
    now: i64,
) -> Result<CandidateData, VenueError> {
    let price = market.ticker(symbol).await?.mark;
    let mut series = Vec::new();
    for request in requests {
        let query = KlineQuery {
            start_ms: request.start_ms,
            end_ms: None,
            // One more than asked: the newest candle is usually still forming and is dropped.
            limit: (request.count + 1).min(KlineQuery::MAX_LIMIT),
        };
        let mut candles: Vec<Candle> = market.klines(symbol, request.interval, query).await?;
        let step = request.interval.millis();
        candles.retain(|c| c.open_time_ms + step <= now);
        if request.start_ms.is_none() && candles.len() > request.count {
            candles.drain(..candles.len() - request.count);
        }
        series.push((request.interval, candles));
    }
    let funding = if wants_funding {
        market.funding_rate(symbol).await.ok().flatten()
    } else {
        None
    };
    Ok(CandidateData {
        symbol: symbol.clone(),
        price,
        series,
        funding,
    })
}
