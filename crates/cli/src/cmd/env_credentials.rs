//! Credentials that come from the environment (`NOFXI_API_KEY`, `NOFXI_SECRET_KEY`, …).
//!
//! An exported variable is ambient: it is set for every command of the shell, including the
//! ones it was never meant for. So a value clap took from the environment, rather than from a
//! flag typed on this command line, is used only where it belongs: on `add`, for a field the
//! exchange type or model provider uses. Then its use is said on stderr. Anywhere else it is
//! ignored with a note: an `update` changes a stored credential only when a flag asks for it
//! (`--api-key -`, `--api-key VALUE`), and a key sent to a provider that needs none (an
//! Ollama URL on some host) would hand the key to whoever runs that host.

/// Which command is reading the credential.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verb {
    Add,
    Update,
}

/// The environment variable a credential flag falls back to (`api-key` → `NOFXI_API_KEY`).
pub fn env_var(flag: &str) -> String {
    format!("NOFXI_{}", flag.replace('-', "_").to_uppercase())
}

/// A credential flag's value as clap gave it, kept only where it may be used.
/// `used` is whether the exchange type / provider uses this field; `unused_why` says why not,
/// for the note (`binance accounts do not use wallet_addr`).
pub fn admit(
    flag: &str,
    value: Option<String>,
    verb: Verb,
    used: bool,
    unused_why: impl FnOnce() -> String,
) -> Option<String> {
    let value = value?;
    if typed_on_command_line(flag) {
        return Some(value);
    }
    let var = env_var(flag);
    let field = flag.replace('-', "_");
    match verb {
        Verb::Update => {
            eprintln!(
                "note: {var} is set, but update changes a stored {field} only when asked \
                 (`--{flag} -` or `--{flag} VALUE`): ignored"
            );
            None
        }
        Verb::Add if !used => {
            eprintln!("note: {var} is set, but {}: ignored", unused_why());
            None
        }
        Verb::Add => {
            eprintln!("note: {field} taken from {var}");
            Some(value)
        }
    }
}

/// Whether `--flag` was typed on this command line (as `--flag V` or `--flag=V`), rather than
/// its value taken from the environment.
fn typed_on_command_line(flag: &str) -> bool {
    let long = format!("--{flag}");
    let with_value = format!("{long}=");
    std::env::args_os()
        .skip(1)
        .take_while(|a| a != "--")
        .any(|a| {
            a.to_str()
                .is_some_and(|a| a == long || a.starts_with(&with_value))
        })
}
