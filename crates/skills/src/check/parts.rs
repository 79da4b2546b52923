//! Checks of functions (JSON Schema), constraints, knowledge entries and slot labels.

use std::collections::HashSet;
use std::sync::Arc;

use serde_json::Value;

use crate::error::{Diagnostic, DiagnosticKind};
use crate::ir::{Skill, SkillKind};
use crate::parse::Locator;

use super::text;

pub(super) fn functions(skill: &mut Skill, loc: &Locator, out: &mut Vec<Diagnostic>) {
    let mut seen = HashSet::new();
    for (i, f) in skill.functions.iter_mut().enumerate() {
        let at = format!("functions[{i}]");
        let name_ok = !f.name.is_empty()
            && f.name.len() <= 64
            && f.name
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && f.name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !name_ok {
            out.push(loc.diag(&format!("{at}.name"), DiagnosticKind::InvalidValue, format!("function name `{}` must be 1–64 of [A-Za-z0-9_], starting with a letter (every provider accepts that)", f.name)));
        }
        if !seen.insert(f.name.clone()) {
            out.push(loc.diag(
                &format!("{at}.name"),
                DiagnosticKind::Duplicate,
                format!("function `{}` is defined twice", f.name),
            ));
        }
        text(loc, &format!("{at}.description"), &f.description, out);
        let pp = format!("{at}.parameters");
        if f.parameters.get("type").and_then(Value::as_str) != Some("object") {
            out.push(loc.diag(
                &pp,
                DiagnosticKind::InvalidSchema,
                "`parameters` must be a JSON Schema with `type: object` at the top",
            ));
            continue;
        }
        if let Err(e) = jsonschema::meta::validate(&f.parameters) {
            let inner = e
                .instance_path()
                .to_string()
                .trim_start_matches('/')
                .replace('/', ".");
            let path = if inner.is_empty() {
                pp.clone()
            } else {
                format!("{pp}.{inner}")
            };
            out.push(loc.diag(
                &path,
                DiagnosticKind::InvalidSchema,
                format!("`parameters` is not a valid JSON Schema: {e}"),
            ));
            continue;
        }
        match jsonschema::validator_for(&f.parameters) {
            Ok(v) => f.validator = Some(Arc::new(v)),
            Err(e) => out.push(loc.diag(
                &pp,
                DiagnosticKind::InvalidSchema,
                format!("`parameters` does not compile: {e}"),
            )),
        }
        // Our own messages compile `pattern` with the regex crate; it must accept it too.
        if let Some(props) = f.parameters.get("properties").and_then(Value::as_object) {
            for (name, prop) in props {
                if let Some(p) = prop.get("pattern").and_then(Value::as_str)
                    && let Err(e) = regex::Regex::new(p)
                {
                    out.push(loc.diag(
                        &format!("{pp}.properties.{name}.pattern"),
                        DiagnosticKind::InvalidPattern,
                        format!("pattern `{p}` does not compile: {e}"),
                    ));
                }
            }
        }
    }
}

