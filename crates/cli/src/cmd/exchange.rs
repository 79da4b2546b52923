//! `nofxi exchange …`: exchange accounts and their credentials.
//!
//! Each credential field has a flag, an environment variable (`NOFXI_<FIELD>`) and `-` for
//! standard input (one line per `-` flag, in the order the flags are listed in `--help`).
//! Aster's `user` field is `--aster-user`, since `--user` already names the nofxi user.
//! Values are never printed: output shows `has_…` flags and masks.

use anyhow::Result;
use clap::{Args, Subcommand};
use nofxi_domain::validation::shown_input;
use nofxi_domain::{
    CredentialField, Credentials, Exchange, ExchangePatch, ExchangeSpec, ExchangeType,
    MarketSource, ResourceKind,
};

use super::common::{
    ListArgs, RefArg, StdinSecrets, actor, block_on, open_store, print_json, print_table, remove,
    time, usage, yes_no,
};
use super::env_credentials::{self, Verb};
use crate::home::GlobalArgs;

const KIND: ResourceKind = ResourceKind::Exchange;

#[derive(Debug, Subcommand)]
pub enum ExchangeCommand {
    /// List exchange accounts (credentials appear only as has_… flags).
    List(ListArgs),
    /// Show one exchange account.
    Show(RefArg),
    /// Add an exchange account.
    Add(ExchangeFields),
    /// Change an exchange account; only the flags given change.
    Update {
        #[command(flatten)]
        target: RefArg,
        #[command(flatten)]
        fields: ExchangeFields,
    },
    /// Move an exchange account to the trash (restorable for 30 days).
    Delete(RefArg),
    /// Bring an exchange account back from the trash, credentials intact.
    Restore(RefArg),
    /// List the exchange types and the credentials each needs.
    Types,
    /// Check the connection: clock, API key, IP whitelist, permissions, position mode, balance.
    Test(RefArg),
    /// Show the account's balance, equity and margin.
    Balance(RefArg),
    /// Show open positions with P&L and liquidation price.
    Positions(RefArg),
}

#[derive(Debug, Args)]
pub struct ExchangeFields {
    /// Account type: paper, binance, bybit, okx, bitget, hyperliquid. (gate, kucoin, aster
    /// and lighter accounts made by an earlier nofxi are kept, but cannot trade.)
    #[arg(long = "type", value_name = "TYPE")]
    pub exchange_type: Option<String>,
    /// Account name, unique among your exchange accounts (case-insensitive).
    #[arg(long, visible_alias = "account-name")]
    pub name: Option<String>,
    /// Whether traders may use it (default true).
    #[arg(long, value_name = "true|false")]
    pub enabled: Option<bool>,
    /// Use the exchange's testnet (default false).
    #[arg(long, value_name = "true|false")]
    pub testnet: Option<bool>,
    /// Paper accounts: where prices come from: simulated (default, offline) or binance, okx,
    /// bybit, hyperliquid, bitget (that venue's public market data and fees; fills stay
    /// simulated).
    #[arg(long, value_name = "SOURCE")]
    pub market: Option<String>,
    /// API key (binance, bybit, gate, okx, bitget, kucoin; hyperliquid: agent-wallet private key).
    #[arg(
        long,
        env = "NOFXI_API_KEY",
        hide_env_values = true,
        value_name = "VALUE|-"
    )]
    pub api_key: Option<String>,
    /// API secret (binance, bybit, gate, okx, bitget, kucoin).
    #[arg(
        long,
        env = "NOFXI_SECRET_KEY",
        hide_env_values = true,
        value_name = "VALUE|-"
    )]
    pub secret_key: Option<String>,
    /// API passphrase (okx, bitget, kucoin).
    #[arg(
        long,
        env = "NOFXI_PASSPHRASE",
        hide_env_values = true,
        value_name = "VALUE|-"
    )]
    pub passphrase: Option<String>,
    /// Wallet address (hyperliquid, lighter).
    #[arg(
        long,
        env = "NOFXI_WALLET_ADDR",
        hide_env_values = true,
        value_name = "VALUE|-"
    )]
    pub wallet_addr: Option<String>,
    /// Aster `user` (main wallet address).
    #[arg(
        long,
        env = "NOFXI_ASTER_USER",
        hide_env_values = true,
        value_name = "VALUE|-"
    )]
    pub aster_user: Option<String>,
    /// Aster signer address.
    #[arg(
        long,
        env = "NOFXI_SIGNER",
        hide_env_values = true,
        value_name = "VALUE|-"
    )]
    pub signer: Option<String>,
    /// Aster private key.
    #[arg(
        long,
        env = "NOFXI_PRIVATE_KEY",
        hide_env_values = true,
        value_name = "VALUE|-"
    )]
    pub private_key: Option<String>,
    /// Lighter API key private key.
    #[arg(
        long,
        env = "NOFXI_API_KEY_PRIVATE_KEY",
        hide_env_values = true,
        value_name = "VALUE|-"
    )]
    pub api_key_private_key: Option<String>,
    /// Lighter API key index, 0–255.
    #[arg(
        long,
        env = "NOFXI_API_KEY_INDEX",
        hide_env_values = true,
        value_name = "N|-"
    )]
    pub api_key_index: Option<String>,
}

