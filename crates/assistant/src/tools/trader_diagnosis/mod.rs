//! `trader.diagnose`: why a trader is not trading, will not start, or stopped, found from the
//! user's own objects — its configuration, the engine's status document, a live preflight,
//! its strategy and the journal — along one fixed check path that stops at the first check
//! that explains it.
//!
//! The path is data: the skill's step lists the checks in order (`set: {checks: [...]}` in
//! `skills/trader-management/SKILL.md`), and each [`Check`] knows which traders it applies to
//! (a stopped one: configuration → recorded stop → preflight; a running one: no engine →
//! the journal and the strategy). An unknown check name fails the step with the list of
//! known ones.
//!
//! The answer is *what happened / why / what to do now* (catalog ids `diagnose-<check>-what`,
//! `-why`, `-fix`); when the fix is a task the assistant can run, it is offered as a request
//! in the user's words, so a yes runs it through its normal confirmation. Every check only
//! reads: preflight here records no P&L baseline.

mod from_journal;
mod numbers;
mod stopped;
mod strategy;

use async_trait::async_trait;
use nofxi_domain::{Strategy, Trader};
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
    /// What the user finds wrong; it names the answer's header.
    #[serde(default)]
    pub symptom: Symptom,
    /// The checks in the order they run; the first that explains the symptom answers.
    pub checks: Vec<Check>,
}

/// What the user finds wrong: the trader does not trade (or run), or its numbers — balance,
/// positions, P&L — look wrong.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Symptom {
    #[default]
    NotTrading,
    Numbers,
}

/// One check of the path. Each applies to a stopped or a running trader (or both) and is
/// skipped for the other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Check {
    /// The bound model, exchange account and strategy exist and allow a start.
    Configuration,
    /// Stopped: the stop the engine recorded (error, safe mode, lease lost, preflight).
    RecordedStop,
    /// Stopped: a preflight run now — it fails with a named cause, or the trader is just off.
    Preflight,
    /// Running: no engine process runs it.
    NoEngine,
    /// Running: no cycle finished yet.
    NoCycles,
    /// Running: most recent cycles failed (the error explained when it is a known one).
    CycleErrors,
    /// Running: the model failed repeatedly; only closes and holds.
    SafeMode,
    /// Running: the model's answers held no valid decision.
    Malformed,
    /// Running: it opened positions — nothing is wrong.
    Trading,
    /// Running: the strategy was edited after the last cycle; the edit applies next cycle.
    StrategyEdited,
    /// The strategy's coin list is empty once its exclusions are taken out.
    NoCandidates,
    /// The strategy's minimum size cannot fit the account's limits for any coin.
    SizesUnreachable,
    /// Running: opens the guard refused, counted by cause.
    RefusedOpens,
    /// Running: orders the exchange refused, explained by their code.
    OrderErrors,
    /// Running: the decider only waited.
    OnlyWaits,
    /// P&L is measured from an initial balance the account did not hold at the first cycle.
    Baseline,
    /// A position closed on the exchange between two cycles with no close sent (a stop).
    ClosedBetween,
    /// A position appeared with no open sent: opened outside nofxi.
    OutsidePositions,
    /// The P&L split into realized (after fees and funding) and unrealized.
    Breakdown,
}

/// What the checks read, loaded once: the trader, its strategy, and its journal.
pub struct Facts {
    pub trader: Trader,
    pub strategy: Option<Strategy>,
    /// The newest [`CYCLES_READ`] cycles, newest first.
    pub cycles: Vec<CycleRecord>,
    /// Its first cycle ever, whose account line is where its P&L starts (read for the
    /// numbers' path only).
    pub first: Option<CycleRecord>,
}

impl Facts {
    fn name(&self) -> (&'static str, String) {
        ("name", self.trader.spec.name.clone())
    }

    fn strategy_name(&self) -> (&'static str, String) {
        let name = self.strategy.as_ref().map(|s| s.spec.name.clone());
        ("strategy", name.unwrap_or_default())
    }
}

