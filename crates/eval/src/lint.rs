//! Checks cases against the skill library before anything runs: every `skill.action` a case
//! names exists, every slot it names is a slot of the skill files, every tool is a real
//! `<resource>.<verb>`. The skill files are the single source of truth; a case that drifts
//! from them (a renamed slot, a typo) is reported here instead of failing for a wrong reason.

use std::collections::BTreeSet;

use nofxi_skills::{Library, ToolName};

use crate::case::{Step, SuiteFile, TaskMatch};

/// Every problem, as `file: case "name" step N: message`.
pub fn lint_suite(files: &[SuiteFile], library: &Library) -> Vec<String> {
    let all_slots: BTreeSet<&str> = library
        .skills()
        .iter()
        .flat_map(|s| s.actions.iter())
        .flat_map(|a| a.slots.iter().map(|s| s.name.as_str()))
        .collect();
    let mut out = Vec::new();
    for file in files {
        for case in &file.cases {
            for (i, step) in case.steps.iter().enumerate() {
                let place = format!(
                    "{}: case \"{}\" step {}",
                    file.path.display(),
                    case.name,
                    i + 1
                );
                for problem in lint_step(step, library, &all_slots) {
                    out.push(format!("{place}: {problem}"));
                }
            }
        }
    }
    out
}

fn lint_step(step: &Step, library: &Library, all_slots: &BTreeSet<&str>) -> Vec<String> {
    let e = &step.expect;
    let mut out = Vec::new();
    let action_exists = |name: &str| {
        name.split_once('.')
            .and_then(|(skill, action)| library.action(skill, action))
            .is_some()
    };
    let mut named: Vec<&str> = Vec::new();
    named.extend(e.task_started.as_deref());
    for m in [
        &e.task_completed,
        &e.task_cancelled,
        &e.task_interrupted,
        &e.task_resumed,
        &e.task_failed,
    ]
    .into_iter()
    .flatten()
    {
        if let TaskMatch::Task(name) = m {
            named.push(name);
        }
    }
    if let Some(top) = e.stack_top.as_deref()
        && top != "empty"
    {
        named.push(top);
    }
    for name in named {
        if !action_exists(name) {
            out.push(format!("no skill action {name}"));
        }
    }
    // Slots asked in a turn that starts a task belong to that task's action.
    let started = e
        .task_started
        .as_deref()
        .and_then(|n| n.split_once('.'))
        .and_then(|(s, a)| library.action(s, a));
    let mut slots: Vec<&str> = Vec::new();
    slots.extend(e.asked.iter().flatten().map(String::as_str));
    slots.extend(e.not_asked.iter().flatten().map(String::as_str));
    slots.extend(e.slot_set.iter().flat_map(|m| m.keys().map(String::as_str)));
    for slot in slots {
        if !all_slots.contains(slot) {
            out.push(format!("no skill has a slot {slot}"));
        }
    }
    if let Some(action) = started {
        for slot in e.asked.iter().flatten() {
            if action.slot(slot).is_none() {
                out.push(format!("{} has no slot {slot} to ask", action.name));
            }
        }
    }
    for tool in e.executed.iter().chain(e.not_executed.iter()).flatten() {
        if let Err(message) = ToolName::parse(tool) {
            out.push(message);
        }
    }
    // The protocol's own kinds, read as the chat reads them: a kind added there is known here.
    if let Some(kind) = &e.answered
        && serde_json::from_value::<nofxi_protocol::AnswerKind>(serde_json::Value::String(
            kind.clone(),
        ))
        .is_err()
    {
        out.push(format!("unknown answer kind {kind}"));
    }
    out
}
