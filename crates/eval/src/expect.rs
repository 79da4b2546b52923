//! The assertion engine: what one turn's [`TurnResponse`] must show, checked against a step's
//! [`Expect`]. Pure and synchronous (state checks on the store live in `state`), so every
//! assertion is unit-tested on hand-made responses.
//!
//! Events are matched by meaning, not by position: `asked: [model]` holds when any `asked`
//! event of the turn names `model`. A task named as `skill.action` is matched through the
//! [`TaskIndex`], which remembers every task the case has seen, so `task_resumed:
//! trader_management.create` works on a task started three turns earlier.

use std::collections::HashMap;

use nofxi_protocol::{Event, TaskId, TurnResponse};

use crate::case::{Expect, TaskMatch};

/// Picks the task a lifecycle event is about, for one kind of event.
type PickTask = fn(&Event) -> Option<&TaskId>;

/// One assertion that did not hold.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    /// The assertion key (`asked`, `slot_set.model`, `state`).
    pub assertion: String,
    pub message: String,
}

impl Failure {
    pub fn new(assertion: impl Into<String>, message: impl Into<String>) -> Self {
        Failure {
            assertion: assertion.into(),
            message: message.into(),
        }
    }
}

/// task id → `skill.action`, learnt from every turn of a case.
#[derive(Debug, Default, Clone)]
pub struct TaskIndex(HashMap<TaskId, String>);

impl TaskIndex {
    pub fn learn(&mut self, response: &TurnResponse) {
        for event in &response.events {
            if let Event::TaskStarted {
                task_id,
                skill,
                action,
            } = event
            {
                self.0.insert(task_id.clone(), format!("{skill}.{action}"));
            }
        }
        for task in &response.stack {
            self.0
                .entry(task.task_id.clone())
                .or_insert_with(|| format!("{}.{}", task.skill, task.action));
        }
    }

    pub fn name(&self, id: &TaskId) -> Option<&str> {
        self.0.get(id).map(String::as_str)
    }
}

/// Every failing assertion of `expect` on `response` (empty when all hold).
pub fn check_turn(expect: &Expect, response: &TurnResponse, tasks: &TaskIndex) -> Vec<Failure> {
    let mut out = Vec::new();
    let events = &response.events;

    if let Some(want) = &expect.task_started {
        let started: Vec<String> = events
            .iter()
            .filter_map(|e| match e {
                Event::TaskStarted { skill, action, .. } => Some(format!("{skill}.{action}")),
                _ => None,
            })
            .collect();
        if !started.iter().any(|s| s == want) {
            out.push(Failure::new(
                "task_started",
                format!("expected {want} to start; started: {}", list(&started)),
            ));
        }
    }

    let lifecycle: [(&str, &Option<TaskMatch>, PickTask); 5] = [
        ("task_completed", &expect.task_completed, |e| match e {
            Event::TaskCompleted { task_id } => Some(task_id),
            _ => None,
        }),
        ("task_cancelled", &expect.task_cancelled, |e| match e {
            Event::TaskCancelled { task_id } => Some(task_id),
            _ => None,
        }),
        ("task_interrupted", &expect.task_interrupted, |e| match e {
            Event::TaskInterrupted { task_id } => Some(task_id),
            _ => None,
        }),
        ("task_resumed", &expect.task_resumed, |e| match e {
            Event::TaskResumed { task_id } => Some(task_id),
            _ => None,
        }),
        ("task_failed", &expect.task_failed, |e| match e {
            Event::TaskFailed { task_id, .. } => Some(task_id),
            _ => None,
        }),
    ];
    for (key, want, pick) in lifecycle {
        if let Some(want) = want {
            let seen: Vec<String> = events
                .iter()
                .filter_map(pick)
                .map(|id| tasks.name(id).unwrap_or(id.0.as_str()).to_string())
                .collect();
            if let Some(message) = task_match(want, &seen) {
                out.push(Failure::new(key, message));
            }
        }
    }

    let asked: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            Event::Asked { slots, .. } => Some(slots.clone()),
            _ => None,
        })
        .flatten()
        .collect();
    if let Some(want) = &expect.asked {
        let missing: Vec<&String> = want.iter().filter(|s| !asked.contains(s)).collect();
        if !missing.is_empty() {
            out.push(Failure::new(
                "asked",
                format!(
                    "expected {} to be asked; asked: {}",
                    list(&missing),
                    list(&asked)
                ),
            ));
        }
    }
    if let Some(never) = &expect.not_asked {
        let wrong: Vec<&String> = never.iter().filter(|s| asked.contains(s)).collect();
        if !wrong.is_empty() {
            out.push(Failure::new(
                "not_asked",
                format!("{} asked although it must not be", list(&wrong)),
            ));
        }
    }

    if let Some(want) = &expect.slot_set {
        let set: Vec<(&String, &serde_json::Value)> = events
            .iter()
            .filter_map(|e| match e {
                Event::SlotSet { slot, value, .. } => Some((slot, value)),
                _ => None,
            })
            .collect();
        for (slot, value) in want {
            let values: Vec<&serde_json::Value> = set
                .iter()
                .filter(|(s, _)| *s == slot)
                .map(|(_, v)| *v)
                .collect();
            if !values.iter().any(|v| values_match(value, v)) {
                let got = if values.is_empty() {
                    "not set in this turn".to_string()
                } else {
                    format!("set to {}", list(&values))
                };
                out.push(Failure::new(
                    format!("slot_set.{slot}"),
                    format!("expected {slot} = {value}; {got}"),
                ));
            }
        }
    }

    if let Some(want) = expect.confirmation_requested {
        let got = events
            .iter()
            .any(|e| matches!(e, Event::ConfirmationRequested { .. }));
        if got != want {
            out.push(Failure::new(
                "confirmation_requested",
                format!("expected {want}, got {got}"),
            ));
        }
    }

    let ran: Vec<(&str, bool)> = events
        .iter()
        .filter_map(|e| match e {
            Event::ToolExecuted { tool, ok, .. } => Some((tool.as_str(), *ok)),
            _ => None,
        })
        .collect();
    let ran_names: Vec<String> = ran
        .iter()
        .map(|(t, ok)| {
            if *ok {
                t.to_string()
            } else {
                format!("{t} (failed)")
            }
        })
        .collect();
    if let Some(want) = &expect.executed {
        for tool in want {
            if !ran.iter().any(|(t, ok)| t == tool && *ok) {
                out.push(Failure::new(
                    "executed",
                    format!(
                        "expected {tool} to run successfully; ran: {}",
                        list(&ran_names)
                    ),
                ));
            }
        }
    }
    if let Some(never) = &expect.not_executed {
        for tool in never {
            if ran.iter().any(|(t, _)| t == tool) {
                out.push(Failure::new(
                    "not_executed",
                    format!("{tool} ran although it must not; ran: {}", list(&ran_names)),
                ));
            }
        }
    }

    if let Some(want) = &expect.clarification {
        let options: Vec<&String> = events
            .iter()
            .filter_map(|e| match e {
                Event::Clarification { options } => Some(options),
                _ => None,
            })
            .flatten()
            .collect();
        let seen = events
            .iter()
            .any(|e| matches!(e, Event::Clarification { .. }));
        if !seen {
            out.push(Failure::new(
                "clarification",
                "expected a clarification; none was asked",
            ));
        } else {
            for option in want {
                let needle = option.to_lowercase();
                if !options.iter().any(|o| o.to_lowercase().contains(&needle)) {
                    out.push(Failure::new(
                        "clarification",
                        format!("option {option:?} missing from {}", list(&options)),
                    ));
                }
            }
        }
    }

    if let Some(want) = &expect.answered {
        let kinds: Vec<String> = events
            .iter()
            .filter_map(|e| match e {
                Event::Answered { kind } => serde_json::to_value(kind)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string)),
                _ => None,
            })
            .collect();
        if !kinds.iter().any(|k| k == want) {
            out.push(Failure::new(
                "answered",
                format!(
                    "expected an answer of kind {want}; answered: {}",
                    list(&kinds)
                ),
            ));
        }
    }

    let reply = response.reply.to_lowercase();
    if let Some(want) = &expect.reply_contains {
        for needle in want.items() {
            if !reply.contains(&needle.to_lowercase()) {
                out.push(Failure::new(
                    "reply_contains",
                    format!("reply lacks {needle:?}"),
                ));
            }
        }
    }
    if let Some(never) = &expect.reply_not_contains {
        for needle in never.items() {
            if reply.contains(&needle.to_lowercase()) {
                out.push(Failure::new(
                    "reply_not_contains",
                    format!("reply contains {needle:?}"),
                ));
            }
        }
    }

    if let Some(want) = &expect.stack_top {
        let top = response
            .active_task()
            .map(|t| format!("{}.{}", t.skill, t.action))
            .unwrap_or_else(|| "empty".to_string());
        if &top != want {
            out.push(Failure::new(
                "stack_top",
                format!("expected {want}, the stack top is {top}"),
            ));
        }
    }

    if let Some(max) = expect.llm_calls_max
        && response.llm.calls > max
    {
        out.push(Failure::new(
            "llm_calls_max",
            format!("{} LLM calls, at most {max} allowed", response.llm.calls),
        ));
    }
    out
}

