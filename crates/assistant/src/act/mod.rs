//! Advancing the active task: resolve references, check values, ask what is missing (all at
//! once), confirm when the action's rule says so, run its steps through the tool pipeline,
//! then report, offer a fix sub-task, or resume the task below.

use nofxi_protocol::{Event, TaskStatus};
use nofxi_skills::{Action, Lang, RefFact, ResourceKind, Risk, SlotType};
use serde_json::{Map, Value};

mod bound;
mod edits;
mod reported;
mod run;
mod slots;
mod undo;

pub(crate) use self::bound::{changed_since, set_aside};
pub(crate) use self::edits::same_item;
use self::run::{execute, refused_before_confirming};
pub use self::run::{finish, resume_below};
use self::slots::{ask, check_values, resolve_refs, take_the_only_one};
use crate::conversation::PendingConfirmation;
use crate::edit_confirm::change_text;
use crate::nlu::names::Names;
use crate::turn::Turn;
use crate::{msg, texts};

/// The slot values a check or a tool sees: secrets restored from memory (absent after a
/// restart, so they are asked again), refs as resolved ids when `ids`.
pub fn effective(turn: &Turn<'_>, ids: bool) -> Map<String, Value> {
    let Some(task) = turn.conv.top() else {
        return Map::new();
    };
    let mut out = Map::new();
    for (k, v) in &task.slots {
        if task.secret_slots.contains(k) {
            if let Some(clear) = turn.engine.secrets.get(&turn.conv.id, &task.id.0, k) {
                out.insert(k.clone(), Value::String(clear));
            }
            continue;
        }
        match (ids, task.resolved.get(k)) {
            (true, Some(id)) => out.insert(k.clone(), Value::String(id.clone())),
            _ => out.insert(k.clone(), v.clone()),
        };
    }
    out
}

/// A template's `{placeholder}` values: the task's slots, then runtime values, each as a
/// reply shows it (lists joined, booleans as yes/no).
pub(crate) fn lookup(
    lang: Lang,
    slots: &Map<String, Value>,
    vars: &Map<String, Value>,
) -> impl Fn(&str) -> Option<String> {
    move |name: &str| {
        slots
            .get(name)
            .or_else(|| vars.get(name))
            .map(|v| texts::value(lang, v))
    }
}

pub async fn advance(turn: &mut Turn<'_>) {
    for _ in 0..8 {
        if !step(turn).await {
            return;
        }
    }
}

