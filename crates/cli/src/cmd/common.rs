//! What every resource command shares: opening the store, who is acting, reading secrets from
//! flags, environment or standard input, and printing tables or JSON.

use std::future::Future;
use std::io::{IsTerminal, Read};

use anyhow::{Context, Result, bail};
use nofxi_domain::moment::{Precision, labelled};
use nofxi_domain::validation::shown_input;
use nofxi_domain::{Actor, Adjustment, Channel, Secret};
use nofxi_store::Store;
use serde::Serialize;
use unicode_width::UnicodeWidthStr;
use zeroize::Zeroizing;

use crate::home::GlobalArgs;

/// Runs one async command to completion. The CLI does one thing per invocation, so a
/// single-threaded runtime is enough and starts fastest.
pub fn block_on<F: Future>(future: F) -> Result<F::Output> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    Ok(runtime.block_on(future))
}

pub async fn open_store(global: &GlobalArgs) -> Result<Store> {
    if global.user.trim().is_empty() {
        bail!("`--user` cannot be empty: give the name of the user whose resources to use");
    }
    let home = global.home_dir()?;
    let store = Store::open(&home).await?;
    for warning in store.warnings() {
        eprintln!("warning: {warning}");
    }
    Ok(store)
}

/// A CLI command is itself the explicit act, so its mutations count as confirmed.
pub fn actor(global: &GlobalArgs) -> Actor {
    Actor::new(global.user.clone(), Channel::Cli, true)
}

/// Standard input, read once and handed out line by line to the `-` secret flags in the order
/// the command lists them.
#[derive(Default)]
pub struct StdinSecrets {
    lines: Option<std::vec::IntoIter<Zeroizing<String>>>,
}

/// `--flag -` gave no value: what to do instead.
fn no_value(flag: &str, why: &str) -> anyhow::Error {
    let env = format!("NOFXI_{}", flag.replace('-', "_").to_uppercase());
    Usage(format!(
        "`--{flag} -` expects the value on standard input, one line per `-` flag, but {why}: type it at the prompt, pipe it in (e.g. `printf '%s\\n' \"$KEY\" | nofxi … --{flag} -`), or set {env}"
    ))
    .into()
}

/// Standard input could not be read for `--flag -`. Bytes that are not UTF-8 are input the
/// user gave (a binary file piped in, a key file in another encoding): a usage error (exit 2)
/// naming the flag; anything else is the system's failure.
fn stdin_unreadable(flag: &str, e: &std::io::Error) -> anyhow::Error {
    if e.kind() == std::io::ErrorKind::InvalidData {
        return Usage(format!(
            "`--{flag} -` reads its value from standard input, but the input is not UTF-8 text: pipe in the key as text, one line per `-` flag (e.g. `printf '%s\\n' \"$KEY\" | nofxi … --{flag} -`)"
        ))
        .into();
    }
    anyhow::anyhow!("cannot read `--{flag} -` from standard input: {e}")
}

impl StdinSecrets {
    fn next_line(&mut self, flag: &str) -> Result<Secret> {
        // At a terminal each `-` flag asks for its value, without echoing it; reading to the
        // end of input there would echo the key and wait for Ctrl-D.
        if self.lines.is_none() && std::io::stdin().is_terminal() {
            let line = super::hidden::prompt(&format!("--{flag}: "))
                .context("cannot read the secret from the terminal")?;
            let secret = Secret::new(line.as_str());
            if secret.is_empty() {
                return Err(no_value(flag, "nothing was typed"));
            }
            return Ok(secret);
        }
        if self.lines.is_none() {
            let mut all = Zeroizing::new(String::new());
            std::io::stdin()
                .read_to_string(&mut all)
                .map_err(|e| stdin_unreadable(flag, &e))?;
            let lines: Vec<Zeroizing<String>> =
                all.lines().map(|l| Zeroizing::new(l.to_string())).collect();
            self.lines = Some(lines.into_iter());
        }
        match self.lines.as_mut().and_then(Iterator::next) {
            Some(line) if !line.trim().is_empty() => Ok(Secret::new(line.as_str())),
            Some(_) => Err(no_value(flag, "its line is empty")),
            None => Err(no_value(flag, "the input ended")),
        }
    }

    /// A flag's value as a secret: `-` reads the next stdin line. A flag given an empty value
    /// (`--passphrase ""`) gives an empty secret, for validation to refuse by its flag: taken
    /// for "not given", it kept the stored value and the command said "updated".
    pub fn resolve(&mut self, flag: &str, value: Option<String>) -> Result<Option<Secret>> {
        let Some(value) = value else {
            return Ok(None);
        };
        let value = Zeroizing::new(value);
        let secret = if value.trim() == "-" {
            self.next_line(flag)?
        } else {
            Secret::new(value.as_str())
        };
        Ok(Some(secret))
    }
}

pub fn print_json<T: Serialize>(value: &T) -> Result<()> {
    let json = serde_json::to_string_pretty(value)?;
    println!(
        "{}",
        nofxi_domain::validation::json_without_raw_controls(json)
    );
    Ok(())
}

