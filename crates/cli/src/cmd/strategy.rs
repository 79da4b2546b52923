//! `nofxi strategy …`: trading templates. The common risk and coin settings have their own
//! flags; anything else goes through `--config FILE` (JSON, `-` for stdin), with the flags
//! applied on top. Omitted config fields keep their defaults (on add) or current values.

use anyhow::{Context, Result};
use clap::{Args, Subcommand};
use nofxi_domain::validation::shown_input;
use nofxi_domain::{Interval, ResourceKind, Strategy, StrategyConfig, StrategyPatch, StrategySpec};
use rust_decimal::Decimal;

use super::common::{
    ListArgs, RefArg, actor, block_on, decimal_arg, open_store, print_json, print_table, remove,
    time, yes_no,
};
use crate::home::GlobalArgs;

const KIND: ResourceKind = ResourceKind::Strategy;

#[derive(Debug, Subcommand)]
pub enum StrategyCommand {
    /// List strategies.
    List(ListArgs),
    /// Show one strategy with its whole config.
    Show(RefArg),
    /// Add a strategy (reference defaults for everything not given).
    Add(StrategyFields),
    /// Change a strategy; only the flags given change.
    Update {
        #[command(flatten)]
        target: RefArg,
        #[command(flatten)]
        fields: StrategyFields,
    },
    /// Move a strategy to the trash (restorable for 30 days).
    Delete(RefArg),
    /// Bring a strategy back from the trash.
    Restore(RefArg),
}

#[derive(Debug, Args)]
pub struct StrategyFields {
    /// Name, unique among your strategies (case-insensitive).
    #[arg(long)]
    pub name: Option<String>,
    #[arg(long)]
    pub description: Option<String>,
    /// Make it the active strategy (deactivates your others).
    #[arg(long, value_name = "true|false")]
    pub active: Option<bool>,
    /// Whole config as JSON, from a file or `-` for stdin; flags below override it.
    #[arg(long, value_name = "FILE|-")]
    pub config: Option<String>,
    /// Coins always considered, comma-separated (BTCUSDT,ETHUSDT).
    #[arg(long, value_delimiter = ',')]
    pub coins: Option<Vec<String>>,
    /// Coins never traded, comma-separated.
    #[arg(long, value_delimiter = ',')]
    pub excluded_coins: Option<Vec<String>>,
    /// Primary candle timeframe (1m 3m 5m 15m 30m 1h 2h 4h 6h 12h 1d 1w).
    #[arg(long)]
    pub primary_timeframe: Option<Interval>,
    /// Candles of the primary timeframe, 10–30.
    #[arg(long)]
    pub primary_count: Option<u32>,
    #[arg(long)]
    pub longer_timeframe: Option<Interval>,
    /// Open positions at once, 1–8.
    #[arg(long)]
    pub max_positions: Option<u32>,
    /// 1–20.
    #[arg(long)]
    pub btc_eth_max_leverage: Option<u32>,
    /// 1–20.
    #[arg(long)]
    pub altcoin_max_leverage: Option<u32>,
    /// Position value limit as a multiple of equity.
    #[arg(long, allow_hyphen_values = true, value_parser = decimal_arg)]
    pub max_position_value_ratio: Option<Decimal>,
    /// Share of equity usable as margin, up to 1.
    #[arg(long, allow_hyphen_values = true, value_parser = decimal_arg)]
    pub max_margin_usage: Option<Decimal>,
    /// Smallest altcoin position in USDT.
    #[arg(long, allow_hyphen_values = true, value_parser = decimal_arg)]
    pub min_position_size: Option<Decimal>,
    /// Smallest BTC/ETH position in USDT.
    #[arg(long, allow_hyphen_values = true, value_parser = decimal_arg)]
    pub btc_eth_min_position_size: Option<Decimal>,
    #[arg(long, allow_hyphen_values = true, value_parser = decimal_arg)]
    pub min_risk_reward_ratio: Option<Decimal>,
    /// Model confidence needed to open, 50–100.
    #[arg(long)]
    pub min_confidence: Option<u32>,
    /// Extra instructions appended to the prompt.
    #[arg(long)]
    pub custom_prompt: Option<String>,
}

impl StrategyFields {
    /// Builds the config: `--config` (else `base`), then each flag on top.
    fn config(&self, base: &StrategyConfig) -> Result<StrategyConfig> {
        let mut c = match &self.config {
            Some(source) => {
                let text = if source == "-" {
                    std::io::read_to_string(std::io::stdin())
                        .context("cannot read the config from standard input")?
                } else {
                    std::fs::read_to_string(source).with_context(|| {
                        format!("cannot read the config file {}", shown_input(source))
                    })?
                };
                serde_json::from_str(&text).context(
                    "the config is not valid strategy JSON: see `nofxi strategy show NAME --json` for the shape",
                )?
            }
            None => base.clone(),
        };
        let r = &mut c.risk_control;
        set(&mut r.max_positions, self.max_positions);
        set(&mut r.btc_eth_max_leverage, self.btc_eth_max_leverage);
        set(&mut r.altcoin_max_leverage, self.altcoin_max_leverage);
        set(
            &mut r.max_position_value_ratio,
            self.max_position_value_ratio,
        );
        set(&mut r.max_margin_usage, self.max_margin_usage);
        set(&mut r.min_position_size, self.min_position_size);
        set(
            &mut r.btc_eth_min_position_size,
            self.btc_eth_min_position_size,
        );
        set(&mut r.min_risk_reward_ratio, self.min_risk_reward_ratio);
        set(&mut r.min_confidence, self.min_confidence);
        let k = &mut c.indicators.klines;
        set(&mut k.primary_timeframe, self.primary_timeframe);
        set(&mut k.primary_count, self.primary_count);
        set(&mut k.longer_timeframe, self.longer_timeframe);
        set(&mut c.coin_source.static_coins, self.coins.clone());
        set(
            &mut c.coin_source.excluded_coins,
            self.excluded_coins.clone(),
        );
        set(
            &mut c.prompt_sections.custom_prompt,
            self.custom_prompt.clone(),
        );
        Ok(c)
    }

