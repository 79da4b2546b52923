//! `nofxi trader start|stop|status|journal|stats NAME`: a trader's life in the engine.
//!
//! `start` runs the same preflight the engine runs, so a trader that cannot trade is refused
//! here with the reason, not marked running and stopped a moment later. The engine (`nofxi
//! run`) picks started traders up; `stop` marks it stopped and the engine ends it on its next
//! poll, after the cycle in progress.

use std::sync::Arc;

use anyhow::{Result, bail};
use clap::Args;
use nofxi_store::Store;
use nofxi_trader::cycle::CycleRecord;
use nofxi_trader::runtime::baseline::PnlBasis;
use nofxi_trader::runtime::preflight::start_trader;
use nofxi_trader::runtime::report::trader_stats;
use nofxi_trader::runtime::status::{StatusView, StopReason, status_view};
use nofxi_trader::stats::Stats;
use rust_decimal::Decimal;

use super::common::{RefArg, actor, print_json, print_table, time_on};
use crate::home::GlobalArgs;

#[derive(Debug, Args)]
pub struct StartArgs {
    #[command(flatten)]
    pub target: RefArg,
    /// Confirm starting a trader on a real exchange account (anything but paper).
    #[arg(long)]
    pub confirm_live: bool,
}

#[derive(Debug, Args)]
pub struct JournalArgs {
    #[command(flatten)]
    pub target: RefArg,
    /// How many cycles, newest first.
    #[arg(long, default_value_t = 20)]
    pub limit: u32,
}

pub async fn start(global: &GlobalArgs, store: Arc<Store>, args: StartArgs) -> Result<()> {
    let trader = store
        .get_trader(&global.user, &args.target.reference)
        .await?;
    let exchange = store
        .get_exchange(&global.user, &trader.spec.exchange_id)
        .await?;
    if nofxi_trader::runtime::connect::is_live(&exchange) && !args.confirm_live {
        let funds = match exchange.spec.testnet {
            true => "test funds on the testnet of",
            false => "real money on",
        };
        bail!(
            "trader {:?} trades {funds} {} account {:?}: re-run with --confirm-live to start it",
            trader.spec.name,
            exchange.spec.exchange_type,
            exchange.spec.account_name
        );
    }
    let (trader, ready) = start_trader(&store, &actor(global), &trader.id)
        .await
        .map_err(|e| {
            anyhow::anyhow!(
                "trader {:?} cannot start ({}): {e}",
                trader.spec.name,
                e.kind()
            )
        })?;
    let account = ready.venue.exchange.account().await?;
    if global.json {
        return print_json(&trader);
    }
    let engine = store
        .engine_running(nofxi_trader::runtime::host::ENGINE_BEAT_TTL_MS)
        .await
        .unwrap_or(true);
    let when = if !engine {
        "no engine is running now: it trades once `nofxi run` (or `nofxi serve`) runs,".to_string()
    } else {
        "the running engine picks it up and".to_string()
    };
    println!(
        "started trader {:?} on {} (equity {} USDT); {when} trades it every {} minutes",
        trader.spec.name, ready.venue.kind, account.equity, trader.spec.scan_interval_minutes
    );
    Ok(())
}

pub async fn stop(global: &GlobalArgs, store: Arc<Store>, target: RefArg) -> Result<()> {
    let trader = store
        .set_trader_running(&actor(global), &target.reference, false)
        .await?;
    if global.json {
        return print_json(&trader);
    }
    println!(
        "stopped trader {:?}; a running engine ends it after the cycle in progress",
        trader.spec.name
    );
    Ok(())
}

/// The model a trader is bound to, and while a running trader's engine still decides with the
/// one before (until its next cycle), that one: never a binding it is not using, unsaid.
async fn model_words(
    store: &Store,
    user: &str,
    trader: &nofxi_domain::Trader,
    view: &StatusView,
) -> String {
    let bound = store
        .get_model(user, &trader.spec.ai_model_id)
        .await
        .map(|m| m.spec.name)
        .unwrap_or_else(|_| trader.spec.ai_model_id.clone());
    match view.model_in_use.as_ref().filter(|_| view.model_pending) {
        Some(used) => format!("{bound} from its next cycle ({} until then)", used.name),
        None => bound,
    }
}

