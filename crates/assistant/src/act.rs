//! Advancing the active task: resolve references, check values, ask what is missing (all at
//! once), confirm when the action's rule says so, run its steps through the tool pipeline,
//! then report, offer a fix sub-task, or resume the task below.

use nofxi_protocol::{Event, TaskStatus};
use nofxi_skills::{Action, Lang, ResourceKind, SlotType};
use serde_json::{Map, Value};

use crate::conversation::{Listed, Offer, Pending, PendingConfirmation};
use crate::nlu::names::Resolution;
use crate::texts;
use crate::tools::ToolCall;
use crate::turn::Turn;

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

fn lookup(
    slots: &Map<String, Value>,
    vars: &Map<String, Value>,
) -> impl Fn(&str) -> Option<String> {
    move |name: &str| {
        slots.get(name).or_else(|| vars.get(name)).map(|v| match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        })
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
    if !resolve_refs(turn, &action) {
        return false;
    }
    check_values(turn, &action);
    let slots = effective(turn, false);
    let missing: Vec<String> = action
        .missing_slots(&slots)
        .iter()
        .map(|s| s.name.clone())
        .collect();
    if !missing.is_empty() {
        ask(turn, &action, missing);
        return false;
    }
    let names = turn.names.clone();
    let Some(task) = turn.conv.top() else {
        return false;
    };
    let resolved = task.resolved.clone();
    let is_live = |slot: &str| {
        resolved
            .get(slot)
            .and_then(|id| names.by_id(id))
            .is_some_and(|e| e.live)
    };
    let needs = action.needs_confirmation(&slots, &is_live);
    let summary_text = summary(&action, lang, &slots, task);
    let fingerprint = serde_json::to_string(&task.slots).unwrap_or_default();
    let bound = format!("{summary_text}\u{0}{fingerprint}");
    if needs && task.confirmed.as_deref() != Some(bound.as_str()) {
        let id = task.id.clone();
        if let Some(task) = turn.conv.top_mut() {
            task.status = TaskStatus::AwaitingConfirmation;
            task.confirmed = None;
            task.confirmation = Some(PendingConfirmation {
                summary: summary_text.clone(),
                fingerprint,
            });
        }
        turn.events.push(Event::ConfirmationRequested {
            task_id: id,
            summary: summary_text.clone(),
        });
        turn.say(summary_text);
        return false;
    }
    // Liveness: a remembered reference must still exist before anything runs on it (a
    // restore's target is in the trash, so it is checked by the restore itself).
    for (slot, id) in resolved.iter().filter(|_| !restores(&action)) {
        let kind = action.slot(slot).and_then(|s| s.ref_kind);
        if let Some(kind) = kind
            && turn
                .engine
                .store
                .resolve_id(turn.user, to_domain(kind), id)
                .await
                .is_err()
        {
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
    execute(turn, &action, needs, bound).await
}

/// A restore works on resources in the trash.
fn restores(action: &Action) -> bool {
    action.steps.iter().any(|s| s.tool.verb == "restore")
}

fn to_domain(kind: ResourceKind) -> nofxi_domain::ResourceKind {
    match kind {
        ResourceKind::Trader => nofxi_domain::ResourceKind::Trader,
        ResourceKind::Exchange => nofxi_domain::ResourceKind::Exchange,
        ResourceKind::Model => nofxi_domain::ResourceKind::Model,
        ResourceKind::Strategy => nofxi_domain::ResourceKind::Strategy,
    }
}

fn summary(
    action: &Action,
    lang: Lang,
    slots: &Map<String, Value>,
    task: &crate::conversation::Task,
) -> String {
    let mut shown = task.slots.clone();
    for (k, v) in slots {
        if !task.secret_slots.contains(k) {
            shown.insert(k.clone(), v.clone());
        }
    }
    let changes = task
        .given
        .iter()
        .filter(|k| k.as_str() != "target")
        .filter_map(|k| {
            shown.get(k).map(|v| {
                format!(
                    "{k} → {}",
                    v.as_str().map(str::to_string).unwrap_or(v.to_string())
                )
            })
        })
        .collect::<Vec<_>>()
        .join(", ");
    let mut vars = Map::new();
    vars.insert("summary".into(), Value::String(changes));
    match &action.summary {
        Some(text) => text.render(lang, lookup(&shown, &vars)),
        None => texts::t(lang, "确认执行吗？", "Go ahead?"),
    }
}

/// Resolves ref slots not yet resolved; false when the turn must stop (a choice is asked).
fn resolve_refs(turn: &mut Turn<'_>, action: &Action) -> bool {
    let lang = turn.lang;
    let Some(task) = turn.conv.top() else {
        return false;
    };
    let todo: Vec<(String, ResourceKind, String)> = action
        .slots
        .iter()
        .filter(|s| s.ty == SlotType::Ref && !task.resolved.contains_key(&s.name))
        .filter_map(|s| {
            let said = task.slots.get(&s.name)?.as_str()?.to_string();
            Some((s.name.clone(), s.ref_kind?, said))
        })
        .collect();
    for (slot, kind, said) in todo {
        let lower = said.to_lowercase();
        let class = turn
            .engine
            .lexicon
            .class_in(kind, &lower)
            .map(|(c, _, _)| c.to_string());
        match turn
            .names
            .resolve(kind, &said, class.as_deref(), restores(action))
        {
            Resolution::Found(e) => {
                turn.conv.point_at(kind, e.id.clone());
                if let Some(task) = turn.conv.top_mut() {
                    task.resolved.insert(slot.clone(), e.id.clone());
                    task.slots.insert(slot, Value::String(e.name.clone()));
                }
            }
            Resolution::Ambiguous(options) => {
                let shown: Vec<String> = options.iter().map(|e| e.name.clone()).collect();
                let task_id = task_id(turn);
                turn.conv.pending = Some(Pending::Choose {
                    task_id,
                    slot,
                    options: options
                        .iter()
                        .map(|e| (e.name.clone(), e.id.clone()))
                        .collect(),
                });
                turn.events.push(Event::Clarification {
                    options: shown.clone(),
                });
                turn.say(texts::which_one(lang, &shown));
                return false;
            }
            Resolution::NotFound => {
                let kind_word = match lang {
                    Lang::Zh => to_domain(kind).zh().to_string(),
                    Lang::En => kind.as_str().to_string(),
                };
                turn.say(texts::not_found(lang, &kind_word, &said));
                if let Some(task) = turn.conv.top_mut() {
                    task.slots.remove(&slot);
                    task.given.remove(&slot);
                }
            }
        }
    }
    true
}

fn task_id(turn: &Turn<'_>) -> nofxi_protocol::TaskId {
    turn.conv
        .top()
        .map(|t| t.id.clone())
        .unwrap_or_else(|| nofxi_protocol::TaskId(String::new()))
}

/// Normalizes values by the slot rules; clamps are reported, invalid values dropped and said.
fn check_values(turn: &mut Turn<'_>, action: &Action) {
    let lang = turn.lang;
    let Some(task) = turn.conv.top() else { return };
    let id = task.id.clone();
    let checks: Vec<(String, Value)> = task
        .slots
        .iter()
        .filter(|(k, _)| !task.secret_slots.contains(*k) && !task.resolved.contains_key(*k))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    for (name, value) in checks {
        let Some(slot) = action.slot(&name) else {
            continue;
        };
        if slot.ty == SlotType::Ref {
            continue;
        }
        match slot.check_value(&value) {
            Ok((normalized, adjustment)) => {
                if let Some(adj) = adjustment {
                    let note = adj.message.get(lang).to_string();
                    turn.events.push(Event::SlotSet {
                        task_id: id.clone(),
                        slot: name.clone(),
                        value: normalized.clone(),
                        adjusted: Some(note.clone()),
                    });
                    turn.say(note);
                }
                if let Some(task) = turn.conv.top_mut() {
                    task.slots.insert(name, normalized);
                }
            }
            Err(err) => {
                turn.say(err.message.get(lang).to_string());
                if let Some(task) = turn.conv.top_mut() {
                    task.slots.remove(&name);
                    task.given.remove(&name);
                }
            }
        }
    }
}

fn ask(turn: &mut Turn<'_>, action: &Action, missing: Vec<String>) {
    let lang = turn.lang;
    let mut lines: Vec<String> = missing
        .iter()
        .filter_map(|m| action.slot(m))
        .map(|s| {
            s.ask
                .as_ref()
                .map(|t| t.get(lang).to_string())
                .unwrap_or_else(|| s.name.clone())
        })
        .collect();
    let Some(task) = turn.conv.top() else { return };
    let defaults: Vec<(String, String)> = action
        .slots
        .iter()
        .filter(|s| !task.slots.contains_key(&s.name))
        .filter_map(|s| {
            s.default.as_ref().map(|d| {
                (
                    s.name.clone(),
                    d.as_str().map(str::to_string).unwrap_or(d.to_string()),
                )
            })
        })
        .collect();
    if let Some(note) = texts::defaults_note(lang, &defaults) {
        lines.push(note);
    }
    let id = task.id.clone();
    if let Some(task) = turn.conv.top_mut() {
        task.status = TaskStatus::Collecting;
        task.asked = missing.clone();
    }
    turn.events.push(Event::Asked {
        task_id: id,
        slots: missing,
    });
    turn.say(lines.join("\n"));
}

async fn execute(turn: &mut Turn<'_>, action: &Action, needs: bool, bound: String) -> bool {
    let lang = turn.lang;
    let Some(task) = turn.conv.top() else {
        return false;
    };
    let task_id = task.id.clone();
    let skill = turn.engine.library.get(&task.skill).cloned();
    let scopes = skill
        .as_ref()
        .map(|s| s.meta.scopes.clone())
        .unwrap_or_default();
    let confirmed = task.confirmed.clone().filter(|c| *c == bound);
    if let Some(task) = turn.conv.top_mut() {
        task.status = TaskStatus::Executing;
    }
    let exec_slots = effective(turn, true);
    let shown = turn.conv.top().map(|t| t.slots.clone()).unwrap_or_default();
    let mut vars = Map::new();
    let mut texts_out: Vec<String> = Vec::new();
    for step in action.plan(&exec_slots) {
        let tool = step.tool.to_string();
        let v = vars.clone();
        let args = step.arguments(&exec_slots, &|n| {
            v.get(n).and_then(Value::as_str).map(str::to_string)
        });
        let started = std::time::Instant::now();
        let result = turn
            .engine
            .tools
            .call(ToolCall {
                tool: &tool,
                args: args.clone(),
                user: turn.user,
                lang,
                scopes: &scopes,
                needs_confirmation: needs,
                confirmed: confirmed.as_deref(),
            })
            .await;
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        turn.trace_tool(&tool, &args, &result, ms);
        match result {
            Ok(out) => {
                turn.events.push(Event::ToolExecuted {
                    task_id: task_id.clone(),
                    tool: tool.clone(),
                    ok: true,
                    resource_id: out.resource_id.clone(),
                    error: None,
                });
                if let (Some(id), Some(kind)) = (
                    &out.resource_id,
                    nofxi_skills::ResourceKind::parse(step.tool.resource.as_str()),
                ) {
                    turn.conv.point_at(kind, id.clone());
                    vars.insert("id".into(), Value::String(id.clone()));
                }
                if !out.listed.is_empty() {
                    let kind = step.tool.resource;
                    turn.conv.last_listed = out
                        .listed
                        .iter()
                        .map(|(id, name)| Listed {
                            kind,
                            id: id.clone(),
                            name: name.clone(),
                        })
                        .collect();
                    vars.insert("count".into(), Value::from(out.listed.len()));
                }
                // A value the tool chose (a copy's default name) fills the reply's gap.
                if let Some(name) = &out.resource_name {
                    for p in action.success.placeholders() {
                        if !shown.contains_key(&p)
                            && !vars.contains_key(&p)
                            && action.slot(&p).is_some()
                        {
                            vars.insert(p, Value::String(name.clone()));
                        }
                    }
                }
                if let Some(text) = out.text {
                    texts_out.push(text);
                }
                for adj in out.adjustments {
                    turn.say(texts::t(
                        lang,
                        &format!("已调整：{adj}"),
                        &format!("Adjusted: {adj}"),
                    ));
                }
                if out.mutated {
                    turn.refresh_names().await;
                }
            }
            Err(err) => {
                turn.events.push(Event::ToolExecuted {
                    task_id: task_id.clone(),
                    tool: tool.clone(),
                    ok: false,
                    resource_id: None,
                    error: Some(err.code.clone()),
                });
                vars.insert("error".into(), Value::String(err.message.clone()));
                if let Some(r) = &err.resource {
                    vars.insert("resource".into(), Value::String(r.clone()));
                }
                let failure = action.failure(&err.code);
                let message = match failure {
                    Some(f) => f.message.render(lang, lookup(&shown, &vars)),
                    None => action.failure.render(lang, lookup(&shown, &vars)),
                };
                turn.say(message);
                if let Some(rec) = failure.and_then(|f| f.recovery.clone()) {
                    let v2 = vars.clone();
                    let slots = rec.initial_slots(&shown, &|n| {
                        v2.get(n).and_then(Value::as_str).map(str::to_string)
                    });
                    turn.say(rec.offer.render(lang, lookup(&shown, &vars)));
                    if let Some(task) = turn.conv.top_mut() {
                        task.status = TaskStatus::Collecting;
                        task.confirmed = None;
                        task.offer = Some(Offer {
                            task: rec.task.clone(),
                            slots,
                            resume_on_success: rec.resume_on_success,
                        });
                    }
                    return false;
                }
                return finish(turn, TaskStatus::Failed, Some(err.code));
            }
        }
    }
    vars.insert("list".into(), Value::String(texts_out.join("\n")));
    let text = action.success.render(lang, lookup(&shown, &vars));
    turn.say(text);
    finish(turn, TaskStatus::Completed, None)
}

/// Pops the finished task and decides whether the one below continues.
pub fn finish(turn: &mut Turn<'_>, status: TaskStatus, error: Option<String>) -> bool {
    let Some(mut task) = turn.conv.stack.pop() else {
        return false;
    };
    task.status = status;
    turn.engine.secrets.forget_task(&turn.conv.id, &task.id.0);
    turn.events.push(match status {
        TaskStatus::Completed => Event::TaskCompleted {
            task_id: task.id.clone(),
        },
        TaskStatus::Failed => Event::TaskFailed {
            task_id: task.id.clone(),
            error: error.unwrap_or_default(),
        },
        _ => Event::TaskCancelled {
            task_id: task.id.clone(),
        },
    });
    resume_below(turn, status == TaskStatus::Completed && task.resume_parent)
}

/// Resumes the task now on top, if it waits. `retry` is a fix sub-task's success: the parent
/// runs again with its slots intact.
pub fn resume_below(turn: &mut Turn<'_>, retry: bool) -> bool {
    let lang = turn.lang;
    let Some(parent) = turn.conv.top_mut() else {
        return false;
    };
    if parent.offer.is_some() && !retry {
        return false;
    }
    parent.offer = None;
    parent.status = TaskStatus::Collecting;
    let id = parent.id.clone();
    let label = format!("{}.{}", parent.skill, parent.action);
    turn.events.push(Event::TaskResumed { task_id: id });
    if !retry {
        turn.say(texts::t(
            lang,
            &format!("回到之前的任务（{label}）："),
            &format!("Back to the earlier task ({label}):"),
        ));
    }
    true
}
