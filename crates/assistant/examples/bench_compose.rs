#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Prompt size of an open question about one trader, composed just in time, side by side with
//! injecting everything (every trader and its whole journal).
//!
//! `cargo run --release -p nofxi-assistant --example bench_compose`
//!
//! Seeds 30 traders, each with 60 journalled cycles shaped like the builtin decider's (decisions
//! with reasoning, executions, account and positions; no prompts, which LLM deciders would add
//! and which would only make injection larger), then composes the answer prompt for a question
//! naming one trader. Token figures are nofxi's CJK-aware estimate for both sides.

use std::time::Instant;

use nofxi_assistant::compose::{compose, inject_everything};
use nofxi_assistant::nlu::names::{NameEntry, Names};
use nofxi_domain::market::Symbol;
use nofxi_domain::trading::{AccountSnapshot, MarginMode, Position, PositionSide};
use nofxi_domain::{Actor, Channel, TraderSpec};
use nofxi_llm::tokens::estimate_tokens;
use nofxi_skills::{Lang, ResourceKind};
use nofxi_store::CycleRow;
use nofxi_store::test_support::{PaperBasics, SeededBasics, seed_paper_basics, sqlite_store};
use nofxi_trader::cycle::{CycleRecord, Execution};
use nofxi_trader::decision::{Decision, DecisionAction};
use rust_decimal::Decimal;

const TRADERS: usize = 30;
const CYCLES: u64 = 60;

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let ts = sqlite_store().await.unwrap();
    let st = ts.store.clone();
    let actor = Actor::new("default", Channel::Cli, true);
    let SeededBasics {
        exchange: e,
        model: m,
        strategy: s,
    } = seed_paper_basics(&st, &actor, PaperBasics::named("paper", "rules", "trend"))
        .await
        .unwrap();
    let mut entries = vec![
        entry(ResourceKind::Exchange, &e.id, "paper"),
        entry(ResourceKind::Model, &m.id, "rules"),
        entry(ResourceKind::Strategy, &s.id, "trend"),
    ];
    for i in 0..TRADERS {
        let name = format!("bot-{i:02}");
        let spec = TraderSpec::new(
            name.clone(),
            m.id.clone(),
            e.id.clone(),
            s.id.clone(),
            Decimal::from(1000),
        );
        let (t, _) = st.create_trader(&actor, spec).await.unwrap();
        entries.push(entry(ResourceKind::Trader, &t.id, &name));
        for n in 1..=CYCLES {
            let record = record(&t.id, n, i);
            let row = CycleRow {
                trader_id: t.id.clone(),
                cycle_number: n,
                phase: "done".into(),
                started_at: record.started_ms,
                equity: record.account_after.as_ref().map(|a| a.equity),
                record: serde_json::to_value(&record).unwrap(),
            };
            st.save_cycle("default", &row).await.unwrap();
        }
    }
    let names = Names::new(entries);
    let question = "bot-07 最近表现怎么样？它的持仓风险大吗？";
    let t0 = Instant::now();
    let composed = compose(&st, "default", &names, &[], question, Lang::Zh).await;
    let compose_ms = t0.elapsed().as_secs_f64() * 1000.0;
    let jit = estimate_tokens(&composed.system) + estimate_tokens(&composed.user);
    let everything = inject_everything(&st, "default").await;
    let all = estimate_tokens(&composed.system) + estimate_tokens(&everything);
    println!("{TRADERS} traders x {CYCLES} journalled cycles; question: {question}");
    println!(
        "just-in-time: {jit} prompt tokens ({} bytes; facts: {}; trimmed: {:?}; composed in {compose_ms:.1} ms)",
        composed.system.len() + composed.user.len(),
        composed.facts.join(", "),
        composed.trimmed
    );
    println!(
        "inject everything: {all} prompt tokens ({} bytes)",
        composed.system.len() + everything.len()
    );
    println!("ratio: {:.1}x", all as f64 / jit.max(1) as f64);
}

fn entry(kind: ResourceKind, id: &str, name: &str) -> NameEntry {
    NameEntry {
        kind,
        id: id.into(),
        name: name.into(),
        lower: name.to_lowercase(),
        class: None,
        enabled: true,
        live: false,
        testnet: false,
        running: true,
        deleted: false,
        uses: Vec::new(),
    }
}

/// A builtin-decider cycle: one decision with its reasoning, an execution every few cycles,
/// the account after, one open position.
fn record(trader_id: &str, n: u64, seed: usize) -> CycleRecord {
    let mut r = CycleRecord::new(
        trader_id,
        n,
        1_764_000_000_000 + n as i64 * 300_000,
        "builtin:ema-cross".into(),
    );
    let symbol = Symbol::parse(["BTCUSDT", "ETHUSDT", "SOLUSDT"][seed % 3]).unwrap();
    let price = Decimal::from(60_000 + (n as i64 * 37 + seed as i64 * 11) % 900);
    let action = if n.is_multiple_of(5) {
        DecisionAction::OpenLong
    } else {
        DecisionAction::Hold
    };
    r.reasoning = format!(
        "EMA12 {} vs EMA26 {} on 5m; ATR14 {}; RSI14 {}. {} Cycle {n}: trend filter on the 1h timeframe agrees; stop at 1.5 ATR, target at 4.5 ATR for R:R 3.",
        price + Decimal::from(12),
        price - Decimal::from(8),
        Decimal::from(180),
        Decimal::from(55 + n % 20),
        if action == DecisionAction::OpenLong {
            "Fast EMA crossed above slow: open long."
        } else {
            "No new cross: hold."
        }
    );
    let mut d: Decision = serde_json::from_value(serde_json::json!({
        "symbol": symbol.as_str(), "action": action.as_str(), "reasoning": "ema cross state"
    }))
    .unwrap();
    if action == DecisionAction::OpenLong {
        d.leverage = Some(5);
        d.position_size_usd = Some(Decimal::from(200));
        d.stop_loss = Some(price - Decimal::from(270));
        d.take_profit = Some(price + Decimal::from(810));
        r.executions.push(Execution {
            symbol: symbol.as_str().into(),
            what: "open_long".into(),
            client_order_id: format!("nx{seed}c{n}i0o"),
            order_id: Some(format!("{}", 10_000 + n)),
            ok: true,
            error: None,
            error_code: None,
            recovered: false,
        });
    }
    r.decisions.push(d);
    let equity = Decimal::from(1000) + Decimal::from((n as i64 * (seed as i64 - 15)) % 97);
    r.account_after = Some(AccountSnapshot {
        asset: "USDT".into(),
        wallet_balance: equity,
        unrealized_pnl: Decimal::from(3),
        equity,
        available: equity - Decimal::from(40),
        margin_used: Decimal::from(40),
    });
    r.positions_after.push(Position {
        symbol,
        side: PositionSide::Long,
        quantity: Decimal::new(33, 4),
        entry_price: price,
        mark_price: price + Decimal::from(9),
        leverage: 5,
        margin_mode: MarginMode::Cross,
        margin: Decimal::from(40),
        unrealized_pnl: Decimal::from(3),
        liquidation_price: Some(price - Decimal::from(11_000)),
    });
    r
}
