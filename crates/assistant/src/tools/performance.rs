//! `trader.stats`: how traders did. With a trader, its closed trades, win rate, P&L net of
//! fees (realized and unrealized apart) and drawdown, its ratios flagged below the minimum
//! sample ("btc-bot stats", "alpha 收益怎么样"); without one, every trader's equity and P&L
//! from its own start, split the same way, and their total ("total pnl across traders",
//! "所有交易员总收益").
//! Both read the figures `nofxi trader stats` reads (`runtime::report`), so chat and CLI agree.

use async_trait::async_trait;
use nofxi_domain::Trader;
use nofxi_skills::Catalog;
use nofxi_trader::runtime::baseline::{pnl_basis, trades_paper};
use nofxi_trader::runtime::report::trader_stats;
use nofxi_trader::runtime::view::trader_account;
use rust_decimal::Decimal;
use schemars::JsonSchema;
use serde::Deserialize;

use super::portfolio::{ShowArgs, answer as portfolio_answer};
use super::registry::{Tool, ToolContext};
use super::{RiskLevel, ToolError, ToolOutput};
use crate::tools::exec::store_error;

#[derive(Debug, Deserialize, JsonSchema)]
pub struct StatsArgs {
    /// The trader (its id once resolved); none for every trader and their total.
    #[serde(default)]
    pub target: Option<String>,
}

pub struct TraderStats;

#[async_trait]
impl Tool for TraderStats {
    type Args = StatsArgs;
    const NAME: &'static str = "trader.stats";
    const SCOPES: &'static [&'static str] = &["trader:read"];
    const RISK: RiskLevel = RiskLevel::Read;

    async fn run(&self, cx: &ToolContext<'_>, args: StatsArgs) -> Result<ToolOutput, ToolError> {
        let Some(target) = args.target.filter(|t| !t.trim().is_empty()) else {
            return Ok(ToolOutput {
                text: Some(every_trader(cx).await?),
                ..ToolOutput::default()
            });
        };
        let t = cx
            .store
            .get_trader(cx.user, &target)
            .await
            .map_err(|e| store_error(&e, cx.lang))?;
        let text = one_trader(cx, &t).await;
        Ok(ToolOutput {
            resource_id: Some(t.id),
            resource_name: Some(t.spec.name),
            text: Some(text),
            ..ToolOutput::default()
        })
    }
}

async fn one_trader(cx: &ToolContext<'_>, t: &Trader) -> String {
    let c = Catalog::builtin();
    let lang = cx.lang;
    let name = t.spec.name.as_str();
    let (stats, basis) = match trader_stats(cx.store, cx.user, t).await {
        Ok(found) => found,
        Err(e) => {
            let error = e.to_string();
            return c.text(
                lang,
                "stats-unreadable",
                &[("name", name), ("error", &error)],
            );
        }
    };
    let missing = c.text(lang, "stats-missing", &[]);
    let shown = |d: Option<Decimal>| d.map_or(missing.clone(), |d| d.round_dp(2).to_string());
    let mut lines = vec![c.text(lang, "stats-header", &[("name", name)])];
    if stats.total_trades == 0 {
        lines.push(c.text(lang, "stats-none", &[("name", name)]));
    } else {
        let win_rate = stats.win_rate.map(|w| w * Decimal::ONE_HUNDRED);
        lines.push(c.text(
            lang,
            "stats-trades",
            &[
                ("total", &stats.total_trades.to_string()),
                ("wins", &stats.wins.to_string()),
                ("losses", &stats.losses.to_string()),
                ("win_rate", &format!("{}%", shown(win_rate))),
            ],
        ));
    }
    let of_basis = match &basis {
        Some(b) => {
            let pct = percent_of(stats.total_pnl, b.equity());
            let base = b.equity().round_dp(2).to_string();
            c.text(lang, "stats-of-basis", &[("pct", &pct), ("basis", &base)])
        }
        None => String::new(),
    };
    lines.push(c.text(
        lang,
        "stats-pnl",
        &[
            ("pnl", &stats.total_pnl.round_dp(2).to_string()),
            ("of_basis", &of_basis),
            ("fees", &stats.total_fee.round_dp(2).to_string()),
        ],
    ));
    // The P&L's two parts, from the same reading of the account as the P&L.
    if let (Some(realized), Some(unrealized)) = (stats.realized_pnl, stats.unrealized_pnl) {
        lines.push(c.counted(
            lang,
            "stats-split",
            stats.open_positions.unwrap_or_default(),
            &[
                ("realized", &realized.round_dp(2).to_string()),
                ("unrealized", &unrealized.round_dp(2).to_string()),
            ],
        ));
    }
    lines.push(c.text(
        lang,
        "stats-drawdown",
        &[
            ("drawdown", &stats.max_drawdown_pct.round_dp(2).to_string()),
            ("profit_factor", &shown(stats.profit_factor)),
        ],
    ));
    // The ratios of a few trades are said with what they rest on (the flag the web app shows).
    if stats.sample_too_small && stats.total_trades > 0 {
        lines.push(c.text(
            lang,
            "stats-sample-small",
            &[
                ("trades", &stats.total_trades.to_string()),
                ("min", &stats.sample_min_trades.to_string()),
            ],
        ));
    }
    lines.join("\n")
}

