#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Time of long messages: understanding alone (no cap, to show it is linear) at 1–256 KB, and
//! whole turns at 1, 4 and 16 KB and over the cap (256 KB, 1 MB: refused, nothing stored).
//!
//! `cargo run --release -p nofxi-assistant --example bench_long_message`
//!
//! A linear reader keeps its time per KB flat across sizes (the last column near 1×); a
//! quadratic one multiplies it by the size ratio (256× from 1 KB to 256 KB).

use std::sync::Arc;
use std::time::Instant;

use nofxi_assistant::{Assistant, AssistantOptions};
use nofxi_domain::{Actor, Channel};
use nofxi_protocol::TurnRequest;
use nofxi_skills::Library;
use nofxi_store::test_support::{PaperBasics, seed_paper_basics, sqlite_store};

/// Message shapes: the words users type in both languages, and shapes that stress one part of
/// understanding each (many numbers, many verbs and nouns, many names, Chinese only, noise).
const SHAPES: &[(&str, &[&str])] = &[
    (
        "mixed",
        &[
            "add binance account b1 api key AKIAB1KEY0000000001 secret p@ss w0rd, ",
            "创建一个交易员 btc-bot，杠杆 10 倍，每 5 分钟扫描；",
            "stop alpha and delete trend? ",
            "把 default 的 BTC 3倍，山寨币 2倍 ",
            "what is cross margin 逐仓和全仓有什么区别 ",
            "sim rules trend 1000 usdt 0.5% ",
        ],
    ),
    (
        "numbers",
        &[
            "leverage 3 ",
            "10x ",
            "5% ",
            "from 10 to 3 ",
            "1000 usdt ",
            "every 15 minutes ",
        ],
    ),
    (
        "verbs",
        &[
            "stop ",
            "delete ",
            "start ",
            "create trader ",
            "show model ",
            "update strategy ",
        ],
    ),
    (
        "names",
        &[
            "sim ",
            "rules ",
            "trend ",
            "alpha ",
            "btc-bot ",
            "that one ",
        ],
    ),
    (
        "chinese",
        &[
            "删除交易员",
            "启动",
            "停止策略",
            "杠杆3倍",
            "每半小时",
            "不要了，",
            "确认吗？",
        ],
    ),
    (
        "noise",
        &["x", "7", "-", "!", "é", "币", " ", "\u{200b}", "q", "."],
    ),
];

/// A message of about `bytes` bytes cycling through `pieces`.
fn message(pieces: &[&str], bytes: usize) -> String {
    let mut out = String::with_capacity(bytes + 80);
    let mut i = 0;
    while out.len() < bytes {
        out.push_str(pieces[i % pieces.len()]);
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
    println!("understanding alone (rules, no cap), ms per KB:");
    println!(
        "  {:<8} {:>8} {:>8} {:>8} {:>8} {:>8}  256 KB / 1 KB rate",
        "shape", "1 KB", "4 KB", "16 KB", "64 KB", "256 KB"
    );
    for (shape, pieces) in SHAPES {
        let mut rates = Vec::new();
        for kb in [1usize, 4, 16, 64, 256] {
            let text = message(pieces, kb * 1024);
            let runs = (256 / kb).clamp(1, 16);
            let started = Instant::now();
            for _ in 0..runs {
                assistant.read_message("default", &text).await.unwrap();
            }
            let ms = started.elapsed().as_secs_f64() * 1000.0 / runs as f64;
            rates.push(ms / kb as f64);
        }
        let cells: Vec<String> = rates.iter().map(|r| format!("{r:>8.3}")).collect();
        println!(
            "  {shape:<8} {}  {:.2}×",
            cells.join(" "),
            rates[4] / rates[0]
        );
    }
    println!("whole turns (understand, act, reply, store):");
    for kb in [1usize, 4, 16, 256, 1024] {
        // Just under the cap for "16 KB": a 16 KB message is still read.
        let text = message(SHAPES[0].1, kb * 1024);
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
                received_bytes: None,
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
