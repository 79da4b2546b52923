//! Running the active task's steps through the tool pipeline, reporting the outcome or
//! offering a fix sub-task, and handing control back to the task below.

use nofxi_protocol::{Event, TaskStatus};
use nofxi_skills::{Action, Lang, SlotType};
use serde_json::{Map, Value};

use super::{effective, lookup};
use crate::conversation::{Listed, Offer};
use crate::tools::{ToolCall, ToolError};
use crate::turn::Turn;
use crate::{msg, texts};

pub(super) async fn execute(
    turn: &mut Turn<'_>,
    action: &Action,
    needs: bool,
    bound: String,
) -> bool {
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
    let mut vars = super::implied(lang, &turn.names);
    if let Some(task) = turn.conv.top() {
        let changed = super::changes(action, lang, &shown, task);
        vars.insert("summary".into(), Value::String(changed));
    }
    let mut texts_out: Vec<String> = Vec::new();
    let mut notes: Vec<String> = Vec::new();
    let mut offer: Option<String> = None;
    let stores_secret = stores_secret(action, &exec_slots);
    let mut said_by_steps: Vec<&nofxi_skills::Text> = Vec::new();
    // What the steps reported, for the action's `success_cases`.
    let mut reported = Map::new();
    let mut done = 0;
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
                channel: turn.channel,
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
                if let (Some(id), Some(kind)) =
                    (&out.resource_id, step.tool.resource_kind().or(out.kind))
                {
                    turn.conv.point_at(kind, id.clone());
                    vars.insert("id".into(), Value::String(id.clone()));
                }
                if let (false, Some(kind)) = (
                    out.listed.is_empty(),
                    step.tool.resource_kind().or(out.kind),
                ) {
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
                    let cases = action.success_cases.iter().map(|c| &c.text);
                    let texts = std::iter::once(&action.success).chain(cases);
                    for p in texts.flat_map(nofxi_skills::Text::placeholders) {
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
                notes.extend(out.notes);
                offer = out.offer.or(offer);
                reported.extend(super::reported::reported(&tool, &args));
                said_by_steps.extend(&step.say);
                for adj in out.adjustments {
                    turn.say(msg(lang, "task-adjusted", &[("adjustment", &adj)]));
                }
                if out.mutated {
                    turn.refresh_names().await;
                }
                done += 1;
            }
            Err(err) => {
                turn.events.push(Event::ToolExecuted {
                    task_id: task_id.clone(),
                    tool: tool.clone(),
                    ok: false,
                    resource_id: None,
                    error: Some(err.code.clone()),
                });
                if done > 0 {
                    return failed_after_done(turn, action, &tool, err, &shown, vars);
                }
                return failed(turn, action, err, &shown, vars);
            }
        }
    }
    vars.insert("list".into(), Value::String(texts_out.join("\n")));
    let success = action.success_text(&exec_slots, &reported);
    turn.say(success.render(lang, lookup(lang, &shown, &vars)));
    // A success that is the tool's own report (`{list}`: "Recorded: buy 100 …") already
    // says every value it used.
    let placeholders = success.placeholders();
    if action.risk == nofxi_skills::Risk::Create
        && !placeholders.iter().any(|p| p == "list")
        && let Some(line) = settings_set(action, lang, &shown, &placeholders)
    {
        turn.say(line);
    }
    for note in notes {
        turn.say(note);
    }
    for say in said_by_steps {
        turn.say(say.render(lang, lookup(lang, &shown, &vars)));
    }
    if stores_secret {
        turn.say(msg(lang, "task-credentials-stored", &[]));
    }
    let resumed = finish(turn, TaskStatus::Completed, None);
    // The fix a step offered: a yes on the next turn runs it as if the user had said it.
    if let Some(message) = offer {
        turn.conv.pending = Some(crate::conversation::Pending::Retry { message });
    }
    resumed
}