impl ExchangeFields {
    /// Every credential flag that was given, `-` ones read from stdin in declaration order.
    /// A value taken from its environment variable is kept only on `add` and for a field
    /// `kind` uses ([`env_credentials::admit`]); a flag typed for an unused field is still
    /// refused by validation, as a likely mix-up.
    fn credentials(&mut self, kind: Option<ExchangeType>, verb: Verb) -> Result<Credentials> {
        let mut stdin = StdinSecrets::default();
        let mut out = Credentials::new();
        let flags = [
            (CredentialField::ApiKey, "api-key", self.api_key.take()),
            (
                CredentialField::SecretKey,
                "secret-key",
                self.secret_key.take(),
            ),
            (
                CredentialField::Passphrase,
                "passphrase",
                self.passphrase.take(),
            ),
            (
                CredentialField::WalletAddr,
                "wallet-addr",
                self.wallet_addr.take(),
            ),
            (CredentialField::User, "aster-user", self.aster_user.take()),
            (CredentialField::Signer, "signer", self.signer.take()),
            (
                CredentialField::PrivateKey,
                "private-key",
                self.private_key.take(),
            ),
            (
                CredentialField::ApiKeyPrivateKey,
                "api-key-private-key",
                self.api_key_private_key.take(),
            ),
            (
                CredentialField::ApiKeyIndex,
                "api-key-index",
                self.api_key_index.take(),
            ),
        ];
        for (field, flag, value) in flags {
            let used = kind.is_some_and(|k| k.required_credentials().contains(&field));
            let why = || match kind {
                Some(k) => format!("{k} accounts do not use {field}"),
                None => "the account type is not one nofxi knows".to_string(),
            };
            let value = env_credentials::admit(flag, value, verb, used, why);
            if let Some(secret) = stdin.resolve(flag, value)? {
                out.set(field, secret);
            }
        }
        Ok(out)
    }
}

pub fn run(global: &GlobalArgs, command: ExchangeCommand) -> Result<()> {
    match command {
        ExchangeCommand::Types => types(global),
        other => block_on(run_async(global, other))?,
    }
}

async fn run_async(global: &GlobalArgs, command: ExchangeCommand) -> Result<()> {
    let store = open_store(global).await?;
    let user = &global.user;
    match command {
        ExchangeCommand::List(args) => {
            let exchanges = store.list_exchanges(user, args.deleted).await?;
            if global.json {
                return print_json(&exchanges);
            }
            let rows = exchanges
                .iter()
                .map(|e| {
                    vec![
                        e.spec.account_name.clone(),
                        type_with_prices(e),
                        yes_no(e.spec.enabled),
                        yes_no(e.spec.testnet),
                        credential_summary(e),
                        e.id.clone(),
                    ]
                })
                .collect::<Vec<_>>();
            print_table(
                &["NAME", "TYPE", "ENABLED", "TESTNET", "CREDENTIALS", "ID"],
                &rows,
            );
            Ok(())
        }
        ExchangeCommand::Show(r) => {
            let exchange = store.get_exchange(user, &r.reference).await?;
            if global.json {
                return print_json(&exchange);
            }
            show(&exchange);
            Ok(())
        }
        ExchangeCommand::Add(mut fields) => {
            let market = market_arg(fields.market.as_deref())?.unwrap_or_default();
            let kind = fields.exchange_type.as_deref().and_then(|t| t.parse().ok());
            let credentials = fields.credentials(kind, Verb::Add)?;
            let spec = ExchangeSpec {
                exchange_type: fields.exchange_type.unwrap_or_default(),
                account_name: fields.name.unwrap_or_default(),
                enabled: fields.enabled.unwrap_or(true),
                testnet: fields.testnet.unwrap_or(false),
            };
            // A type not offered for new accounts is refused by the store, naming `--type`.
            let exchange = store
                .create_exchange_with_market(&actor(global), spec, credentials, market)
                .await?;
            done(global, "created", &exchange)
        }
        ExchangeCommand::Update { target, mut fields } => {
            let market = market_arg(fields.market.as_deref())?;
            let kind = match fields.exchange_type.as_deref() {
                Some(t) => t.parse().ok(),
                None => store
                    .get_exchange(user, &target.reference)
                    .await?
                    .spec
                    .exchange_type(),
            };
            let credentials = fields.credentials(kind, Verb::Update)?;
            let patch = ExchangePatch {
                exchange_type: fields.exchange_type,
                account_name: fields.name,
                enabled: fields.enabled,
                testnet: fields.testnet,
            };
            let changes_more = patch != ExchangePatch::default() || !credentials.is_empty();
            if !changes_more && market.is_none() {
                return Err(super::common::nothing_to_change(
                    KIND.as_str(),
                    "--name, --enabled, --testnet, --market, --api-key, --secret-key, --passphrase",
                ));
            }
            let mut exchange = match (changes_more, market) {
                // Only the market source: no other change to record.
                (false, Some(_)) => store.get_exchange(user, &target.reference).await?,
                _ => {
                    store
                        .update_exchange(&actor(global), &target.reference, patch, credentials)
                        .await?
                }
            };
            if let Some(market) = market {
                exchange = store
                    .set_exchange_market(&actor(global), &exchange.id, market)
                    .await?;
            }
            done(global, "updated", &exchange)
        }
        ExchangeCommand::Delete(r) => remove(global, &store, KIND, &r.reference, false).await,
        ExchangeCommand::Test(r) => super::exchange_live::test(global, store, &r.reference).await,
        ExchangeCommand::Balance(r) => {
            super::exchange_live::balance(global, store, &r.reference).await
        }
        ExchangeCommand::Positions(r) => {
            super::exchange_live::positions(global, store, &r.reference).await
        }
        ExchangeCommand::Restore(r) => remove(global, &store, KIND, &r.reference, true).await,
        // Answered in `run` without opening the store.
        ExchangeCommand::Types => types(global),
    }
}

