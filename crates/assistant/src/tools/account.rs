//! `exchange.balance` and `exchange.positions`: an exchange account's money and open positions
//! as `nofxi exchange balance|positions` read them ("balance of paper", "main 的持仓"). A paper
//! account's traders each trade a sub-account of their own, so those are shown, one per trader;
//! a paper account no trader has traded shows its own wallet; a live account is read from the
//! venue now. A venue that cannot be read is said with the command that checks it.

use async_trait::async_trait;
use nofxi_domain::trading::{AccountSnapshot, Position};
use nofxi_skills::{Catalog, Lang};
use nofxi_trader::runtime::connect::{ConnectError, PaperAccount, Venue};
use nofxi_trader::runtime::report::paper_sub_accounts;
use nofxi_trader::runtime::view::open_view;
use schemars::JsonSchema;
use serde::Deserialize;

use super::registry::{Tool, ToolContext};
use super::{RiskLevel, ToolError, ToolOutput};
use crate::tools::exec::store_error;

#[derive(Debug, Deserialize, JsonSchema)]
pub struct AccountArgs {
    /// The exchange account (its id once resolved).
    pub target: String,
}

pub struct ExchangeBalance;
pub struct ExchangePositions;

#[async_trait]
impl Tool for ExchangeBalance {
    type Args = AccountArgs;
    const NAME: &'static str = "exchange.balance";
    const SCOPES: &'static [&'static str] = &["exchange:read"];
    const RISK: RiskLevel = RiskLevel::Read;

    async fn run(&self, cx: &ToolContext<'_>, args: AccountArgs) -> Result<ToolOutput, ToolError> {
        read(cx, &args.target, Figures::Balance).await
    }
}

#[async_trait]
impl Tool for ExchangePositions {
    type Args = AccountArgs;
    const NAME: &'static str = "exchange.positions";
    const SCOPES: &'static [&'static str] = &["exchange:read"];
    const RISK: RiskLevel = RiskLevel::Read;

    async fn run(&self, cx: &ToolContext<'_>, args: AccountArgs) -> Result<ToolOutput, ToolError> {
        read(cx, &args.target, Figures::Positions).await
    }
}

#[derive(Clone, Copy)]
enum Figures {
    Balance,
    Positions,
}

async fn read(
    cx: &ToolContext<'_>,
    target: &str,
    figures: Figures,
) -> Result<ToolOutput, ToolError> {
    let config = cx
        .store
        .get_exchange(cx.user, target)
        .await
        .map_err(|e| store_error(&e, cx.lang))?;
    let name = config.spec.account_name.clone();
    let text = match accounts(cx, &config.id).await {
        Ok((header, venues)) => {
            let mut lines = vec![header_text(
                cx.lang,
                &name,
                &config.spec.exchange_type,
                &header,
            )];
            match lines_of(cx.lang, &venues, figures).await {
                Ok(body) => lines.extend(body),
                Err(e) => lines = vec![unreadable(cx.lang, &name, &e)],
            }
            lines.join("\n")
        }
        Err(e) => unreadable(cx.lang, &name, &e),
    };
    Ok(ToolOutput {
        resource_id: Some(config.id),
        resource_name: Some(name),
        text: Some(text),
        ..ToolOutput::default()
    })
}

/// Which accounts a reply shows.
enum Header {
    Live,
    PaperSubAccounts,
    PaperUntouched,
}

/// The accounts to read: each trader's paper sub-account, else the account itself.
async fn accounts(
    cx: &ToolContext<'_>,
    exchange_id: &str,
) -> Result<(Header, Vec<(Option<String>, Venue)>), ConnectError> {
    let subs = paper_sub_accounts(cx.store, cx.user, exchange_id).await?;
    if !subs.is_empty() {
        let venues = subs
            .into_iter()
            .map(|(t, v)| (Some(t.spec.name), v))
            .collect();
        return Ok((Header::PaperSubAccounts, venues));
    }
    let venue = open_view(
        cx.store.clone(),
        cx.user,
        exchange_id,
        PaperAccount::Exchange,
    )
    .await?;
    let header = if venue.is_paper() {
        Header::PaperUntouched
    } else {
        Header::Live
    };
    Ok((header, vec![(None, venue)]))
}

fn header_text(lang: Lang, name: &str, kind: &str, header: &Header) -> String {
    let c = Catalog::builtin();
    match header {
        Header::Live => c.text(lang, "account-header", &[("name", name), ("kind", kind)]),
        Header::PaperSubAccounts => c.text(lang, "account-header-paper", &[("name", name)]),
        Header::PaperUntouched => c.text(lang, "account-untouched", &[("name", name)]),
    }
}

async fn lines_of(
    lang: Lang,
    venues: &[(Option<String>, Venue)],
    figures: Figures,
) -> Result<Vec<String>, ConnectError> {
    let c = Catalog::builtin();
    let mut lines = Vec::new();
    for (trader, venue) in venues {
        let who = trader
            .as_deref()
            .map(|t| c.text(lang, "account-who", &[("trader", t)]))
            .unwrap_or_default();
        match figures {
            Figures::Balance => {
                lines.push(balance_line(lang, &who, &venue.exchange.account().await?))
            }
            Figures::Positions => {
                let held = venue.exchange.positions().await?;
                lines.extend(held.iter().map(|p| position_line(lang, &who, p)));
            }
        }
    }
    if lines.is_empty() {
        lines.push(c.text(lang, "account-no-positions", &[]));
    }
    Ok(lines)
}

fn balance_line(lang: Lang, who: &str, a: &AccountSnapshot) -> String {
    Catalog::builtin().text(
        lang,
        "account-balance",
        &[
            ("who", who),
            ("equity", &a.equity.round_dp(2).to_string()),
            ("asset", &a.asset),
            ("wallet", &a.wallet_balance.round_dp(2).to_string()),
            ("unrealized", &a.unrealized_pnl.round_dp(2).to_string()),
            ("margin", &a.margin_used.round_dp(2).to_string()),
            ("available", &a.available.round_dp(2).to_string()),
        ],
    )
}

fn position_line(lang: Lang, who: &str, p: &Position) -> String {
    let c = Catalog::builtin();
    let liquidation = p
        .liquidation_price
        .map(|price| {
            c.text(
                lang,
                "account-liquidation",
                &[("price", &price.round_dp(4).to_string())],
            )
        })
        .unwrap_or_default();
    c.text(
        lang,
        "account-position",
        &[
            ("who", who),
            ("symbol", p.symbol.as_str()),
            ("side", &p.side.to_string()),
            ("quantity", &p.quantity.to_string()),
            ("entry", &p.entry_price.to_string()),
            ("mark", &p.mark_price.to_string()),
            ("leverage", &p.leverage.to_string()),
            ("margin_mode", &p.margin_mode.to_string()),
            ("unrealized", &p.unrealized_pnl.round_dp(2).to_string()),
            ("liquidation", &liquidation),
        ],
    )
}

fn unreadable(lang: Lang, name: &str, e: &ConnectError) -> String {
    if let Some(said) = crate::exchange_probe::trading_not_available(lang, e) {
        return said;
    }
    let error = e.to_string();
    Catalog::builtin().text(
        lang,
        "account-unreadable",
        &[("name", name), ("error", &error)],
    )
}
