//! `nofxi exchange test|balance|positions NAME`: talk to the exchange an account config points
//! at. Paper accounts run offline against the simulated market and keep their state in the
//! store; Binance accounts use the stored credentials, decrypted only in the trader runtime's
//! `connect`, the one place that maps an account config to a venue.
//!
//! `NOFXI_BINANCE_BASE_URL` replaces Binance's base URLs (a proxy, or the mock server in tests).

use std::sync::Arc;

use anyhow::{Result, bail};
use nofxi_store::Store;
use nofxi_trader::runtime::connect::{PaperAccount, Venue, connect as connect_venue};
use nofxi_venues::SystemClock;
use nofxi_venues::connectivity::{Check, ConnectivityReport};

use super::common::{print_json, print_table};
use crate::home::GlobalArgs;

/// The account's own venue (a paper account's own wallet, not a trader's) and a title line.
async fn connect(global: &GlobalArgs, store: Store, reference: &str) -> Result<(String, Venue)> {
    let store = Arc::new(store);
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
    let venue = connect_venue(
        store,
        &global.user,
        reference,
        PaperAccount::Exchange,
        Arc::new(SystemClock),
    )
    .await?;
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
    };
    vec![name.to_string(), status.to_string(), detail]
}

fn print_report(title: &str, r: &ConnectivityReport) {
    println!("{title}");
    let rows = vec![
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
    print_table(&["CHECK", "STATUS", "DETAIL"], &rows);
}

pub async fn test(global: &GlobalArgs, store: Store, reference: &str) -> Result<()> {
    let (title, venue) = connect(global, store, reference).await?;
    let report = venue.check().await;
    if global.json {
        print_json(&report)?;
    } else {
        print_report(&title, &report);
    }
    let problems = report.problems().len();
    if !report.ok() {
        bail!("the exchange check failed ({problems} problem(s)); fix them in the order listed");
    }
    Ok(())
}

pub async fn balance(global: &GlobalArgs, store: Store, reference: &str) -> Result<()> {
    let (title, venue) = connect(global, store, reference).await?;
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

pub async fn positions(global: &GlobalArgs, store: Store, reference: &str) -> Result<()> {
    let (title, venue) = connect(global, store, reference).await?;
    let positions = venue.exchange.positions().await?;
    if global.json {
        return print_json(&positions);
    }
    println!("{title}");
    let rows = positions
        .iter()
        .map(|p| {
            vec![
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
            ]
        })
        .collect::<Vec<_>>();
    print_table(
        &[
            "SYMBOL",
            "SIDE",
            "SIZE",
            "ENTRY",
            "MARK",
            "LEVERAGE",
            "UNREALIZED P&L",
            "LIQ. PRICE",
        ],
        &rows,
    );
    Ok(())
}