/// One step; true when the task below should now be advanced too.
async fn step(turn: &mut Turn<'_>) -> bool {
    let lang = turn.lang;
    let Some(task) = turn.conv.top() else {
        return false;
    };
    if task.offer.is_some() {
        return false;
    }
    let Some(action) = turn
        .engine
        .library
        .action(&task.skill, &task.action)
        .cloned()
    else {
        return false;
    };
    take_the_only_one(turn, &action);
    if !resolve_refs(turn, &action) {
        return false;
    }
    if !edits::read_before_and_apply_edits(turn, &action).await {
        return finish(turn, TaskStatus::Cancelled, None);
    }
    let rejected = check_values(turn, &action);
    let slots = effective(turn, false);
    let mut missing: Vec<String> = action
        .missing_slots(&slots)
        .iter()
        .map(|s| s.name.clone())
        .collect();
    for slot in rejected {
        if !missing.contains(&slot) {
            missing.push(slot);
        }
    }
    if !missing.is_empty() {
        ask(turn, &action, missing);
        return false;
    }
    // A change that changes nothing ("set btc-bot leverage to 500", when leverage is no
    // field of a trader) must not report an update: ask what to change instead.
    // The fields the message named without a value ("change the api key and secret of
    // main"), or with a name that is nobody's ("using the scalper strategy"): asked for
    // until each has one, before any confirmation.
    if !action.risk.is_read_only() {
        let unfilled: Vec<String> = turn
            .conv
            .top()
            .map(|t| {
                t.asked
                    .iter()
                    .filter(|n| *n != "target" && !slots.contains_key(*n))
                    .filter(|n| action.slot(n).is_some())
                    .cloned()
                    .collect()
            })
            .unwrap_or_default();
        if !unfilled.is_empty() {
            ask(turn, &action, unfilled);
            return false;
        }
    }
    if action.risk == Risk::Update && !slots.keys().any(|k| k != "target") {
        let fields: Vec<String> = action
            .slots
            .iter()
            .filter(|s| s.name != "target")
            .map(|s| s.label().get(lang).to_string())
            .collect();
        if !fields.is_empty() {
            let target = slots.get("target").and_then(Value::as_str).unwrap_or("");
            turn.say(texts::what_to_change(lang, target, &fields));
            if let Some(task) = turn.conv.top_mut() {
                task.status = TaskStatus::Collecting;
                task.asked.clear();
            }
            return false;
        }
    }
    let names = turn.names.clone();
    let Some(task) = turn.conv.top() else {
        return false;
    };
    let resolved = task.resolved.clone();
    let facts = |slot: &str, fact: RefFact| {
        resolved
            .get(slot)
            .and_then(|id| names.by_id(id))
            .is_some_and(|e| match fact {
                RefFact::Live => e.live,
                RefFact::Running => running_or_serving(&names, e),
            })
    };
    let needs = action.needs_confirmation(&slots, &facts)
        || task.read_by_model && !action.risk.is_read_only();
    let fingerprint = serde_json::to_string(&task.slots).unwrap_or_default();
    let bound = binding(&action, &slots, task, &fingerprint, &names);
    let resumed_here = turn.events.iter().any(|e| match e {
        Event::TaskCompleted { task_id }
        | Event::TaskCancelled { task_id }
        | Event::TaskFailed { task_id, .. } => *task_id != task.id,
        _ => false,
    });
    let unconfirmed = needs && task.confirmed.as_deref() != Some(bound.as_str());
    if unconfirmed && let Some(resume) = refused_before_confirming(turn, &action).await {
        return resume;
    }
    // The check may have fixed values (the traders a stop-all will stop): the summary and
    // what a "yes" binds to are taken after it.
    let slots = effective(turn, false);
    let Some(task) = turn.conv.top() else {
        return false;
    };
    let mut summary_text = summary(&action, lang, &slots, task, &names);
    for name in live_bindings(turn, &action, task) {
        summary_text = format!("{}\n{summary_text}", texts::binds_live(lang, &name));
    }
    let fingerprint = serde_json::to_string(&task.slots).unwrap_or_default();
    let bound = binding(&action, &slots, task, &fingerprint, &names);
    if unconfirmed && resumed_here {
        // A confirmation is a message of its own: when another task's outcome is already in
        // this reply (this one came back below it), only say that it waits.
        let mut label = texts::task_label(&turn.engine.library, &task.skill, &task.action, lang);
        if let Some(target) = slots.get("target").and_then(Value::as_str) {
            label = format!("{label}: {target}");
        }
        turn.say(texts::confirmation_waits(lang, &label));
        if let Some(task) = turn.conv.top_mut() {
            task.status = TaskStatus::Collecting;
            task.confirmed = None;
            task.confirmation = None;
        }
        return false;
    }
    if unconfirmed {
        let objects = bound::bind_objects(turn, &action).await;
        let by_tool_call = turn.tool_call;
        let Some(task) = turn.conv.top() else {
            return false;
        };
        let id = task.id.clone();
        let binding_id = uuid::Uuid::now_v7().to_string();
        // "no, 4", "不对，改成 4 个" before the yes: a bare number corrects the one number the
        // change sets, as an answer to it would — or the numbers one shared phrase set to one
        // value ("leverage 3" is both leverages; "make it 4" is both again).
        let numbers: Vec<String> = task
            .given
            .iter()
            .filter(|k| {
                action
                    .slot(k)
                    .is_some_and(|s| matches!(s.ty, SlotType::Integer | SlotType::Decimal))
            })
            .cloned()
            .collect();
        if let Some(task) = turn.conv.top_mut() {
            task.status = TaskStatus::AwaitingConfirmation;
            task.asked = if numbers.len() == 1 || said_as_one(&action, &numbers, &slots) {
                numbers
            } else {
                Vec::new()
            };
            task.confirmed = None;
            task.confirmation = Some(PendingConfirmation {
                summary: summary_text.clone(),
                fingerprint,
                binding: binding_id.clone(),
                objects,
                by_tool_call,
            });
        }
        turn.events.push(Event::ConfirmationRequested {
            task_id: id,
            summary: summary_text.clone(),
            binding: binding_id,
        });
        turn.say(summary_text);
        return false;
    }
    // Liveness: a remembered reference must still exist before anything runs on it (a
    // restore's target is in the trash, so it is checked by the restore itself), and the
    // reply names it as it is called now.
    for (slot, id) in resolved.iter().filter(|_| !restores(&action)) {
        let Some(kind) = action.slot(slot).and_then(|s| s.ref_kind) else {
            continue;
        };
        match turn
            .engine
            .store
            .resource_version(turn.user, kind.into(), id)
            .await
        {
            Ok(now) => {
                if let Some(task) = turn.conv.top_mut()
                    && task.slots.get(slot).and_then(Value::as_str) != Some(now.name.as_str())
                {
                    task.slots.insert(slot.clone(), Value::String(now.name));
                }
            }
            Err(_) => {
                let name = slots
                    .get(slot)
                    .and_then(Value::as_str)
                    .unwrap_or(id)
                    .to_string();
                turn.say(texts::gone(lang, &name));
                if let Some(task) = turn.conv.top_mut() {
                    task.slots.remove(slot);
                    task.resolved.remove(slot);
                    task.confirmed = None;
                }
                turn.refresh_names().await;
                return true;
            }
        }
    }
    execute(turn, &action, needs, bound).await
}

