//! `nofxi user add|list|disable` and `nofxi token create|list|revoke`: the accounts of
//! `nofxi serve`'s multi-user mode. Adding the first user switches `serve` from local mode
//! (no login, loopback only) to logins and tokens at its next start.
//!
//! A password is read without echo at a terminal, or as one line of standard input
//! (`--password -`, the default), never as a command-line value that shell history keeps.

use anyhow::Result;
use clap::Subcommand;
use nofxi_store::{ApiToken, Scope, User};
use serde_json::json;

use super::common::{StdinSecrets, block_on, open_store, print_json, print_table, time, usage};
use crate::home::GlobalArgs;

#[derive(Debug, Subcommand)]
pub enum UserCommand {
    /// Add a user who logs in to `nofxi serve` (the password is asked for, or read from stdin).
    Add {
        /// 1–32 of a-z, 0-9, '.', '_', '-'. The user `local` is the CLI's default user: adding
        /// it lets you log in to the traders you made without a login.
        name: String,
        /// `-` (the default): type it at the prompt or pipe it in as one line.
        #[arg(long, default_value = "-", value_name = "-")]
        password: String,
    },
    /// List users and whether they can log in.
    List,
    /// Stop a user from logging in: their sessions end and their tokens stop working; their
    /// traders and settings stay.
    Disable { name: String },
}

#[derive(Debug, Subcommand)]
pub enum TokenCommand {
    /// Create an API token for `--user` (shown once; send it as `Authorization: Bearer …`).
    Create {
        /// What the token is for, shown in `token list`.
        #[arg(long, default_value = "script")]
        label: String,
        /// Comma-separated: read, write (change objects, chat, backtests), trade (start and
        /// stop traders).
        #[arg(long, default_value = "read")]
        scopes: String,
    },
    /// List `--user`'s tokens (never their secret part).
    List,
    /// Revoke one of `--user`'s tokens by id; it stops working at once.
    Revoke { id: String },
}

pub fn run_user(global: &GlobalArgs, command: UserCommand) -> Result<()> {
    block_on(async {
        let store = open_store(global).await?;
        match command {
            UserCommand::Add { name, password } => {
                if password.trim() != "-" {
                    return Err(usage(
                        "`--password` takes only `-` (type the password at the prompt or pipe it in), so it never lands in shell history",
                    ));
                }
                let password = StdinSecrets::default()
                    .resolve("password", Some(password))?
                    .ok_or_else(|| usage("`--password`: the password is empty"))?;
                let user = store
                    .add_user(&name, &password)
                    .await
                    .map_err(positional_name)?;
                if global.json {
                    return print_json(&user_json(&user));
                }
                println!(
                    "user {} added: restart `nofxi serve` if it runs, then log in as {}",
                    user.name, user.name
                );
            }
            UserCommand::List => {
                let users = store.list_users().await?;
                if global.json {
                    return print_json(&users.iter().map(user_json).collect::<Vec<_>>());
                }
                let rows: Vec<Vec<String>> = users
                    .iter()
                    .map(|u| {
                        vec![
                            u.name.clone(),
                            u.disabled_at.map_or("active".into(), |_| "disabled".into()),
                            time(u.created_at),
                        ]
                    })
                    .collect();
                print_table(&["USER", "STATE", "CREATED"], &rows);
            }
            UserCommand::Disable { name } => {
                let user = store.disable_user(&name).await?;
                if global.json {
                    return print_json(&user_json(&user));
                }
                println!(
                    "user {} disabled: their sessions ended and their tokens stopped working",
                    user.name
                );
            }
        }
        Ok(())
    })?
}

pub fn run_token(global: &GlobalArgs, command: TokenCommand) -> Result<()> {
    block_on(async {
        let store = open_store(global).await?;
        let user = &global.user;
        match command {
            TokenCommand::Create { label, scopes } => {
                let scopes = Scope::parse_list(&scopes).map_err(|e| usage(e.to_string()))?;
                let created = store.create_token(user, &label, &scopes).await?;
                if global.json {
                    let mut value = token_json(&created.token);
                    value["token"] = json!(created.text.as_str());
                    return print_json(&value);
                }
                println!("{}", created.text.as_str());
                eprintln!(
                    "token {} for {user} ({}): shown once, keep it somewhere safe; send it as `Authorization: Bearer …`",
                    created.token.id,
                    scope_names(&created.token.scopes)
                );
            }
            TokenCommand::List => {
                let tokens = store.list_tokens(user).await?;
                if global.json {
                    return print_json(&tokens.iter().map(token_json).collect::<Vec<_>>());
                }
                let rows: Vec<Vec<String>> = tokens
                    .iter()
                    .map(|t| {
                        vec![
                            t.id.clone(),
                            t.label.clone(),
                            scope_names(&t.scopes),
                            t.revoked_at.map_or("active".into(), |_| "revoked".into()),
                            t.last_used_at.map_or("-".into(), time),
                        ]
                    })
                    .collect();
                print_table(&["ID", "LABEL", "SCOPES", "STATE", "LAST USED"], &rows);
            }
            TokenCommand::Revoke { id } => {
                let token = store.revoke_token(user, &id).await?;
                if global.json {
                    return print_json(&token_json(&token));
                }
                println!("token {} revoked", token.id);
            }
        }
        Ok(())
    })?
}

/// The user's name is the positional NAME, not a `--name` flag: say it so.
fn positional_name(err: nofxi_store::StoreError) -> anyhow::Error {
    match err.validation() {
        Some(invalid) => usage(invalid.to_string().replace("`name`", "NAME")),
        None => err.into(),
    }
}

fn scope_names(scopes: &[Scope]) -> String {
    scopes
        .iter()
        .map(|s| s.as_str())
        .collect::<Vec<_>>()
        .join(",")
}

fn user_json(user: &User) -> serde_json::Value {
    json!({
        "name": user.name,
        "active": user.disabled_at.is_none(),
        "created_at": user.created_at,
        "disabled_at": user.disabled_at,
    })
}

fn token_json(token: &ApiToken) -> serde_json::Value {
    json!({
        "id": token.id,
        "user": token.user,
        "label": token.label,
        "scopes": token.scopes.iter().map(|s| s.as_str()).collect::<Vec<_>>(),
        "created_at": token.created_at,
        "last_used_at": token.last_used_at,
        "revoked_at": token.revoked_at,
    })
}
