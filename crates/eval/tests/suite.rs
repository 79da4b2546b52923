//! The conversation suite in `tests/conversations/` through the real `Assistant`: every case
//! must pass, with zero LLM calls. Cases the engine does not meet yet wait in
//! `tests/conversations/pending/`; they are not run here, but they must still parse and agree
//! with the skill files, so they are ready to move back the moment the engine catches up.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use nofxi_eval::{AssistantFactory, lint_suite, load_suite, render_case, render_totals, run_suite};
use nofxi_skills::Library;

fn suite_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/conversations")
}

#[test]
fn every_case_file_parses_and_matches_the_skill_files() {
    let library = Library::builtin().unwrap();
    let mut dirs = vec![suite_dir()];
    // pending/ waits for the engine; live/ runs in tests/live_start.rs against the mock Binance.
    for sub in ["pending", "live"] {
        if suite_dir().join(sub).is_dir() {
            dirs.push(suite_dir().join(sub));
        }
    }
    let files = load_suite(&dirs).unwrap();
    let problems = lint_suite(&files, &library);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_conversation_suite_passes_with_zero_llm_calls() {
    let files = load_suite(&[suite_dir()]).unwrap();
    let library = Arc::new(Library::builtin().unwrap());
    let started = Instant::now();
    let results = run_suite(&AssistantFactory, library, &files, |_| {}).await;
    let report: String = results.iter().map(render_case).collect();
    let totals = render_totals(&results, started.elapsed());
    println!("{report}{totals}");
    let failed: String = results
        .iter()
        .filter(|r| !r.passed())
        .map(render_case)
        .collect();
    assert!(failed.is_empty(), "failing cases:\n{failed}{totals}");
    let calls: u32 = results.iter().map(|r| r.llm_calls).sum();
    assert_eq!(calls, 0, "the rules path must not call a model");
}
