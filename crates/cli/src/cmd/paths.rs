//! `nofxi paths`: where the data is, so a user can back it up or point a second install at it.
//! Nothing here opens the database or creates the vault key; it only reports.

use anyhow::Result;
use nofxi_domain::validation::escaped_input;
use nofxi_store::{DATABASE_URL_ENV, MASTER_KEY_ENV, SQLITE_FILE_NAME, key_file_path, redact_url};

use crate::cmd::common::whole_path;
use crate::home::GlobalArgs;

pub fn run(global: &GlobalArgs) -> Result<()> {
    let home = global.home_dir()?;
    let database = match std::env::var(DATABASE_URL_ENV) {
        Ok(url) if !url.trim().is_empty() => {
            format!(
                "{} ({DATABASE_URL_ENV})",
                escaped_input(&redact_url(url.trim()))
            )
        }
        _ => whole_path(&home.join(SQLITE_FILE_NAME)),
    };
    let key_file = key_file_path(&home);
    let vault_key = if std::env::var_os(MASTER_KEY_ENV).is_some() {
        format!("{MASTER_KEY_ENV} (environment; the key file is not used)")
    } else if key_file.exists() {
        whole_path(&key_file)
    } else {
        format!("{} (created on first use)", whole_path(&key_file))
    };
    if global.json {
        let out = serde_json::json!({
            "home": home,
            "database": database,
            "vault_key": vault_key,
            "skills": home.join("skills"),
            "history": home.join("history"),
        });
        println!("{out}");
    } else {
        println!("home       {}", whole_path(&home));
        println!("database   {database}");
        println!("vault key  {vault_key}");
        println!("skills     {}", whole_path(&home.join("skills")));
        println!("history    {}", whole_path(&home.join("history")));
    }
    Ok(())
}
