//! `portfolio.show`: "茅台的成本是多少", "how many Tencent shares do I have", "我的组合怎么样".
//! With a security, that holding alone (in each account): units, cost with the method, price
//! with its date, value, unrealized and realized P&L with their basis. Without one, the
//! portfolio: value, P&L, returns, the largest holdings and any warning. A holding's answer
//! is computed from that holding's records alone, in its own currency.

use async_trait::async_trait;
use nofxi_portfolio::domain::{Market, Transaction};
use nofxi_portfolio::performance::{
    Period, PricedHolding, Snapshot, Warning, per_currency, snapshot,
};
use nofxi_skills::Lang;
use nofxi_store::Store;
use rust_decimal::Decimal;
use schemars::JsonSchema;
use serde::Deserialize;

use super::{book, code, directory, held, label, portfolio_error, resolve, signed, today};
use crate::msg;
use crate::tools::market::{MarketPrice, PriceArgs};
use crate::tools::registry::{Tool, ToolContext};
use crate::tools::{RiskLevel, ToolError, ToolOutput};

#[derive(Debug, Deserialize, JsonSchema)]
pub struct ShowArgs {
    /// The security as said (成都银行, Tencent, 600519, AAPL.US); the whole portfolio without.
    #[serde(default)]
    pub stock: Option<String>,
    /// Which portfolio; the only one when there is one.
    #[serde(default)]
    pub portfolio: Option<String>,
}

pub struct PortfolioShow;

/// How many holdings the portfolio answer lists.
const TOP: usize = 5;

#[async_trait]
impl Tool for PortfolioShow {
    type Args = ShowArgs;
    const NAME: &'static str = "portfolio.show";
    const SCOPES: &'static [&'static str] = &["portfolio:read"];
    const RISK: RiskLevel = RiskLevel::Read;

    async fn run(&self, cx: &ToolContext<'_>, args: ShowArgs) -> Result<ToolOutput, ToolError> {
        let said = answer(cx.store, cx.user, cx.lang, &args).await?;
        // "比特币现在多少" with no bitcoin in the portfolio: its price is what is asked, said
        // beside the portfolio's answer (never instead of it: the holding may be meant).
        match unheld_coin(cx, &args).await {
            Some(coin) => {
                let quote = MarketPrice
                    .run(
                        cx,
                        PriceArgs {
                            symbol: coin,
                            source: None,
                        },
                    )
                    .await?;
                Ok(text(format!("{said}\n{}", quote.text.unwrap_or_default())))
            }
            None => Ok(text(said)),
        }
    }
}

/// The coin `args` asks about when the portfolio has no record of it.
async fn unheld_coin(cx: &ToolContext<'_>, args: &ShowArgs) -> Option<String> {
    let said = args.stock.as_deref().filter(|s| !s.trim().is_empty())?;
    let book = book(cx.store, cx.user, cx.lang, args.portfolio.as_deref())
        .await
        .ok()?;
    let directory = directory(&book).ok()?;
    let held = held(&book);
    let named = resolve(&directory, &held, said, cx.lang).ok()?;
    let coin = named.instrument.market == Market::Crypto && !held.contains(&named.instrument);
    coin.then(|| named.instrument.symbol.clone())
}

/// The answer to a question about one holding, or the whole portfolio: the tool's reply,
/// and the fact an open question about a holding is answered over.
pub async fn answer(
    store: &Store,
    user: &str,
    lang: Lang,
    args: &ShowArgs,
) -> Result<String, ToolError> {
    let book = book(store, user, lang, args.portfolio.as_deref()).await?;
    let Some(said) = args.stock.as_deref().filter(|s| !s.trim().is_empty()) else {
        return whole(&book, lang);
    };
    let directory = directory(&book)?;
    let held = held(&book);
    let named = resolve(&directory, &held, said, lang)?;
    let shown = label(&named, lang);
    let portfolio = book.portfolio.name.as_str();
    if !held.contains(&named.instrument) {
        return Ok(msg(
            lang,
            "portfolio-holding-none",
            &[("name", &shown), ("portfolio", portfolio)],
        ));
    }
    // The holding's own records, valued in its own currency: its answer needs no other
    // holding's price or exchange rate.
    let own: Vec<Transaction> = book
        .records
        .iter()
        .filter(|t| t.instrument.as_ref() == Some(&named.instrument))
        .cloned()
        .collect();
    let mut alone = book.portfolio.clone();
    alone.base_currency = named.instrument.currency.clone();
    let shot =
        snapshot(&alone, &own, &book.prices, &book.rates, today()).map_err(portfolio_error)?;
    let mine: Vec<&PricedHolding> = shot
        .holdings
        .iter()
        .filter(|h| h.pnl.key.instrument == named.instrument)
        .collect();
    let mut lines = vec![msg(
        lang,
        "portfolio-holding-header",
        &[
            ("name", &shown),
            ("portfolio", portfolio),
            ("on", &shot.on.to_string()),
        ],
    )];
    for h in &mine {
        lines.push(holding_line(h, &shot, lang));
    }
    if let Some(first) = mine.first() {
        lines.push(msg(
            lang,
            "portfolio-basis",
            &[(
                "basis",
                &first.pnl.unrealized.basis.describe(lang == Lang::Zh),
            )],
        ));
    }
    // Only what is about this holding: its price's age.
    let about_it = |w: &&Warning| match w {
        Warning::OldPrice { instrument, .. } => *instrument == named.instrument.key(),
        Warning::NegativeCash { .. } | Warning::NoReturns { .. } => false,
    };
    let about: Vec<Warning> = shot.warnings.iter().filter(about_it).cloned().collect();
    lines.extend(warnings(&about, lang));
    Ok(lines.join("\n"))
}

