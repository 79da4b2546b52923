#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Turn time of the rule path with 1,000 resources in the store.
//!
//! `cargo run --release -p nofxi-assistant --example bench_turn`
//!
//! Seeds 250 each of exchanges, models, strategies and traders, then times full turns
//! (lock, load, understand, act, reply, persist conversation + trace) for a mix of
//! messages: a query, a creation that asks, a side question, a confirmation round.

use std::sync::Arc;
use std::time::Instant;

use nofxi_assistant::{Assistant, AssistantOptions};
use nofxi_domain::{Actor, Channel, TraderSpec};
use nofxi_protocol::TurnRequest;
use nofxi_skills::Library;
use nofxi_store::test_support::{PaperBasics, seed_paper_basics, sqlite_store};
use rust_decimal::Decimal;

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let ts = sqlite_store().await.unwrap();
    let st = ts.store.clone();
    let actor = Actor::new("default", Channel::Cli, true);
    for i in 0..250 {
        let names = PaperBasics::named(
            format!("acct-{i}"),
            format!("model-{i}"),
            format!("strat-{i}"),
        );
        let b = seed_paper_basics(&st, &actor, names).await.unwrap();
        let t = TraderSpec::new(
            format!("bot-{i}"),
            b.model.id,
            b.exchange.id,
            b.strategy.id,
            Decimal::from(1000),
        );
        st.create_trader(&actor, t).await.unwrap();
    }
    let library = Arc::new(Library::builtin().unwrap());
    let assistant = Assistant::open(st.clone(), library, AssistantOptions::default())
        .await
        .unwrap();
    let script = [
        "bot-17 现在怎么样",
        "帮我创建一个叫 new-bot 的交易员",
        "逐仓和全仓有什么区别？",
        "算了",
        "删除交易员 bot-42",
        "不",
        "取消",
        "what is the funding rate?",
    ];
    let mut conversation = None;
    let mut times = Vec::new();
    for round in 0..60 {
        for msg in script {
            let started = Instant::now();
            let r = assistant
                .turn(TurnRequest {
                    conversation_id: conversation.clone(),
                    user: "default".into(),
                    message: msg.into(),
                    channel: nofxi_protocol::Channel::Cli,
                    seen_confirmation: None,
                    received_bytes: None,
                })
                .await
                .unwrap();
            let ms = started.elapsed().as_secs_f64() * 1000.0;
            if round > 0 {
                times.push(ms);
            }
            assert_eq!(r.llm.calls, 0);
            conversation = Some(r.conversation_id);
        }
    }
    times.sort_by(|a, b| a.total_cmp(b));
    let at = |q: f64| times[((times.len() as f64 - 1.0) * q) as usize];
    println!(
        "rule-path turn, 1000 resources, {} turns: median {:.3} ms, p90 {:.3} ms, p99 {:.3} ms, max {:.3} ms",
        times.len(),
        at(0.5),
        at(0.9),
        at(0.99),
        times[times.len() - 1]
    );
    // The same turns without the database write (understand + decide + act + reply), read
    // back from their traces.
    let traces = st
        .list_traces("default", None, times.len() as i64)
        .await
        .unwrap();
    let mut inner: Vec<f64> = traces
        .iter()
        .filter_map(|t| t.record.pointer("/timings_ms/understand_and_act")?.as_f64())
        .collect();
    inner.sort_by(|a, b| a.total_cmp(b));
    let q = |q: f64| inner[((inner.len() as f64 - 1.0) * q) as usize];
    println!(
        "  of which understand+decide+act+reply: median {:.3} ms, p99 {:.3} ms",
        q(0.5),
        q(0.99)
    );
}
