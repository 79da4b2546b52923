//! `trader.trades`: a trader's closed trades as the chat and MCP clients read them ("btc-bot's
//! closed trades", "alpha 的平仓记录"): newest first, each exit with its side, size, entry and
//! exit price and time, how long it was held, its fees, funding where the account books it,
//! P&L and why it ended. The rows are the trader runtime's (`runtime::report::trader_trades`),
//! the ones the web page, the API and the stats count.

use async_trait::async_trait;
use nofxi_skills::{Catalog, Lang};
use nofxi_trader::cycle::CycleRecord;
use nofxi_trader::runtime::report::trader_trades;
use nofxi_trader::trades::{ClosedTrade, ExitReason};
use schemars::JsonSchema;
use serde::Deserialize;

use super::registry::{Tool, ToolContext, count_or_text};
use super::{RiskLevel, ToolError, ToolOutput};
use crate::compose::facts::time_on;
use crate::tools::exec::store_error;

/// Trades shown when the user gives no count, and the most one reply holds.
const DEFAULT_TRADES: u32 = 10;
const MAX_TRADES: u32 = 50;

#[derive(Debug, Deserialize, JsonSchema)]
pub struct TradesArgs {
    /// The trader (its id once resolved).
    pub target: String,
    /// How many of the newest closed trades to show (1–50, default 10).
    #[serde(default, deserialize_with = "count_or_text")]
    #[schemars(with = "Option<u32>")]
    pub limit: Option<u32>,
}

pub struct TraderTrades;

#[async_trait]
impl Tool for TraderTrades {
    type Args = TradesArgs;
    const NAME: &'static str = "trader.trades";
    const SCOPES: &'static [&'static str] = &["trader:read"];
    const RISK: RiskLevel = RiskLevel::Read;

    async fn run(&self, cx: &ToolContext<'_>, args: TradesArgs) -> Result<ToolOutput, ToolError> {
        let t = cx
            .store
            .get_trader(cx.user, &args.target)
            .await
            .map_err(|e| store_error(&e, cx.lang))?;
        let c = Catalog::builtin();
        let name = t.spec.name.as_str();
        let text = match trader_trades(cx.store, cx.user, &t).await {
            Err(e) => {
                let error = e.to_string();
                c.text(
                    cx.lang,
                    "trades-unreadable",
                    &[("name", name), ("error", &error)],
                )
            }
            Ok(trades) => {
                // A paper trader on a sped-up timeline: its times are the timeline's.
                let simulated = cx
                    .store
                    .cycles(cx.user, &t.id, 1, None)
                    .await
                    .ok()
                    .and_then(|rows| rows.into_iter().next())
                    .and_then(|r| serde_json::from_value::<CycleRecord>(r.record).ok())
                    .is_some_and(|r| r.simulated);
                let limit = args.limit.unwrap_or(DEFAULT_TRADES).clamp(1, MAX_TRADES);
                render(cx.lang, name, &trades, limit as usize, simulated)
            }
        };
        Ok(ToolOutput {
            resource_id: Some(t.id.clone()),
            resource_name: Some(t.spec.name.clone()),
            text: Some(text),
            ..ToolOutput::default()
        })
    }
}

/// The newest `limit` of `trades` (oldest first as given), one line each.
fn render(lang: Lang, name: &str, trades: &[ClosedTrade], limit: usize, simulated: bool) -> String {
    let c = Catalog::builtin();
    if trades.is_empty() {
        return c.text(lang, "trades-none", &[("name", name)]);
    }
    let shown = limit.min(trades.len());
    let total = trades.len().to_string();
    let mut lines = vec![c.counted(
        lang,
        "trades-header",
        shown,
        &[("name", name), ("total", &total)],
    )];
    let zh = lang == Lang::Zh;
    for t in trades.iter().rev().take(shown) {
        let side = c.text(lang, &format!("side-{}", t.side.to_ascii_lowercase()), &[]);
        let reason = match t.exit_reason {
            Some(r) => c.text(lang, reason_id(r), &[]),
            None => c.text(lang, "trades-reason-unknown", &[]),
        };
        let mut line = c.text(
            lang,
            "trades-row",
            &[
                ("symbol", &t.symbol),
                ("side", &side),
                ("quantity", &t.quantity.normalize().to_string()),
                ("entry", &t.entry_price.normalize().to_string()),
                ("exit", &t.exit_price.normalize().to_string()),
                ("closed", &time_on(t.exit_time_ms, simulated, zh)),
                ("held", &held(lang, t.duration_ms)),
                ("pnl", &signed(t.pnl.round_dp(2))),
                ("fees", &t.fees.round_dp(2).normalize().to_string()),
                ("reason", &reason),
            ],
        );
        if let Some(funding) = t.funding.filter(|f| !f.is_zero()) {
            line.push_str(&c.text(
                lang,
                "trades-funding",
                &[("funding", &signed(funding.round_dp(2)))],
            ));
        }
        lines.push(line);
    }
    lines.join("\n")
}

