//! `nofxi portfolio import NAME FILE`: preview, then write the new rows, all or nothing.
//!
//! Chinese brokers export GBK; a file that is not UTF-8 is read as GBK, and one that is neither
//! is refused by name. Rows already recorded are reported as duplicates and skipped, so
//! importing the same file again writes nothing. A big file shows a progress bar while its
//! rows are written.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use nofxi_domain::validation::shown_input;
use nofxi_portfolio::csv_io::{ImportPreview, preview};
use serde::Serialize;

use super::pick;
use crate::cmd::common::{actor, block_on, open_store, print_json, shown_path, usage};
use crate::home::GlobalArgs;

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// The portfolio's name.
    pub name: String,
    /// The CSV file (UTF-8 or GBK; comma, semicolon or tab separated).
    pub file: PathBuf,
    /// Show what would be written and stop.
    #[arg(long)]
    pub dry_run: bool,
}

#[derive(Serialize)]
struct Outcome<'a> {
    file: String,
    new: usize,
    duplicates: usize,
    written: usize,
    dry_run: bool,
    unknown_columns: &'a [String],
    errors: &'a [nofxi_portfolio::csv_io::RowError],
}

pub fn run(global: &GlobalArgs, args: ImportArgs) -> Result<()> {
    let bytes = std::fs::read(&args.file)
        .map_err(|e| usage(format!("cannot read {}: {e}", shown_path(&args.file))))?;
    let text = decode(&bytes).ok_or_else(|| {
        usage(format!(
            "{} is neither UTF-8 nor GBK text: export it from your broker as CSV",
            shown_path(&args.file)
        ))
    })?;
    block_on(async {
        let store = open_store(global).await?;
        let portfolio = pick(&store, global, Some(&args.name)).await?;
        let existing = store
            .portfolio_transactions(&global.user, &portfolio.name)
            .await?;
        let plan = preview(&portfolio, &existing, &text);
        let written = if args.dry_run || !plan.errors.is_empty() {
            0
        } else {
            let bar = progress_bar(global.json, plan.new_rows().count());
            let written = store
                .import_transactions_reporting(
                    &actor(global),
                    &portfolio.name,
                    &plan,
                    &|done, _| bar.set_position(done as u64),
                )
                .await?;
            bar.finish_and_clear();
            written
        };
        report(global, &args, &plan, written)?;
        if !plan.errors.is_empty() {
            return Err(usage(format!(
                "nothing was imported: {} line(s) have problems (listed above); fix them and import the file again",
                plan.errors.len()
            )));
        }
        Ok(())
    })?
}

fn report(
    global: &GlobalArgs,
    args: &ImportArgs,
    plan: &ImportPreview,
    written: usize,
) -> Result<()> {
    let outcome = Outcome {
        file: args.file.display().to_string(),
        new: plan.new_rows().count(),
        duplicates: plan.duplicates().count(),
        written,
        dry_run: args.dry_run,
        unknown_columns: &plan.unknown_columns,
        errors: &plan.errors,
    };
    if global.json {
        return print_json(&outcome);
    }
    if !plan.unknown_columns.is_empty() {
        // Headers are the file's text: escaped and cut like every value an error quotes.
        let shown: Vec<String> = plan
            .unknown_columns
            .iter()
            .map(|c| shown_input(c))
            .collect();
        eprintln!("note: columns not read: {}", shown.join(", "));
    }
    let report = plan.error_report();
    if !report.is_empty() {
        eprintln!("{report}");
    }
    let verb = if args.dry_run { "would write" } else { "wrote" };
    let count = if args.dry_run { outcome.new } else { written };
    println!(
        "{}: {} new row(s), {} duplicate(s) skipped, {} line(s) with problems; {verb} {count}",
        shown_path(&args.file),
        outcome.new,
        outcome.duplicates,
        plan.errors.len()
    );
    Ok(())
}

/// Rows at or above this show a progress bar while they are written (a second or more).
const BAR_FROM_ROWS: usize = 5_000;

/// A bar on standard error for a big write; hidden for `--json` and small files (indicatif
/// hides it by itself when standard error is not a terminal).
fn progress_bar(json: bool, rows: usize) -> ProgressBar {
    if json || rows < BAR_FROM_ROWS {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(rows as u64);
    bar.set_style(
        ProgressStyle::with_template("writing {bar:40} {pos}/{len} rows {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// UTF-8 (with or without a byte-order mark), else GBK; `None` when it is neither.
fn decode(bytes: &[u8]) -> Option<String> {
    if let Ok(text) = std::str::from_utf8(bytes) {
        return Some(text.to_string());
    }
    let (text, had_errors) = encoding_rs::GBK.decode_without_bom_handling(bytes);
    (!had_errors).then(|| text.into_owned())
}
