#![allow(clippy::unwrap_used, clippy::expect_used)]
//! User input never panics the process: every user line of the conversation suite, retyped
//! the way a Chinese keyboard types it (full-width punctuation and spaces) and with a stray
//! clause mark before or after, goes through whole turns on a real SQLite store. A
//! byte-offset slip on a three-byte '，' once killed the chat ("default BTC 3倍，山寨币 2倍").

use std::path::Path;
use std::sync::Arc;

use nofxi_assistant::{Assistant, AssistantOptions};
use nofxi_domain::{Actor, Channel};
use nofxi_protocol::TurnRequest;
use nofxi_skills::Library;
use nofxi_store::test_support::{PaperBasics, seed_paper_basics, sqlite_store};

/// The `- user:` lines of every case file under `tests/conversations`.
fn suite_lines() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/conversations");
    let mut lines = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    for file in files {
        for line in std::fs::read_to_string(file).unwrap().lines() {
            if let Some(said) = line.trim_start().strip_prefix("- user:") {
                lines.push(said.trim().trim_matches('"').trim_matches('\'').to_string());
            }
        }
    }
    lines
}

/// The line as typed with a Chinese input method: full-width punctuation and spaces.
fn full_width(line: &str) -> String {
    line.chars()
        .map(|c| match c {
            ',' => '，',
            '?' => '？',
            '!' => '！',
            ':' => '：',
            ';' => '；',
            '(' => '（',
            ')' => '）',
            '.' => '。',
            ' ' => '　',
            c => c,
        })
        .collect()
}

#[tokio::test]
async fn no_line_of_the_suite_panics_when_retyped() {
    let lines = suite_lines();
    assert!(lines.len() > 300, "the suite's lines were not found");
    let ts = sqlite_store().await.unwrap();
    let actor = Actor::new("default", Channel::Cli, true);
    let mut basics = PaperBasics::named("sim", "rules", "trend");
    basics.strategy.is_active = true;
    seed_paper_basics(&ts, &actor, basics).await.unwrap();
    let library = Arc::new(Library::builtin().unwrap());
    let assistant = Assistant::open(ts.store.clone(), library, AssistantOptions::default())
        .await
        .unwrap();
    let mut conversation = None;
    let mut turns = 0;
    for line in &lines {
        let variants = [full_width(line), format!("，{line}"), format!("{line}，")];
        for message in variants {
            let r = assistant
                .turn(TurnRequest {
                    conversation_id: conversation.clone(),
                    user: "default".into(),
                    message,
                    channel: nofxi_protocol::Channel::Cli,
                    seen_confirmation: None,
                    received_bytes: None,
                })
                .await
                .unwrap();
            conversation = Some(r.conversation_id);
            turns += 1;
        }
    }
    assert_eq!(turns, lines.len() * 3);
}
