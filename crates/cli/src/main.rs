//! `nofxi`: one binary for the whole product.
//!
//! Each command group lives in its own module under `cmd/`; this file only parses the command
//! line ([`args`]), resolves where data lives, and maps failures to exit codes (0 success,
//! 1 failure, 2 usage — clap's usage errors exit 2 too).

mod args;
mod cmd;
mod home;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::home::GlobalArgs;

/// mimalloc rather than the system allocator: the engine and backtests allocate many small,
/// short-lived values per cycle (orders, fills, journal text), which glibc's malloc served at
/// a sixth of a backtest's time.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

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
    /// LLM model configs: list, show, add, update, delete, restore, providers.
    #[command(subcommand)]
    Model(cmd::model::ModelCommand),
    /// Exchange accounts and their (encrypted) credentials.
    #[command(subcommand)]
    Exchange(cmd::exchange::ExchangeCommand),
    /// Trading strategies: coins, indicators, risk controls, prompt sections.
    #[command(subcommand)]
    Strategy(cmd::strategy::StrategyCommand),
    /// Traders: one exchange + one model + one strategy.
    #[command(subcommand)]
    Trader(cmd::trader::TraderCommand),
    /// The audit trail of every change, newest first.
    Audit(cmd::audit::AuditArgs),
    /// A personal portfolio: holdings, lots, P&L, returns, CSV import and export, quotes.
    #[command(subcommand)]
    Portfolio(cmd::portfolio::PortfolioCommand),
    /// Market data: price, order book, klines (simulated market by default, offline).
    #[command(subcommand)]
    Market(cmd::market::MarketCommand),
    /// Candle history from a venue's public market data: download, list.
    #[command(subcommand)]
    Data(cmd::data::DataCommand),
    /// Replay candles (simulated or CSV) through the live cycle code and print the stats.
    Backtest(cmd::backtest::BacktestArgs),
    /// The web app and HTTP API (and the trading engine) on 127.0.0.1:8700; Ctrl-C stops it.
    Serve(cmd::serve::ServeArgs),
    /// The trading engine in the foreground: runs every started trader; Ctrl-C stops it.
    Run(cmd::run::RunArgs),
    /// An MCP server over stdin/stdout for agents and IDEs (add it to their `mcpServers`).
    Mcp(cmd::mcp::McpArgs),
    /// Skills: list, show, lint and export the SKILL.md library.
    Skills(cmd::skills::SkillsArgs),
    /// Conversation tests: run YAML cases through the assistant, each on a fresh store.
    Eval(cmd::eval::EvalArgs),
    /// Talk to the assistant (REPL; `--json` for one JSON turn per stdin line).
    Chat(cmd::chat::ChatArgs),
    /// Settings: `nofxi config set assistant.model NAME` (the model the assistant may ask).
    #[command(subcommand)]
    Config(cmd::config::ConfigCommand),
    /// The assistant's per-turn traces: list, show.
    #[command(subcommand)]
    Trace(cmd::trace::TraceCommand),
    /// Users who log in to `nofxi serve` (multi-user mode): add, list, disable.
    #[command(subcommand)]
    User(cmd::accounts::UserCommand),
    /// API tokens for scripts, per `--user`: create, list, revoke.
    #[command(subcommand)]
    Token(cmd::accounts::TokenCommand),
}

fn main() -> ExitCode {
    // Die quietly on a closed pipe (`nofxi trader journal x | head`) as Unix tools do, instead
    // of panicking in println!.
    sigpipe::reset();
    let cli = match args::parse::<Cli>() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let result = match cli.command {
        Command::Paths => cmd::paths::run(&cli.global),
        Command::Serve(args) => cmd::serve::run(&cli.global, args),
        Command::Run(args) => cmd::run::run(&cli.global, args),
        Command::Mcp(args) => cmd::mcp::run(&cli.global, args),
        Command::Backtest(args) => cmd::backtest::run(&cli.global, args),
        Command::Data(c) => cmd::data::run(&cli.global, c),
        Command::Model(c) => cmd::model::run(&cli.global, c),
        Command::Portfolio(c) => cmd::portfolio::run(&cli.global, c),
        Command::Exchange(c) => cmd::exchange::run(&cli.global, c),
        Command::Strategy(c) => cmd::strategy::run(&cli.global, c),
        Command::Trader(c) => cmd::trader::run(&cli.global, c),
        Command::Audit(a) => cmd::audit::run(&cli.global, a),
        Command::Market(c) => cmd::market::run(&cli.global, c),
        Command::Skills(a) => cmd::skills::run(&cli.global, a),
        Command::Eval(a) => cmd::eval::run(&cli.global, a),
        Command::Chat(a) => cmd::chat::run(&cli.global, a),
        Command::Trace(c) => cmd::trace::run(&cli.global, c),
        Command::Config(c) => cmd::config::run(&cli.global, c),
        Command::User(c) => cmd::accounts::run_user(&cli.global, c),
        Command::Token(c) => cmd::accounts::run_token(&cli.global, c),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {}", cmd::common::render_error(&err));
            // Input the command can be fixed to give is a usage error, as clap's own are.
            if cmd::common::is_invalid_input(&err) {
                ExitCode::from(2)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}
