//! Property: whatever a user types, in whatever order, the engine never runs a tool that needs
//! a confirmation unless the user confirmed *that task* after its *latest* confirmation request.
//!
//! Random sequences of messages (deletes, live starts and stops, yes/no in both languages,
//! corrections, references, cancels, side questions, noise) go through the real `Assistant`
//! on a world where every trader trades on a live account. Over all events of the
//! conversation, each `tool_executed` of a confirm-required tool — any `*.delete`,
//! `trader.start`, `trader.stop`, any `exchange.update` of the live account `main`, and any
//! tool of a task that was asked to confirm — must be preceded by `confirmed` for the same
//! task after that task's last `confirmation_requested`.
//!
//! `exchange.update` on `main`: every message below that changes `main` overwrites a
//! credential, the testnet switch or the enabled switch (no rename of `main` is among them),
//! which the exchange skill always confirms on a real account. A paper account's change
//! (`sandbox`) needs none, so the property also sees updates that run straight away.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use nofxi_assistant::{Assistant, AssistantOptions};
use nofxi_eval::{EVAL_USER, FreshHome, parse_file};
use nofxi_protocol::{Channel, Event, TaskId, TurnRequest};
use nofxi_skills::Library;
use proptest::prelude::*;

/// Every trader is on `main`, a live Binance account, so starting or stopping any of them
/// always needs a confirmation.
const WORLD: &str = r#"
setup:
  - exchange: {type: binance, name: main, api_key: "ak-123456789", secret_key: "sk-abcdefgh"}
  - exchange: {type: paper, name: sandbox}
  - model: {provider: builtin, name: rules}
  - strategy: {name: s1, active: true}
  - strategy: {name: s2}
  - trader: {name: alpha, exchange: main, model: rules, strategy: s1, running: true}
  - trader: {name: beta, exchange: main, model: rules, strategy: s1}
  - trader: {name: gamma, exchange: main, model: rules, strategy: s2}
cases:
  - name: world
    steps: [{user: hi}]
"#;

const MESSAGES: &[&str] = &[
    "delete alpha",
    "删除交易员 beta",
    "delete gamma",
    "start beta",
    "启动 gamma",
    "stop alpha",
    "停掉 alpha",
    "start it",
    "把它停掉",
    "delete it",
    "删掉它",
    "yes",
    "确认",
    "好的",
    "ok",
    "go ahead",
    "no",
    "不",
    "cancel",
    "算了",
    "全部取消",
    "不对，我说的是 gamma",
    "actually delete beta instead",
    "the first one",
    "delete exchange account sandbox",
    "删除策略 s2",
    "删除模型配置 rules",
    "create a trader called delta on main with rules and start it right away",
    "把主账户停用",
    "restore alpha",
    "list my bots",
    "逐仓和全仓有什么区别",
    "为什么我的交易所 API 报 invalid signature",
    "set min confidence on s1 to 90",
    "rotate the API key on main to ak-987654321",
    "switch main to testnet",
    "disable main",
    "启用 main",
    "the secret key of main is sk-newsecret-123",
    "rename sandbox to paper2",
    "disable sandbox",
    "asdf qwerty",
];

/// Tools that always need a confirmation in this world; `live` is the id of `main`.
fn always_confirms(tool: &str, resource: Option<&str>, live: &str) -> bool {
    tool.ends_with(".delete")
        || tool == "trader.start"
        || tool == "trader.stop"
        || tool == "exchange.update" && resource == Some(live)
}

