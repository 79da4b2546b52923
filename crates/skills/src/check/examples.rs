//! Checks of examples: the action or function they name exists, their slots exist and their
//! values pass the slot rules (clamping allowed: an example may say "100倍" and expect 20).

use serde_json::{Map, Value};

use crate::error::{Diagnostic, DiagnosticKind};
use crate::ir::{Example, Skill};
use crate::parse::Locator;

pub(super) fn check(skill: &Skill, loc: &Locator, out: &mut Vec<Diagnostic>) {
    let actions: Vec<&str> = skill.actions.iter().map(|a| a.name.as_str()).collect();
    let functions: Vec<&str> = skill.functions.iter().map(|f| f.name.as_str()).collect();
    for (i, ex) in skill.examples.iter().enumerate() {
        let at = format!("examples[{i}]");
        if ex.user.trim().is_empty() {
            out.push(loc.diag(
                &format!("{at}.user"),
                DiagnosticKind::MissingText,
                "example has an empty `user` utterance",
            ));
        }
        let named = usize::from(ex.action.is_some())
            + usize::from(ex.function.is_some())
            + usize::from(ex.knowledge.is_some());
        if named != 1 {
            out.push(loc.diag(
                &at,
                DiagnosticKind::MissingKey,
                "an example names exactly one of `action`, `function` or `knowledge`",
            ));
            continue;
        }
        if let Some(a) = &ex.action {
            action_example(skill, ex, a, &at, &actions, loc, out);
        }
        if let Some(f) = &ex.function {
            function_call(
                skill,
                f,
                &ex.params,
                &format!("{at}.function"),
                &functions,
                loc,
                out,
            );
            for (k, call) in ex.parallel_calls.iter().enumerate() {
                function_call(
                    skill,
                    &call.function,
                    &call.params,
                    &format!("{at}.parallel_calls[{k}].function"),
                    &functions,
                    loc,
                    out,
                );
            }
        }
        if let Some(id) = &ex.knowledge {
            let ids: Vec<&str> = skill.meta.knowledge.iter().map(|k| k.id.as_str()).collect();
            if !ids.contains(&id.as_str()) {
                out.push(loc.diag(&format!("{at}.knowledge"), DiagnosticKind::UnknownEntry, format!("example names knowledge entry `{id}`, which `{}` does not define; expected one of {}", skill.id, ids.join(", "))));
            } else if !skill
                .knowledge_matching(&ex.user)
                .iter()
                .any(|k| &k.id == id)
            {
                out.push(loc.diag(&format!("{at}.user"), DiagnosticKind::InvalidValue, format!("the utterance does not match entry `{id}` by any of its codes or phrases; add a phrase so the router finds it")));
            }
        }
    }
}

fn action_example(
    skill: &Skill,
    ex: &Example,
    name: &str,
    at: &str,
    actions: &[&str],
    loc: &Locator,
    out: &mut Vec<Diagnostic>,
) {
    let Some(action) = skill.action(name) else {
        out.push(loc.diag(
            &format!("{at}.action"),
            DiagnosticKind::UnknownAction,
            format!(
                "example names action `{name}`, which `{}` does not define; expected one of {}",
                skill.id,
                actions.join(", ")
            ),
        ));
        return;
    };
    for (slot_name, value) in &ex.slots {
        let path = format!("{at}.slots.{slot_name}");
        match action.slot(slot_name) {
            None => out.push(loc.diag(
                &path,
                DiagnosticKind::UnknownSlot,
                format!("`{slot_name}` is not a slot of `{}.{name}`", skill.id),
            )),
            Some(slot) => {
                if let Err(e) = slot.check_value(value) {
                    out.push(loc.diag(
                        &path,
                        DiagnosticKind::InvalidValue,
                        format!("example value breaks the slot rules: {}", e.message.en),
                    ));
                }
            }
        }
    }
    if let Some(task) = ex.context.as_ref().and_then(|c| c.task.as_ref()) {
        match skill.action(&task.action) {
            None => out.push(loc.diag(&format!("{at}.context.task.action"), DiagnosticKind::UnknownAction, format!("context task names action `{}`, which `{}` does not define; expected one of {}", task.action, skill.id, actions.join(", ")))),
            Some(a) => {
                for slot_name in task.slots.keys() {
                    if a.slot(slot_name).is_none() {
                        out.push(loc.diag(&format!("{at}.context.task.slots.{slot_name}"), DiagnosticKind::UnknownSlot, format!("`{slot_name}` is not a slot of `{}.{}`", skill.id, a.name)));
                    }
                }
            }
        }
    }
}

fn function_call(
    skill: &Skill,
    name: &str,
    params: &std::collections::BTreeMap<String, Value>,
    path: &str,
    functions: &[&str],
    loc: &Locator,
    out: &mut Vec<Diagnostic>,
) {
    let Some(f) = skill.function(name) else {
        out.push(loc.diag(
            path,
            DiagnosticKind::UnknownFunction,
            format!(
                "example names function `{name}`, which `{}` does not define; expected one of {}",
                skill.id,
                functions.join(", ")
            ),
        ));
        return;
    };
    let args: Map<String, Value> = params.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
    if let Err(e) = f.validate_args(&Value::Object(args)) {
        out.push(loc.diag(
            path,
            DiagnosticKind::InvalidValue,
            format!(
                "example params break `{name}`'s schema: {}",
                e.message(crate::text::Lang::En)
            ),
        ));
    }
}
