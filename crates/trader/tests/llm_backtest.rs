//! A backtest with a model config: the first run asks the (mock) model once per cycle and
//! keeps every answer in the cache file; the second run over the same candles replays them
//! all and calls the model not once, with the same result.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

use std::path::Path;
use std::sync::Arc;

use nofxi_domain::market::Symbol;
use nofxi_domain::strategy_config::StrategyConfig;
use nofxi_domain::{Actor, Channel, Interval, Model, ModelSpec, Secret};
use nofxi_store::test_support::{TestStore, sqlite_store};
use nofxi_testkit::llm::{MockLlm, Reply};
use nofxi_trader::backtest::{BacktestConfig, BacktestReport, run_backtest};
use nofxi_trader::runtime::preflight::{answer_cache_file_name, replay_decider};
use nofxi_venues::sim::SimMarket;
use nofxi_venues::{Clock, ManualClock};
use rust_decimal::Decimal;

const FROM: i64 = 1_767_225_600_000;
const HOUR: i64 = 3_600_000;
const KEY: &str = "sk-backtestkey0123456789abcdef";

async fn model(ts: &TestStore, mock: &MockLlm) -> Model {
    let spec = ModelSpec {
        name: "ds".into(),
        provider: "deepseek".into(),
        enabled: true,
        base_url: Some(format!("{}/v1", mock.base_url())),
        model_name: None,
    };
    let actor = Actor::new("u1", Channel::Cli, true);
    ts.create_model(&actor, spec, Some(Secret::new(KEY)))
        .await
        .unwrap()
}

async fn backtest(ts: &TestStore, model: &Model, cache: &Path) -> (BacktestReport, u64, u64) {
    let key = ts.model_api_key("u1", &model.id).await.unwrap();
    let mut replay = replay_decider(model, key, cache).unwrap();
    let clock = Arc::new(ManualClock::new(FROM));
    let market = Arc::new(SimMarket::new(7, clock.clone() as Arc<dyn Clock>));
    let config = BacktestConfig {
        symbols: vec![Symbol::parse("BTCUSDT").unwrap()],
        interval: Interval::H1,
        from_ms: FROM,
        to_ms: FROM + 6 * HOUR,
        initial_balance: Decimal::from(10_000),
        fee_bps: Decimal::from(4),
        slippage_bps: Decimal::ZERO,
        strategy: StrategyConfig::default(),
        full_cycles: false,
    };
    let report = run_backtest(&config, market, clock, replay.decider.as_mut(), |_, _| {})
        .await
        .unwrap();
    (report, replay.cache.asked(), replay.cache.replayed())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_backtest_replays_every_answer_without_calling_the_model() {
    let mock = MockLlm::start().await;
    mock.set_default(Reply::Text(
        "No setup on the hourly chart.\n[{\"symbol\":\"BTCUSDT\",\"action\":\"wait\"}]".into(),
    ));
    let ts = sqlite_store().await.unwrap();
    let model = model(&ts, &mock).await;
    let dir = tempfile::tempdir().unwrap();
    let cache = dir
        .path()
        .join("cache/answers")
        .join(answer_cache_file_name(&model));

    let (first, asked, replayed) = backtest(&ts, &model, &cache).await;
    assert_eq!(first.cycles, 6);
    assert_eq!((asked, replayed), (6, 0));
    assert_eq!(mock.requests().len(), 6);
    let file = std::fs::read_to_string(&cache).unwrap();
    assert_eq!(file.lines().count(), 6);
    assert!(!file.contains(KEY), "the key is in the cache file");

    let (second, asked, replayed) = backtest(&ts, &model, &cache).await;
    assert_eq!((asked, replayed), (0, 6));
    assert_eq!(mock.requests().len(), 6, "the second run called the model");
    assert_eq!(second.equity, first.equity);
    assert_eq!(second.stats, first.stats);
}

#[test]
fn each_model_and_endpoint_has_its_own_cache_file() {
    let model = |provider: &str, base_url: Option<&str>, name: Option<&str>| Model {
        id: "m1".into(),
        user_id: "u1".into(),
        spec: ModelSpec {
            name: "x".into(),
            provider: provider.into(),
            enabled: true,
            base_url: base_url.map(str::to_string),
            model_name: name.map(str::to_string),
        },
        effective_base_url: None,
        effective_model_name: None,
        has_api_key: true,
        api_key_masked: None,
        created_at: 0,
        updated_at: 0,
        deleted_at: None,
    };
    let ds = answer_cache_file_name(&model("deepseek", None, None));
    assert!(
        ds.starts_with("deepseek-deepseek-chat-") && ds.ends_with(".jsonl"),
        "{ds}"
    );
    let reasoner = answer_cache_file_name(&model("deepseek", None, Some("deepseek-reasoner")));
    let proxied =
        answer_cache_file_name(&model("deepseek", Some("https://proxy.example/v1"), None));
    assert_ne!(ds, reasoner);
    assert_ne!(ds, proxied);
    let odd = answer_cache_file_name(&model("custom", Some("https://x.example"), Some("a/b:c")));
    assert!(!odd.contains('/') && !odd.contains(':'), "{odd}");
}