/// A trader that runs, or a resource a running trader uses (disabling it stops that trader's
/// trading): what a `running:` confirmation rule asks about.
fn running_or_serving(names: &Names, e: &crate::nlu::names::NameEntry) -> bool {
    match e.kind {
        ResourceKind::Trader => e.running,
        _ => names
            .entries
            .iter()
            .any(|t| t.kind == ResourceKind::Trader && t.running && t.uses.contains(&e.id)),
    }
}

/// The traders that use resource `id` (running ones said so), as a message shows them.
pub(crate) fn traders_using(lang: Lang, names: &Names, id: &str) -> String {
    let using: Vec<String> = names
        .entries
        .iter()
        .filter(|t| t.kind == ResourceKind::Trader && !t.deleted && t.uses.iter().any(|u| u == id))
        .map(|t| match t.running {
            true => msg(lang, "effects-running-trader", &[("name", &t.name)]),
            false => t.name.clone(),
        })
        .collect();
    match using.is_empty() {
        true => msg(lang, "effects-no-traders", &[]),
        false => using.join(", "),
    }
}

/// The live exchange accounts an update binds its target to ("switch alpha to exchange bin"):
/// from then on its orders are real, which the update's own summary does not say.
fn live_bindings(
    turn: &Turn<'_>,
    action: &Action,
    task: &crate::conversation::Task,
) -> Vec<String> {
    if action.risk != Risk::Update {
        return Vec::new();
    }
    // "turn off testnet for bntest": the account itself becomes real money.
    let to_mainnet =
        task.slots.get("testnet") == Some(&Value::Bool(false)) && action.slot("testnet").is_some();
    let target = task
        .resolved
        .get("target")
        .and_then(|id| turn.names.by_id(id))
        .filter(|e| to_mainnet && e.kind == ResourceKind::Exchange && e.live && e.testnet)
        .map(|e| e.name.clone());
    target
        .into_iter()
        .chain(live_refs(turn, action, task))
        .collect()
}

/// The live (not testnet) exchange accounts an update's ref slots point at.
fn live_refs(turn: &Turn<'_>, action: &Action, task: &crate::conversation::Task) -> Vec<String> {
    task.given
        .iter()
        .filter(|k| *k != "target")
        .filter(|k| {
            action
                .slot(k)
                .is_some_and(|s| s.ref_kind == Some(ResourceKind::Exchange))
        })
        .filter_map(|k| turn.names.by_id(task.resolved.get(k)?))
        .filter(|e| e.live && !e.testnet)
        .map(|e| e.name.clone())
        .collect()
}

/// A restore works on resources in the trash.
pub(crate) fn restores(action: &Action) -> bool {
    action.steps.iter().any(|s| s.tool.verb == "restore")
}