/// `api_key ✓ secret_key ✗`-style, or `none needed` for paper.
fn credential_summary(e: &Exchange) -> String {
    if e.credentials.is_empty() {
        return "none needed".into();
    }
    e.credentials
        .iter()
        .map(|(field, status)| format!("{field} {}", if status.present { "✓" } else { "✗" }))
        .collect::<Vec<_>>()
        .join(" ")
}

fn done(global: &GlobalArgs, verb: &str, exchange: &Exchange) -> Result<()> {
    if global.json {
        return print_json(exchange);
    }
    println!(
        "{verb} exchange {:?} ({}, id {})",
        exchange.spec.account_name, exchange.spec.exchange_type, exchange.id
    );
    if exchange.market != MarketSource::Simulated {
        println!("prices: {}", exchange.market.label());
    }
    Ok(())
}

/// The `--market` flag, refused by name when it is no market source.
fn market_arg(text: Option<&str>) -> Result<Option<MarketSource>> {
    let Some(text) = text else { return Ok(None) };
    text.parse::<MarketSource>().map(Some).map_err(|_| {
        usage(format!(
            "--market \"{}\" is not a market source: use {}",
            shown_input(text),
            MarketSource::names().join(", ")
        ))
    })
}

/// `paper (binance prices)` for a paper account that follows a venue, `gate (trading not
/// available)` for one of a type nofxi cannot trade on; the type otherwise.
fn type_with_prices(e: &Exchange) -> String {
    match e.market.venue() {
        Some(venue) => format!("{} ({venue} prices)", e.spec.exchange_type),
        None if !tradable(e) => format!("{} (trading not available)", e.spec.exchange_type),
        None => e.spec.exchange_type.clone(),
    }
}

/// Whether nofxi trades on the account's type (an account an older nofxi made may not).
fn tradable(e: &Exchange) -> bool {
    e.spec.exchange_type().is_some_and(|k| k.can_trade())
}

fn show(e: &Exchange) {
    println!("name        {}", e.spec.account_name);
    println!("id          {}", e.id);
    println!("type        {}", e.spec.exchange_type);
    println!("enabled     {}", yes_no(e.spec.enabled));
    println!("testnet     {}", yes_no(e.spec.testnet));
    if e.spec.exchange_type == "paper" {
        println!("prices      {}", e.market.label());
    }
    if !tradable(e) {
        println!(
            "trading     not available: nofxi trades on {} only; this account is kept as a config (update or delete it)",
            ExchangeType::tradable()
        );
    }
    for (field, status) in &e.credentials {
        let shown = match &status.masked {
            Some(mask) => format!("set ({mask})"),
            None => "missing".to_string(),
        };
        println!("{field:<11} {shown}");
    }
    println!("created     {}", time(e.created_at));
    println!("updated     {}", time(e.updated_at));
}

fn types(global: &GlobalArgs) -> Result<()> {
    let table: Vec<(ExchangeType, Vec<&str>)> = ExchangeType::ALL
        .iter()
        .map(|t| {
            let fields = t.required_credentials().iter().map(|f| f.as_str());
            (*t, fields.collect())
        })
        .collect();
    if global.json {
        let map: serde_json::Map<String, serde_json::Value> = table
            .into_iter()
            .map(|(t, fields)| {
                let row = serde_json::json!({
                    "required_credentials": fields,
                    "can_trade": t.can_trade(),
                    "offered": t.offered(),
                });
                (t.to_string(), row)
            })
            .collect();
        return print_json(&map);
    }
    let rows = table
        .into_iter()
        .map(|(t, fields)| {
            let trading = if t.can_trade() {
                "yes"
            } else {
                "not available"
            };
            let new = if t.offered() {
                "yes"
            } else {
                "no (accounts made earlier are kept)"
            };
            let needed = if fields.is_empty() {
                "(none)".to_string()
            } else {
                fields.join(", ")
            };
            vec![t.to_string(), needed, trading.into(), new.into()]
        })
        .collect::<Vec<_>>();
    print_table(
        &["TYPE", "REQUIRED CREDENTIALS", "TRADING", "NEW ACCOUNTS"],
        &rows,
    );
    Ok(())
}
