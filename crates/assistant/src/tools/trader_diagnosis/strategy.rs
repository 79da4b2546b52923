//! The checks read from the trader's strategy: a coin list that is empty once its exclusions
//! are taken out, a minimum position size no account limit lets through, and an edit made
//! after the last cycle (which applies from the next one).

use nofxi_domain::market::Symbol;
use nofxi_domain::strategy_config::RiskControl;
use nofxi_skills::Lang;
use rust_decimal::Decimal;

use super::{Facts, Finding};
use crate::compose::facts::time_on;
use crate::msg;

/// The coins the strategy always considers, less the excluded ones.
fn candidates(f: &Facts) -> Option<Vec<Symbol>> {
    let source = &f.strategy.as_ref()?.spec.config.coin_source;
    let parsed = |coins: &[String]| -> Vec<Symbol> {
        coins.iter().filter_map(|c| Symbol::parse(c).ok()).collect()
    };
    let excluded = parsed(&source.excluded_coins);
    let kept = parsed(&source.static_coins)
        .into_iter()
        .filter(|c| !excluded.contains(c))
        .collect();
    Some(kept)
}

/// Every listed coin is excluded, and no ranking source adds others.
pub fn no_candidates(f: &Facts) -> Option<Finding> {
    let strategy = f.strategy.as_ref()?;
    let ranked = !strategy.spec.config.coin_source.ranking_sources.is_empty();
    (candidates(f)?.is_empty() && !ranked)
        .then(|| Finding::new("no-candidates", vec![f.name(), f.strategy_name()]))
}

/// The smallest open the strategy allows is larger than the largest the account's limits
/// allow, for every candidate coin: the guard refuses every open however the model sizes it.
pub fn sizes_unreachable(lang: Lang, f: &Facts) -> Option<Finding> {
    let strategy = f.strategy.as_ref()?;
    let risk = &strategy.spec.config.risk_control;
    let equity = f
        .newest()
        .and_then(|c| c.equity())
        .unwrap_or(f.trader.spec.initial_balance);
    let mut coins = candidates(f)?;
    if coins.is_empty() {
        return None;
    }
    // A ranking source may add any altcoin; its smallest size is the altcoins' one.
    if !strategy.spec.config.coin_source.ranking_sources.is_empty() {
        coins.extend(Symbol::parse("SOLUSDT").ok());
    }
    let limits: Vec<(Symbol, Decimal, Decimal)> = coins
        .into_iter()
        .map(|coin| {
            let (min, max) = size_bounds(risk, &coin, equity);
            (coin, min, max)
        })
        .collect();
    if limits.iter().any(|(_, min, max)| min <= max) {
        return None;
    }
    let (coin, min, max) = limits.into_iter().min_by_key(|(_, min, max)| *min - *max)?;
    let plain = |d: Decimal| d.round_dp(2).normalize().to_string();
    // BTC and ETH have a minimum of their own: the fix names the one that applies.
    let class = match is_major(&coin) {
        true => "major",
        false => "alt",
    };
    let setting = msg(lang, &format!("diagnose-setting-min-size-{class}"), &[]);
    let request = msg(
        lang,
        &format!("diagnose-request-min-size-{class}"),
        &[
            ("strategy", &strategy.spec.name),
            ("value", &plain(max.floor())),
        ],
    );
    let args = vec![
        f.name(),
        f.strategy_name(),
        ("coin", coin.to_string()),
        ("min", plain(min)),
        ("max", plain(max)),
        ("equity", plain(equity)),
        ("ratio", plain(risk.max_position_value_ratio)),
        ("setting", setting),
    ];
    let finding = Finding::new("sizes-unreachable", args);
    // A whole USDT at least, or there is no size to offer.
    Some(match max.floor() >= Decimal::ONE {
        true => finding.offering(request),
        false => finding,
    })
}

/// The smallest and the largest open (USDT notional) the guard lets through for `coin` at
/// `equity`: its minimum size, and the lower of the value cap (equity × ratio) and what the
/// margin cap buys at the highest leverage (equity × margin use × leverage).
fn size_bounds(risk: &RiskControl, coin: &Symbol, equity: Decimal) -> (Decimal, Decimal) {
    let (min, leverage) = match is_major(coin) {
        true => (risk.btc_eth_min_position_size, risk.btc_eth_max_leverage),
        false => (risk.min_position_size, risk.altcoin_max_leverage),
    };
    let by_value = equity * risk.max_position_value_ratio;
    let by_margin = equity * risk.max_margin_usage * Decimal::from(leverage.max(1));
    (min, by_value.min(by_margin).max(Decimal::ZERO))
}

/// BTC and ETH, whose sizes and leverage the strategy sets apart.
fn is_major(coin: &Symbol) -> bool {
    matches!(coin.base(), "BTC" | "ETH")
}

/// The strategy was changed after the newest cycle began: what the journal shows ran with
/// the settings before the edit, and the edit applies from the next cycle.
pub fn edited(lang: Lang, f: &Facts) -> Option<Finding> {
    let strategy = f.strategy.as_ref()?;
    let newest = f.newest()?;
    // A simulated timeline's times cannot be compared with the edit's wall-clock time.
    let after = strategy.updated_at > strategy.created_at
        && strategy.updated_at > newest.started_ms
        && !newest.simulated;
    if !after {
        return None;
    }
    let zh = lang == Lang::Zh;
    let next = newest.started_ms + f.trader.spec.scan_interval_minutes * 60_000;
    let args = vec![
        f.name(),
        f.strategy_name(),
        ("edited", time_on(strategy.updated_at, false, zh)),
        ("last", time_on(newest.started_ms, false, zh)),
        ("next", time_on(next, false, zh)),
    ];
    Some(Finding::new("strategy-edited", args))
}
