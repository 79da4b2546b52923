//! Checks of one action: slots, conditions, confirmation rule, steps, messages, recoveries.

use std::collections::HashSet;

use crate::error::{Diagnostic, DiagnosticKind};
use crate::ir::RUNTIME_PLACEHOLDERS;
use crate::ir::{Action, ConfirmRule, Risk, SlotType};
use crate::parse::Locator;
use crate::text::Text;

use super::refs::{condition, confirm_condition, template_values, unknown_slot};
use super::{is_snake, kinds_list, text};

pub(super) fn check(i: usize, action: &mut Action, loc: &Locator, out: &mut Vec<Diagnostic>) {
    let at = format!("actions[{i}]");
    if !is_snake(&action.name) {
        out.push(loc.diag(
            &format!("{at}.name"),
            DiagnosticKind::InvalidValue,
            format!(
                "action name `{}` must be snake_case (`create`, `query`)",
                action.name
            ),
        ));
    }
    text(loc, &format!("{at}.description"), &action.description, out);
    text(loc, &format!("{at}.success"), &action.success, out);
    text(loc, &format!("{at}.failure"), &action.failure, out);

    // Seed 000: delete always confirms, queries never do.
    match (action.risk, &action.confirm) {
        (Risk::Delete, rule) if *rule != ConfirmRule::Always => out.push(loc.diag(
            &format!("{at}.confirm"),
            DiagnosticKind::InvalidValue,
            "a `delete` action must have `confirm: always`",
        )),
        (Risk::Query, rule) if *rule != ConfirmRule::Never => out.push(loc.diag(
            &format!("{at}.confirm"),
            DiagnosticKind::InvalidValue,
            "a `query` action must have `confirm: never`",
        )),
        _ => {}
    }
    if action.confirm != ConfirmRule::Never && action.summary.is_none() {
        out.push(loc.diag(
            &format!("{at}.confirm"),
            DiagnosticKind::MissingKey,
            "an action that may confirm needs a `summary:` saying exactly what will happen",
        ));
    }

    let names: Vec<String> = action.slots.iter().map(|s| s.name.clone()).collect();
    let mut seen = HashSet::new();
    for (j, slot) in action.slots.iter_mut().enumerate() {
        let sp = format!("{at}.slots[{j}]");
        if !seen.insert(slot.name.clone()) {
            out.push(loc.diag(
                &format!("{sp}.name"),
                DiagnosticKind::Duplicate,
                format!(
                    "slot `{}` is defined twice in action `{}`",
                    slot.name, action.name
                ),
            ));
        }
        if !is_snake(&slot.name) {
            out.push(loc.diag(
                &format!("{sp}.name"),
                DiagnosticKind::InvalidValue,
                format!("slot name `{}` must be snake_case", slot.name),
            ));
        }
        match (slot.ty, slot.ref_kind) {
            (SlotType::Ref, None) => out.push(loc.diag(
                &format!("{sp}.type"),
                DiagnosticKind::MissingKey,
                format!(
                    "slot `{}` has `type: ref` but no `ref:`; expected one of {}",
                    slot.name,
                    kinds_list()
                ),
            )),
            (ty, Some(_)) if ty != SlotType::Ref => out.push(loc.diag(
                &format!("{sp}.ref"),
                DiagnosticKind::InvalidValue,
                format!(
                    "slot `{}` has `ref:` but `type: {}`; expected `type: ref`",
                    slot.name,
                    ty.as_str()
                ),
            )),
            _ => {}
        }
        if slot.ty == SlotType::Enum && slot.values.is_empty() {
            out.push(loc.diag(
                &format!("{sp}.type"),
                DiagnosticKind::MissingKey,
                format!("enum slot `{}` lists no `values:`", slot.name),
            ));
        }
        if !slot.values.is_empty()
            && !matches!(
                slot.ty,
                SlotType::Enum | SlotType::Interval | SlotType::Date
            )
        {
            out.push(loc.diag(
                &format!("{sp}.values"),
                DiagnosticKind::InvalidValue,
                format!(
                    "slot `{}` of type {} cannot have `values:`; expected `type: enum`",
                    slot.name,
                    slot.ty.as_str()
                ),
            ));
        }
        let numeric = matches!(slot.ty, SlotType::Integer | SlotType::Decimal);
        if (slot.min.is_some() || slot.max.is_some() || slot.clamp) && !numeric {
            out.push(loc.diag(
                &format!("{sp}.type"),
                DiagnosticKind::InvalidValue,
                format!(
                    "slot `{}`: min/max/clamp need `type: integer` or `type: decimal`",
                    slot.name
                ),
            ));
        }
        if let (Some(a), Some(b)) = (slot.min, slot.max)
            && a > b
        {
            out.push(loc.diag(
                &format!("{sp}.min"),
                DiagnosticKind::InvalidValue,
                format!("slot `{}`: min {a} is greater than max {b}", slot.name),
            ));
        }
        if slot.clamp && slot.min.is_none() && slot.max.is_none() {
            out.push(loc.diag(
                &format!("{sp}.clamp"),
                DiagnosticKind::InvalidValue,
                format!("slot `{}`: `clamp: true` needs `min` or `max`", slot.name),
            ));
        }
        if let Some(p) = &slot.pattern {
            match regex::Regex::new(p) {
                Ok(re) => slot.compiled_pattern = Some(re),
                Err(e) => out.push(loc.diag(
                    &format!("{sp}.pattern"),
                    DiagnosticKind::InvalidPattern,
                    format!("pattern `{p}` does not compile: {e}"),
                )),
            }
        }
        if let Some(cond) = &slot.required_when {
            condition(
                loc,
                &format!("{sp}.required_when"),
                cond,
                &names,
                Some(&slot.name),
                out,
            );
        }
        if (slot.required || slot.required_when.is_some()) && slot.ask.is_none() {
            out.push(loc.diag(
                &format!("{sp}.name"),
                DiagnosticKind::MissingText,
                format!(
                    "required slot `{}` has no `ask:` text (zh and en) to ask for it",
                    slot.name
                ),
            ));
        }
        if let Some(ask) = &slot.ask {
            text(loc, &format!("{sp}.ask"), ask, out);
        }
        if let Some(d) = &slot.description {
            text(loc, &format!("{sp}.description"), d, out);
        }
        if let Some(default) = slot.default.clone()
            && let Err(e) = slot.check_value(&default)
        {
            out.push(loc.diag(
                &format!("{sp}.default"),
                DiagnosticKind::InvalidValue,
                format!(
                    "default of slot `{}` breaks its own rules: {}",
                    slot.name, e.message.en
                ),
            ));
        }
    }

    if let ConfirmRule::When(conds) = &action.confirm {
        for (k, c) in conds.iter().enumerate() {
            confirm_condition(
                loc,
                &format!("{at}.confirm.when[{k}]"),
                c,
                action,
                &names,
                out,
            );
        }
    }
    for (k, step) in action.steps.iter().enumerate() {
        let sp = format!("{at}.steps[{k}]");
        for n in &step.with {
            if !names.contains(n) {
                out.push(unknown_slot(
                    loc,
                    &format!("{sp}.with"),
                    n,
                    &action.name,
                    &names,
                ));
            }
        }
        for (arg, value) in &step.set {
            template_values(loc, &format!("{sp}.set.{arg}"), value, action, &names, out);
        }
        if let Some(cond) = &step.when {
            condition(loc, &format!("{sp}.when"), cond, &names, None, out);
        }
        if let Some(say) = &step.say {
            text(loc, &format!("{sp}.say"), say, out);
        }
    }
    if action.steps.is_empty() {
        out.push(loc.diag(
            &at,
            DiagnosticKind::MissingKey,
            format!(
                "action `{}` has no `steps:`; expected at least one tool call",
                action.name
            ),
        ));
    }

    let mut messages: Vec<(String, &Text)> = vec![
        (format!("{at}.success"), &action.success),
        (format!("{at}.failure"), &action.failure),
    ];
    messages.extend(super::outcome::check(&at, action, &names, loc, out));
    if let Some(s) = &action.summary {
        text(loc, &format!("{at}.summary"), s, out);
        messages.push((format!("{at}.summary"), s));
    }
    if let Some(e) = &action.effects {
        text(loc, &format!("{at}.effects"), e, out);
        messages.push((format!("{at}.effects"), e));
    }
    for (k, step) in action.steps.iter().enumerate() {
        if let Some(say) = &step.say {
            messages.push((format!("{at}.steps[{k}].say"), say));
        }
    }
    let mut codes = HashSet::new();
    for (k, f) in action.failures.iter().enumerate() {
        let fp = format!("{at}.failures[{k}]");
        if !codes.insert(f.code.clone()) {
            out.push(loc.diag(
                &format!("{fp}.code"),
                DiagnosticKind::Duplicate,
                format!("failure code `{}` is listed twice", f.code),
            ));
        }
        text(loc, &format!("{fp}.message"), &f.message, out);
        messages.push((format!("{fp}.message"), &f.message));
        if let Some(slot) = &f.ask
            && action.slot(slot).is_none()
        {
            out.push(loc.diag(
                &format!("{fp}.ask"),
                DiagnosticKind::UnknownSlot,
                format!(
                    "`ask: {slot}` names no slot of `{}`; expected one of {}",
                    action.name,
                    names.join(", ")
                ),
            ));
        }
        if let Some(r) = &f.recovery {
            offered_task(loc, &format!("{fp}.recovery"), r, action, &names, out);
            messages.push((format!("{fp}.recovery.offer"), &r.offer));
        }
    }
    if let Some(r) = &action.undo {
        offered_task(loc, &format!("{at}.undo"), r, action, &names, out);
        messages.push((format!("{at}.undo.offer"), &r.offer));
    }
    placeholders_named(loc, action, &names, messages, out);
}

