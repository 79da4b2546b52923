//! The assertion engine on hand-made responses: every assertion holds on a matching turn and
//! fails on a turn that breaks it, so no assertion in the suite can pass vacuously.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

use nofxi_eval::{Expect, TaskIndex, check_turn, parse_file, values_match};
use nofxi_protocol::{AnswerKind, Event, LlmUsage, TaskId, TaskStatus, TaskView, TurnResponse};
use serde_json::json;

fn tid(s: &str) -> TaskId {
    TaskId(s.into())
}

/// A create-trader turn: started, model asked, exchange set, nothing executed.
fn asking_turn() -> TurnResponse {
    TurnResponse {
        conversation_id: "c1".into(),
        reply: "用哪个模型来做决策？".into(),
        events: vec![
            Event::TaskStarted {
                task_id: tid("t1"),
                skill: "trader_management".into(),
                action: "create".into(),
            },
            Event::SlotSet {
                task_id: tid("t1"),
                slot: "exchange".into(),
                value: json!("主账户"),
                adjusted: None,
            },
            Event::Asked {
                task_id: tid("t1"),
                slots: vec!["name".into(), "model".into()],
            },
        ],
        stack: vec![TaskView {
            task_id: tid("t1"),
            skill: "trader_management".into(),
            action: "create".into(),
            status: TaskStatus::Collecting,
            slots: [("exchange".to_string(), json!("主账户"))].into(),
            missing: vec!["name".into(), "model".into()],
        }],
        llm: LlmUsage::default(),
        trace_id: "tr1".into(),
    }
}

/// A delete turn: confirmed, executed, completed; a clarification and an answer beside it.
fn executing_turn() -> TurnResponse {
    TurnResponse {
        conversation_id: "c1".into(),
        reply: "Trader \"alpha\" is deleted.".into(),
        events: vec![
            Event::Confirmed { task_id: tid("t2") },
            Event::ToolExecuted {
                task_id: tid("t2"),
                tool: "trader.delete".into(),
                ok: true,
                resource_id: Some("r1".into()),
                error: None,
            },
            Event::ToolExecuted {
                task_id: tid("t2"),
                tool: "trader.stop".into(),
                ok: false,
                resource_id: None,
                error: Some("not running".into()),
            },
            Event::TaskCompleted { task_id: tid("t2") },
            Event::TaskResumed { task_id: tid("t1") },
            Event::Clarification {
                options: vec!["btc-bot (binance)".into(), "btc-bot-2".into()],
            },
            Event::Answered {
                kind: AnswerKind::Glossary,
            },
        ],
        stack: vec![],
        llm: LlmUsage {
            calls: 2,
            prompt_tokens: 10,
            completion_tokens: 5,
        },
        trace_id: "tr2".into(),
    }
}

fn index() -> TaskIndex {
    let mut tasks = TaskIndex::default();
    tasks.learn(&asking_turn());
    let mut other = asking_turn();
    other.events = vec![Event::TaskStarted {
        task_id: tid("t2"),
        skill: "trader_management".into(),
        action: "delete".into(),
    }];
    other.stack.clear();
    tasks.learn(&other);
    tasks
}

fn expect(yaml: &str) -> Expect {
    let text =
        format!("cases:\n  - name: x\n    steps:\n      - user: u\n        expect: {yaml}\n");
    parse_file(Path::new("t.yaml"), &text).unwrap().cases[0].steps[0]
        .expect
        .clone()
}

/// Asserts `yaml` holds on `turn` and `broken` fails on it, naming `key`.
fn holds_and_fails(turn: &TurnResponse, yaml: &str, broken: &str, key: &str) {
    let tasks = index();
    let ok = check_turn(&expect(yaml), turn, &tasks);
    assert!(ok.is_empty(), "{yaml} should hold: {ok:?}");
    let bad = check_turn(&expect(broken), turn, &tasks);
    assert!(!bad.is_empty(), "{broken} should fail");
    assert!(
        bad.iter().all(|f| f.assertion.starts_with(key)),
        "{broken}: {bad:?}"
    );
}

#[test]
fn task_started() {
    holds_and_fails(
        &asking_turn(),
        "{task_started: trader_management.create}",
        "{task_started: trader_management.delete}",
        "task_started",
    );
}

