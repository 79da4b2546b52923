//! The JSON a `--json` client sees is a contract: DESIGN.md's example must parse, and what we
//! write must read back unchanged.

use nofxi_protocol::{Command, Event, TaskStatus, TurnResponse};

const DESIGN_EXAMPLE: &str = r#"{"conversation_id": "c1", "reply": "Which exchange and model?",
 "events": [{"type": "task_started", "task_id": "t1", "skill": "trader_management", "action": "create"},
            {"type": "asked", "task_id": "t1", "slots": ["exchange", "model"]}],
 "stack": [{"task_id": "t1", "skill": "trader_management", "action": "create",
            "status": "collecting", "slots": {"name": "btc-bot"}, "missing": ["exchange", "model"]}],
 "llm": {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0},
 "trace_id": "tr1"}"#;

#[test]
fn design_example_parses_and_round_trips() {
    let turn: TurnResponse = serde_json::from_str(DESIGN_EXAMPLE).unwrap();
    let active = turn.active_task().unwrap();
    assert_eq!(active.status, TaskStatus::Collecting);
    assert_eq!(active.missing, ["exchange", "model"]);
    assert!(matches!(&turn.events[1], Event::Asked { slots, .. } if slots.len() == 2));

    let again: TurnResponse = serde_json::from_str(&serde_json::to_string(&turn).unwrap()).unwrap();
    assert_eq!(again, turn);
}

#[test]
fn tool_executed_omits_absent_fields() {
    let event = Event::ToolExecuted {
        task_id: nofxi_protocol::TaskId("t1".into()),
        tool: "trader.create".into(),
        ok: true,
        resource_id: None,
        error: None,
    };
    let json = serde_json::to_value(&event).unwrap();
    assert_eq!(
        json,
        serde_json::json!({"type": "tool_executed", "task_id": "t1", "tool": "trader.create", "ok": true})
    );
}

#[test]
fn commands_are_tagged_for_the_model() {
    // The one-pass gateway asks the model for exactly this shape, so it must stay stable.
    let cmd: Command = serde_json::from_str(
        r#"{"command": "start_task", "skill": "trader_management", "action": "stop",
            "slots": {"trader": "btc-bot"}}"#,
    )
    .unwrap();
    assert!(matches!(cmd, Command::StartTask { ref action, .. } if action == "stop"));
    let cancel: Command = serde_json::from_str(r#"{"command": "cancel", "scope": "all"}"#).unwrap();
    assert_eq!(
        cancel,
        Command::Cancel {
            scope: nofxi_protocol::CancelScope::All
        }
    );
    assert!(serde_json::from_str::<Command>(r#"{"command": "delete_everything"}"#).is_err());
}
