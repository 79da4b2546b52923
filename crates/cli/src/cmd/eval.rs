//! `nofxi eval PATH...`: runs conversation test files (YAML) through the dialogue engine, each
//! case on a fresh temporary home, and prints per-case results and totals. The last line is
//! `N passed, N failed`; the exit code is 1 when any case failed.
//!
//! The cases are written against the built-in skills, so the user's `$NOFXI_HOME/skills` is not
//! loaded here (a case must mean the same on every machine); `--skills DIR` adds a directory.

use std::io::Write as _;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Args;
use nofxi_eval::{AssistantFactory, load_suite, render_case, render_totals, run_suite};
use nofxi_skills::Library;

use super::common::block_on;
use crate::home::GlobalArgs;

#[derive(Debug, Args)]
pub struct EvalArgs {
    /// YAML files of cases, or directories of them (not recursive).
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Extra directory of skills (`<dir>/<name>/SKILL.md`); may be repeated.
    #[arg(long = "skills", value_name = "DIR")]
    pub skills: Vec<PathBuf>,
    /// Print failing cases only (and the totals).
    #[arg(long)]
    pub failures_only: bool,
    /// Run only the cases whose name contains this text.
    #[arg(long, value_name = "TEXT")]
    pub case: Option<String>,
}

pub fn run(_global: &GlobalArgs, args: EvalArgs) -> Result<()> {
    let mut files = load_suite(&args.paths)?;
    if let Some(wanted) = &args.case {
        for file in &mut files {
            file.cases.retain(|c| c.name.contains(wanted.as_str()));
        }
    }
    let library = Arc::new(Library::load(&args.skills).context("loading the skill library")?);
    let started = Instant::now();
    let results = block_on(run_suite(&AssistantFactory, library, &files, |result| {
        if !(args.failures_only && result.passed()) {
            print!("{}", render_case(result));
            let _ = std::io::stdout().flush();
        }
    }))?;
    print!("{}", render_totals(&results, started.elapsed()));
    let _ = std::io::stdout().flush();
    if results.iter().any(|r| !r.passed()) {
        // The report already says which cases failed; the exit code is for scripts and CI.
        std::process::exit(1);
    }
    Ok(())
}