/// Why a trader stopped, as `trader status` says it; the detail line beneath gives the error.
fn stop_words(reason: StopReason) -> &'static str {
    match reason {
        StopReason::User => "stopped by the user",
        StopReason::Preflight => "its preflight failed (the reason is below)",
        StopReason::Error => "its cycles kept failing (the last error is below)",
        StopReason::SafeMode => "the model kept failing in safe mode",
        StopReason::LeaseLost => "another engine took it over",
        StopReason::Shutdown => "the engine shut down; it resumes when `nofxi run` runs again",
    }
}

pub async fn status(global: &GlobalArgs, store: Arc<Store>, target: RefArg) -> Result<()> {
    let trader = store.get_trader(&global.user, &target.reference).await?;
    let view = status_view(&store, &global.user, &trader).await?;
    if global.json {
        return print_json(&view);
    }
    println!("trader     {} ({})", view.name, view.id);
    let state = match (&view.marked_running, &view.lease_owner) {
        (true, Some(owner)) if let Some(left) = view.lease_wait_seconds => format!(
            "not trading: engine {owner} stopped renewing its lease {} s ago (killed or frozen); a running `nofxi run` takes the trader over when the lease expires, in {left} s",
            view.engine_silent_seconds.unwrap_or(0)
        ),
        (true, Some(owner)) => format!("running in engine {owner}"),
        (true, None) => "started, waiting for an engine: run `nofxi run`".into(),
        (false, _) => "stopped".into(),
    };
    println!("state      {state}");
    if let Some(prices) = &view.prices {
        println!("prices     {prices}");
    }
    println!(
        "model      {}",
        model_words(&store, &global.user, &trader, &view).await
    );
    if let Some(s) = &view.engine {
        if let Some(reason) = s.stop_reason.filter(|_| !s.running) {
            println!(
                "stopped    {}: {}",
                time_on(s.since_ms, s.simulated),
                stop_words(reason)
            );
        }
        if let (Some(n), Some(at)) = (s.last_cycle, s.last_cycle_ms) {
            println!(
                "last cycle #{n} at {}{}",
                time_on(at, s.simulated),
                if s.safe_mode {
                    " — SAFE MODE (model failing)"
                } else {
                    ""
                }
            );
        }
        if let Some(detail) = &s.detail {
            println!("detail     {detail}");
        }
    }
    Ok(())
}

pub async fn journal(global: &GlobalArgs, store: Arc<Store>, args: JournalArgs) -> Result<()> {
    let trader = store
        .get_trader(&global.user, &args.target.reference)
        .await?;
    let rows = store
        .cycles(
            &global.user,
            &trader.id,
            i64::from(args.limit.clamp(1, 10_000)),
            None,
        )
        .await?;
    if global.json {
        let records: Vec<&serde_json::Value> = rows.iter().map(|r| &r.record).collect();
        return print_json(&records);
    }
    let records: Vec<CycleRecord> = rows
        .iter()
        .filter_map(|row| serde_json::from_value::<CycleRecord>(row.record.clone()).ok())
        .collect();
    // The equity column rests on the account's prices: said once, from the newest record.
    if let Some(newest) = records.first().filter(|c| !c.market.is_empty()) {
        println!("prices: {}", newest.market);
    }
    let table: Vec<Vec<String>> = records.iter().map(journal_row).collect();
    print_table(
        &[
            "cycle",
            "time",
            "model",
            "decisions",
            "approved",
            "refused",
            "orders",
            "equity",
            "note",
        ],
        &table,
    );
    print_funding(&records);
    Ok(())
}

/// Funding paid or received, under the table as the fees are in the stats: one line a
/// payment, the cycle that journalled it first.
fn print_funding(records: &[CycleRecord]) {
    for c in records {
        for f in &c.funding {
            println!(
                "#{} funding: {} {} {} (rate {}, at {})",
                c.cycle_number,
                f.symbol,
                f.side.as_str().to_ascii_lowercase(),
                f.said(),
                f.rate.normalize(),
                time_on(f.funding_time_ms, c.simulated),
            );
        }
    }
}

