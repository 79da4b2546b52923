//! One trader as the user asks after it ("what is btc-bot doing", "btc-bot 怎么样"): whether
//! an engine really runs it, what it is bound to, its equity and P&L and open positions (read
//! from the account it trades, see `trader_figures`) and its last decision from the journal,
//! each figure with where and when it comes from.

use std::sync::Arc;

use nofxi_domain::Trader;
use nofxi_skills::Lang;
use nofxi_store::Store;
use nofxi_trader::cycle::CycleRecord;

use super::trader_figures::account_block;
use crate::compose::facts::time_on;
use crate::msg;

/// Reasoning is quoted up to this many characters: enough to show the why.
const REASONING_CHARS: usize = 120;

pub async fn trader_detail(store: &Arc<Store>, user: &str, lang: Lang, t: &Trader) -> String {
    let mut out = String::new();
    let engine = store
        .lease(&t.id)
        .await
        .ok()
        .flatten()
        .filter(|l| l.expires_at > store.now_ms());
    let state = match (t.is_running, engine) {
        (true, Some(l)) => msg(lang, "detail-running", &[("engine", &l.owner)]),
        (true, None) => msg(lang, "detail-no-engine", &[]),
        (false, _) => msg(lang, "detail-stopped", &[]),
    };
    let exchange = name_or_missing(
        lang,
        store
            .get_exchange(user, &t.spec.exchange_id)
            .await
            .ok()
            .map(|e| e.spec.account_name),
    );
    let model = name_or_missing(
        lang,
        store
            .get_model(user, &t.spec.ai_model_id)
            .await
            .ok()
            .map(|m| m.spec.name),
    );
    let strategy = name_or_missing(
        lang,
        store
            .get_strategy(user, &t.spec.strategy_id)
            .await
            .ok()
            .map(|s| s.spec.name),
    );
    let header = msg(
        lang,
        "detail-header",
        &[
            ("name", &t.spec.name),
            ("state", &state),
            ("minutes", &t.spec.scan_interval_minutes.to_string()),
            ("exchange", &exchange),
            ("model", &model),
            ("strategy", &strategy),
        ],
    );
    out.push_str(&header);
    out.push('\n');
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
            out.push_str(&msg(lang, "detail-no-cycle", &[]));
        }
        return out.trim_end().to_string();
    };
    let decisions: Vec<String> = c
        .decisions
        .iter()
        .map(|d| format!("{} {}", d.action, d.symbol))
        .collect();
    let reasoning: String = c.reasoning.trim().chars().take(REASONING_CHARS).collect();
    let decided = match decisions.is_empty() {
        true => msg(lang, "detail-no-decision", &[]),
        false => decisions.join(", "),
    };
    let why = if reasoning.is_empty() {
        String::new()
    } else {
        format!(" — {reasoning}")
    };
    out.push_str(&msg(
        lang,
        "detail-last-decision",
        &[
            ("cycle", &c.cycle_number.to_string()),
            (
                "time",
                &time_on(c.started_ms, c.simulated, lang == Lang::Zh),
            ),
            ("decided", &decided),
            ("why", &why),
        ],
    ));
    if let Some(e) = &c.error {
        out.push('\n');
        out.push_str(&msg(lang, "detail-last-error", &[("error", e)]));
    }
    out
}

fn name_or_missing(lang: Lang, name: Option<String>) -> String {
    name.unwrap_or_else(|| msg(lang, "detail-missing", &[]))
}
