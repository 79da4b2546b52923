//! Semantic checks: what serde cannot know. Each finding is a diagnostic at the line of the
//! offending key. Checks also compile what the runtime needs (slot patterns, JSON-Schema
//! validators, asset-class patterns), so a skill that loaded is a skill that runs.

mod action;
mod examples;
mod outcome;
mod parts;
mod refs;

use std::collections::HashSet;

use crate::error::{Diagnostic, DiagnosticKind};
use crate::ir::{ResourceKind, Skill, SkillKind};
use crate::parse::Locator;
use crate::text::Text;

/// Agent Skills spec (REFERENCE §6): name, description, compatibility.
pub(crate) fn frontmatter(skill: &Skill, dir_name: &str, loc: &Locator, out: &mut Vec<Diagnostic>) {
    let diag = |key: &str, kind, message: String| {
        let (line, column) = loc.frontmatter_at(key);
        Diagnostic {
            file: loc.file.clone(),
            line,
            column,
            kind,
            message,
        }
    };
    let name = &skill.name;
    let valid = !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !name.starts_with('-')
        && !name.ends_with('-')
        && !name.contains("--");
    if !valid {
        out.push(diag(
            "name",
            DiagnosticKind::Frontmatter,
            format!("name `{name}` is invalid; expected 1–64 lowercase letters, digits and single hyphens (e.g. `trader-management`)"),
        ));
    } else if name != dir_name {
        out.push(diag(
            "name",
            DiagnosticKind::Frontmatter,
            format!(
                "name `{name}` differs from its directory `{dir_name}`; expected them to be equal"
            ),
        ));
    }
    let len = skill.description.chars().count();
    if len == 0 || len > 1024 {
        out.push(diag(
            "description",
            DiagnosticKind::Frontmatter,
            format!("description has {len} characters; expected 1–1024"),
        ));
    }
    if let Some(c) = &skill.compatibility {
        let len = c.chars().count();
        if len == 0 || len > 500 {
            out.push(diag(
                "compatibility",
                DiagnosticKind::Frontmatter,
                format!("compatibility has {len} characters; expected 1–500"),
            ));
        }
    }
}

pub(crate) fn skill(skill: &mut Skill, loc: &Locator, out: &mut Vec<Diagnostic>) {
    let meta = &skill.meta;
    text(loc, "skill.title", &meta.title, out);
    match meta.kind {
        SkillKind::Management if skill.actions.is_empty() => out.push(loc.diag(
            "skill.kind",
            DiagnosticKind::MissingKey,
            "a management skill needs an `actions:` list; none found",
        )),
        SkillKind::Function if skill.functions.is_empty() => out.push(loc.diag(
            "skill.kind",
            DiagnosticKind::MissingKey,
            "a function skill needs a `functions:` list; none found",
        )),
        SkillKind::Diagnosis | SkillKind::Guidance if meta.knowledge.is_empty() => {
            out.push(loc.diag(
                "skill.kind",
                DiagnosticKind::MissingKey,
                "a guidance or diagnosis skill needs `skill.knowledge` entries; none found",
            ))
        }
        _ => {}
    }
    for scope in &meta.scopes {
        let ok = scope
            .split_once(':')
            .is_some_and(|(d, a)| !d.is_empty() && matches!(a, "read" | "write"));
        if !ok {
            out.push(loc.diag(
                "skill.scopes",
                DiagnosticKind::InvalidValue,
                format!("scope `{scope}` is not `<domain>:read` or `<domain>:write`"),
            ));
        }
    }
    parts::knowledge(skill, loc, out);
    parts::labels(skill, loc, out);
    let mut seen = HashSet::new();
    for (i, action) in skill.actions.iter_mut().enumerate() {
        if !seen.insert(action.name.clone()) {
            out.push(loc.diag(
                &format!("actions[{i}].name"),
                DiagnosticKind::Duplicate,
                format!(
                    "action `{}` is defined twice; expected unique action names",
                    action.name
                ),
            ));
        }
        action::check(i, action, loc, out);
    }
    parts::functions(skill, loc, out);
    parts::constraints(skill, loc, out);
    examples::check(skill, loc, out);
}

/// Both languages present and not blank, and no Chinese text broken by a stray space.
pub(crate) fn text(loc: &Locator, path: &str, t: &Text, out: &mut Vec<Diagnostic>) {
    for (lang, s) in [("zh", &t.zh), ("en", &t.en)] {
        if s.trim().is_empty() {
            out.push(loc.diag(
                &format!("{path}.{lang}"),
                DiagnosticKind::MissingText,
                format!(
                    "`{path}.{lang}` is empty; expected text in both Chinese (zh) and English (en)"
                ),
            ));
        }
    }
    if let Some(at) = space_between_chinese(&t.zh) {
        out.push(loc.diag(
            &format!("{path}.zh"),
            DiagnosticKind::InvalidValue,
            format!(
                "`{path}.zh` has a space after Chinese punctuation (…{at}…), which readers see as \
                 a gap; a folded YAML block (`>-`) joins lines with one: write the text on one line"
            ),
        ));
    }
}

/// The first "，X" with a space between: full-width punctuation, a space, then a Chinese
/// character or punctuation. Chinese puts no space after its punctuation, so such a space
/// is a folded line break, not a choice ("例如 趋势跟踪" before a name is one, and is fine).
fn space_between_chinese(s: &str) -> Option<String> {
    let punct = |c: char| matches!(c, '\u{3000}'..='\u{303F}' | '\u{FF00}'..='\u{FFEF}');
    let wide = |c: char| punct(c) || matches!(c, '\u{4E00}'..='\u{9FFF}');
    let chars: Vec<char> = s.chars().collect();
    chars
        .windows(3)
        .find_map(|w| (w[1] == ' ' && punct(w[0]) && wide(w[2])).then(|| w.iter().collect()))
}

pub(crate) fn is_snake(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

pub(crate) fn kinds_list() -> String {
    ResourceKind::ALL
        .iter()
        .map(|k| k.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}
