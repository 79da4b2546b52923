//! The checks of a running trader read from its last cycles: no cycle yet, failing cycles,
//! safe mode, malformed answers, that it trades, opens the guard refused (counted by cause,
//! with the numbers), orders the exchange refused, and only waits.

use std::collections::BTreeMap;

use nofxi_skills::{Lang, Library, SkillKind};
use nofxi_trader::Refusal;
use nofxi_trader::cycle::CycleRecord;
use rust_decimal::Decimal;

use super::{Facts, Finding};
use crate::compose::facts::time_on;
use crate::msg;

/// The lowest minimum confidence a strategy may have (`nofxi_domain::bounds`).
const CONFIDENCE_FLOOR: u32 = 50;

/// The error-diagnosis entry of a prompt longer than the model's context window.
const CONTEXT_TOO_LONG: &str = "context_too_long";

/// More than half of the cycles read (at least one): a pattern, not one bad cycle.
fn most(count: usize, of: usize) -> bool {
    count > 0 && count * 2 >= of
}

fn cycles_read(f: &Facts) -> (&'static str, String) {
    ("cycles", f.cycles.len().to_string())
}

fn minutes(f: &Facts) -> (&'static str, String) {
    ("minutes", f.trader.spec.scan_interval_minutes.to_string())
}

/// Running, and no cycle finished yet.
pub fn no_cycles(f: &Facts) -> Option<Finding> {
    f.cycles
        .is_empty()
        .then(|| Finding::new("no-cycles", vec![f.name(), minutes(f)]))
}

/// Most cycles failed, the newest too; the error is explained when the error-diagnosis
/// knowledge knows it (a context length, a refused key, a rate limit).
pub fn cycle_errors(lang: Lang, f: &Facts) -> Option<Finding> {
    let failed: Vec<&CycleRecord> = f.cycles.iter().filter(|c| c.error.is_some()).collect();
    let error = f.newest()?.error.as_ref()?;
    if !most(failed.len(), f.cycles.len()) {
        return None;
    }
    let mut args = vec![
        f.name(),
        ("count", failed.len().to_string()),
        cycles_read(f),
        ("error", error.clone()),
    ];
    let Some(known) = knowledge(lang, error) else {
        return Some(Finding::new("cycle-errors", args));
    };
    args.extend([("what", known.what), ("why", known.why), ("fix", known.fix)]);
    // A context-length failure is measured against the prompt: its size is the evidence.
    if known.id == CONTEXT_TOO_LONG {
        args.push(("size", prompt_size(lang, f)));
        return Some(Finding::new("context-too-long", args));
    }
    Some(Finding::new("cycle-errors-known", args))
}

/// The size of the newest failed cycle's prompt: tokens when the provider counted them, else
/// characters — what a context-length error is measured against.
fn prompt_size(lang: Lang, f: &Facts) -> String {
    let failed = f
        .cycles
        .iter()
        .filter(|c| c.error.is_some())
        .max_by_key(|c| c.cycle_number);
    let tokens = failed.and_then(|c| c.prompt_tokens);
    let chars = failed.map(|c| {
        let count = |p: &Option<String>| p.as_ref().map_or(0, |p| p.chars().count());
        count(&c.system_prompt) + count(&c.user_prompt)
    });
    match (tokens, chars) {
        (Some(tokens), _) => msg(
            lang,
            "diagnose-prompt-tokens",
            &[("count", &tokens.to_string())],
        ),
        (None, Some(chars)) if chars > 0 => msg(
            lang,
            "diagnose-prompt-chars",
            &[("count", &chars.to_string())],
        ),
        _ => msg(lang, "diagnose-prompt-unknown", &[]),
    }
}

/// The newest cycle ran in safe mode.
pub fn safe_mode(f: &Facts) -> Option<Finding> {
    f.newest()?
        .safe_mode
        .then(|| Finding::new("safe-mode", vec![f.name()]))
}

/// Most answers held no valid decision.
pub fn malformed(f: &Facts) -> Option<Finding> {
    let malformed: Vec<&CycleRecord> = f
        .cycles
        .iter()
        .filter(|c| c.decisions.is_empty() && !c.invalid.is_empty())
        .collect();
    if !most(malformed.len(), f.cycles.len()) {
        return None;
    }
    let example = malformed[0].invalid[0]
        .chars()
        .take(120)
        .collect::<String>();
    let args = vec![
        f.name(),
        ("count", malformed.len().to_string()),
        cycles_read(f),
        ("example", example),
    ];
    Some(Finding::new("malformed", args))
}

/// It opened positions: nothing on its path refuses trades.
pub fn trading(lang: Lang, f: &Facts) -> Option<Finding> {
    let opened: Vec<&CycleRecord> = f
        .cycles
        .iter()
        .filter(|c| c.executions.iter().any(|e| e.what == "open" && e.ok))
        .collect();
    let last = opened.iter().max_by_key(|c| c.cycle_number)?;
    // Opens refused since the last one that went through: it traded, but does not now.
    let refused_since = f
        .cycles
        .iter()
        .filter(|c| c.cycle_number > last.cycle_number)
        .flat_map(|c| &c.refused)
        .any(|r| r.decision.action.opens());
    if refused_since {
        return None;
    }
    let when = time_on(last.started_ms, last.simulated, lang == Lang::Zh);
    let args = vec![
        f.name(),
        ("count", opened.len().to_string()),
        cycles_read(f),
        ("when", when),
    ];
    Some(Finding::new("trading", args))
}

