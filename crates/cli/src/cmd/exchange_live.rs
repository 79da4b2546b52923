//! `nofxi exchange test|balance|positions NAME`: talk to the exchange an account config points
//! at. Paper accounts run offline against the simulated market and keep their state in the
//! store; Binance accounts use the stored (decrypted only here) credentials.
//!
//! `NOFXI_BINANCE_BASE_URL` replaces Binance's base URLs (a proxy, or the mock server in tests).

use std::sync::Arc;

use anyhow::{Result, bail};
use nofxi_domain::CredentialField;
use nofxi_store::Store;
use nofxi_venues::binance::{ApiCredentials, BinanceClient, BinanceFutures, BinanceOptions};
use nofxi_venues::connectivity::{Check, ConnectivityReport, check_binance};
use nofxi_venues::paper::{PaperConfig, PaperExchange};
use nofxi_venues::sim::SimMarket;
use nofxi_venues::{Clock, Exchange, SystemClock};

use super::common::{print_json, print_table};
use crate::home::GlobalArgs;
use nofxi_trader::runtime::connect::{StorePaperRepo, binance_endpoints, sim_seed};

enum Live {
    Paper(Box<PaperExchange>),
    Binance(BinanceFutures),
}

impl Live {
    fn exchange(&self) -> &dyn Exchange {
        match self {
            Live::Paper(p) => p.as_ref(),
            Live::Binance(b) => b,
        }
    }
}

async fn connect(
    global: &GlobalArgs,
    store: Arc<Store>,
    reference: &str,
) -> Result<(String, Live)> {
    let (config, credentials) = store
        .credentials_for_signing(&global.user, reference)
        .await?;
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
    let clock: Arc<dyn Clock> = Arc::new(SystemClock);
    let live = match config.spec.exchange_type.as_str() {
        "paper" => {
            let market = Arc::new(SimMarket::new(sim_seed(), clock.clone()));
            let repo = Arc::new(StorePaperRepo {
                store,
                user: global.user.clone(),
            });
            let paper =
                PaperExchange::open(&config.id, PaperConfig::default(), market, clock, repo)
                    .await?;
            Live::Paper(Box::new(paper))
        }
        "binance" => {
            let (Some(key), Some(secret)) = (
                credentials.get(CredentialField::ApiKey),
                credentials.get(CredentialField::SecretKey),
            ) else {
                bail!(
                    "exchange {} has no api_key/secret_key: add them with `nofxi exchange update {} --api-key - --secret-key -`",
                    config.spec.account_name,
                    config.spec.account_name
                );
            };
            let venue = if config.spec.testnet {
                "binance-testnet"
            } else {
                "binance"
            };
            let client = BinanceClient::new(
                venue,
                binance_endpoints(config.spec.testnet),
                Some(ApiCredentials::new(key.expose(), secret.expose())),
                BinanceOptions::default(),
                clock,
            )?;
            Live::Binance(BinanceFutures::new(Arc::new(client)))
        }
        other => {
            bail!("nofxi cannot connect to {other} accounts yet: paper and binance are supported")
        }
    };
    Ok((title, live))
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
    let (title, live) = connect(global, Arc::new(store), reference).await?;
    let report = match &live {
        Live::Binance(b) => check_binance(b).await,
        Live::Paper(p) => ConnectivityReport::for_exchange(p.as_ref()).await,
    };
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
    let (title, live) = connect(global, Arc::new(store), reference).await?;
    let a = live.exchange().account().await?;
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
    let (title, live) = connect(global, Arc::new(store), reference).await?;
    let positions = live.exchange().positions().await?;
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