/// "Also set: initial balance 2500, scan interval (minutes) 10." What the user set on a new
/// resource that its success text does not name already: a value said is a value shown,
/// so a value read wrong is seen at once, not in the first trade.
fn settings_set(
    action: &Action,
    lang: Lang,
    shown: &Map<String, Value>,
    named: &[String],
) -> Option<String> {
    let list: Vec<String> = action
        .slots
        .iter()
        .filter(|s| !s.is_secret() && !named.contains(&s.name))
        .filter_map(|s| {
            let v = shown.get(&s.name)?;
            Some(format!("{} {}", s.label().get(lang), texts::value(lang, v)))
        })
        .collect();
    (!list.is_empty()).then(|| {
        let list = list.join(&msg(lang, "list-separator", &[]));
        msg(lang, "task-created-settings", &[("list", &list)])
    })
}

/// Asks the plan's tools whether they would refuse for a reason no confirmation changes
/// ([`crate::tools::ToolRunner::precheck`]); on the first refusal, handles it as that tool's
/// failure and returns what [`failed`] returned. `None` when every step would go ahead, with
/// the values the tools fixed set on the task.
pub(super) async fn refused_before_confirming(
    turn: &mut Turn<'_>,
    action: &Action,
) -> Option<bool> {
    let exec_slots = effective(turn, true);
    for step in action.plan(&exec_slots) {
        let tool = step.tool.to_string();
        let args = step.arguments(&exec_slots, &|_| None);
        let checked = turn
            .engine
            .tools
            .precheck(&tool, &args, turn.user, turn.channel, turn.lang)
            .await;
        match checked {
            Ok(fixed) => {
                if let Some(task) = turn.conv.top_mut() {
                    task.slots.extend(fixed);
                }
            }
            Err(err) => {
                let shown = turn.conv.top().map(|t| t.slots.clone()).unwrap_or_default();
                return Some(failed(turn, action, err, &shown, Map::new()));
            }
        }
    }
    None
}

/// `{error}` and `{resource}` of a failure's texts.
fn add_failure_vars(vars: &mut Map<String, Value>, err: &ToolError) {
    vars.insert("error".into(), Value::String(err.message.clone()));
    if let Some(r) = &err.resource {
        vars.insert("resource".into(), Value::String(r.clone()));
    }
}