/// The decider only waited: nothing refused, nothing failed.
pub fn only_waits(f: &Facts) -> Option<Finding> {
    let decider = ("decider", f.newest()?.decider.clone());
    Some(Finding::new(
        "only-waits",
        vec![f.name(), cycles_read(f), minutes(f), decider],
    ))
}

/// An error-diagnosis entry as a finding quotes it: its id and texts in the user's language.
struct Known {
    id: String,
    what: String,
    why: String,
    fix: String,
}

/// The error-diagnosis entry that explains `error` (by code, else by phrase), if any.
fn knowledge(lang: Lang, error: &str) -> Option<Known> {
    let library = Library::builtin().ok()?;
    let k = library
        .skills()
        .iter()
        .filter(|s| s.meta.kind == SkillKind::Diagnosis)
        .find_map(|s| s.knowledge_matching(error).first().copied())?;
    let text = |x: Option<&nofxi_skills::Text>| x.map(|x| x.get(lang).to_string());
    Some(Known {
        id: k.id.clone(),
        what: text(k.what.as_ref()).unwrap_or_default(),
        why: text(k.why.as_ref()).unwrap_or_default(),
        fix: text(k.fix.as_ref()).unwrap_or_default(),
    })
}

/// Opens the model proposed and the guard refused, by cause; the most frequent cause is told
/// with its numbers, and its fix offered when a setting can make it pass.
pub fn refused_opens(lang: Lang, f: &Facts) -> Option<Finding> {
    let refused: Vec<(&Refusal, Option<u32>)> = f
        .cycles
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
    let finding = refused_by(lang, f, top, count, &refused)?;
    // The other causes, each once with its count: fixing the first alone may not be enough.
    let others: Vec<String> = by_cause
        .iter()
        .filter(|(cause_, _)| **cause_ != top)
        .filter_map(|(cause_, n)| {
            let (why, _) = refused.iter().find(|(why, _)| cause(why) == *cause_)?;
            Some(format!("{n} × {}", refusal_text(lang, why)))
        })
        .collect();
    Some(match others.is_empty() {
        true => finding,
        false => {
            let reasons = others.join(&msg(lang, "list-separator", &[]));
            finding.noting(msg(lang, "diagnose-also-refused", &[("reasons", &reasons)]))
        }
    })
}

/// The finding of the most frequent refusal cause `top`, with its numbers and, when a
/// setting can make the refused opens pass, its change offered.
fn refused_by(
    lang: Lang,
    f: &Facts,
    top: &'static str,
    count: usize,
    refused: &[(&Refusal, Option<u32>)],
) -> Option<Finding> {
    let (t, strategy) = (&f.trader, f.strategy.as_ref());
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
            let best = best?.round_dp(2).normalize();
            args.extend([
                ("min", min?.normalize().to_string()),
                ("best", best.to_string()),
            ]);
            let finding = Finding::new("refused-risk-reward", args);
            // A ratio below 1 (the strategy's floor) cannot be offered.
            Some(match (best >= Decimal::ONE, strategy) {
                (true, Some(s)) => finding.offering(msg(
                    lang,
                    "diagnose-request-risk-reward",
                    &[("strategy", &s.spec.name), ("value", &best.to_string())],
                )),
                _ => finding,
            })
        }
        check => {
            let reason = of_cause.map(|(why, _)| refusal_text(lang, why)).next()?;
            args.push(("reason", reason));
            Some(Finding::new(check, args))
        }
    }
}

/// A refusal in the user's language: the catalog's `refusal-<kind>` text with the refusal's
/// own fields (`given`, `min` …) as its arguments; the guard's English words if the catalog
/// has no text for it.
fn refusal_text(lang: Lang, why: &Refusal) -> String {
    let value = serde_json::to_value(why).unwrap_or_default();
    let Some(fields) = value.as_object() else {
        return why.to_string();
    };
    let kind = fields
        .get("kind")
        .and_then(|k| k.as_str())
        .unwrap_or_default();
    let plain = |v: &serde_json::Value| match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let args: Vec<(&str, String)> = fields
        .iter()
        .filter(|(k, _)| k.as_str() != "kind")
        .map(|(k, v)| match k.as_str() {
            "side" => (k.as_str(), super::side_word(lang, &plain(v))),
            _ => (k.as_str(), plain(v)),
        })
        .collect();
    let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let id = format!("refusal-{}", kind.replace('_', "-"));
    match nofxi_skills::Catalog::builtin().has(&id) {
        true => msg(lang, &id, &args),
        false => why.to_string(),
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
pub fn failed_orders(lang: Lang, f: &Facts) -> Option<Finding> {
    let failed: Vec<_> = f
        .cycles
        .iter()
        .flat_map(|c| &c.executions)
        .filter(|e| !e.ok)
        .collect();
    let first = failed.first()?;
    let error = first.error.clone().unwrap_or_default();
    let known = first
        .error_code
        .and_then(|code| knowledge(lang, &code.to_string()))
        .unwrap_or_else(|| Known {
            id: String::new(),
            what: error.clone(),
            why: msg(lang, "diagnose-order-error-unknown", &[]),
            fix: msg(lang, "diagnose-order-error-unknown-fix", &[]),
        });
    let args = vec![
        f.name(),
        ("count", failed.len().to_string()),
        ("error", error),
        ("what", known.what),
        ("why", known.why),
        ("fix", known.fix),
    ];
    Some(Finding::new("order-error", args))
}