fn text(text: String) -> ToolOutput {
    ToolOutput {
        text: Some(text),
        ..ToolOutput::default()
    }
}

/// The whole portfolio in its base currency; with a rate to it missing, each currency's part
/// in its own currency, after saying which rate is missing.
fn whole(book: &nofxi_store::PortfolioBook, lang: Lang) -> Result<String, ToolError> {
    let on = today();
    let refusal = match snapshot(
        &book.portfolio,
        &book.records,
        &book.prices,
        &book.rates,
        on,
    ) {
        Ok(shot) => return Ok(portfolio_text(&shot, lang)),
        Err(e) => e,
    };
    if !refusal.fields().any(|f| f.starts_with("fx_rate")) {
        return Err(portfolio_error(refusal));
    }
    let parts = per_currency(
        &book.portfolio,
        &book.records,
        &book.prices,
        &book.rates,
        on,
    )
    .map_err(portfolio_error)?;
    let mut lines = vec![msg(
        lang,
        "portfolio-per-currency",
        &[
            ("error", &refusal.to_string()),
            ("base", &book.portfolio.base_currency.to_string()),
        ],
    )];
    lines.extend(parts.iter().map(|part| portfolio_text(part, lang)));
    Ok(lines.join("\n"))
}

fn holding_line(h: &PricedHolding, shot: &Snapshot, lang: Lang) -> String {
    let p = &h.pnl;
    let currency = p.key.instrument.currency.to_string();
    if p.quantity.is_zero() {
        return msg(
            lang,
            "portfolio-holding-sold",
            &[
                ("account", &p.key.account),
                ("realized", &signed(p.realized.value)),
                ("currency", &currency),
            ],
        );
    }
    let priced = h
        .priced_at
        .map(|d| d.to_string())
        .unwrap_or_else(|| shot.on.to_string());
    let pct = match p.cost.is_zero() {
        true => String::from("–"),
        false => format!(
            "{}%",
            signed(p.unrealized.value / p.cost * Decimal::ONE_HUNDRED)
        ),
    };
    msg(
        lang,
        "portfolio-holding-line",
        &[
            ("account", &p.key.account),
            ("quantity", &p.quantity.normalize().to_string()),
            ("cost", &format!("{:.2}", p.cost)),
            (
                "unit_cost",
                &p.unit_cost.round_dp(4).normalize().to_string(),
            ),
            ("method", shot.cost_method.name()),
            ("price", &p.price.normalize().to_string()),
            ("priced", &priced),
            ("value", &format!("{:.2}", p.market_value)),
            ("unrealized", &signed(p.unrealized.value)),
            ("pct", &pct),
            ("realized", &signed(p.realized.value)),
            ("currency", &currency),
        ],
    )
}

fn portfolio_text(shot: &Snapshot, lang: Lang) -> String {
    if shot.records == 0 {
        return msg(
            lang,
            "portfolio-summary-empty",
            &[("portfolio", &shot.portfolio)],
        );
    }
    let currency = shot.base_currency.to_string();
    let mut lines = vec![msg(
        lang,
        "portfolio-summary-header",
        &[
            ("portfolio", &shot.portfolio),
            ("on", &shot.on.to_string()),
            ("value", &format!("{:.2}", shot.value)),
            ("currency", &currency),
            ("unrealized", &signed(shot.unrealized.value)),
            ("realized", &signed(shot.realized.value)),
        ],
    )];
    for r in shot
        .returns
        .iter()
        .filter(|r| matches!(r.period, Period::YearToDate | Period::All))
    {
        let period = match r.period {
            Period::YearToDate => "portfolio-period-ytd",
            _ => "portfolio-period-all",
        };
        lines.push(msg(
            lang,
            "portfolio-summary-return",
            &[
                ("period", &msg(lang, period, &[])),
                (
                    "twr",
                    &format!("{}%", signed(r.time_weighted.value * Decimal::ONE_HUNDRED)),
                ),
                ("basis", &r.time_weighted.basis.describe(lang == Lang::Zh)),
            ],
        ));
    }
    let open: Vec<String> = shot
        .holdings
        .iter()
        .filter(|h| !h.pnl.quantity.is_zero())
        .take(TOP)
        .map(|h| {
            format!(
                "{} {} {:.2} {}",
                code(&h.pnl.key.instrument),
                h.pnl.quantity.normalize(),
                h.pnl.market_value,
                h.pnl.key.instrument.currency
            )
        })
        .collect();
    if !open.is_empty() {
        lines.push(msg(
            lang,
            "portfolio-summary-top",
            &[("list", &open.join("; "))],
        ));
    }
    lines.extend(warnings(&shot.warnings, lang));
    lines.join("\n")
}

fn warnings(warnings: &[Warning], lang: Lang) -> Vec<String> {
    warnings
        .iter()
        .map(|w| match w {
            Warning::OldPrice {
                instrument,
                priced_at,
            } => msg(
                lang,
                "portfolio-warning-old-price",
                &[
                    ("instrument", &as_code(instrument)),
                    ("date", &priced_at.to_string()),
                ],
            ),
            Warning::NegativeCash {
                account,
                currency,
                amount,
            } => msg(
                lang,
                "portfolio-warning-negative-cash",
                &[
                    ("account", account),
                    ("amount", &format!("{amount:.2}")),
                    ("currency", &currency.to_string()),
                ],
            ),
            Warning::NoReturns { reason } => {
                msg(lang, "portfolio-warning-no-returns", &[("reason", reason)])
            }
        })
        .collect()
}

/// `SH:600519` (a holding's key, as the warnings carry it) → `600519.SH`, as replies write codes.
fn as_code(key: &str) -> String {
    match key.split_once(':') {
        Some((market, symbol)) => format!("{symbol}.{market}"),
        None => key.to_string(),
    }
}
