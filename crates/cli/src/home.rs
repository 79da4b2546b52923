//! Where nofxi's data lives and who is asking: the flags every command shares.

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;

#[derive(Debug, Clone, Args)]
pub struct GlobalArgs {
    /// Data directory (database, vault key, user skills). Default: the platform data dir.
    #[arg(long, global = true, env = "NOFXI_HOME", value_name = "DIR")]
    pub home: Option<PathBuf>,
    /// The user whose resources a command reads and changes.
    #[arg(long, global = true, default_value = "local", value_name = "NAME")]
    pub user: String,
    /// Print machine-readable JSON instead of a table.
    #[arg(long, global = true)]
    pub json: bool,
}

impl GlobalArgs {
    /// The data directory, created if missing. `--home` and `NOFXI_HOME` win over the platform
    /// default so tests and several installs never share a database by accident.
    pub fn home_dir(&self) -> Result<PathBuf> {
        let dir = match &self.home {
            Some(dir) => dir.clone(),
            None => dirs::data_dir()
                .map(|d| d.join("nofxi"))
                .context("no platform data directory: pass --home DIR or set NOFXI_HOME")?,
        };
        if !dir.exists() {
            // Owner-only: the directory holds the database and the vault key.
            let mut builder = std::fs::DirBuilder::new();
            builder.recursive(true);
            #[cfg(unix)]
            {
                use std::os::unix::fs::DirBuilderExt;
                builder.mode(0o700);
            }
            builder.create(&dir).with_context(|| {
                format!(
                    "cannot create the data directory {}",
                    crate::cmd::common::shown_path(&dir)
                )
            })?;
        }
        Ok(dir)
    }
}
