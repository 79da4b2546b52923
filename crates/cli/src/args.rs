//! The command line as clap reads it, with two changes made once for every command:
//!
//! - a numeric flag takes a negative number as its value (`audit --limit -1`,
//!   `--btc-eth-max-leverage -1`), so the refusal names the flag and what it takes instead of
//!   clap's "unexpected argument '-1' found"; a whole-number flag says it takes 0 or more;
//! - clap's usage errors are rendered here, and every argument they quote goes through the
//!   one rule for a user's value ([`shown_input`]): masked when the credential detector finds
//!   a key in it (a key typed as a stray positional: `model add --name x sk-…`), otherwise
//!   shown escaped (it could rewrite the terminal) and cut, so `--interval 0m` says what was
//!   wrong. Usage errors still exit 2.

use std::any::TypeId;
use std::ffi::OsStr;
use std::marker::PhantomData;
use std::process::ExitCode;
use std::str::FromStr;

use clap::builder::TypedValueParser;
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Arg, Command, CommandFactory, FromArgMatches};
use nofxi_domain::redact::looks_like_key;
use nofxi_domain::validation::shown_input;

/// `T` from this process's arguments, or the exit code of the usage error (or help) printed.
pub fn parse<T: CommandFactory + FromArgMatches>() -> Result<T, ExitCode> {
    let command = numbers_take_negatives(T::command());
    command
        .try_get_matches()
        .and_then(|mut matches| T::from_arg_matches_mut(&mut matches))
        .map_err(|err| report(&err))
}

fn report(err: &clap::Error) -> ExitCode {
    let code = u8::try_from(err.exit_code()).unwrap_or(2);
    // Help and version are printed as clap prints them (to stdout, exit 0).
    if !err.use_stderr() {
        let _ = err.print();
        return ExitCode::from(code);
    }
    eprint!("{}", rendered(err));
    ExitCode::from(code)
}

/// Every numeric argument of `command` and its subcommands, at any depth, takes a negative
/// number as its value; an unsigned one says what it takes when given anything else.
fn numbers_take_negatives(command: Command) -> Command {
    command
        .mut_args(numeric_arg)
        .mut_subcommands(numbers_take_negatives)
}

fn numeric_arg(arg: Arg) -> Arg {
    if !arg.get_action().takes_values() {
        return arg;
    }
    let kind = arg.get_value_parser().type_id();
    let is = |id: TypeId| kind == id;
    let signed = [
        TypeId::of::<i8>(),
        TypeId::of::<i16>(),
        TypeId::of::<i32>(),
        TypeId::of::<i64>(),
        TypeId::of::<isize>(),
        TypeId::of::<f32>(),
        TypeId::of::<f64>(),
        TypeId::of::<rust_decimal::Decimal>(),
    ];
    if signed.into_iter().any(is) {
        return arg.allow_negative_numbers(true);
    }
    // Unsigned flags are parsed by clap's own integer parsers (no flag sets a range on one:
    // ranges are the domain's validation, which names the field), so this takes their place.
    let whole = |arg: Arg, parser: clap::builder::ValueParser| {
        arg.allow_negative_numbers(true).value_parser(parser)
    };
    if is(TypeId::of::<u8>()) {
        whole(arg, WholeNumber::<u8>::new().into())
    } else if is(TypeId::of::<u16>()) {
        whole(arg, WholeNumber::<u16>::new().into())
    } else if is(TypeId::of::<u32>()) {
        whole(arg, WholeNumber::<u32>::new().into())
    } else if is(TypeId::of::<u64>()) {
        whole(arg, WholeNumber::<u64>::new().into())
    } else if is(TypeId::of::<usize>()) {
        whole(arg, WholeNumber::<usize>::new().into())
    } else {
        arg
    }
}

/// An unsigned integer, refused with the flag's name, what it takes and its help (which
/// states the flag's range: "1–20.").
#[derive(Clone)]
struct WholeNumber<T>(PhantomData<fn() -> T>);

impl<T> WholeNumber<T> {
    fn new() -> WholeNumber<T> {
        WholeNumber(PhantomData)
    }
}

impl<T: FromStr + Clone + Send + Sync + 'static> TypedValueParser for WholeNumber<T> {
    type Value = T;

    fn parse_ref(
        &self,
        command: &Command,
        arg: Option<&Arg>,
        value: &OsStr,
    ) -> Result<T, clap::Error> {
        let text = value.to_string_lossy();
        text.trim().parse::<T>().map_err(|_| {
            let flag = arg
                .map(flag_name)
                .unwrap_or_else(|| "the value".to_string());
            let given = format!(", not {}", shown_input(&text));
            let help = arg
                .and_then(Arg::get_help)
                .map(|h| format!(": {h}"))
                .unwrap_or_default();
            clap::Error::raw(
                ErrorKind::ValueValidation,
                format!("`{flag}` takes a whole number of 0 or more{given}{help}\n"),
            )
            .with_cmd(command)
        })
    }
}

fn flag_name(arg: &Arg) -> String {
    match (arg.get_long(), arg.get_short()) {
        (Some(long), _) => format!("--{long}"),
        (None, Some(short)) => format!("-{short}"),
        (None, None) => format!("<{}>", arg.get_id().as_str().to_uppercase()),
    }
}

/// clap's message with every argument it quotes shown by the one rule ([`shown_input`]: a key
/// masked, anything else escaped and cut).
fn rendered(err: &clap::Error) -> String {
    let mut text = err.render().to_string();
    let quoted = err
        .context()
        .filter_map(|(kind, value)| match (kind, value) {
            // For other kinds the invalid "argument" is the flag's own spec (`--lang <LANG>`).
            (ContextKind::InvalidArg, ContextValue::String(s))
                if err.kind() == ErrorKind::UnknownArgument =>
            {
                Some(s.as_str())
            }
            (
                ContextKind::InvalidValue | ContextKind::InvalidSubcommand,
                ContextValue::String(s),
            ) => Some(s.as_str()),
            _ => None,
        });
    let mut masked_any = false;
    let values: Vec<&str> = quoted.collect();
    for value in values {
        let secret = looks_like_key(value);
        let shown = shown_input(value);
        if shown == value {
            continue;
        }
        masked_any |= secret;
        for (open, close) in [("'", "'"), ("\"", "\""), ("'-- ", "'")] {
            text = text.replace(
                &format!("{open}{value}{close}"),
                &format!("{open}{shown}{close}"),
            );
        }
        // A parser's own words may quote it otherwise ("{value:?} is not a language").
        if secret && value.len() >= 6 {
            text = text.replace(value, &shown);
        }
    }
    if masked_any {
        text.push_str(
            "\nAn argument that could be a secret is not repeated here: a key is given after its flag (or `-` to read it from standard input).\n",
        );
    }
    text
}