/// What a confirmation is bound to: the summary as rendered in one fixed language (so "确认"
/// after an English summary confirms it, rather than re-asking in Chinese) and the exact slot
/// values shown (so any change voids it).
fn binding(
    action: &Action,
    slots: &Map<String, Value>,
    task: &crate::conversation::Task,
    fingerprint: &str,
    names: &Names,
) -> String {
    format!(
        "{}\u{0}{fingerprint}",
        summary(action, Lang::En, slots, task, names)
    )
}

/// What money the resources a task acts on trade, as its confirmation names it (the catalog
/// key): real money on a live account, test funds on a testnet one, none on paper.
fn account_of(names: &Names, task: &crate::conversation::Task) -> &'static str {
    let entries: Vec<_> = task
        .resolved
        .values()
        .filter_map(|id| names.by_id(id))
        .collect();
    if entries.iter().any(|e| e.live && !e.testnet) {
        "confirm-account-live"
    } else if entries.iter().any(|e| e.live) {
        "confirm-account-testnet"
    } else {
        "confirm-account-paper"
    }
}

/// The binding of the active task's pending confirmation, for the policy's `confirm`.
pub fn pending_binding(turn: &Turn<'_>, fingerprint: &str) -> Option<String> {
    let task = turn.conv.top()?;
    let action = turn.engine.library.action(&task.skill, &task.action)?;
    let slots = effective(turn, false);
    Some(binding(action, &slots, task, fingerprint, &turn.names))
}

fn summary(
    action: &Action,
    lang: Lang,
    slots: &Map<String, Value>,
    task: &crate::conversation::Task,
    names: &Names,
) -> String {
    let shown = shown_slots(slots, task);
    let mut vars = implied(lang, names);
    vars.insert(
        "summary".into(),
        Value::String(changes(action, lang, &shown, task)),
    );
    vars.insert(
        "account".into(),
        Value::String(msg(lang, account_of(names, task), &[])),
    );
    if let Some(id) = task.resolved.get("target") {
        vars.insert(
            "traders_using".into(),
            Value::String(traders_using(lang, names, id)),
        );
    }
    match &action.summary {
        Some(text) => text.render(lang, lookup(lang, &shown, &vars)),
        None => msg(lang, "confirm-go-ahead", &[]),
    }
}

/// What a task uses without the user saying it, for the messages that show it: a new
/// trader follows the active strategy (`{strategy}` when no strategy was said).
pub(crate) fn implied(lang: Lang, names: &Names) -> Map<String, Value> {
    let strategy = names
        .active_strategy
        .clone()
        .unwrap_or_else(|| msg(lang, "confirm-no-active-strategy", &[]));
    let mut vars = Map::new();
    vars.insert("strategy".into(), Value::String(strategy));
    vars
}

/// The task's values as a reply may show them: secrets as the task keeps them (masked).
fn shown_slots(slots: &Map<String, Value>, task: &crate::conversation::Task) -> Map<String, Value> {
    let mut shown = task.slots.clone();
    for (k, v) in slots {
        if !task.secret_slots.contains(k) {
            shown.insert(k.clone(), v.clone());
        }
    }
    shown
}

/// What the user changed, "label → value" each, with the value it replaces when an update
/// read it: the `{summary}` of a confirmation and of an update's success ("name → eth-main",
/// "leverage → 5 (was 3)").
pub(super) fn changes(
    action: &Action,
    lang: Lang,
    shown: &Map<String, Value>,
    task: &crate::conversation::Task,
) -> String {
    task.given
        .iter()
        .filter(|k| k.as_str() != "target")
        .filter_map(|k| {
            let now = shown.get(k)?;
            Some(change_text(action, lang, k, now, task.before.get(k)))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether the numeric slots `names` hold one value and share a phrase: one setting said
/// once ("leverage 3" sets the BTC/ETH and the altcoin leverage), so one number answers them.
fn said_as_one(action: &Action, names: &[String], slots: &Map<String, Value>) -> bool {
    let Some((first, others)) = names.split_first() else {
        return false;
    };
    let phrases = |name: &str| -> Vec<String> {
        action
            .slot(name)
            .map(|s| s.phrases.iter().map(|p| p.to_lowercase()).collect())
            .unwrap_or_default()
    };
    let first_phrases = phrases(first);
    others.iter().all(|o| {
        slots.get(o) == slots.get(first) && phrases(o).iter().any(|p| first_phrases.contains(p))
    })
}
