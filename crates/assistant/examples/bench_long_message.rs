#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Time of long messages: understanding alone (no cap, to show it is linear) at 1–256 KB, and
//! whole turns at 1, 4 and 16 KB and over the cap (256 KB, 1 MB: refused, nothing stored).
//!
//! `cargo run --release -p nofxi-assistant --example bench_long_message`
//!
//! A linear reader takes about 16× the time for 16× the bytes; a quadratic one 256×.

use std::sync::Arc;
use std::time::Instant;

use nofxi_assistant::{Assistant, AssistantOptions};
use nofxi_domain::{Actor, Channel};
use nofxi_protocol::TurnRequest;
use nofxi_skills::Library;
use nofxi_store::test_support::{PaperBasics, seed_paper_basics, sqlite_store};

/// A message of about `bytes` bytes made of the words users type: verbs, names, numbers,
/// keys, both languages.
fn message(bytes: usize) -> String {
    const PIECES: &[&str] = &[
        "add binance account b1 api key AKIAB1KEY0000000001 secret p@ss w0rd, ",
        "创建一个交易员 btc-bot，杠杆 10 倍，每 5 分钟扫描；",
        "stop alpha and delete trend? ",
        "把 default 的 BTC 3倍，山寨币 2倍 ",
        "what is cross margin 逐仓和全仓有什么区别 ",
        "sim rules trend 1000 usdt 0.5% ",
    ];
    let mut out = String::with_capacity(bytes + 80);
    let mut i = 0;
    while out.len() < bytes {
        out.push_str(PIECES[i % PIECES.len()]);
        i += 1;
    }
    out
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let ts = sqlite_store().await.unwrap();
    let actor = Actor::new("default", Channel::Cli, true);
    let mut basics = PaperBasics::named("sim", "rules", "trend");
    basics.strategy.is_active = true;
    seed_paper_basics(&ts, &actor, basics).await.unwrap();
    let library = Arc::new(Library::builtin().unwrap());
    let assistant = Assistant::open(ts.store.clone(), library, AssistantOptions::default())
        .await
        .unwrap();
    println!("understanding alone (rules, no cap):");
    let mut base = None;
    for kb in [1usize, 4, 16, 64, 256] {
        let text = message(kb * 1024);
        let started = Instant::now();
        let runs = (256 / kb).clamp(1, 16);
        for _ in 0..runs {
            assistant.read_message("default", &text).await.unwrap();
        }
        let ms = started.elapsed().as_secs_f64() * 1000.0 / runs as f64;
        let per_kb = ms / kb as f64;
        let ratio = *base.get_or_insert(per_kb);
        println!(
            "  {kb:>4} KB: {ms:>9.2} ms  ({per_kb:.3} ms/KB, {:.2}× the 1 KB rate)",
            per_kb / ratio
        );
    }
    println!("whole turns (understand, act, reply, store):");
    for kb in [1usize, 4, 16, 256, 1024] {
        // Just under the cap for "16 KB": a 16 KB message is still read.
        let text = message(kb * 1024);
        let text = if kb == 16 {
            text[..text.floor_char_boundary(16 * 1024)].to_string()
        } else {
            text
        };
        let started = Instant::now();
        let r = assistant
            .turn(TurnRequest {
                conversation_id: None,
                user: "default".into(),
                message: text,
                channel: nofxi_protocol::Channel::Cli,
                seen_confirmation: None,
            })
            .await
            .unwrap();
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        let capped = r.events.is_empty() && r.stack.is_empty();
        println!(
            "  {kb:>4} KB: {ms:>9.2} ms{}",
            if kb > 16 && capped {
                "  (over the cap: refused)"
            } else {
                ""
            }
        );
    }
}