/// Every trader's equity and P&L now, and their sum over the traders that have figures.
async fn every_trader(cx: &ToolContext<'_>) -> Result<String, ToolError> {
    let c = Catalog::builtin();
    let lang = cx.lang;
    let traders = cx
        .store
        .list_traders(cx.user, false)
        .await
        .map_err(|e| store_error(&e, lang))?;
    if traders.is_empty() {
        // "我的总盈亏是多少" with no trader but a portfolio: the only P&L there is to tell.
        if let Ok(portfolio) = portfolio_answer(cx.store, cx.user, lang, &whole_portfolio()).await {
            let note = c.text(lang, "pnl-no-traders-portfolio", &[]);
            return Ok(format!("{note}\n{portfolio}"));
        }
        return Ok(c.text(lang, "pnl-no-traders", &[]));
    }
    let mut lines = vec![c.text(lang, "pnl-header", &[])];
    let (mut equity_sum, mut pnl_sum, mut counted) = (Decimal::ZERO, Decimal::ZERO, 0usize);
    let (mut realized_sum, mut unrealized_sum) = (Decimal::ZERO, Decimal::ZERO);
    for t in &traders {
        let name = t.spec.name.as_str();
        let view = match trader_account(cx.store.clone(), cx.user, t).await {
            Ok(Some(view)) => view,
            Ok(None) => {
                let why = c.text(lang, "pnl-not-started", &[]);
                lines.push(c.text(lang, "pnl-row-unread", &[("name", name), ("why", &why)]));
                continue;
            }
            Err(e) => {
                let why = e.to_string();
                lines.push(c.text(lang, "pnl-row-unread", &[("name", name), ("why", &why)]));
                continue;
            }
        };
        let equity = view.account.equity;
        let paper = trades_paper(cx.store, cx.user, t).await;
        let Some(basis) = pnl_basis(cx.store, cx.user, t, paper).await else {
            let why = c.text(lang, "pnl-not-started", &[]);
            lines.push(c.text(lang, "pnl-row-unread", &[("name", name), ("why", &why)]));
            continue;
        };
        let (pnl, pct) = basis.pnl(equity);
        let (realized, unrealized) = basis.split(&view.account);
        lines.push(c.text(
            lang,
            "pnl-row",
            &[
                ("name", name),
                ("equity", &equity.round_dp(2).to_string()),
                ("pnl", &pnl.round_dp(2).to_string()),
                ("pct", &pct.to_string()),
                ("realized", &realized.round_dp(2).to_string()),
                ("unrealized", &unrealized.round_dp(2).to_string()),
            ],
        ));
        equity_sum += equity;
        pnl_sum += pnl;
        realized_sum += realized;
        unrealized_sum += unrealized;
        counted += 1;
    }
    if counted > 0 {
        lines.push(c.counted(
            lang,
            "pnl-total",
            counted,
            &[
                ("equity", &equity_sum.round_dp(2).to_string()),
                ("pnl", &pnl_sum.round_dp(2).to_string()),
                ("realized", &realized_sum.round_dp(2).to_string()),
                ("unrealized", &unrealized_sum.round_dp(2).to_string()),
            ],
        ));
    }
    // "总盈亏" is also the personal portfolio's, when there is one: both are said, each
    // under its own name, rather than one taken for the other.
    if let Ok(portfolio) = portfolio_answer(cx.store, cx.user, lang, &whole_portfolio()).await {
        lines.push(c.text(lang, "pnl-portfolio-too", &[]));
        lines.push(portfolio);
    }
    Ok(lines.join("\n"))
}

/// The whole portfolio, the user's only one.
fn whole_portfolio() -> ShowArgs {
    ShowArgs {
        stock: None,
        portfolio: None,
    }
}

/// `part` as a percentage of `whole`, two decimals; `-` of nothing.
fn percent_of(part: Decimal, whole: Decimal) -> String {
    if whole.is_zero() {
        return "-".into();
    }
    (part / whole * Decimal::ONE_HUNDRED)
        .round_dp(2)
        .to_string()
}