impl Check {
    /// What this check finds for the trader in `facts`; `None` when it explains nothing or
    /// does not apply to a trader in this state.
    async fn run(self, cx: &ToolContext<'_>, facts: &Facts) -> Option<Finding> {
        let lang = cx.lang;
        let t = &facts.trader;
        match (self, t.is_running) {
            (Check::Configuration, _) => stopped::configuration(cx, t).await,
            (Check::NoCandidates, _) => strategy::no_candidates(facts),
            (Check::SizesUnreachable, _) => strategy::sizes_unreachable(lang, facts),
            (Check::Baseline, _) => numbers::baseline(lang, facts),
            (Check::ClosedBetween, _) => numbers::closed_between(lang, facts),
            (Check::OutsidePositions, _) => numbers::outside_positions(lang, facts),
            (Check::Breakdown, _) => numbers::breakdown(facts),
            (Check::RecordedStop, false) => stopped::recorded_stop(cx, t).await,
            (Check::Preflight, false) => Some(stopped::preflight_now(cx, t).await),
            (Check::NoEngine, true) => stopped::no_engine(cx, t).await,
            (Check::NoCycles, true) => from_journal::no_cycles(facts),
            (Check::CycleErrors, true) => from_journal::cycle_errors(lang, facts),
            (Check::SafeMode, true) => from_journal::safe_mode(facts),
            (Check::Malformed, true) => from_journal::malformed(facts),
            (Check::Trading, true) => from_journal::trading(lang, facts),
            (Check::StrategyEdited, true) => strategy::edited(lang, facts),
            (Check::RefusedOpens, true) => from_journal::refused_opens(lang, facts),
            (Check::OrderErrors, true) => from_journal::failed_orders(lang, facts),
            (Check::OnlyWaits, true) => from_journal::only_waits(facts),
            (Check::RecordedStop | Check::Preflight, true) => None,
            (
                Check::NoEngine
                | Check::NoCycles
                | Check::CycleErrors
                | Check::SafeMode
                | Check::Malformed
                | Check::Trading
                | Check::StrategyEdited
                | Check::RefusedOpens
                | Check::OrderErrors
                | Check::OnlyWaits,
                false,
            ) => None,
        }
    }
}

/// What a check found: its catalog texts' arguments, and the fix as a request, if any.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// The check that explained the symptom; its texts are `diagnose-<check>-what|why|fix`.
    pub check: &'static str,
    pub args: Vec<(&'static str, String)>,
    /// The fix, said as the user would ask for it ("set scalper min confidence to 70").
    pub offer: Option<String>,
    /// What else the check saw, said after the fix (the other refusal causes).
    pub note: Option<String>,
}

impl Finding {
    fn new(check: &'static str, args: Vec<(&'static str, String)>) -> Finding {
        Finding {
            check,
            args,
            offer: None,
            note: None,
        }
    }

    fn noting(mut self, note: String) -> Finding {
        self.note = Some(note);
        self
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
        if let Some(note) = &self.note {
            text.push('\n');
            text.push_str(note);
        }
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
        let facts = Facts::load(cx, &args.target, args.symptom).await?;
        let (first, rest) = first_finding(cx, &facts, &args.checks).await;
        // A path that ends with no explaining check says so rather than guess.
        let finding = first.unwrap_or_else(|| Finding::new("unexplained", vec![facts.name()]));
        let also = also_finding(cx, &facts, &finding, args.symptom, rest).await;
        let t = facts.trader;
        let header = match args.symptom {
            Symptom::NotTrading => "diagnose-header",
            Symptom::Numbers => "diagnose-numbers-header",
        };
        let mut text = msg(cx.lang, header, &[("name", &t.spec.name)]);
        text.push('\n');
        text.push_str(&finding.render(cx.lang));
        if let Some(also) = &also {
            text.push_str("\n\n");
            text.push_str(&msg(cx.lang, "diagnose-also", &[]));
            text.push('\n');
            text.push_str(&also.render(cx.lang));
        }
        Ok(ToolOutput {
            resource_id: Some(t.id),
            resource_name: Some(t.spec.name),
            text: Some(text),
            offer: finding.offer.or(also.and_then(|a| a.offer)),
            ..ToolOutput::default()
        })
    }
}

/// The first check of `checks` that explains the symptom, and the checks after it.
async fn first_finding<'c>(
    cx: &ToolContext<'_>,
    facts: &Facts,
    checks: &'c [Check],
) -> (Option<Finding>, &'c [Check]) {
    for (i, check) in checks.iter().enumerate() {
        if let Some(found) = check.run(cx, facts).await {
            return (Some(found), &checks[i + 1..]);
        }
    }
    (None, &[])
}

