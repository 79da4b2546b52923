//! `nofxi paths`: where the data is, so a user can back it up or point a second install at it.

use anyhow::Result;

use crate::home::GlobalArgs;

pub fn run(global: &GlobalArgs) -> Result<()> {
    let home = global.home_dir()?;
    let database = std::env::var("NOFXI_DATABASE_URL")
        .map(|_| "postgres (NOFXI_DATABASE_URL is set)".to_string())
        .unwrap_or_else(|_| home.join("nofxi.db").display().to_string());
    if global.json {
        let out = serde_json::json!({
            "home": home,
            "database": database,
            "skills": home.join("skills"),
        });
        println!("{out}");
    } else {
        println!("home      {}", home.display());
        println!("database  {database}");
        println!("skills    {}", home.join("skills").display());
    }
    Ok(())
}