/// A plain aligned table: good enough for a terminal and for `grep`.
pub fn print_table(headers: &[&str], rows: &[Vec<String>]) {
    if rows.is_empty() {
        println!("(none)");
        return;
    }
    // Columns by display width: a Chinese character takes two terminal cells.
    let mut widths: Vec<usize> = headers.iter().map(|h| h.width()).collect();
    for row in rows {
        for (i, cell) in row.iter().enumerate() {
            if let Some(w) = widths.get_mut(i) {
                *w = (*w).max(cell.width());
            }
        }
    }
    let line = |cells: Vec<String>| {
        let padded: Vec<String> = cells
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let pad = widths
                    .get(i)
                    .copied()
                    .unwrap_or(0)
                    .saturating_sub(c.width());
                format!("{c}{}", " ".repeat(pad))
            })
            .collect();
        println!("{}", padded.join("  ").trim_end());
    };
    line(headers.iter().map(|h| h.to_string()).collect());
    for row in rows {
        line(row.clone());
    }
}

/// Adjustments go to stderr so `--json` output on stdout stays one parseable document.
pub fn report_adjustments(adjustments: &[Adjustment]) {
    for a in adjustments {
        eprintln!("note: {a}");
    }
}

pub fn yes_no(b: bool) -> String {
    if b { "yes" } else { "no" }.to_string()
}

/// Epoch milliseconds as a UTC timestamp a person can read.
pub fn time(ms: i64) -> String {
    time_on(ms, false)
}

/// A timestamp on its clock: UTC, or a simulated timeline's (`nofxi run --sim-speed`).
pub fn time_on(ms: i64, simulated: bool) -> String {
    labelled(ms, Precision::Second, simulated, false)
}

/// `delete` and `restore` share their wording across kinds.
pub fn removed_message(kind: &str, name: &str, restored: bool) -> String {
    if restored {
        format!("restored {kind} {name:?} from the trash")
    } else {
        format!(
            "moved {kind} {name:?} to the trash; `nofxi {kind} restore {name:?}` brings it back within 30 days"
        )
    }
}

/// `list [--deleted]`.
#[derive(Debug, clap::Args)]
pub struct ListArgs {
    /// List what is in the trash (restorable for 30 days) instead.
    #[arg(long)]
    pub deleted: bool,
}

/// A resource addressed by name (any letter case) or id.
#[derive(Debug, clap::Args)]
pub struct RefArg {
    /// Name (case-insensitive) or id.
    #[arg(value_name = "NAME_OR_ID")]
    pub reference: String,
}

/// `delete` and `restore`, the same for every kind.
pub async fn remove(
    global: &GlobalArgs,
    store: &Store,
    kind: nofxi_domain::ResourceKind,
    reference: &str,
    restore: bool,
) -> Result<()> {
    let actor = actor(global);
    let removed = if restore {
        store.restore(&actor, kind, reference).await?
    } else {
        store.delete(&actor, kind, reference).await?
    };
    if global.json {
        print_json(&removed)
    } else {
        println!("{}", removed_message(kind.as_str(), &removed.name, restore));
        Ok(())
    }
}

/// The error as the user reads it. Validation problems get the CLI flag that fixes each one.
pub fn render_error(err: &anyhow::Error) -> String {
    let Some(invalid) = err
        .downcast_ref::<nofxi_store::StoreError>()
        .and_then(|e| e.validation())
    else {
        // `{:#}` prints the whole context chain on one line: "what failed: why".
        return format!("{err:#}");
    };
    let mut out = match invalid.problems.len() {
        1 => "invalid input:".to_string(),
        n => format!("invalid input ({n} problems):"),
    };
    for p in &invalid.problems {
        // Said by the flag that fixes it, not by the stored field's name.
        let flag = flag_for(&p.field);
        // A field that only a `--config` file sets keeps its path, which says where in it.
        let said = if flag == "--config" {
            format!("{p} (in the --config file)")
        } else {
            p.to_string()
                .replacen(&format!("`{}`", p.field), &format!("`{flag}`"), 1)
        };
        out.push_str(&format!("\n  - {said}{}", secret_hint(&flag)));
    }
    out
}

/// Whether `err` is bad input the user can fix by changing the command: a usage error.
pub fn is_invalid_input(err: &anyhow::Error) -> bool {
    use nofxi_trader::runtime::connect::ConnectError;
    err.chain().any(|cause| cause.is::<Usage>())
        // An environment variable set to no usable URL is input, as a flag's value is.
        || matches!(
            err.downcast_ref::<ConnectError>(),
            Some(ConnectError::BadBaseUrl { .. })
        )
        || matches!(
            err.downcast_ref::<nofxi_store::StoreError>(),
            Some(nofxi_store::StoreError::RestoreBlocked { .. })
        )
        || err
            .downcast_ref::<nofxi_store::StoreError>()
            .and_then(|e| e.validation())
            .is_some()
        // A portfolio record, mark or name the user gave that is wrong, or names nothing.
        || err.is::<nofxi_portfolio::PortfolioError>()
        || matches!(
            err.downcast_ref::<nofxi_store::StoreError>(),
            Some(
                nofxi_store::StoreError::Portfolio(_)
                    | nofxi_store::StoreError::UnknownPortfolio { .. }
                    | nofxi_store::StoreError::PortfolioExists { .. }
            )
        )
}

