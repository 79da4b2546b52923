//! The set of skills the assistant knows: the built-ins embedded in the binary, then user skills
//! from `$NOFXI_HOME/skills` and any `--skills DIR`. A user skill whose name clashes with a
//! built-in (or with another user skill) is an error, never a silent override: a skill decides
//! what confirms and what runs, so which file wins must never be a surprise.

use std::path::{Path, PathBuf};

use crate::error::{Diagnostic, DiagnosticKind, LoadError};
use crate::ir::{Action, Function, Knowledge, Skill, SkillKind};
use crate::lexicon::{Words, parse_lexicon};
use crate::parse::parse_skill;

include!(concat!(env!("OUT_DIR"), "/builtin_skills.rs"));

/// What an exported tool name stands for.
#[derive(Debug, Clone, Copy)]
pub enum ToolRef<'a> {
    Action {
        skill: &'a Skill,
        action: &'a Action,
    },
    Function {
        skill: &'a Skill,
        function: &'a Function,
    },
}

#[derive(Debug, Clone, Default)]
pub struct Library {
    skills: Vec<Skill>,
    /// The lexicon: built-in words, then each user directory's `lexicon/*.yaml`.
    words: Words,
}

/// What `nofxi skills lint DIR` checked.
#[derive(Debug, Clone)]
pub struct Linted {
    pub skills: Vec<Skill>,
    /// Names that would clash with a built-in when loaded as user skills.
    pub shadowed: Vec<String>,
    /// How many `lexicon/*.yaml` files the directory has.
    pub lexicon_files: usize,
    /// How many `messages/*.ftl` catalogs it has.
    pub message_files: usize,
}

impl Library {
    /// The built-in skills only.
    pub fn builtin() -> Result<Library, LoadError> {
        Library::load(&[])
    }

    /// Built-ins plus every `<dir>/<name>/SKILL.md` of each directory, in order. Directories
    /// that do not exist are skipped (a fresh `$NOFXI_HOME` has no `skills/`).
    pub fn load(user_dirs: &[PathBuf]) -> Result<Library, LoadError> {
        let mut diagnostics = Vec::new();
        let mut lib = Library::default();
        for (rel, source) in BUILTIN_FILES {
            let dir = rel.split('/').next().unwrap_or("");
            match parse_skill(source, &format!("skills/{rel}"), dir, true) {
                Ok(skill) => lib.skills.push(skill),
                Err(e) => diagnostics.extend(e.diagnostics),
            }
        }
        diagnostics.extend(lib.add_builtin_words());
        for dir in user_dirs {
            let (words, _, problems) = load_lexicon_dir(dir);
            lib.words.extend(words);
            diagnostics.extend(problems);
            match load_dir(dir, false) {
                Ok(skills) => {
                    for skill in skills {
                        if let Some(existing) = lib.get(&skill.id) {
                            diagnostics.push(Diagnostic {
                                file: skill.source.path.clone(),
                                line: 2,
                                column: 1,
                                kind: DiagnosticKind::NameClash,
                                message: format!(
                                    "skill `{}` is already defined by {}; rename the user skill (its directory and `name`)",
                                    skill.name, existing.source.path
                                ),
                            });
                        } else {
                            lib.skills.push(skill);
                        }
                    }
                }
                Err(e) => diagnostics.extend(e.diagnostics),
            }
        }
        diagnostics.extend(lib.cross_check(&[]));
        if diagnostics.is_empty() {
            Ok(lib)
        } else {
            Err(LoadError { diagnostics })
        }
    }

    /// [`Library::load`] for a session that must start anyway (`nofxi chat`): a user skill
    /// file that does not load (a parse error, a clash, a cross-check failure) is left out
    /// and its diagnostics returned, each with file:line:col, so one broken file in
    /// `$NOFXI_HOME/skills` costs that skill, not the assistant. The built-ins are held to
    /// [`Library::load`]'s rule: a broken built-in is an error.
    pub fn load_skipping_broken(
        user_dirs: &[PathBuf],
    ) -> Result<(Library, Vec<Diagnostic>), LoadError> {
        let mut lib = Library::builtin()?;
        let mut skipped = Vec::new();
        for dir in user_dirs {
            // A broken lexicon file costs its words, like a broken skill costs that skill.
            let (words, _, problems) = load_lexicon_dir(dir);
            lib.words.extend(words);
            skipped.extend(problems);
            let (skills, diagnostics) = load_each(dir, false);
            skipped.extend(diagnostics);
            for skill in skills {
                match lib.get(&skill.id) {
                    Some(existing) => skipped.push(Diagnostic {
                        file: skill.source.path.clone(),
                        line: 2,
                        column: 1,
                        kind: DiagnosticKind::NameClash,
                        message: format!(
                            "skill `{}` is already defined by {}; rename the user skill (its directory and `name`)",
                            skill.name, existing.source.path
                        ),
                    }),
                    None => lib.skills.push(skill),
                }
            }
        }
        // Leaving a skill out can break another that recovers into it: check until stable.
        // Each round removes at least one user skill, so this ends.
        loop {
            let problems = lib.cross_check(&[]);
            if problems.is_empty() {
                return Ok((lib, skipped));
            }
            let broken =
                |s: &Skill| !s.source.builtin && problems.iter().any(|d| d.file == s.source.path);
            if !lib.skills.iter().any(broken) {
                return Err(LoadError {
                    diagnostics: problems,
                });
            }
            lib.skills.retain(|s| !broken(s));
            skipped.extend(problems);
        }
    }