fn journal_row(c: &CycleRecord) -> Vec<String> {
    let decisions: Vec<String> = c
        .decisions
        .iter()
        .map(|d| format!("{} {}", d.symbol, d.action))
        .collect();
    let ok = c.executions.iter().filter(|e| e.ok).count();
    let failed = c.executions.len() - ok;
    let note = c
        .error
        .clone()
        .or_else(|| {
            c.refused
                .first()
                .map(|r| format!("{}: {}", r.decision.symbol, r.reason))
        })
        .or_else(|| c.executions.iter().find_map(|e| e.error.clone()))
        .unwrap_or_default();
    vec![
        format!("#{}", c.cycle_number),
        time_on(c.started_ms, c.simulated),
        c.model
            .as_ref()
            .map_or_else(|| "-".into(), |m| m.name.clone()),
        if decisions.is_empty() {
            "-".into()
        } else {
            decisions.join(", ")
        },
        c.approved.len().to_string(),
        c.refused.len().to_string(),
        if c.executions.is_empty() {
            "-".into()
        } else {
            format!("{ok} ok, {failed} failed")
        },
        c.equity()
            .map(|e| e.round_dp(2).to_string())
            .unwrap_or_default(),
        note.chars().take(80).collect(),
    ]
}

pub async fn stats(global: &GlobalArgs, store: Arc<Store>, target: RefArg) -> Result<()> {
    let trader = store.get_trader(&global.user, &target.reference).await?;
    let (stats, basis) = trader_stats(&store, &global.user, &trader).await?;
    if global.json {
        return print_json(&stats);
    }
    print_stats(&stats, basis.as_ref().map(PnlBasis::equity));
    Ok(())
}

/// `basis`: the equity P&L is measured from, for the percentage (none when unknown).
pub fn print_stats(s: &Stats, basis: Option<Decimal>) {
    let pct = |d: Option<Decimal>| {
        d.map(|d| format!("{}%", (d * Decimal::ONE_HUNDRED).round_dp(2)))
            .unwrap_or("-".into())
    };
    let opt = |d: Option<Decimal>| d.map(|d| d.round_dp(4).to_string()).unwrap_or("-".into());
    let pnl_pct = match basis {
        Some(base) if base > Decimal::ZERO => format!(
            " ({}% of {} at its start)",
            (s.total_pnl / base * Decimal::ONE_HUNDRED).round_dp(2),
            base.round_dp(2)
        ),
        _ => String::new(),
    };
    println!(
        "trades          {} ({} won, {} lost)",
        s.total_trades, s.wins, s.losses
    );
    // The ratios of a few trades are flagged, as the web app and the chat flag them.
    let few = if s.sample_too_small && s.total_trades > 0 {
        format!(
            "  (too few trades: {} of {})",
            s.total_trades, s.sample_min_trades
        )
    } else {
        String::new()
    };
    println!("win rate        {}{few}", pct(s.win_rate));
    println!("profit factor   {}{few}", opt(s.profit_factor));
    println!(
        "total P&L       {} USDT{pnl_pct}, net of fees",
        s.total_pnl.round_dp(2)
    );
    if let (Some(realized), Some(unrealized)) = (s.realized_pnl, s.unrealized_pnl) {
        println!(
            "  realized      {} USDT, in the wallet: closed trades after fees and funding",
            realized.round_dp(2)
        );
        let open = s
            .open_positions
            .map(|n| format!(" on {n} open position(s)"))
            .unwrap_or_default();
        println!(
            "  unrealized    {} USDT{open} at the mark price",
            unrealized.round_dp(2)
        );
    }
    println!("fees            {} USDT", s.total_fee.round_dp(2));
    if !s.total_funding.is_zero() {
        let verb = if s.total_funding < Decimal::ZERO {
            "paid"
        } else {
            "received"
        };
        println!(
            "funding         {} USDT {verb}, in the total P&L",
            s.total_funding.abs().round_dp(2)
        );
    }
    println!("avg win / loss  {} / {}", opt(s.avg_win), opt(s.avg_loss));
    println!("max drawdown    {}%", s.max_drawdown_pct.round_dp(2));
    let sharpe = match (s.sharpe_ratio, &s.sharpe_na) {
        (Some(x), _) => format!("{x:.2}"),
        (None, Some(why)) => format!("n/a ({why})"),
        (None, None) => "-".into(),
    };
    println!("sharpe          {sharpe}");
}
