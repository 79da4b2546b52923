//! The checks of a trader that does not run, and of one marked running that no engine runs:
//! its configuration, the stop the engine recorded, and a preflight run now.

use std::sync::Arc;

use nofxi_domain::Trader;
use nofxi_domain::validation::Problem;
use nofxi_trader::runtime::host::ENGINE_BEAT_TTL_MS;
use nofxi_trader::runtime::preflight;
use nofxi_trader::runtime::status::{StopReason, load_status};
use nofxi_venues::SystemClock;

use super::Finding;
use crate::compose::facts::time_on;
use crate::msg;
use crate::tools::registry::ToolContext;

/// The stop the engine recorded for `t`, if it explains anything (a stop by the user does not).
pub async fn recorded_stop(cx: &ToolContext<'_>, t: &Trader) -> Option<Finding> {
    let status = load_status(cx.store, cx.user, &t.id).await.ok().flatten()?;
    let check = recorded_check(status.stop_reason).filter(|_| !status.running)?;
    let when = time_on(
        status.since_ms,
        status.simulated,
        cx.lang == nofxi_skills::Lang::Zh,
    );
    let detail = status.detail.unwrap_or_else(|| "-".into());
    let args = vec![
        ("name", t.spec.name.clone()),
        ("when", when),
        ("detail", detail),
    ];
    Some(Finding::new(check, args).offering(start_request(cx, t)))
}

/// A preflight run now: the named cause a start would fail with, or that `t` is just stopped
/// with every check passing (and a start offered).
pub async fn preflight_now(cx: &ToolContext<'_>, t: &Trader) -> Finding {
    let clock = Arc::new(SystemClock);
    match preflight::check(cx.store.clone(), cx.user, &t.id, clock).await {
        Err(e) => Finding::new(
            "start-fails",
            vec![("name", t.spec.name.clone()), ("error", e.to_string())],
        ),
        Ok(_) => Finding::new("stopped", vec![("name", t.spec.name.clone())])
            .offering(start_request(cx, t)),
    }
}

/// The check for a stop the engine made; a stop by the user or at shutdown explains nothing.
fn recorded_check(reason: Option<StopReason>) -> Option<&'static str> {
    match reason? {
        StopReason::Error => Some("stopped-error"),
        StopReason::SafeMode => Some("stopped-safe-mode"),
        StopReason::LeaseLost => Some("stopped-lease-lost"),
        StopReason::Preflight => Some("stopped-preflight"),
        StopReason::User | StopReason::Shutdown => None,
    }
}

/// The references and settings a start needs (REFERENCE §1), checked without any network;
/// each problem in the user's language, and enabling a disabled model or account offered.
pub async fn configuration(cx: &ToolContext<'_>, t: &Trader) -> Option<Finding> {
    let spec = &t.spec;
    let model = cx.store.get_model(cx.user, &spec.ai_model_id).await.ok();
    let exchange = cx.store.get_exchange(cx.user, &spec.exchange_id).await.ok();
    let strategy = cx.store.get_strategy(cx.user, &spec.strategy_id).await.ok();
    let problems = nofxi_domain::trader::start_problems(
        spec,
        model.as_ref(),
        exchange.as_ref(),
        strategy.as_ref(),
    )
    .err()?;
    let said: Vec<String> = problems
        .problems
        .iter()
        .map(|p| problem_text(cx.lang, &p.problem).unwrap_or_else(|| p.to_string()))
        .collect();
    let disabled = problems.problems.iter().find_map(|p| match &p.problem {
        Problem::Disabled { kind, name } => Some((kind.as_str(), name.as_str())),
        _ => None,
    });
    let trader = spec.name.as_str();
    // The fix names what a yes does: enabling the disabled one; the start stays the user's.
    let (fix, offer) = match disabled {
        Some((kind, thing)) => (
            msg(
                cx.lang,
                &format!("diagnose-configuration-fix-enable-{kind}"),
                &[("name", trader), ("thing", thing)],
            ),
            Some(msg(
                cx.lang,
                &format!("diagnose-request-enable-{kind}"),
                &[("name", thing)],
            )),
        ),
        None => (
            msg(
                cx.lang,
                "diagnose-configuration-fix-other",
                &[("name", trader)],
            ),
            None,
        ),
    };
    let finding = Finding::new(
        "configuration",
        vec![
            ("name", spec.name.clone()),
            ("problems", said.join("; ")),
            ("fix", fix),
        ],
    );
    Some(match offer {
        Some(request) => finding.offering(request),
        None => finding,
    })
}

/// A start problem in the user's language, when the catalog has its kind
/// (`diagnose-problem-disabled-model` …); the domain's words otherwise.
fn problem_text(lang: nofxi_skills::Lang, problem: &Problem) -> Option<String> {
    let catalog = nofxi_skills::Catalog::builtin();
    let (id, args) = match problem {
        Problem::Disabled { kind, name } => (
            format!("diagnose-problem-disabled-{kind}"),
            vec![("name", name.clone())],
        ),
        Problem::UnknownReference { kind, reference } => (
            format!("diagnose-problem-missing-{kind}"),
            vec![("name", reference.clone())],
        ),
        Problem::IncompleteCredentials { name, missing } => (
            "diagnose-problem-credentials".to_string(),
            vec![("name", name.clone()), ("missing", missing.join(", "))],
        ),
        _ => return None,
    };
    let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
    catalog.has(&id).then(|| msg(lang, &id, &args))
}

/// A trader marked running that no engine process runs: it waits and does not trade.
pub async fn no_engine(cx: &ToolContext<'_>, t: &Trader) -> Option<Finding> {
    let leased = cx
        .store
        .lease(&t.id)
        .await
        .ok()
        .flatten()
        .is_some_and(|l| l.expires_at > cx.store.now_ms());
    let engine = cx
        .store
        .engine_running(ENGINE_BEAT_TTL_MS)
        .await
        .unwrap_or(true);
    (!leased && !engine).then(|| Finding::new("no-engine", vec![("name", t.spec.name.clone())]))
}

/// "start <name>" in the user's language: what a yes to the offered fix runs.
fn start_request(cx: &ToolContext<'_>, t: &Trader) -> String {
    msg(cx.lang, "diagnose-request-start", &[("name", &t.spec.name)])
}
