//! `nofxi paths`: where the data is, so a user can back it up or point a second install at it.
//! Nothing here opens the database or creates the vault key; it only reports.

use anyhow::Result;
use nofxi_store::{DATABASE_URL_ENV, MASTER_KEY_ENV, SQLITE_FILE_NAME, key_file_path, redact_url};

use crate::home::GlobalArgs;

pub fn run(global: &GlobalArgs) -> Result<()> {
    let home = global.home_dir()?;
    let database = match std::env::var(DATABASE_URL_ENV) {
        Ok(url) if !url.trim().is_empty() => {
            format!("{} ({DATABASE_URL_ENV})", redact_url(url.trim()))
        }
        _ => home.join(SQLITE_FILE_NAME).display().to_string(),
    };
    let key_file = key_file_path(&home);
    let vault_key = if std::env::var_os(MASTER_KEY_ENV).is_some() {
        format!("{MASTER_KEY_ENV} (environment; the key file is not used)")
    } else if key_file.exists() {
        key_file.display().to_string()
    } else {
        format!("{} (created on first use)", key_file.display())
    };
    if global.json {
        let out = serde_json::json!({
            "home": home,
            "database": database,
            "vault_key": vault_key,
            "skills": home.join("skills"),
        });
        println!("{out}");
    } else {
        println!("home       {}", home.display());
        println!("database   {database}");
        println!("vault key  {vault_key}");
        println!("skills     {}", home.join("skills").display());
    }
    Ok(())
}
