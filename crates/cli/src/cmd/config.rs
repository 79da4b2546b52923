//! `nofxi config get|set|unset KEY`: per-user settings. One key today: `assistant.model`, the
//! model config the assistant asks where rules cannot decide (none: rules only).

use anyhow::Result;
use clap::Subcommand;
use nofxi_assistant::assistant_model::{assistant_model, set_assistant_model};
use serde_json::json;

use super::common::{actor, block_on, open_store, print_json, usage};
use crate::home::GlobalArgs;

const KEYS: &[&str] = &["assistant.model"];

#[derive(Debug, Subcommand)]
pub enum ConfigCommand {
    /// Show a setting (all settings without KEY).
    Get { key: Option<String> },
    /// Change a setting: `nofxi config set assistant.model NAME`.
    Set { key: String, value: String },
    /// Clear a setting: `nofxi config unset assistant.model` (the assistant uses rules only).
    Unset { key: String },
}

pub fn run(global: &GlobalArgs, command: ConfigCommand) -> Result<()> {
    block_on(async {
        let store = open_store(global).await?;
        let user = &global.user;
        match command {
            ConfigCommand::Get { key } => {
                if let Some(k) = &key {
                    check_key(k)?;
                }
                let model = assistant_model(&store, user).await?;
                let name = model.map(|m| m.spec.name);
                if global.json {
                    return print_json(&json!({"assistant.model": name}));
                }
                println!(
                    "assistant.model = {}",
                    name.as_deref().unwrap_or("(none: rules only)")
                );
            }
            ConfigCommand::Set { key, value } => {
                check_key(&key)?;
                let model = set_assistant_model(&store, &actor(global), Some(&value)).await?;
                let name = model.map(|m| m.spec.name).unwrap_or_default();
                if global.json {
                    return print_json(&json!({"assistant.model": name}));
                }
                println!("assistant.model = {name}");
            }
            ConfigCommand::Unset { key } => {
                check_key(&key)?;
                set_assistant_model(&store, &actor(global), None).await?;
                if global.json {
                    return print_json(&json!({"assistant.model": null}));
                }
                println!("assistant.model cleared: the assistant uses rules only");
            }
        }
        Ok(())
    })?
}

fn check_key(key: &str) -> Result<()> {
    if KEYS.contains(&key) {
        return Ok(());
    }
    Err(usage(format!(
        "unknown setting `{}`: the settings are {} (e.g. `nofxi config set assistant.model NAME`)",
        nofxi_domain::validation::shown_input(key),
        KEYS.join(", ")
    )))
}
