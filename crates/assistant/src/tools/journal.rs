//! `trader.journal`: a trader's last cycles as the chat shows them ("show btc-bot's journal",
//! "alpha 最近的决策"): per cycle its time (labelled simulated when it is), what was decided,
//! what the guard refused and why, the orders and their errors, and the equity after.

use async_trait::async_trait;
use nofxi_skills::{Catalog, Lang};
use nofxi_trader::cycle::CycleRecord;
use schemars::JsonSchema;
use serde::Deserialize;

use super::registry::{Tool, ToolContext, count_or_text};
use super::{RiskLevel, ToolError, ToolOutput};
use crate::compose::facts::time_on;
use crate::tools::exec::store_error;

/// Cycles shown when the user gives no count, and the most one reply holds.
const DEFAULT_CYCLES: u32 = 5;
const MAX_CYCLES: u32 = 20;
/// Reasoning is quoted up to this many characters: enough to show the why.
const REASONING_CHARS: usize = 160;

#[derive(Debug, Deserialize, JsonSchema)]
pub struct JournalArgs {
    /// The trader (its id once resolved).
    pub target: String,
    /// How many of the newest cycles to show (1–20, default 5).
    #[serde(default, deserialize_with = "count_or_text")]
    #[schemars(with = "Option<u32>")]
    pub limit: Option<u32>,
}

pub struct TraderJournal;

#[async_trait]
impl Tool for TraderJournal {
    type Args = JournalArgs;
    const NAME: &'static str = "trader.journal";
    const SCOPES: &'static [&'static str] = &["trader:read"];
    const RISK: RiskLevel = RiskLevel::Read;

    async fn run(&self, cx: &ToolContext<'_>, args: JournalArgs) -> Result<ToolOutput, ToolError> {
        let t = cx
            .store
            .get_trader(cx.user, &args.target)
            .await
            .map_err(|e| store_error(&e, cx.lang))?;
        let limit = args.limit.unwrap_or(DEFAULT_CYCLES).clamp(1, MAX_CYCLES);
        let rows = cx
            .store
            .cycles(cx.user, &t.id, i64::from(limit), None)
            .await
            .map_err(|e| store_error(&e, cx.lang))?;
        let cycles: Vec<CycleRecord> = rows
            .into_iter()
            .filter_map(|r| serde_json::from_value(r.record).ok())
            .collect();
        let text = render(cx.lang, &t.spec.name, &cycles);
        Ok(ToolOutput {
            resource_id: Some(t.id),
            resource_name: Some(t.spec.name),
            text: Some(text),
            ..ToolOutput::default()
        })
    }
}

fn render(lang: Lang, name: &str, cycles: &[CycleRecord]) -> String {
    let c = Catalog::builtin();
    if cycles.is_empty() {
        return c.text(lang, "journal-empty", &[("name", name)]);
    }
    let mut lines = vec![c.counted(lang, "journal-header", cycles.len(), &[("name", name)])];
    for cycle in cycles {
        lines.extend(cycle_lines(c, lang, cycle));
    }
    lines.push(c.text(lang, "journal-more", &[("name", name)]));
    lines.join("\n")
}

/// One cycle: a headline, then an indented line per refusal, order problem and error.
fn cycle_lines(c: &Catalog, lang: Lang, cycle: &CycleRecord) -> Vec<String> {
    let decided = if cycle.decisions.is_empty() {
        c.text(lang, "journal-no-decision", &[])
    } else {
        let each: Vec<String> = cycle
            .decisions
            .iter()
            .map(|d| format!("{} {}", d.symbol, d.action))
            .collect();
        each.join(", ")
    };
    let mut head = c.text(
        lang,
        "journal-cycle",
        &[
            ("cycle", &cycle.cycle_number.to_string()),
            (
                "time",
                &time_on(cycle.started_ms, cycle.simulated, lang == Lang::Zh),
            ),
            ("decided", &decided),
        ],
    );
    if let Some(equity) = cycle.equity() {
        head.push_str(" · ");
        head.push_str(&c.text(
            lang,
            "journal-equity",
            &[("equity", &equity.round_dp(2).to_string())],
        ));
    }
    let mut lines = vec![head];
    let reasoning: String = cycle
        .reasoning
        .trim()
        .chars()
        .take(REASONING_CHARS)
        .collect();
    if !reasoning.is_empty() {
        lines.push(c.text(lang, "journal-why", &[("reasoning", &reasoning)]));
    }
    for r in &cycle.refused {
        let what = format!("{} {}", r.decision.symbol, r.decision.action);
        lines.push(c.text(
            lang,
            "journal-refused",
            &[("what", &what), ("reason", &r.reason)],
        ));
    }
    if !cycle.executions.is_empty() {
        let ok = cycle.executions.iter().filter(|e| e.ok).count();
        let failed = (cycle.executions.len() - ok).to_string();
        lines.push(c.text(
            lang,
            "journal-orders",
            &[("ok", &ok.to_string()), ("failed", &failed)],
        ));
    }
    for e in cycle.executions.iter().filter(|e| !e.ok) {
        let error = e.error.clone().unwrap_or_default();
        lines.push(c.text(
            lang,
            "journal-order-error",
            &[("symbol", &e.symbol), ("error", &error)],
        ));
    }
    if let Some(error) = &cycle.error {
        lines.push(c.text(lang, "journal-error", &[("error", error)]));
    }
    // The headline stands out; the details are indented under it.
    for line in lines.iter_mut().skip(1) {
        line.insert_str(0, "  ");
    }
    lines
}