    /// Check a directory of skills on its own terms, as `nofxi skills lint DIR` does: every file
    /// parsed and checked, and recoveries resolved against the directory's skills plus the
    /// built-ins (a skill in `dir` stands in for a built-in of the same name, so the repository's
    /// own `skills/` can be linted before it is embedded), and every `lexicon/*.yaml` in it.
    ///
    /// A file that does not load costs only itself: the others are still cross-checked, and
    /// a recovery into a skill whose file did not load is not called unknown (its own
    /// problems are the ones reported).
    pub fn lint_dir(dir: &Path) -> Result<Linted, LoadError> {
        let (_, lexicon_files, lexicon_problems) = load_lexicon_dir(dir);
        let (skills, mut problems) = load_each(dir, false);
        let unloaded: Vec<String> = problems
            .iter()
            .filter_map(|d| {
                let name = Path::new(&d.file).parent()?.file_name()?.to_str()?;
                Some(name.replace('-', "_"))
            })
            .collect();
        let mut lib = Library::builtin().unwrap_or_default();
        let mut shadowed = Vec::new();
        for skill in &skills {
            if let Some(pos) = lib.skills.iter().position(|s| s.id == skill.id) {
                lib.skills.remove(pos);
                shadowed.push(skill.name.clone());
            }
        }
        let ids: Vec<String> = skills.iter().map(|s| s.id.clone()).collect();
        lib.skills.extend(skills);
        let crossed = lib
            .cross_check(&unloaded)
            .into_iter()
            .filter(|d| {
                lib.skills
                    .iter()
                    .any(|s| ids.contains(&s.id) && s.source.path == d.file)
            })
            .collect::<Vec<Diagnostic>>();
        problems.extend(crossed);
        problems.extend(lexicon_problems);
        let (message_files, message_problems) = crate::messages::lint_messages_dir(dir);
        problems.extend(message_problems);
        if !problems.is_empty() {
            return Err(LoadError {
                diagnostics: problems,
            });
        }
        let skills = lib
            .skills
            .into_iter()
            .filter(|s| ids.contains(&s.id))
            .collect();
        Ok(Linted {
            skills,
            shadowed,
            lexicon_files,
            message_files,
        })
    }

    /// The words of the lexicon files, every language at once (a message may mix them).
    pub fn words(&self) -> &Words {
        &self.words
    }

    /// The embedded `skills/lexicon/*.yaml`; their problems, if any (a broken built-in is an
    /// error like a broken built-in skill).
    fn add_builtin_words(&mut self) -> Vec<Diagnostic> {
        let mut problems = Vec::new();
        for (rel, source) in BUILTIN_LEXICON {
            match parse_lexicon(source, &format!("skills/{rel}")) {
                Ok(words) => self.words.extend(words),
                Err(e) => problems.extend(e.diagnostics),
            }
        }
        problems
    }

    pub fn skills(&self) -> &[Skill] {
        &self.skills
    }

    /// By id (`trader_management`) or by name (`trader-management`).
    pub fn get(&self, name: &str) -> Option<&Skill> {
        let id = name.replace('-', "_");
        self.skills.iter().find(|s| s.id == id)
    }

    pub fn action(&self, skill: &str, action: &str) -> Option<&Action> {
        self.get(skill)?.action(action)
    }

    /// A knowledge entry by id (`binance_signature`) among the skills of one kind: the
    /// diagnosis entries explain errors, the guidance entries answer questions.
    pub fn knowledge(&self, kind: SkillKind, id: &str) -> Option<&Knowledge> {
        self.skills
            .iter()
            .filter(|s| s.meta.kind == kind)
            .flat_map(|s| s.meta.knowledge.iter())
            .find(|k| k.id == id)
    }

    /// A function by name across all function skills.
    pub fn function(&self, name: &str) -> Option<(&Skill, &Function)> {
        self.skills
            .iter()
            .find_map(|s| s.function(name).map(|f| (s, f)))
    }

