//! Every skill step against the tools nofxi has: the step's tool exists (typed or legacy),
//! and each slot it passes is an argument of a typed tool. The skills crate checks a step's
//! shape; only here is it known which tools exist, so `nofxi skills lint` and the skills test
//! ask this instead of keeping a second list of tool names.

use nofxi_skills::{Diagnostic, DiagnosticKind, Skill};
use serde_json::Value;

use super::registry::Registry;
use super::spec;

/// The problems of every step of `skills`, one diagnostic per step.
pub fn step_problems(skills: &[Skill]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for skill in skills {
        for action in &skill.actions {
            for (i, step) in action.steps.iter().enumerate() {
                let tool = step.tool.to_string();
                let at = format!("action `{}`, step {}", action.name, i + 1);
                let problem = if spec(&tool).is_none() {
                    Some((
                        DiagnosticKind::UnknownTool,
                        format!(
                            "{at}: nofxi has no tool `{tool}`; a step calls one of {}",
                            known()
                        ),
                    ))
                } else {
                    let names = step.with.iter().chain(step.set.keys());
                    unknown_argument(&tool, names).map(|slot| {
                        (
                            DiagnosticKind::UnknownSlot,
                            format!("{at}: `{tool}` takes no argument `{slot}`"),
                        )
                    })
                };
                if let Some((kind, message)) = problem {
                    let (line, column) = locate(&skill.source.path, &tool);
                    out.push(Diagnostic {
                        file: skill.source.path.clone(),
                        line,
                        column,
                        kind,
                        message,
                    });
                }
            }
        }
    }
    out
}

/// Where the file says `tool: <tool>`, when it can be read (a built-in is embedded, and its
/// path only resolves inside the repository); else its first line.
fn locate(path: &str, tool: &str) -> (usize, usize) {
    let needle = format!("tool: {tool}");
    std::fs::read_to_string(path)
        .ok()
        .and_then(|text| {
            text.lines()
                .enumerate()
                .find_map(|(i, l)| l.find(&needle).map(|c| (i + 1, l[..c].chars().count() + 1)))
        })
        .unwrap_or((1, 1))
}

/// The tool names a step may call, for the error.
fn known() -> String {
    let typed = Registry::builtin().tools().map(|t| t.name().to_string());
    let mut names: Vec<String> = typed
        .chain(super::LEGACY_TOOLS.iter().map(|t| t.to_string()))
        .collect();
    names.sort();
    names.join(", ")
}

/// The first argument (a `with` slot or a `set` key) a typed tool's argument schema lacks;
/// legacy tools take any.
fn unknown_argument<'a>(tool: &str, names: impl Iterator<Item = &'a String>) -> Option<&'a str> {
    let schema = Registry::builtin().get(tool)?.schema();
    let properties = schema.get("properties").and_then(Value::as_object);
    names
        .map(String::as_str)
        .find(|name| properties.is_none_or(|p| !p.contains_key(*name)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use nofxi_skills::Library;

    #[test]
    fn every_builtin_step_names_a_tool_and_its_arguments() {
        let lib = Library::builtin().map_err(|e| e.to_string());
        let Ok(lib) = lib else {
            panic!("the built-in library loads: {lib:?}");
        };
        let problems: Vec<String> = step_problems(lib.skills())
            .iter()
            .map(|d| d.to_string())
            .collect();
        assert!(problems.is_empty(), "{problems:#?}");
    }

    #[test]
    fn a_step_naming_no_tool_or_no_argument_is_reported() {
        let known = ["target".to_string(), "limit".to_string()];
        assert_eq!(unknown_argument("trader.journal", known.iter()), None);
        let unknown = ["leverage".to_string()];
        assert_eq!(
            unknown_argument("trader.journal", unknown.iter()),
            Some("leverage")
        );
        assert!(spec("trader.fly").is_none() && spec("trash.list").is_some());
    }
}
