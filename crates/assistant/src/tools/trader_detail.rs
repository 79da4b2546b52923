//! One trader as the user asks after it ("what is btc-bot doing", "btc-bot 怎么样"): whether
//! an engine really runs it, what it is bound to, its equity and P&L and open positions (read
//! from the account it trades, see `trader_figures`) and its last decision from the journal,
//! each figure with where and when it comes from.

use std::fmt::Write as _;
use std::sync::Arc;

use nofxi_domain::Trader;
use nofxi_skills::Lang;
use nofxi_store::Store;
use nofxi_trader::cycle::CycleRecord;

use super::trader_figures::account_block;
use crate::compose::facts::time_on;

/// Reasoning is quoted up to this many characters: enough to show the why.
const REASONING_CHARS: usize = 120;

pub async fn trader_detail(store: &Arc<Store>, user: &str, lang: Lang, t: &Trader) -> String {
    let zh = lang == Lang::Zh;
    let mut out = String::new();
    let engine = store
        .lease(&t.id)
        .await
        .ok()
        .flatten()
        .filter(|l| l.expires_at > store.now_ms());
    let state = match (t.is_running, engine, zh) {
        (true, Some(l), false) => format!("running in engine {}", l.owner),
        (true, Some(l), true) => format!("运行中（引擎 {}）", l.owner),
        (true, None, false) => "started, but no engine runs it (start one with `nofxi run`)".into(),
        (true, None, true) => "已启动，但没有引擎在运行它（用 `nofxi run` 启动引擎）".into(),
        (false, _, false) => "stopped".into(),
        (false, _, true) => "已停止".into(),
    };
    let exchange = name_or_missing(
        store
            .get_exchange(user, &t.spec.exchange_id)
            .await
            .ok()
            .map(|e| e.spec.account_name),
    );
    let model = name_or_missing(
        store
            .get_model(user, &t.spec.ai_model_id)
            .await
            .ok()
            .map(|m| m.spec.name),
    );
    let strategy = name_or_missing(
        store
            .get_strategy(user, &t.spec.strategy_id)
            .await
            .ok()
            .map(|s| s.spec.name),
    );
    let every = t.spec.scan_interval_minutes;
    let _ = if zh {
        writeln!(
            out,
            "{}：{state}，每 {every} 分钟扫描；交易所 {exchange}，模型 {model}，策略 {strategy}",
            t.spec.name
        )
    } else {
        writeln!(
            out,
            "{}: {state}, scans every {every} min; exchange {exchange}, model {model}, strategy {strategy}",
            t.spec.name
        )
    };
    let rows = store.cycles(user, &t.id, 3, None).await.unwrap_or_default();
    let latest = rows
        .iter()
        .find_map(|r| serde_json::from_value::<CycleRecord>(r.record.clone()).ok());
    let (figures, read_now) = account_block(store, user, lang, t, latest.as_ref()).await;
    out.push_str(&figures);
    let Some(c) = latest else {
        // The account answered, but the trader has not decided anything yet: say why there
        // is no decision (a started trader waits for an engine's first cycle).
        if read_now {
            out.push_str(if zh {
                "还没有完成过一个周期，暂无决策记录。"
            } else {
                "No cycle has run yet, so there is no decision on record."
            });
        }
        return out.trim_end().to_string();
    };
    let decisions: Vec<String> = c
        .decisions
        .iter()
        .map(|d| format!("{} {}", d.action, d.symbol))
        .collect();
    let reasoning: String = c.reasoning.trim().chars().take(REASONING_CHARS).collect();
    let decided = match (decisions.is_empty(), zh) {
        (true, true) => "无操作".to_string(),
        (true, false) => "no decision".to_string(),
        (false, _) => decisions.join(", "),
    };
    let why = if reasoning.is_empty() {
        String::new()
    } else {
        format!(" — {reasoning}")
    };
    let _ = if zh {
        write!(
            out,
            "最近决策（第 {} 个周期，{}）：{decided}{why}",
            c.cycle_number,
            time_on(c.started_ms, c.simulated, zh)
        )
    } else {
        write!(
            out,
            "last decision (cycle #{}, {}): {decided}{why}",
            c.cycle_number,
            time_on(c.started_ms, c.simulated, zh)
        )
    };
    if let Some(e) = &c.error {
        let _ = if zh {
            write!(out, "\n最近错误：{e}")
        } else {
            write!(out, "\nlast error: {e}")
        };
    }
    out
}

fn name_or_missing(name: Option<String>) -> String {
    name.unwrap_or_else(|| "(missing)".into())
}