fn reason_id(reason: ExitReason) -> &'static str {
    match reason {
        ExitReason::Signal => "trades-reason-signal",
        ExitReason::StopLoss => "trades-reason-stop-loss",
        ExitReason::TakeProfit => "trades-reason-take-profit",
        ExitReason::Liquidation => "trades-reason-liquidation",
        ExitReason::Manual => "trades-reason-manual",
    }
}

fn signed(d: rust_decimal::Decimal) -> String {
    let d = d.normalize();
    match d.is_sign_positive() && !d.is_zero() {
        true => format!("+{d}"),
        false => d.to_string(),
    }
}

/// "1 h 30 min": the two largest units of a span.
fn held(lang: Lang, ms: i64) -> String {
    let c = Catalog::builtin();
    let s = (ms / 1000).max(0);
    let units = [
        ("trades-held-days", s / 86_400),
        ("trades-held-hours", s / 3_600 % 24),
        ("trades-held-minutes", s / 60 % 60),
        ("trades-held-seconds", s % 60),
    ];
    let first = units.iter().position(|(_, n)| *n > 0).unwrap_or(3);
    units[first..]
        .iter()
        .take(2)
        .enumerate()
        .filter(|(i, (_, n))| *i == 0 || *n > 0)
        .map(|(_, (id, n))| c.text(lang, id, &[("n", &n.to_string())]))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use rust_decimal::Decimal;

    use super::*;

    fn dec(text: &str) -> Decimal {
        text.parse().unwrap_or_default()
    }

    fn trade(pnl: Decimal, reason: Option<ExitReason>) -> ClosedTrade {
        ClosedTrade {
            symbol: "BTCUSDT".into(),
            side: "LONG".into(),
            quantity: dec("0.010"),
            entry_time_ms: 0,
            entry_price: dec("60000.0"),
            exit_time_ms: 5_400_000,
            exit_price: dec("61000"),
            duration_ms: 5_400_000,
            realized_pnl: dec("10"),
            fees: dec("0.61"),
            funding: None,
            pnl,
            exit_reason: reason,
            remaining: dec("0"),
            exit_order_id: "o2".into(),
        }
    }

    #[test]
    fn a_trade_line_says_its_size_prices_time_held_pnl_and_reason_in_both_languages() {
        let trades = [
            trade(dec("9.395"), Some(ExitReason::Signal)),
            trade(dec("-1.5"), None),
        ];
        let en = render(Lang::En, "bot", &trades, 10, false);
        assert!(en.contains("bot") && en.contains('2'), "{en}");
        let newest = en.lines().nth(1).unwrap_or_default();
        assert!(newest.contains("-1.5"), "newest first: {en}");
        let older = en.lines().nth(2).unwrap_or_default();
        for part in [
            "BTCUSDT",
            "0.01",
            "60000",
            "61000",
            "1 h 30 min",
            "+9.4",
            "0.61",
        ] {
            assert!(older.contains(part), "{part} missing from {older}");
        }
        let zh = render(Lang::Zh, "bot", &trades, 1, false);
        assert_eq!(zh.lines().count(), 2, "{zh}");
        assert!(zh.contains("1 小时 30 分"), "{zh}");
        assert!(render(Lang::En, "bot", &[], 10, false).contains("bot"));
    }
}
