//! `nofxi exchange test|balance|positions NAME`: talk to the exchange an account config points
//! at. Paper accounts run offline against the simulated market and keep their state in the
//! store; Binance accounts use the stored credentials, decrypted only in the trader runtime's
//! `connect`, the one place that maps an account config to a venue.
//!
//! Each venue's `NOFXI_<VENUE>_BASE_URL` replaces its base URL (a proxy, or the mock server in
//! tests); an explanation names it only when it is set.

use std::sync::Arc;

use anyhow::{Result, bail};
use nofxi_store::Store;
use nofxi_trader::runtime::connect::{
    BaseUrlOverride, PaperAccount, Persistence, Venue, connect_with,
};
use nofxi_trader::runtime::report;
use nofxi_trader::runtime::view::account_clock;
use nofxi_venues::connectivity::{Check, ConnectivityReport};
use serde::Serialize;

use nofxi_assistant::exchange_errors::explained_at;
use nofxi_skills::{Lang, Library};

use super::common::{print_json, print_table};
use crate::home::GlobalArgs;

/// The account's own venue (a paper account's own wallet, not a trader's) and a title line.
/// `balance` and `positions` only read it: they open it as a view, which saves nothing.
async fn connect(
    global: &GlobalArgs,
    store: Arc<Store>,
    reference: &str,
    persistence: Persistence,
) -> Result<(String, Venue)> {
    let config = store.get_exchange(&global.user, reference).await?;
    let title = format!(
        "{} · {}{}",
        config.spec.account_name,
        config.spec.exchange_type,
        if config.spec.testnet {
            " (testnet)"
        } else {
            ""
        }
    );
    let clock = account_clock(&store, &config).await;
    let venue = connect_with(
        store,
        &global.user,
        reference,
        PaperAccount::Exchange,
        clock,
        persistence,
    )
    .await?;
    let title = if venue.is_paper() {
        format!("{title} · {}", venue.prices)
    } else {
        title
    };
    Ok((title, venue))
}

fn line<T>(name: &str, check: &Check<T>, describe: impl Fn(&T) -> String) -> Vec<String> {
    let (status, detail) = match check {
        Check::Passed { value } => ("ok", describe(value)),
        Check::Warning { value, problem } => {
            ("WARNING", format!("{} — {problem}", describe(value)))
        }
        Check::Failed { problem } => ("FAILED", problem.to_string()),
        Check::Skipped { because } => ("skipped", because.clone()),
        // The answer lacked the field this check judges by: neither passed nor refused.
        Check::Unreadable { problem, .. } => ("UNREADABLE", problem.to_string()),
    };
    vec![name.to_string(), status.to_string(), detail]
}

/// The row of a paper account's prices: the market it follows, probed, or the simulated one.
const MARKET_ROW: &str = "market data";

fn print_report(title: &str, r: &ConnectivityReport) {
    println!("{title}");
    let mut rows = vec![
        line("clock", &r.clock, |c| {
            format!("offset {:+} ms", c.offset_ms)
        }),
        line("api key", &r.api_key, |_| "accepted".into()),
        line("ip whitelist", &r.ip_whitelist, |_| {
            "this IP is allowed".into()
        }),
        line("permissions", &r.permissions, |p| {
            format!("futures {}", if p.futures { "enabled" } else { "disabled" })
        }),
        line("position mode", &r.position_mode, |m| m.to_string()),
        line("balance", &r.balance, |a| {
            format!(
                "equity {} {} · available {}",
                a.equity, a.asset, a.available
            )
        }),
    ];
    if let Some(market) = &r.market {
        rows.push(line(MARKET_ROW, market, |m| {
            format!(
                "{}'s public market data answered: {} last {} in {} ms",
                m.source, m.symbol, m.last, m.latency_ms
            )
        }));
    }
    print_table(&["CHECK", "STATUS", "DETAIL"], &rows);
}

/// Each problem the check found, under its check's name, as the chat explains it: what
/// happened / why / what to do now (the error-diagnosis skill's entry), then the exchange's
/// own words.
fn print_explanations(r: &ConnectivityReport, overridden: Option<&BaseUrlOverride>) {
    let Ok(library) = Library::builtin() else {
        return;
    };
    let named = [
        ("clock", r.clock.problem()),
        ("api key", r.api_key.problem()),
        ("ip whitelist", r.ip_whitelist.problem()),
        ("permissions", r.permissions.problem()),
        ("position mode", r.position_mode.problem()),
        ("balance", r.balance.problem()),
        (MARKET_ROW, r.market.as_ref().and_then(|m| m.problem())),
    ];
    for (check, problem) in named {
        if let Some(problem) = problem {
            println!("\n{check} — {}:", problem.diagnosis);
            println!("{}", explained_at(problem, &library, Lang::En, overridden));
        }
    }
}

pub async fn test(global: &GlobalArgs, store: Store, reference: &str) -> Result<()> {
    let (title, venue) = connect(global, Arc::new(store), reference, Persistence::Save).await?;
    let report = venue.check().await;
    if global.json {
        print_json(&report)?;
    } else {
        print_report(&title, &report);
        print_explanations(&report, venue.base_url_override().as_ref());
    }
    let problems = report.problems().len();
    if !report.ok() {
        bail!("the exchange check failed ({problems} problem(s)); fix them in the order listed");
    }
    Ok(())
}

