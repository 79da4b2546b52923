//! Rendering read results for the reply, in the user's language. Only non-secret fields are
//! read; credentials appear as the store's `has_*` flags and masks at most.

use nofxi_domain::{Exchange, Model, Strategy, Trader};
use nofxi_skills::Lang;

use crate::msg;

/// The catalog's word for a yes/no state (`yes` when `v`, else `no`).
fn on_off(lang: Lang, v: bool, yes: &str, no: &str) -> String {
    msg(lang, if v { yes } else { no }, &[])
}

pub fn trader_line(lang: Lang, i: usize, t: &Trader) -> String {
    let state = on_off(lang, t.is_running, "render-running", "render-stopped");
    msg(
        lang,
        "render-trader-line",
        &[
            ("n", &(i + 1).to_string()),
            ("name", &t.spec.name),
            ("state", &state),
            ("minutes", &t.spec.scan_interval_minutes.to_string()),
        ],
    )
}

pub fn exchange_line(lang: Lang, i: usize, e: &Exchange) -> String {
    let state = on_off(lang, e.spec.enabled, "render-enabled", "render-disabled");
    let testnet = if e.spec.testnet {
        msg(lang, "render-testnet", &[])
    } else {
        String::new()
    };
    // A paper account says what its figures rest on: the simulated market or a venue's prices.
    let prices = match (e.spec.exchange_type.as_str(), e.market.venue()) {
        ("paper", Some(venue)) => msg(lang, "render-prices-live", &[("venue", venue)]),
        ("paper", None) => msg(lang, "render-prices-simulated", &[]),
        _ => String::new(),
    };
    format!(
        "{}. {} ({}{testnet}{prices}, {state})",
        i + 1,
        e.spec.account_name,
        e.spec.exchange_type
    )
}

pub fn model_line(lang: Lang, i: usize, m: &Model) -> String {
    let state = on_off(lang, m.spec.enabled, "render-enabled", "render-disabled");
    format!("{}. {} ({}, {state})", i + 1, m.spec.name, m.spec.provider)
}

/// One model in full: the list line plus the model name in effect (the provider's default
/// when none was set) and the base URL; never the key, only whether one is set.
pub fn model_detail(lang: Lang, m: &Model) -> String {
    let line = model_line(lang, 0, m);
    let line = line.trim_start_matches("1. ");
    let model_name = m.spec.effective_model_name().unwrap_or_else(|| "-".into());
    let url = m.spec.effective_base_url().unwrap_or_else(|| "-".into());
    msg(
        lang,
        "render-model-detail",
        &[("line", line), ("model_name", &model_name), ("url", &url)],
    )
}

pub fn strategy_line(lang: Lang, i: usize, s: &Strategy) -> String {
    let active = if s.spec.is_active {
        msg(lang, "render-active", &[])
    } else {
        String::new()
    };
    format!("{}. {}{active}", i + 1, s.spec.name)
}

/// One strategy in full: the list line plus what decides its orders — coins, timeframe and
/// the risk limits the guard holds every decision to.
pub fn strategy_detail(lang: Lang, x: &Strategy) -> String {
    let line = strategy_line(lang, 0, x);
    let line = line.trim_start_matches("1. ");
    let c = &x.spec.config;
    let r = &c.risk_control;
    let coins = c.coin_source.static_coins.join(", ");
    let excluded = if c.coin_source.excluded_coins.is_empty() {
        "-".to_string()
    } else {
        c.coin_source.excluded_coins.join(", ")
    };
    let timeframe = c.indicators.klines.primary_timeframe.to_string();
    msg(
        lang,
        "render-strategy-detail",
        &[
            ("line", line),
            ("coins", &coins),
            ("excluded", &excluded),
            ("timeframe", &timeframe),
            ("lev_major", &r.btc_eth_max_leverage.to_string()),
            ("lev_alt", &r.altcoin_max_leverage.to_string()),
            ("positions", &r.max_positions.to_string()),
            ("confidence", &r.min_confidence.to_string()),
            ("rr", &r.min_risk_reward_ratio.to_string()),
            ("size_major", &r.btc_eth_min_position_size.to_string()),
            ("size_alt", &r.min_position_size.to_string()),
            ("value_ratio", &r.max_position_value_ratio.to_string()),
            ("margin", &r.max_margin_usage.to_string()),
        ],
    )
}

pub fn empty(lang: Lang, kind: &str) -> String {
    msg(lang, "render-empty", &[("kind", kind)])
}
