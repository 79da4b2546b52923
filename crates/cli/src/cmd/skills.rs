//! `nofxi skills`: list, show, lint and export the skill library — the built-ins embedded in
//! the binary plus user skills from `$NOFXI_HOME/skills` and any `--skills DIR`.

use std::path::PathBuf;

use anyhow::{Result, anyhow};
use clap::{Args, Subcommand, ValueEnum};
use nofxi_domain::validation::escaped_input;
use nofxi_skills::export::{Format, export};
use nofxi_skills::{ConfirmRule, Diagnostic, Lang, Library, LoadError, Skill};

use crate::cmd::common::{print_json, print_table, shown_path};
use crate::home::GlobalArgs;

#[derive(Debug, Args)]
pub struct SkillsArgs {
    /// Extra directory of user skills (`<dir>/<name>/SKILL.md`); may be repeated.
    #[arg(long = "skills", global = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    #[command(subcommand)]
    pub command: SkillsCommand,
}

#[derive(Debug, Subcommand)]
pub enum SkillsCommand {
    /// List every skill with its kind, actions or functions and example count.
    List,
    /// Show one skill: actions with risk, confirmation and slots; functions; constraints.
    Show {
        /// Skill name (`trader-management`) or id (`trader_management`).
        name: String,
    },
    /// Check skill files and print every problem as file:line:column; exits 1 on any.
    /// Without DIR: the built-ins and the user skills.
    Lint { dir: Option<PathBuf> },
    /// Print the tools of all skills (or one) in a provider's format.
    Export {
        #[arg(long, value_enum)]
        format: ExportFormat,
        #[arg(long, value_enum, default_value = "en")]
        lang: LangArg,
        /// Only this skill.
        #[arg(long)]
        skill: Option<String>,
    },
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ExportFormat {
    Openai,
    Anthropic,
    Gemini,
    Mcp,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum LangArg {
    En,
    Zh,
}

/// The library a command (or the assistant) should use: built-ins, `$NOFXI_HOME/skills`, then
/// each extra directory.
pub fn load_library(global: &GlobalArgs, extra: &[PathBuf]) -> Result<Library, LoadError> {
    Library::load(&user_skill_dirs(global, extra))
}

/// `$NOFXI_HOME/skills`, then each extra directory.
pub fn user_skill_dirs(global: &GlobalArgs, extra: &[PathBuf]) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Ok(home) = global.home_dir() {
        dirs.push(home.join("skills"));
    }
    dirs.extend(extra.iter().cloned());
    dirs
}

pub fn run(global: &GlobalArgs, args: SkillsArgs) -> Result<()> {
    match args.command {
        SkillsCommand::Lint { dir } => lint(global, &args.dirs, dir),
        command => {
            let lib = load_library(global, &args.dirs).map_err(|e| {
                print_diagnostics(global, &e.diagnostics);
                anyhow!(
                    "the skill library has {} problem(s); run `nofxi skills lint`",
                    e.diagnostics.len()
                )
            })?;
            match command {
                SkillsCommand::List => list(global, &lib),
                SkillsCommand::Show { name } => show(global, &lib, &name),
                SkillsCommand::Export {
                    format,
                    lang,
                    skill,
                } => {
                    let skills: Vec<Skill> = match skill {
                        Some(name) => vec![
                            lib.get(&name)
                                .cloned()
                                .ok_or_else(|| unknown(&lib, &name))?,
                        ],
                        None => lib.skills().to_vec(),
                    };
                    let format = match format {
                        ExportFormat::Openai => Format::OpenAi,
                        ExportFormat::Anthropic => Format::Anthropic,
                        ExportFormat::Gemini => Format::Gemini,
                        ExportFormat::Mcp => Format::Mcp,
                    };
                    let lang = match lang {
                        LangArg::En => Lang::En,
                        LangArg::Zh => Lang::Zh,
                    };
                    println!(
                        "{}",
                        serde_json::to_string_pretty(&export(&skills, format, lang))?
                    );
                    Ok(())
                }
                SkillsCommand::Lint { .. } => Ok(()),
            }
        }
    }
}

fn unknown(lib: &Library, name: &str) -> anyhow::Error {
    let names: Vec<&str> = lib.skills().iter().map(|s| s.name.as_str()).collect();
    anyhow!(
        "no skill named `{name}`; the skills are: {}",
        names.join(", ")
    )
}

fn print_diagnostics(global: &GlobalArgs, diagnostics: &[Diagnostic]) {
    if global.json {
        // Best effort: the error line that follows still says how many problems there were.
        if let Ok(text) = serde_json::to_string_pretty(diagnostics) {
            println!("{text}");
        }
    } else {
        for d in diagnostics {
            eprintln!("{d}");
        }
    }
}

fn lint(global: &GlobalArgs, extra: &[PathBuf], dir: Option<PathBuf>) -> Result<()> {
    let (count, shadowed, lexicon_files, message_files) = match &dir {
        Some(dir) => {
            if !dir.is_dir() {
                return Err(anyhow!("{} is not a directory", shown_path(dir)));
            }
            Library::lint_dir(dir).and_then(|l| {
                steps_checked(&l.skills)?;
                Ok((l.skills.len(), l.shadowed, l.lexicon_files, l.message_files))
            })
        }
        None => load_library(global, extra).and_then(|lib| {
            steps_checked(lib.skills())?;
            Ok((lib.skills().len(), Vec::new(), 0, 0))
        }),
    }
    .map_err(|e| {
        print_diagnostics(global, &e.diagnostics);
        let files: std::collections::BTreeSet<&str> =
            e.diagnostics.iter().map(|d| d.file.as_str()).collect();
        anyhow!(
            "{} problem(s) in {} file(s)",
            e.diagnostics.len(),
            files.len()
        )
    })?;
    if global.json {
        print_json(
            &serde_json::json!({"ok": true, "skills": count, "lexicon_files": lexicon_files, "message_files": message_files, "shadows_builtin": shadowed}),
        )?;
    } else {
        for name in &shadowed {
            println!(
                "note: `{name}` has the name of a built-in skill; loaded as a user skill it would be a name clash"
            );
        }
        match (lexicon_files, message_files) {
            (0, 0) => println!("{count} skill(s) checked, no problems"),
            (n, m) => println!(
                "{count} skill(s), {n} lexicon file(s) and {m} message catalog(s) checked, no problems"
            ),
        }
    }
    Ok(())
}

/// The skills' steps against the tools nofxi has (the skills crate checks only their shape).
fn steps_checked(skills: &[Skill]) -> Result<(), LoadError> {
    let diagnostics = nofxi_assistant::tools::step_problems(skills);
    match diagnostics.is_empty() {
        true => Ok(()),
        false => Err(LoadError { diagnostics }),
    }
}

fn list(global: &GlobalArgs, lib: &Library) -> Result<()> {
    if global.json {
        let rows: Vec<_> = lib
            .skills()
            .iter()
            .map(|s| {
                serde_json::json!({
                    "name": s.name, "id": s.id, "kind": s.meta.kind, "description": s.description,
                    "actions": s.actions.iter().map(|a| &a.name).collect::<Vec<_>>(),
                    "functions": s.functions.iter().map(|f| &f.name).collect::<Vec<_>>(),
                    "examples": s.examples.len(), "source": s.source.path, "builtin": s.source.builtin,
                })
            })
            .collect();
        return print_json(&rows);
    }
    let rows: Vec<Vec<String>> = lib
        .skills()
        .iter()
        .map(|s| {
            let what: Vec<&str> = s
                .actions
                .iter()
                .map(|a| a.name.as_str())
                .chain(s.functions.iter().map(|f| f.name.as_str()))
                .collect();
            vec![
                s.name.clone(),
                format!("{:?}", s.meta.kind).to_lowercase(),
                if what.is_empty() {
                    format!("{} entries", s.meta.knowledge.len())
                } else {
                    what.join(", ")
                },
                s.examples.len().to_string(),
                if s.source.builtin {
                    "built-in".into()
                } else {
                    escaped_input(&s.source.path)
                },
            ]
        })
        .collect();
    print_table(
        &["NAME", "KIND", "ACTIONS / FUNCTIONS", "EXAMPLES", "SOURCE"],
        &rows,
    );
    Ok(())
}

fn show(global: &GlobalArgs, lib: &Library, name: &str) -> Result<()> {
    let s = lib.get(name).ok_or_else(|| unknown(lib, name))?;
    if global.json {
        return print_json(s);
    }
    println!("{} ({}) — {}", s.name, s.id, s.meta.title.en);
    println!("{}", s.description);
    println!(
        "kind {:?}, domain {}, scopes [{}], version {}",
        s.meta.kind,
        s.meta.domain,
        s.meta.scopes.join(", "),
        s.meta.version
    );
    println!("source {}", escaped_input(&s.source.path));
    for a in &s.actions {
        let confirm = match &a.confirm {
            ConfirmRule::Never => "never".to_string(),
            ConfirmRule::Always => "always".to_string(),
            ConfirmRule::When(c) => {
                format!("when {}", serde_json::to_string(c).unwrap_or_default())
            }
        };
        println!("\n{}.{} — {}", s.id, a.name, a.description.en);
        println!("  risk {:?}, confirm {confirm}", a.risk);
        for slot in &a.slots {
            let mut facts = vec![slot.ty.as_str().to_string()];
            if let Some(k) = slot.ref_kind {
                facts.push(format!("ref {k}"));
            }
            if slot.required {
                facts.push("required".into());
            }
            if let Some(c) = &slot.required_when {
                facts.push(format!(
                    "required when {} {}",
                    c.slot,
                    serde_json::to_string(&c.one_of).unwrap_or_default()
                ));
            }
            if slot.min.is_some() || slot.max.is_some() {
                facts.push(format!(
                    "range {}–{}{}",
                    fmt_bound(slot.min),
                    fmt_bound(slot.max),
                    if slot.clamp { " (clamped)" } else { "" }
                ));
            }
            if let Some(d) = &slot.default {
                facts.push(format!("default {d}"));
            }
            if slot.is_secret() {
                facts.push("secret".into());
            }
            println!("  - {}: {}", slot.name, facts.join(", "));
        }
        let tools: Vec<String> = a.steps.iter().map(|st| st.tool.to_string()).collect();
        println!("  steps {}", tools.join(" → "));
        println!("  examples {}", s.examples_for(&a.name).count());
    }
    for f in &s.functions {
        println!("\n{} — {}", f.name, f.description.en);
        println!("  parameters {}", f.parameters);
    }
    if !s.meta.knowledge.is_empty() {
        println!("\n{} knowledge entries", s.meta.knowledge.len());
    }
    Ok(())
}

fn fmt_bound(b: Option<f64>) -> String {
    b.map(|v| v.to_string()).unwrap_or_default()
}