    /// Map an exported tool name back to its skill and action or function.
    pub fn resolve_tool(&self, tool: &str) -> Option<ToolRef<'_>> {
        for skill in &self.skills {
            for action in &skill.actions {
                if crate::export::action_tool_name(&skill.id, &action.name) == tool {
                    return Some(ToolRef::Action { skill, action });
                }
            }
            if let Some(function) = skill.function(tool) {
                return Some(ToolRef::Function { skill, function });
            }
        }
        None
    }

    /// Checks across skills: every recovery names an existing `<skill>.<action>` and only
    /// slots that action has. A recovery into one of `unloaded` (skills whose file did not
    /// load) is not judged: what that skill holds is unknown.
    fn cross_check(&self, unloaded: &[String]) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        for skill in &self.skills {
            for (i, action) in skill.actions.iter().enumerate() {
                // A fix offered after a failure, and the undo offered after a success: both
                // name a task to start.
                let offers = action
                    .failures
                    .iter()
                    .enumerate()
                    .filter_map(|(k, f)| {
                        let r = f.recovery.as_ref()?;
                        Some((format!("actions[{i}].failures[{k}].recovery.task"), r))
                    })
                    .chain(
                        action
                            .undo
                            .as_ref()
                            .map(|r| (format!("actions[{i}].undo.task"), r)),
                    );
                for (path, r) in offers {
                    if r.task_parts()
                        .is_some_and(|(s, _)| unloaded.iter().any(|u| u == s))
                    {
                        continue;
                    }
                    let target = r.task_parts().and_then(|(s, a)| self.action(s, a));
                    let problem = match target {
                        None => Some((
                            DiagnosticKind::UnknownAction,
                            format!(
                                "recovery task `{}` of `{}.{}` names no existing `<skill>.<action>`",
                                r.task, skill.id, action.name
                            ),
                        )),
                        Some(t) => r.slots.keys().find(|k| t.slot(k).is_none()).map(|k| {
                            (
                                DiagnosticKind::UnknownSlot,
                                format!("recovery task `{}` has no slot `{k}`", r.task),
                            )
                        }),
                    };
                    if let Some((kind, message)) = problem {
                        out.push(skill.diag(&path, kind, message));
                    }
                }
            }
        }
        out
    }
}

/// Every `<dir>/lexicon/*.yaml`, sorted by name: the words of the files that load, how many
/// files there are, and the problems of those that do not.
pub fn load_lexicon_dir(dir: &Path) -> (Words, usize, Vec<Diagnostic>) {
    let mut words = Words::default();
    let mut problems = Vec::new();
    let lexicon = dir.join("lexicon");
    let Ok(entries) = std::fs::read_dir(&lexicon) else {
        // No lexicon directory: no words of the user's, which is the usual case.
        return (words, 0, problems);
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    for file in &files {
        let path = file.display().to_string();
        match std::fs::read_to_string(file) {
            Ok(source) => match parse_lexicon(&source, &path) {
                Ok(w) => words.extend(w),
                Err(e) => problems.extend(e.diagnostics),
            },
            Err(e) => problems.push(Diagnostic {
                file: path,
                line: 1,
                column: 1,
                kind: DiagnosticKind::Io,
                message: format!("cannot read: {e}"),
            }),
        }
    }
    (words, files.len(), problems)
}

/// Every `<dir>/<name>/SKILL.md` under `dir`, sorted by name; all problems of all files.
pub fn load_dir(dir: &Path, builtin: bool) -> Result<Vec<Skill>, LoadError> {
    let (skills, diagnostics) = load_each(dir, builtin);
    if diagnostics.is_empty() {
        Ok(skills)
    } else {
        Err(LoadError { diagnostics })
    }
}

/// The skills of `dir` that load, and the problems of those that do not.
fn load_each(dir: &Path, builtin: bool) -> (Vec<Skill>, Vec<Diagnostic>) {
    let io = |path: &Path, e: std::io::Error| Diagnostic {
        file: path.display().to_string(),
        line: 1,
        column: 1,
        kind: DiagnosticKind::Io,
        message: format!("cannot read: {e}"),
    };
    if !dir.exists() {
        return (Vec::new(), Vec::new());
    }
    let mut entries: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(rd) => rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.join("SKILL.md").is_file())
            .collect(),
        Err(e) => return (Vec::new(), vec![io(dir, e)]),
    };
    entries.sort();
    let mut skills = Vec::new();
    let mut diagnostics = Vec::new();
    for sub in entries {
        let file = sub.join("SKILL.md");
        let name = sub
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("")
            .to_string();
        match std::fs::read_to_string(&file) {
            Ok(source) => match parse_skill(&source, &file.display().to_string(), &name, builtin) {
                Ok(skill) => skills.push(skill),
                Err(e) => diagnostics.extend(e.diagnostics),
            },
            Err(e) => diagnostics.push(io(&file, e)),
        }
    }
    (skills, diagnostics)
}