    fn touches_config(&self) -> bool {
        self.config.is_some()
            || self.coins.is_some()
            || self.excluded_coins.is_some()
            || self.primary_timeframe.is_some()
            || self.primary_count.is_some()
            || self.longer_timeframe.is_some()
            || self.max_positions.is_some()
            || self.btc_eth_max_leverage.is_some()
            || self.altcoin_max_leverage.is_some()
            || self.max_position_value_ratio.is_some()
            || self.max_margin_usage.is_some()
            || self.min_position_size.is_some()
            || self.btc_eth_min_position_size.is_some()
            || self.min_risk_reward_ratio.is_some()
            || self.min_confidence.is_some()
            || self.custom_prompt.is_some()
    }
}

fn set<T>(slot: &mut T, value: Option<T>) {
    if let Some(v) = value {
        *slot = v;
    }
}

pub fn run(global: &GlobalArgs, command: StrategyCommand) -> Result<()> {
    block_on(run_async(global, command))?
}

async fn run_async(global: &GlobalArgs, command: StrategyCommand) -> Result<()> {
    let store = open_store(global).await?;
    let user = &global.user;
    match command {
        StrategyCommand::List(args) => {
            let strategies = store.list_strategies(user, args.deleted).await?;
            if global.json {
                return print_json(&strategies);
            }
            let rows = strategies
                .iter()
                .map(|s| {
                    let r = &s.spec.config.risk_control;
                    vec![
                        s.spec.name.clone(),
                        yes_no(s.spec.is_active),
                        s.spec.config.coin_source.static_coins.join(","),
                        format!("{}/{}", r.btc_eth_max_leverage, r.altcoin_max_leverage),
                        r.max_positions.to_string(),
                        s.id.clone(),
                    ]
                })
                .collect::<Vec<_>>();
            print_table(
                &["NAME", "ACTIVE", "COINS", "LEVERAGE", "MAX POS", "ID"],
                &rows,
            );
            Ok(())
        }
        StrategyCommand::Show(r) => {
            let strategy = store.get_strategy(user, &r.reference).await?;
            if global.json {
                return print_json(&strategy);
            }
            show(&strategy)
        }
        StrategyCommand::Add(fields) => {
            let spec = StrategySpec {
                name: fields.name.clone().unwrap_or_default(),
                description: fields.description.clone().unwrap_or_default(),
                is_active: fields.active.unwrap_or(false),
                config: fields.config(&StrategyConfig::default())?,
            };
            let strategy = store.create_strategy(&actor(global), spec).await?;
            done(global, "created", &strategy)
        }
        StrategyCommand::Update { target, fields } => {
            let config = if fields.touches_config() {
                let current = store.get_strategy(user, &target.reference).await?;
                Some(fields.config(&current.spec.config)?)
            } else {
                None
            };
            let patch = StrategyPatch {
                name: fields.name,
                description: fields.description,
                is_active: fields.active,
                config,
            };
            if patch == StrategyPatch::default() {
                return Err(super::common::nothing_to_change(
                    KIND.as_str(),
                    "--name, --description, --active, --config or a setting (--coins, --max-positions …)",
                ));
            }
            let strategy = store
                .update_strategy(&actor(global), &target.reference, patch)
                .await?;
            done(global, "updated", &strategy)
        }
        StrategyCommand::Delete(r) => remove(global, &store, KIND, &r.reference, false).await,
        StrategyCommand::Restore(r) => remove(global, &store, KIND, &r.reference, true).await,
    }
}

fn done(global: &GlobalArgs, verb: &str, s: &Strategy) -> Result<()> {
    if global.json {
        return print_json(s);
    }
    println!("{verb} strategy {:?} (id {})", s.spec.name, s.id);
    Ok(())
}

fn show(s: &Strategy) -> Result<()> {
    println!("name        {}", s.spec.name);
    println!("id          {}", s.id);
    println!("active      {}", yes_no(s.spec.is_active));
    if !s.spec.description.is_empty() {
        println!("description {}", s.spec.description);
    }
    println!("created     {}", time(s.created_at));
    println!("updated     {}", time(s.updated_at));
    println!("config:");
    println!("{}", serde_json::to_string_pretty(&s.spec.config)?);
    Ok(())
}
