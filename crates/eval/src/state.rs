//! `state` checks: what the store holds after a turn, read through the store's own API.
//!
//! Replies can claim anything; these checks are how a case proves a create really created,
//! a "not found" really left everything alone, and a denied delete really kept the resource.

use nofxi_store::Store;

use crate::case::StateCheck;
use crate::expect::{Failure, values_match};
use crate::setup::EVAL_USER;

/// Every failing state check (empty when all hold).
pub async fn check_state(store: &Store, checks: &[StateCheck]) -> Vec<Failure> {
    let mut out = Vec::new();
    for check in checks {
        match read(store, check).await {
            Err(message) => out.push(Failure::new("state", message)),
            Ok(found) => out.extend(compare(check, found)),
        }
    }
    out
}

/// What the store says about the resource a check names.
struct Found {
    label: String,
    live: Option<serde_json::Value>,
    trashed: bool,
}

async fn read(store: &Store, check: &StateCheck) -> Result<Found, String> {
    let named = [
        ("trader", &check.trader),
        ("exchange", &check.exchange),
        ("model", &check.model),
        ("strategy", &check.strategy),
    ];
    let mut given = named
        .iter()
        .filter_map(|(k, v)| v.as_ref().map(|v| (*k, v)));
    let (Some((kind, name)), None) = (given.next(), given.next()) else {
        return Err("a state check names exactly one of trader, exchange, model, strategy".into());
    };
    let label = format!("{kind} {name:?}");
    let user = EVAL_USER;
    let err = |e: nofxi_store::StoreError| format!("reading {label}: {e}");
    let (live, trash): (Vec<serde_json::Value>, Vec<serde_json::Value>) = match kind {
        "trader" => {
            let live = store.list_traders(user, false).await.map_err(err)?;
            let trash = store.list_traders(user, true).await.map_err(err)?;
            (to_values(&live)?, to_values(&trash)?)
        }
        "exchange" => {
            let live = store.list_exchanges(user, false).await.map_err(err)?;
            let trash = store.list_exchanges(user, true).await.map_err(err)?;
            (to_values(&live)?, to_values(&trash)?)
        }
        "model" => {
            let live = store.list_models(user, false).await.map_err(err)?;
            let trash = store.list_models(user, true).await.map_err(err)?;
            (to_values(&live)?, to_values(&trash)?)
        }
        _ => {
            let live = store.list_strategies(user, false).await.map_err(err)?;
            let trash = store.list_strategies(user, true).await.map_err(err)?;
            (to_values(&live)?, to_values(&trash)?)
        }
    };
    let name_key = if kind == "exchange" {
        "account_name"
    } else {
        "name"
    };
    let is_it = |v: &serde_json::Value| {
        v.get(name_key).and_then(|n| n.as_str()) == Some(name.as_str())
            || v.get("id").and_then(|n| n.as_str()) == Some(name.as_str())
    };
    let mut live = live.into_iter().find(is_it);
    if kind == "trader"
        && let Some(trader) = live.as_mut()
    {
        name_bindings(store, trader).await;
    }
    Ok(Found {
        label,
        live,
        trashed: trash.iter().any(is_it),
    })
}

fn to_values<T: serde::Serialize>(items: &[T]) -> Result<Vec<serde_json::Value>, String> {
    items
        .iter()
        .map(|i| serde_json::to_value(i).map_err(|e| e.to_string()))
        .collect()
}

/// Adds `exchange`, `model` and `strategy` (names) beside a trader's ids, so cases can say
/// `fields: {model: DeepSeek}` rather than carry ids they cannot know.
async fn name_bindings(store: &Store, trader: &mut serde_json::Value) {
    let id = |key: &str| {
        trader
            .get(key)
            .and_then(|v| v.as_str())
            .unwrap_or_default()
            .to_string()
    };
    let (e, m, s) = (id("exchange_id"), id("ai_model_id"), id("strategy_id"));
    let exchange = store
        .get_exchange(EVAL_USER, &e)
        .await
        .ok()
        .map(|x| x.spec.account_name);
    let model = store
        .get_model(EVAL_USER, &m)
        .await
        .ok()
        .map(|x| x.spec.name);
    let strategy = store
        .get_strategy(EVAL_USER, &s)
        .await
        .ok()
        .map(|x| x.spec.name);
    if let Some(obj) = trader.as_object_mut() {
        for (k, v) in [
            ("exchange", exchange),
            ("model", model),
            ("strategy", strategy),
        ] {
            obj.insert(
                k.into(),
                v.map(Into::into).unwrap_or(serde_json::Value::Null),
            );
        }
    }
}

fn compare(check: &StateCheck, found: Found) -> Vec<Failure> {
    let mut out = Vec::new();
    let label = &found.label;
    let mut fail = |key: &str, message: String| {
        out.push(Failure::new(
            format!("state.{key}"),
            format!("{label}: {message}"),
        ));
    };
    if let Some(want) = check.exists
        && want != found.live.is_some()
    {
        fail(
            "exists",
            format!(
                "expected exists={want}, it {}",
                if want { "does not exist" } else { "exists" }
            ),
        );
    }
    if let Some(want) = check.deleted
        && want != found.trashed
    {
        fail(
            "deleted",
            format!("expected in the trash={want}, got {}", found.trashed),
        );
    }
    let wants_fields = check.enabled.is_some()
        || check.is_running.is_some()
        || check.active.is_some()
        || !check.fields.is_empty();
    let Some(live) = found.live else {
        if wants_fields {
            fail(
                "exists",
                "field checks need it to exist, it does not".into(),
            );
        }
        return out;
    };
    let flags = [
        ("enabled", check.enabled),
        ("is_running", check.is_running),
        ("is_active", check.active),
    ];
    for (key, want) in flags {
        if let Some(want) = want {
            let got = live.get(key).and_then(|v| v.as_bool());
            if got != Some(want) {
                fail(key, format!("expected {key}={want}, got {got:?}"));
            }
        }
    }
    for (key, want) in &check.fields {
        match lookup(&live, key) {
            None => fail(key, format!("has no field {key}")),
            Some(got) if !values_match(want, &got) => {
                fail(key, format!("expected {key}={want}, got {got}"))
            }
            Some(_) => {}
        }
    }
    out
}

/// A top-level field, a dotted path, or a key that occurs exactly once anywhere inside.
pub fn lookup(value: &serde_json::Value, key: &str) -> Option<serde_json::Value> {
    if let Some(v) = value.get(key) {
        return Some(v.clone());
    }
    if key.contains('.') {
        let mut cur = value;
        for part in key.split('.') {
            cur = cur.get(part)?;
        }
        return Some(cur.clone());
    }
    let mut hits = Vec::new();
    find_all(value, key, &mut hits);
    match hits.as_slice() {
        [one] => Some((*one).clone()),
        _ => None,
    }
}

fn find_all<'a>(value: &'a serde_json::Value, key: &str, hits: &mut Vec<&'a serde_json::Value>) {
    if let serde_json::Value::Object(map) = value {
        for (k, v) in map {
            if k == key {
                hits.push(v);
            }
            find_all(v, key, hits);
        }
    }
}