/// Input refused outside resource validation (a flag's value, a file a flag names): the
/// message names the flag and the fix, and the command exits 2 as for clap's own usage errors.
#[derive(Debug)]
pub struct Usage(pub String);

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Usage {}

/// A decimal flag's value (`--initial-balance 1000`, `0.5`, `1e3`), refused with a message
/// that says what is wrong with it: clap's own parse of a `Decimal` said "Scale exceeds the
/// maximum precision" for `1e-30`, and a flag with `-inf` read it as the flag `-i`. Take it
/// with `allow_hyphen_values` so a negative or `-inf` value reaches this parser and the
/// command's range check names the flag. The value is not repeated: clap's "invalid value
/// '…' for '--flag'" before this message quotes it once, where the CLI escapes it or masks a
/// secret, and a second copy here, cut, would slip past that masking.
pub fn decimal_arg(text: &str) -> std::result::Result<rust_decimal::Decimal, String> {
    use std::str::FromStr;
    let t = text.trim();
    let lower = t.to_ascii_lowercase();
    let bare = lower.trim_start_matches(['-', '+']);
    if matches!(bare, "inf" | "infinity" | "nan") {
        return Err("not a finite number: give an amount such as 1000 or 12.5".to_string());
    }
    if let Ok(d) = rust_decimal::Decimal::from_str(t) {
        return Ok(d);
    }
    let scientific = t.contains(['e', 'E']);
    match rust_decimal::Decimal::from_scientific(t) {
        Ok(d) if scientific => Ok(d),
        _ if scientific || t.len() > 28 => Err(
            "outside what nofxi keeps exactly (at most 28 digits, from 1e-28 up to about 7.9e28): \
             give an amount such as 1000 or 12.5"
                .to_string(),
        ),
        _ => Err("not a number: give a decimal amount such as 1000 or 12.5".to_string()),
    }
}

/// A path the user gave, for an error about it: their own, but a file name can hold an
/// escape sequence that would rewrite the terminal the error is printed on.
pub fn shown_path(path: &std::path::Path) -> String {
    shown_input(&path.display().to_string())
}

/// [`shown_path`] uncut, for a line whose point is the whole path (`nofxi paths`).
pub fn whole_path(path: &std::path::Path) -> String {
    nofxi_domain::validation::escaped_input(&path.display().to_string())
}

/// A [`Usage`] error, for `return Err(usage(..))` and `.map_err(|e| usage(..))`.
pub fn usage(message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(Usage(message.into()))
}

/// `nofxi KIND update NAME` given nothing to change: refused (exit 2) naming what it takes,
/// instead of "updated" and an audit entry for a change that was not made.
pub fn nothing_to_change(kind: &str, flags: &str) -> anyhow::Error {
    usage(format!(
        "nothing to change: give at least one of {flags} (`nofxi {kind} update --help`)"
    ))
}

/// The other ways a secret flag takes its value: an environment variable, or standard input.
fn secret_hint(flag: &str) -> String {
    let name = flag.trim_start_matches("--");
    if !matches!(
        name,
        "api-key" | "secret-key" | "passphrase" | "private-key"
    ) {
        return String::new();
    }
    let env = format!("NOFXI_{}", name.replace('-', "_").to_uppercase());
    format!(" (or set {env}, or pass `{flag} -` to type it on standard input)")
}

/// The flag that sets a validated field.
fn flag_for(field: &str) -> String {
    const STRATEGY_FLAGS: &[&str] = &[
        "primary_timeframe",
        "primary_count",
        "longer_timeframe",
        "max_positions",
        "btc_eth_max_leverage",
        "altcoin_max_leverage",
        "max_position_value_ratio",
        "max_margin_usage",
        "min_position_size",
        "btc_eth_min_position_size",
        "min_risk_reward_ratio",
        "min_confidence",
        "custom_prompt",
    ];
    let last = field.rsplit('.').next().unwrap_or(field);
    let flag = match last {
        "account_name" => "name",
        "exchange_type" => "type",
        "ai_model_id" => "model",
        "exchange_id" => "exchange",
        "strategy_id" => "strategy",
        "scan_interval_minutes" => "scan-interval",
        "is_cross_margin" => "cross-margin",
        "is_active" => "active",
        "user" => "aster-user",
        "coin_source" | "static_coins" => "coins",
        "excluded_coins" => "excluded-coins",
        _ if field.contains('.') && !STRATEGY_FLAGS.contains(&last) => "config",
        other => return format!("--{}", other.replace('_', "-")),
    };
    format!("--{flag}")
}