/// Says why `err` stopped the task and what comes next, as the action's failure for its code
/// says: ask the slot that gets past it, offer the fix as a sub-task, or fail the task.
pub(super) fn failed(
    turn: &mut Turn<'_>,
    action: &Action,
    err: ToolError,
    shown: &Map<String, Value>,
    mut vars: Map<String, Value>,
) -> bool {
    let lang = turn.lang;
    add_failure_vars(&mut vars, &err);
    let failure = action.failure(&err.code);
    let message = match failure {
        Some(f) => f.message.render(lang, lookup(lang, shown, &vars)),
        None => action.failure.render(lang, lookup(lang, shown, &vars)),
    };
    turn.say(message);
    if let Some(slot) = failure.and_then(|f| f.ask.clone()) {
        if let Some(task) = turn.conv.top_mut() {
            task.confirmed = None;
        }
        super::slots::ask(turn, action, vec![slot]);
        return false;
    }
    if let Some(rec) = failure.and_then(|f| f.recovery.clone()) {
        let slots = rec.initial_slots(shown, &|n| {
            vars.get(n).and_then(Value::as_str).map(str::to_string)
        });
        turn.say(rec.offer.render(lang, lookup(lang, shown, &vars)));
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
    finish(turn, TaskStatus::Failed, Some(err.code))
}

/// A later step failed after earlier ones changed something ("create bot and start it": the
/// trader exists, the start failed). The action's own failure ("could not create") would be
/// wrong; the reply says what was done, then the failure as the failing tool's own action
/// words it ("could not start"). The task ends there: its fix offers belong to that action.
fn failed_after_done(
    turn: &mut Turn<'_>,
    action: &Action,
    tool: &str,
    err: ToolError,
    shown: &Map<String, Value>,
    mut vars: Map<String, Value>,
) -> bool {
    let lang = turn.lang;
    turn.say(action.success.render(lang, lookup(lang, shown, &vars)));
    add_failure_vars(&mut vars, &err);
    let mut own = shown.clone();
    if let Some(name) = shown.get("name").or_else(|| shown.get("target")) {
        own.insert("target".into(), name.clone());
    }
    let library = turn.engine.library.clone();
    let owner = library
        .skills()
        .iter()
        .flat_map(|s| s.actions.iter())
        .find(|a| {
            a.name != action.name && a.steps.first().is_some_and(|s| s.tool.to_string() == tool)
        });
    let message = match owner {
        Some(owner) => owner
            .failure(&err.code)
            .map(|f| &f.message)
            .unwrap_or(&owner.failure)
            .render(lang, lookup(lang, &own, &vars)),
        None => err.message.clone(),
    };
    turn.say(message);
    finish(turn, TaskStatus::Failed, Some(err.code))
}

/// Whether a step of the plan passes a secret the user gave (an API key, a private key):
/// only then does the reply say one was stored. A builtin model or a paper account has none,
/// and a reply claiming otherwise would be wrong about the user's secrets.
fn stores_secret(action: &Action, slots: &Map<String, Value>) -> bool {
    let given = |name: &String| {
        action.slot(name).is_some_and(|s| s.is_secret())
            && slots
                .get(name)
                .is_some_and(|v| v.as_str().is_some_and(|s| !s.is_empty()))
    };
    action
        .plan(slots)
        .iter()
        .any(|step| step.with.iter().any(given))
}

/// Pops the finished task and decides whether the one below continues.
pub fn finish(turn: &mut Turn<'_>, status: TaskStatus, error: Option<String>) -> bool {
    let Some(mut task) = turn.conv.stack.pop() else {
        return false;
    };
    task.status = status;
    turn.engine.secrets.forget_task(&turn.conv.id, &task.id.0);
    if status == TaskStatus::Completed {
        record_done(turn, &task);
    }
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

/// A completed change, for a retraction on the next turn to be told it is done (reads are not
/// changes).
fn record_done(turn: &mut Turn<'_>, task: &crate::conversation::Task) {
    let action = turn.engine.library.action(&task.skill, &task.action);
    // "茅台的成本是多少", then "它的盈亏呢": the security this task was about is what "it"
    // means next; a task about anything else ends that.
    let about = action.and_then(|a| {
        let slot = a.slots.iter().find(|s| s.ty == SlotType::Instrument)?;
        task.slots.get(&slot.name)?.as_str().map(str::to_string)
    });
    let takes_one = action.is_some_and(|a| a.slots.iter().any(|s| s.ty == SlotType::Instrument));
    if about.is_some() || !takes_one {
        turn.conv.focus = about;
    }
    // The request as a frame a fragment re-runs; a secret is never part of it.
    let slots = task
        .slots
        .iter()
        .filter(|(k, _)| !task.secret_slots.contains(*k))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    turn.conv.last_request = Some(crate::conversation::Frame {
        request: crate::conversation::FrameRequest::Task {
            skill: task.skill.clone(),
            action: task.action.clone(),
            slots,
        },
        turn: turn.conv.turns,
    });
    let reads = action.is_none_or(|a| a.risk == nofxi_skills::Risk::Query);
    if reads {
        // "eth-bot journal" then "what about btc-bot": the next name alone is the same read.
        turn.conv.last_read = Some(crate::conversation::Done {
            skill: task.skill.clone(),
            action: task.action.clone(),
            name: None,
            turn: turn.conv.turns,
            inverse: None,
        });
        return;
    }
    let name = task.slots.get("target").and_then(|v| v.as_str()).map(|t| {
        turn.names
            .by_id(t)
            .map_or_else(|| t.to_string(), |e| e.name.clone())
    });
    let name = name.or_else(|| {
        task.slots
            .get("name")
            .and_then(|v| v.as_str())
            .map(String::from)
    });
    let done = crate::conversation::Done {
        skill: task.skill.clone(),
        action: task.action.clone(),
        name,
        turn: turn.conv.turns,
        inverse: action.and_then(|a| super::undo::inverse_of(a, task)),
    };
    turn.conv.just_done.push(done);
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
    let queued = std::mem::take(&mut parent.queued);
    let id = parent.id.clone();
    let label = texts::task_label(&turn.engine.library, &parent.skill, &parent.action, lang);
    turn.events.push(Event::TaskResumed { task_id: id });
    if queued {
        turn.say(msg(lang, "task-next", &[("label", &label)]));
    } else if !retry {
        turn.say(msg(lang, "task-back-to-earlier", &[("label", &label)]));
    }
    true
}