/// A task offered after the action (a failure's fix, a success's undo): its text, the
/// templates of its slots, and the shape of its `<skill>.<action>`.
fn offered_task(
    loc: &Locator,
    path: &str,
    r: &crate::ir::Recovery,
    action: &Action,
    names: &[String],
    out: &mut Vec<Diagnostic>,
) {
    text(loc, &format!("{path}.offer"), &r.offer, out);
    for (slot, value) in &r.slots {
        template_values(
            loc,
            &format!("{path}.slots.{slot}"),
            value,
            action,
            names,
            out,
        );
    }
    if r.task_parts().is_none() {
        out.push(loc.diag(
            &format!("{path}.task"),
            DiagnosticKind::UnknownAction,
            format!("offered task `{}` is not `<skill>.<action>`", r.task),
        ));
    }
}

/// Every `{placeholder}` of the action's messages names a slot or a runtime value.
fn placeholders_named(
    loc: &Locator,
    action: &Action,
    names: &[String],
    messages: Vec<(String, &Text)>,
    out: &mut Vec<Diagnostic>,
) {
    for (path, t) in messages {
        for p in t.placeholders() {
            if !names.contains(&p) && !RUNTIME_PLACEHOLDERS.contains(&p.as_str()) {
                let lang = if t.zh.contains(&format!("{{{p}}}")) {
                    "zh"
                } else {
                    "en"
                };
                out.push(loc.diag(
                    &format!("{path}.{lang}"),
                    DiagnosticKind::UnknownPlaceholder,
                    format!(
                        "placeholder `{{{p}}}` names no slot of `{}`; expected one of {} or {}",
                        action.name,
                        names.join(", "),
                        RUNTIME_PLACEHOLDERS.join(", ")
                    ),
                ));
            }
        }
    }
}
