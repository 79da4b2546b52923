//! `trader.diagnose`: why a trader is not trading, will not start, or stopped, found from the
//! user's own objects — its configuration, the engine's status document, a live preflight and
//! the journal — along one fixed check path that stops at the first check that explains it:
//!
//! stopped:  configuration → recorded stop (error, safe mode, lease lost) → preflight now
//!           → stopped by the user;
//! running:  no engine → no cycle yet → failing cycles → safe mode → malformed answers
//!           → refused opens (counted by cause) → failed orders → no candidates
//!           → only waits → trading.
//!
//! The answer is *what happened / why / what to do now* (catalog ids `diagnose-<check>-what`,
//! `-why`, `-fix`); when the fix is a task the assistant can run, it is offered as a request
//! in the user's words, so a yes runs it through its normal confirmation. Every check only
//! reads: preflight here records no P&L baseline.

mod from_journal;
mod stopped;

use async_trait::async_trait;
use nofxi_domain::Trader;
use nofxi_skills::Lang;
use nofxi_trader::cycle::CycleRecord;
use schemars::JsonSchema;
use serde::Deserialize;

use super::registry::{Tool, ToolContext};
use super::{RiskLevel, ToolError, ToolOutput};
use crate::msg;
use crate::tools::exec::store_error;

/// The cycles a diagnosis reads: enough to tell a pattern from one bad cycle.
const CYCLES_READ: i64 = 40;

#[derive(Debug, Deserialize, JsonSchema)]
pub struct DiagnoseArgs {
    /// The trader (its id once resolved).
    pub target: String,
}

/// What a check found: its catalog texts' arguments, and the fix as a request, if any.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// The check that explained the symptom; its texts are `diagnose-<check>-what|why|fix`.
    pub check: &'static str,
    pub args: Vec<(&'static str, String)>,
    /// The fix, said as the user would ask for it ("set scalper min confidence to 70").
    pub offer: Option<String>,
}

impl Finding {
    fn new(check: &'static str, args: Vec<(&'static str, String)>) -> Finding {
        Finding {
            check,
            args,
            offer: None,
        }
    }

    fn offering(mut self, request: String) -> Finding {
        self.offer = Some(request);
        self
    }

    fn render(&self, lang: Lang) -> String {
        let args: Vec<(&str, &str)> = self.args.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let part = |p: &str| msg(lang, &format!("diagnose-{}-{p}", self.check), &args);
        let (what, why, fix) = (part("what"), part("why"), part("fix"));
        let mut text = crate::texts::what_why_fix(lang, Some(&what), Some(&why), Some(&fix))
            .unwrap_or_default();
        if self.offer.is_some() {
            text.push('\n');
            text.push_str(&msg(lang, "diagnose-offer", &[]));
        }
        text
    }
}

pub struct TraderDiagnose;

#[async_trait]
impl Tool for TraderDiagnose {
    type Args = DiagnoseArgs;
    const NAME: &'static str = "trader.diagnose";
    const SCOPES: &'static [&'static str] = &["trader:read"];
    const RISK: RiskLevel = RiskLevel::Read;

    async fn run(&self, cx: &ToolContext<'_>, args: DiagnoseArgs) -> Result<ToolOutput, ToolError> {
        let t = cx
            .store
            .get_trader(cx.user, &args.target)
            .await
            .map_err(|e| store_error(&e, cx.lang))?;
        let finding = match t.is_running {
            false => stopped::diagnose(cx, &t).await,
            true => match stopped::no_engine(cx, &t).await {
                Some(finding) => finding,
                None => running(cx, &t).await?,
            },
        };
        let mut text = msg(cx.lang, "diagnose-header", &[("name", &t.spec.name)]);
        text.push('\n');
        text.push_str(&finding.render(cx.lang));
        Ok(ToolOutput {
            resource_id: Some(t.id),
            resource_name: Some(t.spec.name),
            text: Some(text),
            offer: finding.offer,
            ..ToolOutput::default()
        })
    }
}

/// The journal checks of a running trader that an engine runs: its last cycles and strategy
/// are read only here, where a check uses them.
async fn running(cx: &ToolContext<'_>, t: &Trader) -> Result<Finding, ToolError> {
    let rows = cx
        .store
        .cycles(cx.user, &t.id, CYCLES_READ, None)
        .await
        .map_err(|e| store_error(&e, cx.lang))?;
    let cycles: Vec<CycleRecord> = rows
        .into_iter()
        .filter_map(|r| serde_json::from_value(r.record).ok())
        .collect();
    let strategy = cx
        .store
        .get_strategy(cx.user, &t.spec.strategy_id)
        .await
        .ok();
    Ok(from_journal::diagnose(
        cx.lang,
        t,
        strategy.as_ref(),
        &cycles,
    ))
}
