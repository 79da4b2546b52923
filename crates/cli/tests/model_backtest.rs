//! `nofxi backtest --model NAME` with a model config: the real binary asks the mock LLM once
//! per cycle and keeps the answers under `$NOFXI_HOME/cache/answers/`; the same backtest run
//! again replays them and the model is not called at all.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::path::Path;
use std::process::Output;

use nofxi_testkit::llm::{MockLlm, Reply};
use serde_json::Value;
use support::{add_deepseek_model, run_async};

const KEY: &str = "sk-backtestcli0123456789abcdef";

fn ok_json(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_second_backtest_with_a_model_replays_its_answers() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path();
    let mock = MockLlm::start().await;
    mock.set_default(Reply::Text(
        "Nothing clear yet.\n[{\"symbol\":\"BTCUSDT\",\"action\":\"wait\"}]".into(),
    ));
    add_deepseek_model(home, &format!("{}/v1", mock.base_url()), KEY).await;
    let backtest = [
        "backtest",
        "--model",
        "ds",
        "--symbols",
        "BTCUSDT",
        "--interval",
        "1h",
        "--from",
        "2026-01-01",
        "--to",
        "2026-01-01T05:00:00Z",
        "--json",
    ];

    let first = ok_json(&run_async(home, &backtest).await);
    let cycles = first["cycles"].as_u64().unwrap();
    assert!(cycles >= 4, "{first}");
    assert_eq!(first["model_answers"]["asked"], cycles);
    assert_eq!(first["model_answers"]["replayed"], 0);
    assert_eq!(mock.requests().len() as u64, cycles);
    let cache = first["model_answers"]["cache_file"].as_str().unwrap();
    assert!(Path::new(cache).starts_with(home.join("cache").join("answers")));
    assert!(!std::fs::read_to_string(cache).unwrap().contains(KEY));

    let second = ok_json(&run_async(home, &backtest).await);
    assert_eq!(second["model_answers"]["asked"], 0);
    assert_eq!(second["model_answers"]["replayed"], cycles);
    assert_eq!(
        mock.requests().len() as u64,
        cycles,
        "the second run called the model"
    );
    assert_eq!(second["final_equity"], first["final_equity"]);
}