/// `Err(explanation)` at the first tool that ran without its confirmation.
fn check(events: &[Event], live: &str) -> Result<(), String> {
    // Per task: was a confirmation ever requested, and is there a Confirm after the latest one.
    let mut requested: HashMap<TaskId, bool> = HashMap::new();
    let mut confirmed: HashMap<TaskId, bool> = HashMap::new();
    for (i, event) in events.iter().enumerate() {
        match event {
            Event::ConfirmationRequested { task_id, .. } => {
                requested.insert(task_id.clone(), true);
                confirmed.insert(task_id.clone(), false);
            }
            Event::Confirmed { task_id } if requested.contains_key(task_id) => {
                confirmed.insert(task_id.clone(), true);
            }
            Event::ToolExecuted {
                task_id,
                tool,
                resource_id,
                ..
            } => {
                let needs = always_confirms(tool, resource_id.as_deref(), live)
                    || requested.contains_key(task_id);
                if needs && !confirmed.get(task_id).copied().unwrap_or(false) {
                    return Err(format!(
                        "event {i}: {tool} ran for task {task_id} without a confirmation bound to it"
                    ));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// The events of the conversation, what was said, and the id of the live account `main`.
async fn drive(picks: &[usize]) -> (Vec<Event>, Vec<String>, String) {
    let home = FreshHome::create().await.unwrap();
    let world = parse_file(Path::new("world.yaml"), WORLD).unwrap();
    nofxi_eval::setup::apply(&home.store, &world.setup)
        .await
        .unwrap();
    let live = home.store.get_exchange(EVAL_USER, "main").await.unwrap().id;
    let library = Arc::new(Library::builtin().unwrap());
    let assistant = Assistant::open(home.store.clone(), library, AssistantOptions::default())
        .await
        .unwrap();
    let mut conversation_id = None;
    let mut seen: Option<String> = None;
    let mut events = Vec::new();
    let mut said = Vec::new();
    for &pick in picks {
        let message = MESSAGES[pick % MESSAGES.len()];
        said.push(message.to_string());
        let response = assistant
            .turn(TurnRequest {
                conversation_id: conversation_id.clone(),
                user: EVAL_USER.into(),
                message: message.into(),
                channel: Channel::Chat,
                seen_confirmation: seen.clone(),
                received_bytes: None,
            })
            .await
            .unwrap();
        conversation_id = Some(response.conversation_id.clone());
        if let Some(b) = response.confirmation_binding() {
            seen = Some(b.to_string());
        }
        events.extend(response.events);
    }
    (events, said, live)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 48,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn no_confirm_required_tool_runs_without_its_confirmation(
        picks in prop::collection::vec(0..MESSAGES.len(), 1..12)
    ) {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let (events, said, live) = runtime.block_on(drive(&picks));
        if let Err(why) = check(&events, &live) {
            prop_assert!(false, "{why}\nmessages: {said:?}");
        }
    }
}

#[test]
fn the_checker_itself_catches_an_unconfirmed_delete() {
    let check = |events: &[Event]| check(events, "main-id");
    let t = || TaskId("t".into());
    let tool = |name: &str| Event::ToolExecuted {
        task_id: t(),
        tool: name.into(),
        ok: true,
        resource_id: None,
        error: None,
    };
    let request = || Event::ConfirmationRequested {
        task_id: t(),
        summary: "s".into(),
        binding: "b".into(),
    };
    assert!(check(&[tool("trader.delete")]).is_err());
    assert!(check(&[request(), tool("trader.delete")]).is_err());
    // A confirm for another task does not count.
    let other = Event::Confirmed {
        task_id: TaskId("u".into()),
    };
    assert!(check(&[request(), other, tool("trader.delete")]).is_err());
    // A confirm before a newer request (the summary changed) does not count either.
    let confirm = Event::Confirmed { task_id: t() };
    assert!(check(&[request(), confirm.clone(), request(), tool("trader.stop")]).is_err());
    assert!(check(&[request(), confirm, tool("trader.delete")]).is_ok());
    // A tool of a task that asked to confirm needs it too; a plain query never does.
    assert!(check(&[request(), tool("strategy.update")]).is_err());
    assert!(check(&[tool("trader.list")]).is_ok());
}

/// The property is only worth something if its world lets tools run: a delete and its
/// confirmation, driven the same way, do execute (and pass the checker).
#[test]
fn the_driver_reaches_a_confirmed_delete() {
    let pick = |m: &str| MESSAGES.iter().position(|x| *x == m).unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let (events, _, live) = runtime.block_on(drive(&[pick("删除交易员 beta"), pick("确认")]));
    let ran = events.iter().any(
        |e| matches!(e, Event::ToolExecuted { tool, ok: true, .. } if tool == "trader.delete"),
    );
    assert!(ran, "{events:?}");
    assert!(check(&events, &live).is_ok());
}

/// exchange.update is covered for real: on the live account it waits for a confirmation and
/// then runs (and without that confirmation the checker would object); on the paper account
/// it runs at once.
#[test]
fn the_driver_reaches_exchange_updates_both_ways() {
    let pick = |m: &str| MESSAGES.iter().position(|x| *x == m).unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let updated = |events: &[Event]| {
        events.iter().any(
            |e| matches!(e, Event::ToolExecuted { tool, ok: true, .. } if tool == "exchange.update"),
        )
    };
    let (events, _, _) =
        runtime.block_on(drive(&[pick("rotate the API key on main to ak-987654321")]));
    assert!(!updated(&events), "{events:?}");
    let (events, _, live) =
        runtime.block_on(drive(&[pick("switch main to testnet"), pick("确认")]));
    assert!(updated(&events), "{events:?}");
    assert!(check(&events, &live).is_ok());
    let unconfirmed: Vec<Event> = events
        .into_iter()
        .filter(|e| !matches!(e, Event::Confirmed { .. }))
        .collect();
    assert!(check(&unconfirmed, &live).is_err());
    let (events, _, live) = runtime.block_on(drive(&[pick("disable sandbox")]));
    assert!(updated(&events), "{events:?}");
    assert!(check(&events, &live).is_ok());
}