/// Every trader's paper sub-account of the account, by name (see `report::paper_sub_accounts`).
async fn paper_sub_accounts(
    global: &GlobalArgs,
    store: &Arc<Store>,
    reference: &str,
) -> Result<Vec<(String, String, Venue)>> {
    Ok(report::paper_sub_accounts(store, &global.user, reference)
        .await?
        .into_iter()
        .map(|(trader, venue)| (trader.spec.name, trader.id, venue))
        .collect())
}

#[derive(Serialize)]
struct SubAccount<T> {
    trader: String,
    trader_id: String,
    #[serde(flatten)]
    figures: T,
}

pub async fn balance(global: &GlobalArgs, store: Store, reference: &str) -> Result<()> {
    let store = Arc::new(store);
    let subs = paper_sub_accounts(global, &store, reference).await?;
    if !subs.is_empty() {
        return sub_balances(global, reference, subs).await;
    }
    let (title, venue) = connect(global, store, reference, Persistence::ReadOnly).await?;
    let a = venue.exchange.account().await?;
    if global.json {
        return print_json(&a);
    }
    println!("{title}");
    print_table(
        &[
            "ASSET",
            "WALLET",
            "UNREALIZED P&L",
            "EQUITY",
            "MARGIN USED",
            "AVAILABLE",
        ],
        &[vec![
            a.asset.clone(),
            a.wallet_balance.to_string(),
            a.unrealized_pnl.to_string(),
            a.equity.to_string(),
            a.margin_used.to_string(),
            a.available.to_string(),
        ]],
    );
    Ok(())
}

/// `exchange balance` of a paper account its traders trade: one row per trader's sub-account.
async fn sub_balances(
    global: &GlobalArgs,
    reference: &str,
    subs: Vec<(String, String, Venue)>,
) -> Result<()> {
    let mut rows = Vec::new();
    let prices = subs
        .first()
        .map(|(_, _, v)| v.prices.clone())
        .unwrap_or_default();
    for (trader, trader_id, venue) in subs {
        let figures = venue.exchange.account().await?;
        rows.push(SubAccount {
            trader,
            trader_id,
            figures,
        });
    }
    if global.json {
        return print_json(&rows);
    }
    println!("{reference} · paper · {prices}: each trader's sub-account");
    let table: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let a = &r.figures;
            vec![
                r.trader.clone(),
                a.asset.clone(),
                a.wallet_balance.round_dp(4).to_string(),
                a.unrealized_pnl.round_dp(4).to_string(),
                a.equity.round_dp(4).to_string(),
                a.margin_used.round_dp(4).to_string(),
                a.available.round_dp(4).to_string(),
            ]
        })
        .collect();
    print_table(
        &[
            "TRADER",
            "ASSET",
            "WALLET",
            "UNREALIZED P&L",
            "EQUITY",
            "MARGIN USED",
            "AVAILABLE",
        ],
        &table,
    );
    Ok(())
}

pub async fn positions(global: &GlobalArgs, store: Store, reference: &str) -> Result<()> {
    let store = Arc::new(store);
    let subs = paper_sub_accounts(global, &store, reference).await?;
    let (title, held) = if subs.is_empty() {
        let (title, venue) = connect(global, store, reference, Persistence::ReadOnly).await?;
        let positions = venue.exchange.positions().await?;
        if global.json {
            return print_json(&positions);
        }
        (title, positions.into_iter().map(|p| (None, p)).collect())
    } else {
        let mut held = Vec::new();
        let mut json = Vec::new();
        let prices = subs
            .first()
            .map(|(_, _, v)| v.prices.clone())
            .unwrap_or_default();
        for (trader, trader_id, venue) in subs {
            for p in venue.exchange.positions().await? {
                held.push((Some(trader.clone()), p.clone()));
                json.push(SubAccount {
                    trader: trader.clone(),
                    trader_id: trader_id.clone(),
                    figures: p,
                });
            }
        }
        if global.json {
            return print_json(&json);
        }
        (
            format!("{reference} · paper · {prices}: each trader's sub-account"),
            held,
        )
    };
    println!("{title}");
    let by_trader = held.iter().any(|(t, _)| t.is_some());
    let rows = held
        .iter()
        .map(|(trader, p)| {
            let mut row = Vec::new();
            if by_trader {
                row.push(trader.clone().unwrap_or_default());
            }
            row.extend([
                p.symbol.to_string(),
                p.side.to_string(),
                p.quantity.to_string(),
                p.entry_price.to_string(),
                p.mark_price.to_string(),
                format!("{}x {}", p.leverage, p.margin_mode),
                p.unrealized_pnl.round_dp(4).to_string(),
                p.liquidation_price
                    .map(|l| l.round_dp(2).to_string())
                    .unwrap_or_else(|| "-".into()),
            ]);
            row
        })
        .collect::<Vec<_>>();
    let mut header = Vec::new();
    if by_trader {
        header.push("TRADER");
    }
    header.extend([
        "SYMBOL",
        "SIDE",
        "SIZE",
        "ENTRY",
        "MARK",
        "LEVERAGE",
        "UNREALIZED P&L",
        "LIQ. PRICE",
    ]);
    print_table(&header, &rows);
    Ok(())
}