pub(super) fn constraints(skill: &mut Skill, loc: &Locator, out: &mut Vec<Diagnostic>) {
    let functions: Vec<String> = skill.functions.iter().map(|f| f.name.clone()).collect();
    let unknown_fn = |path: &str, name: &str| {
        loc.diag(
            path,
            DiagnosticKind::UnknownFunction,
            format!(
                "`{name}` is not a function of this skill; expected one of {}",
                functions.join(", ")
            ),
        )
    };
    let c = &mut skill.constraints;
    if let Some(rl) = &c.rate_limit {
        for (name, limit) in &rl.per_function {
            if !functions.contains(name) {
                out.push(unknown_fn(
                    &format!("constraints.rate_limit.per_function.{name}"),
                    name,
                ));
            }
            if limit.max_requests_per_minute == 0 {
                out.push(loc.diag(
                    &format!("constraints.rate_limit.per_function.{name}"),
                    DiagnosticKind::InvalidValue,
                    "max_requests_per_minute must be at least 1",
                ));
            }
        }
        if rl
            .global
            .as_ref()
            .is_some_and(|g| g.max_requests_per_minute == 0)
        {
            out.push(loc.diag(
                "constraints.rate_limit.global",
                DiagnosticKind::InvalidValue,
                "max_requests_per_minute must be at least 1",
            ));
        }
    }
    if let Some(eh) = &c.error_handling {
        for code in &eh.retryable_codes {
            if eh.non_retryable_codes.contains(code) {
                out.push(loc.diag(
                    "constraints.error_handling",
                    DiagnosticKind::InvalidValue,
                    format!("code {code} is both retryable and non-retryable"),
                ));
            }
        }
        let b = &eh.backoff;
        if !(0.0..=1.0).contains(&b.jitter) || b.base_ms == 0 || b.base_ms > b.max_ms {
            out.push(loc.diag(
                "constraints.error_handling.backoff",
                DiagnosticKind::InvalidValue,
                "backoff needs 0 < base_ms ≤ max_ms and 0 ≤ jitter ≤ 1",
            ));
        }
    }
    for (i, e) in c.error_codes.iter().enumerate() {
        text(
            loc,
            &format!("constraints.error_codes[{i}].meaning"),
            &e.meaning,
            out,
        );
    }
    if let Some(dc) = &mut c.data_coverage {
        let mut classes = Vec::new();
        for (i, rule) in dc.asset_classes.iter_mut().enumerate() {
            classes.push(rule.class.clone());
            if let Some(p) = &rule.pattern {
                match regex::Regex::new(p) {
                    Ok(re) => rule.compiled = Some(re),
                    Err(e) => out.push(loc.diag(
                        &format!("constraints.data_coverage.asset_classes[{i}].pattern"),
                        DiagnosticKind::InvalidPattern,
                        format!("pattern `{p}` does not compile: {e}"),
                    )),
                }
            }
        }
        for (i, ex) in dc.exclusions.iter().enumerate() {
            let at = format!("constraints.data_coverage.exclusions[{i}]");
            for f in &ex.functions {
                if !functions.contains(f) {
                    out.push(unknown_fn(&format!("{at}.functions"), f));
                }
            }
            for class in &ex.asset_classes {
                if !classes.contains(class) {
                    out.push(loc.diag(&format!("{at}.asset_classes"), DiagnosticKind::InvalidValue, format!("asset class `{class}` is not defined in `asset_classes`; expected one of {}", classes.join(", "))));
                }
            }
            text(loc, &format!("{at}.reason"), &ex.reason, out);
        }
    }
}

pub(super) fn knowledge(skill: &Skill, loc: &Locator, out: &mut Vec<Diagnostic>) {
    let mut ids = HashSet::new();
    for (i, k) in skill.meta.knowledge.iter().enumerate() {
        let at = format!("skill.knowledge[{i}]");
        if !ids.insert(k.id.clone()) {
            out.push(loc.diag(
                &format!("{at}.id"),
                DiagnosticKind::Duplicate,
                format!("knowledge entry `{}` is defined twice", k.id),
            ));
        }
        if k.phrases.is_empty() && k.codes.is_empty() {
            out.push(loc.diag(
                &at,
                DiagnosticKind::MissingKey,
                format!(
                    "knowledge entry `{}` has no `phrases` or `codes` to be found by",
                    k.id
                ),
            ));
        }
        let needs: &[(&str, bool)] = match skill.meta.kind {
            SkillKind::Diagnosis => &[
                ("what", k.what.is_some()),
                ("why", k.why.is_some()),
                ("fix", k.fix.is_some()),
            ],
            _ => &[("answer", k.answer.is_some())],
        };
        for (key, present) in needs {
            if !present {
                out.push(loc.diag(
                    &at,
                    DiagnosticKind::MissingKey,
                    format!("knowledge entry `{}` needs `{key}` (zh and en)", k.id),
                ));
            }
        }
        for (key, t) in [
            ("answer", &k.answer),
            ("what", &k.what),
            ("why", &k.why),
            ("fix", &k.fix),
        ] {
            if let Some(t) = t {
                text(loc, &format!("{at}.{key}"), t, out);
            }
        }
    }
}

/// Every label names a slot of the skill's actions; each slot gets its label. A slot without
/// one is called by its name in replies (a user's own skill may have no labels).
pub(super) fn labels(skill: &mut Skill, loc: &Locator, out: &mut Vec<Diagnostic>) {
    let labels = skill.meta.labels.clone();
    for (name, label) in &labels {
        let at = format!("skill.labels.{name}");
        text(loc, &at, label, out);
        if !skill.actions.iter().any(|a| a.slot(name).is_some()) {
            out.push(loc.diag(
                &at,
                DiagnosticKind::UnknownSlot,
                format!("label for `{name}`, which is no slot of this skill's actions"),
            ));
        }
    }
    for action in &mut skill.actions {
        for slot in &mut action.slots {
            slot.label = labels.get(&slot.name).cloned();
        }
    }
}
