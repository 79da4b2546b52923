//! The runner with a scripted engine double: fresh stores per case, setup through the store,
//! state checks reading the store, the report's failure detail and its last line.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use nofxi_eval::{Conversation, EngineFactory, parse_file, render_case, render_totals, run_suite};
use nofxi_protocol::{Event, LlmUsage, TaskId, TurnRequest, TurnResponse};
use nofxi_skills::Library;
use nofxi_store::Store;

/// Answers every message by listing the traders it sees and, on "stop", stopping `bot`.
struct Scripted {
    store: Arc<Store>,
}

#[async_trait]
impl Conversation for Scripted {
    async fn turn(&self, request: TurnRequest) -> Result<TurnResponse, String> {
        let traders = self
            .store
            .list_traders(&request.user, false)
            .await
            .map_err(|e| e.to_string())?;
        let mut events = Vec::new();
        if request.message == "stop" {
            let actor = nofxi_domain::Actor::new(&request.user, nofxi_domain::Channel::Chat, true);
            self.store
                .set_trader_running(&actor, "bot", false)
                .await
                .map_err(|e| e.to_string())?;
            events.push(Event::ToolExecuted {
                task_id: TaskId("t".into()),
                tool: "trader.stop".into(),
                ok: true,
                resource_id: None,
                error: None,
            });
        }
        Ok(TurnResponse {
            conversation_id: request.conversation_id.unwrap_or_else(|| "c".into()),
            reply: format!("{} traders", traders.len()),
            events,
            stack: vec![],
            llm: LlmUsage::default(),
            trace_id: "t".into(),
        })
    }
}

struct Factory;

#[async_trait]
impl EngineFactory for Factory {
    async fn open(
        &self,
        store: Arc<Store>,
        _library: Arc<Library>,
        _home: &Path,
    ) -> Result<Box<dyn Conversation>, String> {
        Ok(Box::new(Scripted { store }))
    }
}

const SUITE: &str = r#"
setup:
  - exchange: {type: paper, name: sim}
  - model: {provider: builtin, name: rules}
  - strategy: {name: base, active: true, config: {risk_control: {btc_eth_max_leverage: 5}}}
  - trader: {name: bot, exchange: sim, model: rules, strategy: base, running: true}
cases:
  - name: passes and stops the bot
    steps:
      - user: hello
        expect:
          reply_contains: 1 traders
          state:
            - {trader: bot, exists: true, is_running: true, fields: {exchange: sim, scan_interval_minutes: 5}}
            - {strategy: base, active: true, fields: {btc_eth_max_leverage: 5}}
      - user: stop
        restart: true
        expect:
          executed: [trader.stop]
          state: [{trader: bot, is_running: false}]
  - name: a fresh store each case, and the failure is reported
    setup:
      - trader: {name: bot2, exchange: sim, model: rules, strategy: base, deleted: true}
    steps:
      - user: hello
        expect:
          reply_contains: 1 traders
          state: [{trader: bot2, exists: false, deleted: true}, {trader: bot, is_running: true}]
      - user: again
        expect: {reply_contains: 5 traders, state: [{model: rules, enabled: false}]}
"#;

#[tokio::test]
async fn runs_cases_on_fresh_stores_and_reports_failures() {
    let file = parse_file(Path::new("suite.yaml"), SUITE).unwrap();
    let library = Arc::new(Library::builtin().unwrap());
    let results = run_suite(&Factory, library, &[file], |_| {}).await;
    assert_eq!(results.len(), 2);
    assert!(results[0].passed(), "{}", render_case(&results[0]));
    let failed = &results[1];
    let failure = failed.failure.as_ref().expect("the second case fails");
    assert_eq!(failure.step, 2);
    let keys: Vec<&str> = failure
        .failures
        .iter()
        .map(|f| f.assertion.as_str())
        .collect();
    assert_eq!(keys, ["reply_contains", "state.enabled"]);
    let text = render_case(failed);
    assert!(text.contains("FAIL suite.yaml"), "{text}");
    assert!(text.contains("step 2: user: again"), "{text}");
    assert!(text.contains("reply: 1 traders"), "{text}");
    let totals = render_totals(&results, Duration::from_millis(5));
    assert!(
        totals.trim_end().ends_with("\n1 passed, 1 failed"),
        "{totals}"
    );
    assert!(totals.contains("pass rate 50.0%"), "{totals}");
}

#[tokio::test]
async fn a_setup_the_store_refuses_fails_the_case_not_the_run() {
    let text = "cases:\n  - name: bad\n    setup:\n      - trader: {name: t, exchange: nope, model: nope, strategy: nope}\n    steps:\n      - user: hi\n";
    let file = parse_file(Path::new("s.yaml"), text).unwrap();
    let library = Arc::new(Library::builtin().unwrap());
    let results = run_suite(&Factory, library, &[file], |_| {}).await;
    let failure = results[0].failure.as_ref().unwrap();
    assert_eq!(failure.step, 0);
    assert_eq!(failure.failures[0].assertion, "setup");
}
