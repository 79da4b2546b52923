//! `nofxi trader …`: bots binding one exchange account, one model and one strategy, each
//! given by name or id. Starting, stopping and what a running trader did are in
//! [`super::trader_live`].

use anyhow::Result;
use clap::{Args, Subcommand};
use nofxi_domain::trader::INITIAL_BALANCE_DEFAULT;
use nofxi_domain::{ResourceKind, Trader, TraderPatch, TraderSpec};
use rust_decimal::Decimal;

use super::common::{
    ListArgs, RefArg, actor, block_on, decimal_arg, open_store, print_json, print_table, remove,
    report_adjustments, time, yes_no,
};
use crate::home::GlobalArgs;

const KIND: ResourceKind = ResourceKind::Trader;

#[derive(Debug, Subcommand)]
pub enum TraderCommand {
    /// List traders.
    List(ListArgs),
    /// Show one trader.
    Show(RefArg),
    /// Add a trader.
    Add(TraderFields),
    /// Change a trader; only the flags given change.
    Update {
        #[command(flatten)]
        target: RefArg,
        #[command(flatten)]
        fields: TraderFields,
    },
    /// Move a trader to the trash (restorable for 30 days).
    Delete(RefArg),
    /// Bring a trader back from the trash.
    Restore(RefArg),
    /// Check a trader can trade (preflight) and mark it running; `nofxi run` trades it.
    Start(super::trader_live::StartArgs),
    /// Mark a trader stopped; the engine ends it after the cycle in progress.
    Stop(RefArg),
    /// Whether a trader runs, where, its last cycle, and why it stopped.
    Status(RefArg),
    /// A trader's cycles, newest first: decisions, guard verdicts, orders, equity.
    Journal(super::trader_live::JournalArgs),
    /// Performance: trades, win rate, profit factor, P&L, fees, drawdown, Sharpe.
    Stats(RefArg),
}

#[derive(Debug, Args)]
pub struct TraderFields {
    /// Name, unique among your traders (case-insensitive).
    #[arg(long)]
    pub name: Option<String>,
    /// Model config, by name or id.
    #[arg(long)]
    pub model: Option<String>,
    /// Exchange account, by name or id.
    #[arg(long)]
    pub exchange: Option<String>,
    /// Strategy, by name or id.
    #[arg(long)]
    pub strategy: Option<String>,
    /// Starting balance in USDT the P&L is measured against (> 0; default 1000).
    #[arg(long, allow_hyphen_values = true, value_parser = decimal_arg)]
    pub initial_balance: Option<Decimal>,
    /// Minutes between scans, 3–60 (default 5; values outside are clamped, with a note).
    #[arg(long, allow_negative_numbers = true)]
    pub scan_interval: Option<i64>,
    /// Cross margin (default true) or isolated (false).
    #[arg(long, value_name = "true|false")]
    pub cross_margin: Option<bool>,
}

pub fn run(global: &GlobalArgs, command: TraderCommand) -> Result<()> {
    block_on(run_async(global, command))?
}