/// `None` when the lifecycle events seen satisfy `want`; else what went wrong.
fn task_match(want: &TaskMatch, seen: &[String]) -> Option<String> {
    match want {
        TaskMatch::Any(true) if seen.is_empty() => Some("expected one, none happened".into()),
        TaskMatch::Any(false) if !seen.is_empty() => {
            Some(format!("expected none, happened to {}", list(seen)))
        }
        TaskMatch::Any(_) => None,
        TaskMatch::Task(name) if !seen.iter().any(|s| s == name) => Some(format!(
            "expected it for {name}; happened to {}",
            list(seen)
        )),
        TaskMatch::Task(_) => None,
    }
}

/// Loose equality for values written in YAML against values the engine reports: text compares
/// trimmed and case-insensitively (DeepSeek = deepseek), numbers by value whether written as
/// numbers or text (10 = "10" = 10.0), booleans also as text, lists element by element.
pub fn values_match(expected: &serde_json::Value, actual: &serde_json::Value) -> bool {
    use serde_json::Value as V;
    match (expected, actual) {
        (V::Array(a), V::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| values_match(x, y))
        }
        (V::Null, V::Null) => true,
        (V::Object(_), _) | (_, V::Object(_)) => expected == actual,
        _ => match (scalar_number(expected), scalar_number(actual)) {
            (Some(x), Some(y)) => (x - y).abs() < 1e-9,
            _ => scalar_text(expected)
                .zip(scalar_text(actual))
                .is_some_and(|(x, y)| x.trim().to_lowercase() == y.trim().to_lowercase()),
        },
    }
}

fn scalar_number(v: &serde_json::Value) -> Option<f64> {
    match v {
        serde_json::Value::Number(n) => n.as_f64(),
        serde_json::Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

fn scalar_text(v: &serde_json::Value) -> Option<String> {
    match v {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Bool(b) => Some(b.to_string()),
        serde_json::Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn list<T: std::fmt::Display>(items: &[T]) -> String {
    if items.is_empty() {
        return "(none)".into();
    }
    items
        .iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}
