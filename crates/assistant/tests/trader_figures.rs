#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Issue 23 item 11: "how's alpha doing" states the figures of the account the trader really
//! trades — its paper sub-account, read now — not a journal record that said "no open
//! positions" while the sub-account held a short with margin in use. Reading it changes
//! nothing in the account.

use std::sync::Arc;

use nofxi_assistant::{Assistant, AssistantOptions};
use nofxi_domain::market::Symbol;
use nofxi_domain::trading::{AccountSnapshot, OrderRequest, Side};
use nofxi_domain::{Actor, Channel, TraderSpec};
use nofxi_protocol::TurnRequest;
use nofxi_skills::Library;
use nofxi_store::CycleRow;
use nofxi_store::test_support::{PaperBasics, seed_paper_basics, sqlite_store};
use nofxi_trader::cycle::{CyclePhase, CycleRecord};
use nofxi_trader::runtime::connect::{PAPER_SCOPE, PaperAccount, connect};
use nofxi_venues::SystemClock;
use rust_decimal::Decimal;

async fn ask(assistant: &Assistant, message: &str) -> String {
    assistant
        .turn(TurnRequest {
            conversation_id: None,
            user: "default".into(),
            message: message.into(),
            channel: nofxi_protocol::Channel::Cli,
            seen_confirmation: None,
            received_bytes: None,
        })
        .await
        .unwrap()
        .reply
}

#[tokio::test]
async fn a_paper_traders_detail_reads_its_sub_account_now() {
    let ts = sqlite_store().await.unwrap();
    let actor = Actor::new("default", Channel::Cli, true);
    let basics = seed_paper_basics(&ts, &actor, PaperBasics::named("sim", "rules", "trend"))
        .await
        .unwrap();
    let spec = TraderSpec::new(
        "alpha",
        &basics.model.id,
        &basics.exchange.id,
        &basics.strategy.id,
        Decimal::from(2_000),
    );
    let (trader, _) = ts.create_trader(&actor, spec).await.unwrap();
    // The trader's sub-account holds a BTC short, as the engine's fills left it.
    let account = PaperAccount::Trader {
        trader_id: trader.id.clone(),
        initial_balance: trader.spec.initial_balance,
    };
    let venue = connect(
        ts.store.clone(),
        "default",
        &basics.exchange.id,
        account,
        Arc::new(SystemClock),
    )
    .await
    .unwrap();
    let btc = Symbol::parse("BTCUSDT").unwrap();
    let qty = Decimal::new(1, 2);
    venue
        .exchange
        .place_order(&OrderRequest::market(btc, Side::Sell, qty, "t-open-1"))
        .await
        .unwrap();
    // The newest journal record says nothing is held (a quiet cycle of an older engine).
    let mut record = CycleRecord::new(&trader.id, 12, ts.store.now_ms(), "builtin".into());
    record.phase = CyclePhase::Done;
    record.account_before = Some(AccountSnapshot {
        asset: "USDT".into(),
        wallet_balance: Decimal::from(2_000),
        unrealized_pnl: Decimal::ZERO,
        equity: Decimal::from(2_000),
        available: Decimal::from(2_000),
        margin_used: Decimal::ZERO,
    });
    ts.save_cycle(
        "default",
        &CycleRow {
            trader_id: trader.id.clone(),
            cycle_number: 12,
            phase: "done".into(),
            started_at: record.started_ms,
            equity: Some(Decimal::from(2_000)),
            record: serde_json::to_value(&record).unwrap(),
        },
    )
    .await
    .unwrap();
    let key = format!("{}:{}", basics.exchange.id, trader.id);
    let before = ts.get_state("default", PAPER_SCOPE, &key).await.unwrap();

    let library = Arc::new(Library::builtin().unwrap());
    let assistant = Assistant::open(ts.store.clone(), library, AssistantOptions::default())
        .await
        .unwrap();
    let reply = ask(&assistant, "how's alpha doing").await;
    assert!(reply.contains("position BTCUSDT short 0.01"), "{reply}");
    assert!(reply.contains("from its paper sub-account, now"), "{reply}");
    assert!(!reply.contains("No open positions"), "{reply}");
    assert!(!reply.contains("margin used 0 USDT"), "{reply}");
    // The decision still says which cycle it comes from.
    assert!(reply.contains("cycle #12"), "{reply}");
    let zh = ask(&assistant, "alpha 的持仓").await;
    assert!(zh.contains("持仓 BTCUSDT short 0.01"), "{zh}");
    assert!(zh.contains("模拟子账户"), "{zh}");
    // Reading is not trading: the sub-account is as the fills left it.
    let after = ts.get_state("default", PAPER_SCOPE, &key).await.unwrap();
    assert_eq!(before, after);
}