async fn run_async(global: &GlobalArgs, command: TraderCommand) -> Result<()> {
    let store = open_store(global).await?;
    let user = &global.user;
    let live = |store| std::sync::Arc::new(store);
    match command {
        TraderCommand::Start(args) => super::trader_live::start(global, live(store), args).await,
        TraderCommand::Stop(r) => super::trader_live::stop(global, live(store), r).await,
        TraderCommand::Status(r) => super::trader_live::status(global, live(store), r).await,
        TraderCommand::Journal(args) => {
            super::trader_live::journal(global, live(store), args).await
        }
        TraderCommand::Stats(r) => super::trader_live::stats(global, live(store), r).await,
        TraderCommand::List(args) => {
            let traders = store.list_traders(user, args.deleted).await?;
            if global.json {
                return print_json(&traders);
            }
            let rows = traders
                .iter()
                .map(|t| {
                    vec![
                        t.spec.name.clone(),
                        yes_no(t.is_running),
                        t.spec.initial_balance.to_string(),
                        format!("{}m", t.spec.scan_interval_minutes),
                        t.id.clone(),
                    ]
                })
                .collect::<Vec<_>>();
            print_table(&["NAME", "RUNNING", "BALANCE", "SCAN", "ID"], &rows);
            Ok(())
        }
        TraderCommand::Show(r) => {
            let trader = store.get_trader(user, &r.reference).await?;
            if global.json {
                return print_json(&trader);
            }
            // Names, not ids: what the user created them as. A binding whose resource is gone
            // (deleted to the trash) shows its id.
            let model = store.get_model(user, &trader.spec.ai_model_id).await;
            let exchange = store.get_exchange(user, &trader.spec.exchange_id).await;
            let strategy = store.get_strategy(user, &trader.spec.strategy_id).await;
            let bound = Bound {
                model: model.map_or(trader.spec.ai_model_id.clone(), |m| m.spec.name),
                exchange: exchange.map_or(trader.spec.exchange_id.clone(), |e| {
                    format!("{} ({})", e.spec.account_name, e.spec.exchange_type)
                }),
                strategy: strategy.map_or(trader.spec.strategy_id.clone(), |s| s.spec.name),
            };
            show(&trader, &bound);
            Ok(())
        }
        TraderCommand::Add(fields) => {
            let mut spec = TraderSpec::new(
                fields.name.unwrap_or_default(),
                fields.model.unwrap_or_default(),
                fields.exchange.unwrap_or_default(),
                fields.strategy.unwrap_or_default(),
                fields.initial_balance.unwrap_or(INITIAL_BALANCE_DEFAULT),
            );
            if let Some(minutes) = fields.scan_interval {
                spec.scan_interval_minutes = minutes;
            }
            if let Some(cross) = fields.cross_margin {
                spec.is_cross_margin = cross;
            }
            let (trader, adjustments) = store.create_trader(&actor(global), spec).await?;
            report_adjustments(&adjustments);
            done(global, "created", &trader)
        }
        TraderCommand::Update { target, fields } => {
            let patch = TraderPatch {
                name: fields.name,
                ai_model_id: fields.model,
                exchange_id: fields.exchange,
                strategy_id: fields.strategy,
                initial_balance: fields.initial_balance,
                scan_interval_minutes: fields.scan_interval,
                is_cross_margin: fields.cross_margin,
            };
            if patch == TraderPatch::default() {
                return Err(super::common::nothing_to_change(
                    KIND.as_str(),
                    "--name, --model, --exchange, --strategy, --initial-balance, --scan-interval, --cross-margin",
                ));
            }
            let (trader, adjustments) = store
                .update_trader(&actor(global), &target.reference, patch)
                .await?;
            report_adjustments(&adjustments);
            done(global, "updated", &trader)
        }
        TraderCommand::Delete(r) => remove(global, &store, KIND, &r.reference, false).await,
        TraderCommand::Restore(r) => remove(global, &store, KIND, &r.reference, true).await,
    }
}

fn done(global: &GlobalArgs, verb: &str, t: &Trader) -> Result<()> {
    if global.json {
        return print_json(t);
    }
    println!("{verb} trader {:?} (id {})", t.spec.name, t.id);
    Ok(())
}

/// What a trader is bound to, by name.
struct Bound {
    model: String,
    exchange: String,
    strategy: String,
}

fn show(t: &Trader, bound: &Bound) {
    println!("name            {}", t.spec.name);
    println!("id              {}", t.id);
    println!("model           {}", bound.model);
    println!("exchange        {}", bound.exchange);
    println!("strategy        {}", bound.strategy);
    println!("initial_balance {}", t.spec.initial_balance);
    println!("scan_interval   {} minutes", t.spec.scan_interval_minutes);
    println!("cross_margin    {}", yes_no(t.spec.is_cross_margin));
    println!("running         {}", yes_no(t.is_running));
    println!("created         {}", time(t.created_at));
    println!("updated         {}", time(t.updated_at));
}
