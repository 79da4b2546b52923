//! `portfolio.trades`: "茅台最近的交易", "my recent trades", "show my last 3 Tencent trades".
//! The latest records of one security (or of the whole portfolio), newest first, each with
//! its fee and where the fee came from: given by the user, or computed from the market's
//! schedule of its day (the stored record keeps no computed fee, so it is computed here, on
//! a copy, the way `snapshot` charges it).

use async_trait::async_trait;
use nofxi_portfolio::domain::{Transaction, TxKind};
use nofxi_portfolio::fees::{FeeSchedules, FeeSource, fill_fees};
use nofxi_portfolio::names::Directory;
use nofxi_skills::Lang;
use schemars::JsonSchema;
use serde::Deserialize;

use super::{book, directory, held, label, portfolio_error, resolve};
use crate::msg;
use crate::tools::registry::{Tool, ToolContext};
use crate::tools::{RiskLevel, ToolError, ToolOutput};

/// How many records an answer lists when the user says no number.
const DEFAULT_COUNT: usize = 10;
/// The most an answer lists: a longer history is the CLI's (`nofxi portfolio export`).
const MAX_COUNT: usize = 50;

#[derive(Debug, Deserialize, JsonSchema)]
pub struct TradesArgs {
    /// The security as said (成都银行, Tencent, 600519, AAPL.US); every record without.
    #[serde(default)]
    pub stock: Option<String>,
    /// How many of the latest records, 1–50; 10 when not said.
    #[serde(default)]
    pub count: Option<u64>,
    /// Which portfolio; the only one when there is one.
    #[serde(default)]
    pub portfolio: Option<String>,
}

pub struct PortfolioTrades;

#[async_trait]
impl Tool for PortfolioTrades {
    type Args = TradesArgs;
    const NAME: &'static str = "portfolio.trades";
    const SCOPES: &'static [&'static str] = &["portfolio:read"];
    const RISK: RiskLevel = RiskLevel::Read;

    async fn run(&self, cx: &ToolContext<'_>, args: TradesArgs) -> Result<ToolOutput, ToolError> {
        let lang = cx.lang;
        let book = book(cx.store, cx.user, lang, args.portfolio.as_deref()).await?;
        let directory = directory(&book)?;
        let portfolio = book.portfolio.name.clone();
        let stock = args
            .stock
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty());
        let (about, mine): (Option<String>, Vec<Transaction>) = match stock {
            None => (None, book.records),
            Some(said) => {
                let held = held(&book);
                let named = resolve(&directory, &held, said, lang)?;
                let own = book
                    .records
                    .into_iter()
                    .filter(|t| t.instrument.as_ref() == Some(&named.instrument))
                    .collect();
                (Some(label(&named, lang)), own)
            }
        };
        let text = listing(
            &directory,
            about.as_deref(),
            &portfolio,
            mine,
            args.count,
            lang,
        )?;
        Ok(ToolOutput {
            text: Some(text),
            ..ToolOutput::default()
        })
    }
}

/// The newest `count` of `records` (stored oldest first), newest first, under a header.
fn listing(
    directory: &Directory,
    about: Option<&str>,
    portfolio: &str,
    mut records: Vec<Transaction>,
    count: Option<u64>,
    lang: Lang,
) -> Result<String, ToolError> {
    // Oldest first; a stable sort keeps the order they were recorded in within a day.
    records.sort_by_key(|t| t.date);
    let total = records.len();
    if total == 0 {
        return Ok(match about {
            Some(name) => msg(
                lang,
                "portfolio-trades-none-of",
                &[("name", name), ("portfolio", portfolio)],
            ),
            None => msg(lang, "portfolio-trades-none", &[("portfolio", portfolio)]),
        });
    }
    let count = count
        .and_then(|n| usize::try_from(n).ok())
        .unwrap_or(DEFAULT_COUNT)
        .clamp(1, MAX_COUNT)
        .min(total);
    let mut latest: Vec<Transaction> = records[total - count..].to_vec();
    latest.reverse();
    let schedules = FeeSchedules::embedded().map_err(portfolio_error)?;
    let sources = fill_fees(&schedules, &mut latest).map_err(portfolio_error)?;
    let (shown, all) = (count.to_string(), total.to_string());
    let mut lines = vec![match about {
        Some(name) => msg(
            lang,
            "portfolio-trades-header-of",
            &[
                ("count", &shown),
                ("total", &all),
                ("name", name),
                ("portfolio", portfolio),
            ],
        ),
        None => msg(
            lang,
            "portfolio-trades-header",
            &[("count", &shown), ("total", &all), ("portfolio", portfolio)],
        ),
    }];
    for (record, source) in latest.iter().zip(&sources) {
        lines.push(line(directory, record, source, lang));
    }
    Ok(lines.join("\n"))
}

/// `2026-03-02 买入 贵州茅台 (600519.SH) 100 × 1500 CNY，费用 20.00（按费率表），账户 huatai`;
/// a cash record has no security: `2026-01-02 存入资金 200000.00 CNY…`.
fn line(directory: &Directory, t: &Transaction, source: &FeeSource, lang: Lang) -> String {
    let what = t
        .instrument
        .as_ref()
        .map(|i| label(&directory.named(i), lang))
        .unwrap_or_default();
    let amount = match t.kind {
        TxKind::Buy | TxKind::Sell | TxKind::TransferIn => format!(
            "{} × {} {}",
            t.quantity.normalize(),
            t.price.normalize(),
            t.currency
        ),
        TxKind::Split => format!("× {}", t.quantity.normalize()),
        TxKind::TransferOut => t.quantity.normalize().to_string(),
        _ => format!("{:.2} {}", t.amount, t.currency),
    };
    let fee = t.fee_or_zero();
    let fee_from = match source {
        FeeSource::Given { .. } => msg(lang, "portfolio-fee-from-given", &[]),
        FeeSource::Schedule { .. } => msg(lang, "portfolio-fee-from-schedule", &[]),
        FeeSource::NotCharged => msg(lang, "portfolio-fee-from-none", &[]),
    };
    msg(
        lang,
        "portfolio-trades-line",
        &[
            ("date", &t.date.to_string()),
            ("what", [kind(t.kind, lang), what].join(" ").trim()),
            ("amount", &amount),
            ("fee", &format!("{fee:.2}")),
            ("fee_from", &fee_from),
            ("account", &t.account),
        ],
    )
}

/// A record's kind in the reply's language.
fn kind(kind: TxKind, lang: Lang) -> String {
    let id = match kind {
        TxKind::Buy => "portfolio-side-buy",
        TxKind::Sell => "portfolio-side-sell",
        TxKind::Dividend => "portfolio-kind-dividend",
        TxKind::Fee => "portfolio-kind-fee",
        TxKind::Interest => "portfolio-kind-interest",
        TxKind::Split => "portfolio-kind-split",
        TxKind::TransferIn => "portfolio-kind-transfer-in",
        TxKind::TransferOut => "portfolio-kind-transfer-out",
        TxKind::Deposit => "portfolio-kind-deposit",
        TxKind::Withdrawal => "portfolio-kind-withdrawal",
    };
    msg(lang, id, &[])
}
