//! Checks of an action's `success_cases`: each names a slot of the action or a field one of
//! its steps' tools reports ([`crate::ir::TOOL_FIELDS`]), tests it one way, and has both texts.

use crate::error::{Diagnostic, DiagnosticKind};
use crate::ir::{Action, tool_fields};
use crate::parse::Locator;
use crate::text::Text;

use super::refs::condition;
use super::text;

/// Diagnostics go to `out`; the cases' texts are returned for the placeholder check the
/// action's other messages get.
pub(super) fn check<'a>(
    at: &str,
    action: &'a Action,
    names: &[String],
    loc: &Locator,
    out: &mut Vec<Diagnostic>,
) -> Vec<(String, &'a Text)> {
    let reported: Vec<&str> = action
        .steps
        .iter()
        .flat_map(|s| tool_fields(&s.tool.to_string()).iter().copied())
        .collect();
    let mut messages = Vec::new();
    for (k, case) in action.success_cases.iter().enumerate() {
        let cp = format!("{at}.success_cases[{k}]");
        let wp = format!("{cp}.when");
        text(loc, &cp, &case.text, out);
        messages.push((cp, &case.text));
        match (&case.when.slot, &case.when.field) {
            (Some(slot), None) => {
                condition(loc, &wp, &case.when.as_condition(slot), names, None, out);
            }
            (None, Some(field)) => {
                if !reported.contains(&field.as_str()) {
                    let expected = if reported.is_empty() {
                        "no step of this action reports any; test a `slot:` instead".to_string()
                    } else {
                        format!("expected one of {}", reported.join(", "))
                    };
                    out.push(loc.diag(
                        &format!("{wp}.field"),
                        DiagnosticKind::UnknownField,
                        format!(
                            "`{field}` is not a field the steps of `{}` report; {expected}",
                            action.name
                        ),
                    ));
                }
                // The test itself is checked as a step's condition is; the name is known.
                let known = vec![field.clone()];
                condition(loc, &wp, &case.when.as_condition(field), &known, None, out);
            }
            _ => out.push(loc.diag(
                &wp,
                DiagnosticKind::InvalidValue,
                "a success case's `when` names exactly one of `slot` (a slot of the action) or `field` (a field its tool reports)",
            )),
        }
    }
    messages
}