#[test]
fn lifecycle_by_task_name_and_by_flag() {
    let turn = executing_turn();
    holds_and_fails(
        &turn,
        "{task_completed: trader_management.delete}",
        "{task_completed: trader_management.create}",
        "task_completed",
    );
    holds_and_fails(
        &turn,
        "{task_completed: true}",
        "{task_completed: false}",
        "task_completed",
    );
    holds_and_fails(
        &turn,
        "{task_resumed: trader_management.create}",
        "{task_resumed: trader_management.delete}",
        "task_resumed",
    );
    holds_and_fails(
        &turn,
        "{task_cancelled: false}",
        "{task_cancelled: true}",
        "task_cancelled",
    );
    holds_and_fails(
        &turn,
        "{task_interrupted: false}",
        "{task_interrupted: trader_management.create}",
        "task_interrupted",
    );
    holds_and_fails(
        &turn,
        "{task_failed: false}",
        "{task_failed: true}",
        "task_failed",
    );
}

#[test]
fn asked_and_not_asked() {
    let turn = asking_turn();
    holds_and_fails(
        &turn,
        "{asked: [model, name]}",
        "{asked: [model, strategy]}",
        "asked",
    );
    holds_and_fails(
        &turn,
        "{not_asked: [exchange]}",
        "{not_asked: [model]}",
        "not_asked",
    );
}

#[test]
fn slot_set_matches_loosely_but_not_wrongly() {
    let turn = asking_turn();
    holds_and_fails(
        &turn,
        "{slot_set: {exchange: 主账户}}",
        "{slot_set: {exchange: 副账户}}",
        "slot_set",
    );
    holds_and_fails(
        &turn,
        "{slot_set: {exchange: 主账户}}",
        "{slot_set: {model: DeepSeek}}",
        "slot_set",
    );
}

#[test]
fn confirmation_requested_both_ways() {
    let mut turn = asking_turn();
    holds_and_fails(
        &turn,
        "{confirmation_requested: false}",
        "{confirmation_requested: true}",
        "confirmation_requested",
    );
    turn.events.push(Event::ConfirmationRequested {
        task_id: tid("t1"),
        summary: "…".into(),
        binding: "b1".into(),
    });
    holds_and_fails(
        &turn,
        "{confirmation_requested: true}",
        "{confirmation_requested: false}",
        "confirmation_requested",
    );
}

#[test]
fn executed_means_ran_ok_and_not_executed_means_not_run_at_all() {
    let turn = executing_turn();
    holds_and_fails(
        &turn,
        "{executed: [trader.delete]}",
        "{executed: [trader.stop]}",
        "executed",
    );
    holds_and_fails(
        &turn,
        "{not_executed: [trader.start]}",
        "{not_executed: [trader.stop]}",
        "not_executed",
    );
}

#[test]
fn clarification_options_include() {
    let turn = executing_turn();
    holds_and_fails(
        &turn,
        "{clarification: [btc-bot-2, binance]}",
        "{clarification: [eth-bot]}",
        "clarification",
    );
    holds_and_fails(
        &asking_turn(),
        "{asked: [model]}",
        "{clarification: []}",
        "clarification",
    );
}

#[test]
fn answered_kind() {
    holds_and_fails(
        &executing_turn(),
        "{answered: glossary}",
        "{answered: error_explanation}",
        "answered",
    );
}

#[test]
fn reply_contains_and_not_contains() {
    let turn = executing_turn();
    holds_and_fails(
        &turn,
        "{reply_contains: [DELETED, alpha]}",
        "{reply_contains: restored}",
        "reply_contains",
    );
    holds_and_fails(
        &turn,
        "{reply_not_contains: sk-}",
        "{reply_not_contains: [alpha]}",
        "reply_not_contains",
    );
}

#[test]
fn stack_top_and_empty() {
    holds_and_fails(
        &asking_turn(),
        "{stack_top: trader_management.create}",
        "{stack_top: empty}",
        "stack_top",
    );
    holds_and_fails(
        &executing_turn(),
        "{stack_top: empty}",
        "{stack_top: trader_management.create}",
        "stack_top",
    );
}

#[test]
fn llm_calls_max() {
    holds_and_fails(
        &executing_turn(),
        "{llm_calls_max: 2}",
        "{llm_calls_max: 0}",
        "llm_calls_max",
    );
}

#[test]
fn loose_values() {
    assert!(values_match(&json!("DeepSeek"), &json!("deepseek")));
    assert!(values_match(&json!(10), &json!("10")));
    assert!(values_match(&json!(10), &json!(10.0)));
    assert!(values_match(&json!(true), &json!("true")));
    assert!(values_match(&json!(["BTCUSDT"]), &json!(["btcusdt"])));
    assert!(!values_match(&json!(10), &json!(20)));
    assert!(!values_match(
        &json!(["BTCUSDT"]),
        &json!(["BTCUSDT", "ETHUSDT"])
    ));
    assert!(!values_match(&json!("a"), &json!(null)));
}
