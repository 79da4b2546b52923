//! The checks of a running trader, read from its last cycles: failing cycles, safe mode,
//! malformed answers, opens the guard refused (counted by cause, with the numbers), orders
//! the exchange refused, no candidates, only waits — and, when none explains it, that it
//! trades.

use std::collections::BTreeMap;

use nofxi_domain::market::Symbol;
use nofxi_domain::{Strategy, Trader};
use nofxi_skills::{Lang, Library, SkillKind};
use nofxi_trader::Refusal;
use nofxi_trader::cycle::CycleRecord;
use rust_decimal::Decimal;

use super::Finding;
use crate::compose::facts::time_on;
use crate::msg;

/// The lowest minimum confidence a strategy may have (`nofxi_domain::bounds`).
const CONFIDENCE_FLOOR: u32 = 50;

/// The first check of the running path that explains `cycles` (newest first or not).
pub fn diagnose(
    lang: Lang,
    t: &Trader,
    strategy: Option<&Strategy>,
    cycles: &[CycleRecord],
) -> Finding {
    let name = || ("name", t.spec.name.clone());
    let minutes = ("minutes", t.spec.scan_interval_minutes.to_string());
    let Some(newest) = cycles.iter().max_by_key(|c| c.cycle_number) else {
        return Finding::new("no-cycles", vec![name(), minutes]);
    };
    let total = ("cycles", cycles.len().to_string());
    let half = |count: usize| count > 0 && count * 2 >= cycles.len();
    let failed = cycles.iter().filter(|c| c.error.is_some()).count();
    if let Some(error) = newest.error.as_ref().filter(|_| half(failed)) {
        let args = vec![
            name(),
            ("count", failed.to_string()),
            total,
            ("error", error.clone()),
        ];
        return Finding::new("cycle-errors", args);
    }
    if newest.safe_mode {
        return Finding::new("safe-mode", vec![name()]);
    }
    let malformed: Vec<&CycleRecord> = cycles
        .iter()
        .filter(|c| c.decisions.is_empty() && !c.invalid.is_empty())
        .collect();
    if half(malformed.len()) {
        let example = malformed[0].invalid[0]
            .chars()
            .take(120)
            .collect::<String>();
        let args = vec![
            name(),
            ("count", malformed.len().to_string()),
            total,
            ("example", example),
        ];
        return Finding::new("malformed", args);
    }
    let opened: Vec<&CycleRecord> = cycles
        .iter()
        .filter(|c| c.executions.iter().any(|e| e.what == "open" && e.ok))
        .collect();
    if let Some(last) = opened.iter().max_by_key(|c| c.cycle_number) {
        let when = time_on(last.started_ms, last.simulated, lang == Lang::Zh);
        let args = vec![
            name(),
            ("count", opened.len().to_string()),
            total,
            ("when", when),
        ];
        return Finding::new("trading", args);
    }
    if let Some(finding) = refused_opens(lang, t, strategy, cycles) {
        return finding;
    }
    if let Some(finding) = failed_orders(lang, t, cycles) {
        return finding;
    }
    if strategy.is_some_and(no_candidates) {
        let strategy = strategy.map(|s| s.spec.name.clone()).unwrap_or_default();
        return Finding::new("no-candidates", vec![name(), ("strategy", strategy)]);
    }
    let decider = ("decider", newest.decider.clone());
    Finding::new("only-waits", vec![name(), total, minutes, decider])
}

