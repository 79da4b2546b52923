//! Errors of the eval runner: a file that cannot be read or decoded, a setup the store refuses,
//! an engine that fails to open. A failing assertion is not an error; it is a case result.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    #[error("cannot read {}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: {place}: {message}", path.display())]
    Format {
        path: PathBuf,
        place: String,
        message: String,
    },
    #[error("setup failed: {0}")]
    Setup(String),
    #[error("could not open a fresh store: {0}")]
    Store(String),
    #[error("the engine could not be opened: {0}")]
    Engine(String),
}
