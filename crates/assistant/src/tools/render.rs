//! Rendering read results for the reply, in the user's language. Only non-secret fields are
//! read; credentials appear as the store's `has_*` flags and masks at most.

use nofxi_domain::{Exchange, Model, Strategy, Trader};
use nofxi_skills::Lang;

fn yes_no(lang: Lang, v: bool, zh: (&str, &str), en: (&str, &str)) -> String {
    match (lang, v) {
        (Lang::Zh, true) => zh.0.into(),
        (Lang::Zh, false) => zh.1.into(),
        (Lang::En, true) => en.0.into(),
        (Lang::En, false) => en.1.into(),
    }
}

pub fn trader_line(lang: Lang, i: usize, t: &Trader) -> String {
    let state = yes_no(
        lang,
        t.is_running,
        ("运行中", "已停止"),
        ("running", "stopped"),
    );
    match lang {
        Lang::Zh => format!(
            "{}. {}（{state}，每 {} 分钟扫描）",
            i + 1,
            t.spec.name,
            t.spec.scan_interval_minutes
        ),
        Lang::En => format!(
            "{}. {} ({state}, scans every {} min)",
            i + 1,
            t.spec.name,
            t.spec.scan_interval_minutes
        ),
    }
}

pub fn exchange_line(lang: Lang, i: usize, e: &Exchange) -> String {
    let state = yes_no(
        lang,
        e.spec.enabled,
        ("已启用", "已停用"),
        ("enabled", "disabled"),
    );
    let testnet = if e.spec.testnet {
        yes_no(lang, true, ("，测试网", ""), (", testnet", ""))
    } else {
        String::new()
    };
    format!(
        "{}. {} ({}{testnet}, {state})",
        i + 1,
        e.spec.account_name,
        e.spec.exchange_type
    )
}

pub fn model_line(lang: Lang, i: usize, m: &Model) -> String {
    let state = yes_no(
        lang,
        m.spec.enabled,
        ("已启用", "已停用"),
        ("enabled", "disabled"),
    );
    format!("{}. {} ({}, {state})", i + 1, m.spec.name, m.spec.provider)
}

/// One model in full: the list line plus the model name in effect (the provider's default
/// when none was set) and the base URL; never the key, only whether one is set.
pub fn model_detail(lang: Lang, m: &Model) -> String {
    let line = model_line(lang, 0, m);
    let line = line.trim_start_matches("1. ");
    let model_name = m.spec.effective_model_name().unwrap_or_else(|| "-".into());
    let url = m.spec.effective_base_url().unwrap_or_else(|| "-".into());
    match lang {
        Lang::Zh => format!("{line}\n模型名：{model_name}\n接口地址：{url}"),
        Lang::En => format!("{line}\nmodel name: {model_name}\nbase URL: {url}"),
    }
}

pub fn strategy_line(lang: Lang, i: usize, s: &Strategy) -> String {
    let active = if s.spec.is_active {
        yes_no(lang, true, ("，当前激活", ""), (", active", ""))
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
    let timeframe = c.indicators.klines.primary_timeframe;
    // Named once, so both languages show the same figures.
    let (lev_major, lev_alt) = (r.btc_eth_max_leverage, r.altcoin_max_leverage);
    let (positions, confidence, rr) = (r.max_positions, r.min_confidence, r.min_risk_reward_ratio);
    let (size_major, size_alt) = (r.btc_eth_min_position_size, r.min_position_size);
    let (value_ratio, margin) = (r.max_position_value_ratio, r.max_margin_usage);
    match lang {
        Lang::Zh => format!(
            "{line}\n币种：{coins}（排除：{excluded}）；主周期 {timeframe}\n\
             杠杆上限 BTC/ETH {lev_major}x、山寨币 {lev_alt}x；最多持仓 {positions}；\
             最低信心度 {confidence}；最低盈亏比 {rr}\n\
             最小仓位 BTC/ETH {size_major} USDT、山寨币 {size_alt} USDT；\
             仓位价值上限 {value_ratio} 倍权益；保证金使用上限 {margin}"
        ),
        Lang::En => format!(
            "{line}\ncoins: {coins} (excluded: {excluded}); primary timeframe {timeframe}\n\
             max leverage BTC/ETH {lev_major}x, altcoins {lev_alt}x; max positions {positions}; \
             min confidence {confidence}; min risk/reward {rr}\n\
             min position BTC/ETH {size_major} USDT, altcoins {size_alt} USDT; \
             position value up to {value_ratio}× equity; margin usage up to {margin}"
        ),
    }
}

pub fn empty(lang: Lang, kind: &str) -> String {
    match lang {
        Lang::Zh => format!("还没有任何{kind}。"),
        Lang::En => format!("There is no {kind} yet."),
    }
}
