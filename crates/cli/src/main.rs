//! `nofxi`: one binary for the whole product.
//!
//! Each command group lives in its own module under `cmd/`; this file only parses the command
//! line, resolves where data lives, and maps failures to exit codes (0 success, 1 failure,
//! 2 usage — clap already exits 2 on a usage error).

mod cmd;
mod home;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::home::GlobalArgs;

#[derive(Debug, Parser)]
#[command(
    name = "nofxi",
    version,
    about = "Local-first trading assistant: traders, exchanges, models, strategies."
)]
struct Cli {
    #[command(flatten)]
    global: GlobalArgs,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Show where nofxi keeps its data, database and vault key.
    Paths,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Paths => cmd::paths::run(&cli.global),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            // `{:#}` prints the whole context chain on one line: "what failed: why".
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}