/// A second finding worth telling beside the first: with no engine running, what the journal
/// showed while one ran (the cause that will be back when it runs again); for numbers that
/// look wrong, the P&L's split after whatever explained them.
async fn also_finding(
    cx: &ToolContext<'_>,
    facts: &Facts,
    first: &Finding,
    symptom: Symptom,
    rest: &[Check],
) -> Option<Finding> {
    match symptom {
        Symptom::NotTrading if first.check == "no-engine" && !facts.cycles.is_empty() => {
            first_finding(cx, facts, rest).await.0
        }
        Symptom::Numbers if first.check != "breakdown" => numbers::breakdown(facts),
        _ => None,
    }
}

/// A position side (`LONG`, `SHORT`, as the journal writes it) in the user's language.
fn side_word(lang: Lang, side: &str) -> String {
    msg(lang, &format!("side-{}", side.to_lowercase()), &[])
}

impl Facts {
    /// The trader, its strategy, its last cycles, and for the numbers its first one.
    async fn load(
        cx: &ToolContext<'_>,
        target: &str,
        symptom: Symptom,
    ) -> Result<Facts, ToolError> {
        let trader = cx
            .store
            .get_trader(cx.user, target)
            .await
            .map_err(|e| store_error(&e, cx.lang))?;
        let strategy = cx
            .store
            .get_strategy(cx.user, &trader.spec.strategy_id)
            .await
            .ok();
        let read = |limit: i64, before: Option<u64>| {
            let id = trader.id.clone();
            async move {
                let rows = cx
                    .store
                    .cycles(cx.user, &id, limit, before)
                    .await
                    .map_err(|e| store_error(&e, cx.lang))?;
                let records: Vec<CycleRecord> = rows
                    .into_iter()
                    .filter_map(|r| serde_json::from_value(r.record).ok())
                    .collect();
                Ok::<_, ToolError>(records)
            }
        };
        let cycles = read(CYCLES_READ, None).await?;
        // Cycle numbers start at 1: the one cycle before 2 is the first. Only the numbers'
        // path measures from it.
        let first = match symptom {
            Symptom::Numbers => read(1, Some(2)).await?.into_iter().next(),
            Symptom::NotTrading => None,
        };
        Ok(Facts {
            trader,
            strategy,
            cycles,
            first,
        })
    }

    /// The newest cycle read, if any.
    fn newest(&self) -> Option<&CycleRecord> {
        self.cycles.iter().max_by_key(|c| c.cycle_number)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nofxi_skills::Library;

    /// The built-in paths are what the skills' steps set; no path names a check twice, and
    /// every check is on some path, so none is dead.
    #[test]
    fn the_builtin_paths_name_every_check() {
        let library = Library::builtin().map_err(|e| e.to_string());
        let Ok(library) = library else {
            panic!("the built-in library loads: {library:?}");
        };
        let mut on_paths = Vec::new();
        for action in ["diagnose", "reconcile"] {
            let step = library
                .action("trader_management", action)
                .and_then(|a| a.steps.first());
            let Some(step) = step else {
                panic!("trader_management.{action} has a step");
            };
            let mut args = serde_json::Map::new();
            args.insert("target".into(), "t".into());
            for (k, v) in &step.set {
                args.insert(k.clone(), v.clone());
            }
            let parsed: Result<DiagnoseArgs, _> = serde_json::from_value(args.into());
            let checks = match parsed {
                Ok(args) => args.checks,
                Err(e) => panic!("{action}'s checks are known ones: {e}"),
            };
            let twice = checks
                .iter()
                .find(|c| checks.iter().filter(|d| d == c).count() > 1);
            assert_eq!(twice, None, "a check twice in {action}: {checks:?}");
            on_paths.extend(checks);
        }
        let schema = serde_json::to_value(schemars::schema_for!(Check)).unwrap_or_default();
        // Variants with doc comments come out as `oneOf`, bare ones as `enum`.
        let variants = ["enum", "oneOf"]
            .iter()
            .filter_map(|k| schema.get(k).and_then(|e| e.as_array()))
            .map(Vec::len)
            .sum::<usize>();
        assert_eq!(
            on_paths.len(),
            variants,
            "a check off every path: {on_paths:?}"
        );
    }
}