/// Opens the model proposed and the guard refused, by cause; the most frequent cause is told
/// with its numbers, and its fix offered when a setting can make it pass.
fn refused_opens(
    lang: Lang,
    t: &Trader,
    strategy: Option<&Strategy>,
    cycles: &[CycleRecord],
) -> Option<Finding> {
    let refused: Vec<(&Refusal, Option<u32>)> = cycles
        .iter()
        .flat_map(|c| &c.refused)
        .filter(|r| r.decision.action.opens())
        .filter_map(|r| r.refusal.as_ref().map(|why| (why, r.decision.confidence)))
        .collect();
    let mut by_cause: BTreeMap<&'static str, usize> = BTreeMap::new();
    for (why, _) in &refused {
        *by_cause.entry(cause(why)).or_default() += 1;
    }
    let (&top, &count) = by_cause.iter().max_by_key(|(_, n)| **n)?;
    let mut args = vec![
        ("name", t.spec.name.clone()),
        ("count", count.to_string()),
        ("opens", refused.len().to_string()),
        (
            "strategy",
            strategy.map(|s| s.spec.name.clone()).unwrap_or_default(),
        ),
    ];
    let of_cause = refused.iter().filter(|(why, _)| cause(why) == top);
    match top {
        "refused-low-confidence" => {
            let min = of_cause.clone().find_map(|(why, _)| match why {
                Refusal::LowConfidence { min, .. } => Some(*min),
                _ => None,
            })?;
            let best = of_cause.filter_map(|(_, given)| *given).max().unwrap_or(0);
            args.extend([("min", min.to_string()), ("best", best.to_string())]);
            let finding = Finding::new("refused-low-confidence", args);
            // A floor below the strategy's lowest allowed value cannot be offered.
            Some(match (best >= CONFIDENCE_FLOOR, strategy) {
                (true, Some(s)) => finding.offering(msg(
                    lang,
                    "diagnose-request-confidence",
                    &[("strategy", &s.spec.name), ("value", &best.to_string())],
                )),
                _ => finding,
            })
        }
        "refused-risk-reward" => {
            let (min, best) =
                of_cause.fold((None, None::<Decimal>), |(min, best), (why, _)| match why {
                    Refusal::RiskRewardTooLow { ratio, min: m } => {
                        (Some(*m), Some(best.map_or(*ratio, |b| b.max(*ratio))))
                    }
                    _ => (min, best),
                });
            args.extend([
                ("min", min?.normalize().to_string()),
                ("best", best?.round_dp(2).normalize().to_string()),
            ]);
            Some(Finding::new("refused-risk-reward", args))
        }
        "refused-other" => {
            let reason = of_cause.map(|(why, _)| why.to_string()).next()?;
            args.push(("reason", reason));
            Some(Finding::new("refused-other", args))
        }
        check => {
            let reason = of_cause.map(|(why, _)| why.to_string()).next()?;
            args.push(("reason", reason));
            Some(Finding::new(check, args))
        }
    }
}

/// The check that explains a refusal; the causes with no check of their own share one.
fn cause(why: &Refusal) -> &'static str {
    match why {
        Refusal::LowConfidence { .. } => "refused-low-confidence",
        Refusal::RiskRewardTooLow { .. } => "refused-risk-reward",
        Refusal::MaxPositions { .. } | Refusal::PositionExists => "refused-positions",
        Refusal::MarginUsage { .. } | Refusal::OverMaximumValue { .. } => "refused-size-limit",
        Refusal::BelowMinimumSize { .. } | Refusal::MissingSize => "refused-too-small",
        Refusal::MissingStops
        | Refusal::StopLossWrongSide { .. }
        | Refusal::TakeProfitWrongSide { .. } => "refused-stops",
        _ => "refused-other",
    }
}

/// Orders sent and refused by the exchange, explained by the error-diagnosis entry of their
/// code (Binance's -2019 margin, -4061 position side, -4164 notional, -1111 precision).
fn failed_orders(lang: Lang, t: &Trader, cycles: &[CycleRecord]) -> Option<Finding> {
    let failed: Vec<_> = cycles
        .iter()
        .flat_map(|c| &c.executions)
        .filter(|e| !e.ok)
        .collect();
    let first = failed.first()?;
    let error = first.error.clone().unwrap_or_default();
    let library = Library::builtin().ok();
    let entry = first.error_code.and_then(|code| {
        library
            .as_ref()?
            .skills()
            .iter()
            .filter(|s| s.meta.kind == SkillKind::Diagnosis)
            .find_map(|s| {
                s.knowledge_matching(&code.to_string())
                    .first()
                    .map(|k| (*k).clone())
            })
    });
    let text = |x: Option<&nofxi_skills::Text>| x.map(|x| x.get(lang).to_string());
    let (what, why, fix) = match &entry {
        Some(k) => (
            text(k.what.as_ref()),
            text(k.why.as_ref()),
            text(k.fix.as_ref()),
        ),
        None => (None, None, None),
    };
    let args = vec![
        ("name", t.spec.name.clone()),
        ("count", failed.len().to_string()),
        ("error", error.clone()),
        ("what", what.unwrap_or_else(|| error.clone())),
        (
            "why",
            why.unwrap_or_else(|| msg(lang, "diagnose-order-error-unknown", &[])),
        ),
        (
            "fix",
            fix.unwrap_or_else(|| msg(lang, "diagnose-order-error-unknown-fix", &[])),
        ),
    ];
    Some(Finding::new("order-error", args))
}

/// A strategy whose coin list is empty once its exclusions are taken out.
fn no_candidates(s: &Strategy) -> bool {
    let source = &s.spec.config.coin_source;
    let parsed = |coins: &[String]| -> Vec<Symbol> {
        coins.iter().filter_map(|c| Symbol::parse(c).ok()).collect()
    };
    let excluded = parsed(&source.excluded_coins);
    parsed(&source.static_coins)
        .iter()
        .all(|c| excluded.contains(c))
}
