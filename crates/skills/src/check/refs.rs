//! Checks of references inside an action: slot names in conditions, confirmation rules and
//! `{slot}` templates.

use crate::error::{Diagnostic, DiagnosticKind};
use crate::ir::{Action, Condition, ConfirmCondition, RUNTIME_PLACEHOLDERS, ResourceKind};
use crate::parse::Locator;

pub(super) fn confirm_condition(
    loc: &Locator,
    path: &str,
    c: &ConfirmCondition,
    action: &Action,
    names: &[String],
    out: &mut Vec<Diagnostic>,
) {
    match c {
        ConfirmCondition::Live(slot) => match action.slot(slot) {
            None => out.push(unknown_slot(loc, path, slot, &action.name, names)),
            Some(s)
                if !matches!(
                    s.ref_kind,
                    Some(ResourceKind::Trader | ResourceKind::Exchange | ResourceKind::Model)
                ) =>
            {
                out.push(loc.diag(
                    path,
                    DiagnosticKind::InvalidValue,
                    format!("`live: {slot}` needs a slot with `ref: trader`, `ref: exchange` or `ref: model`"),
                ))
            }
            Some(_) => {}
        },
        ConfirmCondition::Running(slot) => match action.slot(slot) {
            None => out.push(unknown_slot(loc, path, slot, &action.name, names)),
            Some(s) if s.ref_kind.is_none() => out.push(loc.diag(
                path,
                DiagnosticKind::InvalidValue,
                format!("`running: {slot}` needs a `ref` slot (a trader, or what traders use)"),
            )),
            Some(_) => {}
        },
        ConfirmCondition::ChangedAny(list) => {
            for n in list {
                if !names.contains(n) {
                    out.push(unknown_slot(loc, path, n, &action.name, names));
                }
            }
        }
        ConfirmCondition::Slot(cond) => condition(loc, path, cond, names, None, out),
        ConfirmCondition::All(all) => {
            for (k, c) in all.iter().enumerate() {
                confirm_condition(loc, &format!("{path}.all[{k}]"), c, action, names, out);
            }
        }
    }
}

/// `{slot}` placeholders inside string values (step `set`, recovery `slots`) must name a slot
/// of the action or a runtime value.
pub(super) fn template_values(
    loc: &Locator,
    path: &str,
    value: &serde_json::Value,
    action: &Action,
    names: &[String],
    out: &mut Vec<Diagnostic>,
) {
    let Some(s) = value.as_str() else { return };
    for p in crate::text::placeholders_in(s) {
        if !names.contains(&p) && !RUNTIME_PLACEHOLDERS.contains(&p.as_str()) {
            out.push(loc.diag(
                path,
                DiagnosticKind::UnknownPlaceholder,
                format!("placeholder `{{{p}}}` names no slot of `{}`", action.name),
            ));
        }
    }
}

pub(super) fn unknown_slot(
    loc: &Locator,
    path: &str,
    name: &str,
    action: &str,
    names: &[String],
) -> Diagnostic {
    loc.diag(
        path,
        DiagnosticKind::UnknownSlot,
        format!(
            "`{name}` is not a slot of action `{action}`; expected one of {}",
            names.join(", ")
        ),
    )
}

pub(super) fn condition(
    loc: &Locator,
    path: &str,
    c: &Condition,
    names: &[String],
    own: Option<&str>,
    out: &mut Vec<Diagnostic>,
) {
    if !names.contains(&c.slot) {
        out.push(loc.diag(
            &format!("{path}.slot"),
            DiagnosticKind::UnknownSlot,
            format!(
                "condition names `{}`, which is not a slot here; expected one of {}",
                c.slot,
                names.join(", ")
            ),
        ));
    }
    if own == Some(c.slot.as_str()) {
        out.push(loc.diag(
            &format!("{path}.slot"),
            DiagnosticKind::InvalidValue,
            "a slot cannot be required depending on itself",
        ));
    }
    let given = usize::from(c.one_of.is_some())
        + usize::from(c.equals.is_some())
        + usize::from(c.is_set.is_some());
    if given != 1 {
        out.push(loc.diag(
            path,
            DiagnosticKind::InvalidValue,
            "a condition needs exactly one of `in`, `equals`, `is_set`",
        ));
    }
}
