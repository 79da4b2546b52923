//! `trader.stop_all`: the emergency stop. Before its confirmation the running traders are
//! listed into the task (`targets`), so the summary names them and the "yes" is for exactly
//! that list: a trader started after the question is not stopped by an answer that never
//! named it, and one already stopped is skipped, not reported as a failure.

use nofxi_domain::Actor;
use nofxi_skills::Lang;
use nofxi_store::{Store, StoreError};
use serde_json::{Map, Value};

use super::ToolOutput;

/// What a stop of every running trader would stop.
pub(super) enum Running {
    /// The `targets` value: the running traders' names, those left out removed.
    Targets(Value),
    /// Nothing runs (or only what is left out).
    None,
    /// A name left out ("except alpah") is none of the user's traders: stopping all the
    /// others could stop the one meant, so nothing is stopped.
    UnknownExcept(String),
}

/// The user's running traders as the `targets` value — only those `named` when any are —
/// but those in `except` (names compared ignoring case).
pub(super) async fn running(
    store: &Store,
    user: &str,
    except: &[String],
    named: &[String],
) -> Result<Running, StoreError> {
    let traders = store.list_traders(user, false).await?;
    let is = |t: &nofxi_domain::Trader, name: &str| t.spec.name.eq_ignore_ascii_case(name);
    if let Some(unknown) = except
        .iter()
        .find(|name| !traders.iter().any(|t| is(t, name)))
    {
        return Ok(Running::UnknownExcept(unknown.clone()));
    }
    let names: Vec<Value> = traders
        .into_iter()
        .filter(|t| t.is_running && !except.iter().any(|name| is(t, name)))
        .filter(|t| named.is_empty() || named.iter().any(|name| is(t, name)))
        .map(|t| Value::String(t.spec.name))
        .collect();
    Ok(match names.is_empty() {
        true => Running::None,
        false => Running::Targets(Value::Array(names)),
    })
}

/// Stops each trader of `args["targets"]` that still runs; the reply's `{list}` names those
/// stopped. Nothing listed still running is an error the skill explains (`not_running`).
pub(super) async fn stop_listed(
    store: &Store,
    actor: &Actor,
    args: &Map<String, Value>,
    lang: Lang,
) -> Result<Option<ToolOutput>, StoreError> {
    let listed = args
        .get("targets")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect::<Vec<_>>())
        .unwrap_or_default();
    let mut stopped = Vec::new();
    for name in listed {
        let trader = match store.get_trader(&actor.user, name).await {
            Ok(t) => t,
            // Deleted or renamed since the list was confirmed: nothing of it to stop.
            Err(StoreError::NotFound { .. }) => continue,
            Err(e) => return Err(e),
        };
        if trader.is_running {
            store.set_trader_running(actor, &trader.id, false).await?;
            stopped.push(trader.spec.name);
        }
    }
    if stopped.is_empty() {
        return Ok(None);
    }
    Ok(Some(ToolOutput {
        text: Some(stopped.join(&crate::msg(lang, "list-separator", &[]))),
        mutated: true,
        ..ToolOutput::default()
    }))
}
