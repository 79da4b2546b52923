//! Property (issue 24, "never confidently wrong"): a request wrapped in words that say it is
//! not meant — negated, questioned, retracted, conditional, reported, a complaint — never acts,
//! and neither does a follow-up that is a yes inside a complaint or a question, or a yes before
//! another request.
//!
//! The requests come from the skill library, not a list: every action whose risk is not
//! `query` of every management skill, said with its first verb in each language, on an
//! existing resource of its kind (its noun when it takes no target). The wrapping words come
//! from the lexicon's classes (`negation`, `question`, `retraction`, `deny`, `condition`,
//! `reported`, `complaint`, `confirm`). Every message goes through the real `Assistant` on a
//! SQLite store with no model. A case fails when a tool that is not read-only runs (a tool is
//! read-only when only `query` actions use it), when a confirmation opens on a first message,
//! when the store's resources change, or when the reply is neither a question nor an answer.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::Arc;

use nofxi_assistant::assistant_model::set_assistant_model;
use nofxi_assistant::{Assistant, AssistantOptions};
use nofxi_domain::{Actor, Channel as DomainChannel, ModelSpec, Secret};
use nofxi_eval::{EVAL_USER, FreshHome, parse_file};
use nofxi_protocol::{Channel, Event, TurnRequest, TurnResponse};
use nofxi_skills::{Lang, Library, ResourceKind, Risk, SkillKind, WordClass};
use nofxi_store::Store;
use nofxi_testkit::{MockLlm, Reply};
use proptest::prop_assert;

/// Live and paper resources of every kind, running and stopped traders.
const WORLD: &str = r#"
setup:
  - exchange: {type: binance, name: main, api_key: "ak-123456789", secret_key: "sk-abcdefgh"}
  - exchange: {type: paper, name: sandbox}
  - model: {provider: builtin, name: rules}
  - model: {provider: openai, name: gpt, api_key: "sk-openai-222333", model_name: gpt-4o}
  - strategy: {name: s1, active: true}
  - strategy: {name: s2}
  - trader: {name: alpha, exchange: sandbox, model: rules, strategy: s1, running: true}
  - trader: {name: beta, exchange: sandbox, model: rules, strategy: s1}
  - trader: {name: gamma, exchange: main, model: rules, strategy: s2, running: true}
  - trader: {name: delta, exchange: main, model: rules, strategy: s2}
cases:
  - name: world
    steps: [{user: hi}]
"#;

/// The resources each action is said on; a start is said on stopped traders, a stop on
/// running ones, so that the plain request would act.
fn targets(kind: ResourceKind, action: &str) -> &'static [&'static str] {
    match (kind, action) {
        (ResourceKind::Trader, "start") => &["beta", "delta"],
        (ResourceKind::Trader, "stop") => &["alpha", "gamma"],
        (ResourceKind::Trader, _) => &["beta", "gamma"],
        (ResourceKind::Exchange, _) => &["sandbox", "main"],
        (ResourceKind::Model, _) => &["gpt"],
        (ResourceKind::Strategy, _) => &["s2"],
    }
}

/// One risky request as said in one language: "stop alpha", "停止 alpha".
#[derive(Debug, Clone)]
struct Request {
    skill: String,
    action: String,
    takes_target: bool,
    risk: Risk,
    lang: Lang,
    verb: String,
    target: String,
    text: String,
}

fn requests(library: &Library) -> Vec<Request> {
    let mut out = Vec::new();
    for skill in library.skills() {
        if skill.meta.kind != SkillKind::Management {
            continue;
        }
        let Some(kind) = ResourceKind::parse(&skill.meta.domain) else {
            continue;
        };
        for action in skill.actions.iter().filter(|a| !a.risk.is_read_only()) {
            for lang in [Lang::En, Lang::Zh] {
                let in_lang = |w: &&String| Lang::detect(w) == lang;
                let Some(verb) = action.verbs.iter().find(in_lang) else {
                    continue;
                };
                let objects: Vec<String> = if action.slot("target").is_some() {
                    targets(kind, &action.name)
                        .iter()
                        .map(|t| t.to_string())
                        .collect()
                } else {
                    skill
                        .meta
                        .nouns
                        .iter()
                        .find(in_lang)
                        .cloned()
                        .into_iter()
                        .collect()
                };
                for target in objects {
                    let text = format!("{verb} {target}");
                    out.push(Request {
                        skill: skill.id.clone(),
                        action: action.name.clone(),
                        takes_target: action.slot("target").is_some(),
                        risk: action.risk,
                        lang,
                        verb: verb.clone(),
                        target,
                        text,
                    });
                }
            }
        }
    }
    out
}

fn words(library: &Library, class: WordClass, lang: Lang) -> Vec<String> {
    library
        .words()
        .of(class)
        .iter()
        .map(|w| w.text.clone())
        .filter(|w| Lang::detect(w) == lang || !w.chars().any(char::is_alphanumeric))
        .collect()
}

/// The first messages that wrap `r` in words that say it is not meant, each with its kind.
fn first_messages(library: &Library, r: &Request) -> Vec<(&'static str, String)> {
    let w = |class| words(library, class, r.lang);
    let (act, verb, target) = (&r.text, &r.verb, &r.target);
    let mut out: Vec<(&'static str, String)> = Vec::new();
    let mut add = |kind, text: String| out.push((kind, text));
    match r.lang {
        Lang::En => {
            for n in w(WordClass::Negation) {
                add("negated", format!("I {n} want to {act}"));
            }
            for q in w(WordClass::Question) {
                add("questioned", format!("{q} {act}"));
            }
            for x in w(WordClass::Retraction) {
                add("retracted", format!("{act}... {x}"));
            }
            for d in w(WordClass::Deny) {
                add("retracted", format!("{act}? {d}."));
            }
            for c in w(WordClass::Condition) {
                add("conditional", format!("{c} the price drops, {act}"));
                add("conditional", format!("{act} {c}"));
            }
            for s in w(WordClass::Reported) {
                add("reported", format!("{s} {act}"));
            }
            for c in w(WordClass::Complaint) {
                add("complaint", format!("{target} {c} {verb}"));
            }
            for h in w(WordClass::Hypothetical) {
                add("hypothetical", format!("{h} I {act}?"));
                add("hypothetical", format!("{act}, {h}?"));
            }
            for d in w(WordClass::Deliberation) {
                add("opinion", format!("{d} I should {act}"));
            }
        }
        Lang::Zh => {
            for n in w(WordClass::Negation) {
                add("negated", format!("我{n}{act}"));
                add("negated", format!("我{n}说过要{act}"));
            }
            for q in w(WordClass::Question) {
                add("questioned", format!("{target} {q}{verb}"));
                add("questioned", format!("{act}{q}"));
            }
            for x in w(WordClass::Retraction) {
                add("retracted", format!("{act}……{x}"));
            }
            for d in w(WordClass::Deny) {
                add("retracted", format!("{act}？{d}"));
            }
            for c in w(WordClass::Condition) {
                add("conditional", format!("{c}行情暴跌就{act}"));
            }
            for s in w(WordClass::Reported) {
                add("reported", format!("{s}{act}"));
            }
            for c in w(WordClass::Complaint) {
                add("complaint", format!("{target} 一直{verb}{c}"));
            }
            for h in w(WordClass::Hypothetical) {
                add("hypothetical", format!("{act}{h}"));
                add("hypothetical", format!("如果我{act}，{h}"));
            }
            for d in w(WordClass::Deliberation) {
                add("opinion", format!("{d}应该{act}"));
            }
        }
    }
    out
}

/// Follow-ups to a request that waits for its yes: a yes inside a complaint or a question, a
/// yes before another request (`other`).
fn follow_ups(library: &Library, r: &Request, other: &Request) -> Vec<(&'static str, String)> {
    let (verb, target) = (&r.verb, &r.target);
    let mut out = Vec::new();
    for yes in words(library, WordClass::Confirm, r.lang) {
        let complaints = words(library, WordClass::Complaint, r.lang);
        let complaint = complaints.first().cloned().unwrap_or_default();
        let (with_complaint, with_question, with_request) = match r.lang {
            Lang::En => (
                format!("{yes}, it {complaint} {verb}"),
                format!("{yes}? why"),
                format!("{yes}, and {}", other.text),
            ),
            Lang::Zh => (
                format!("{yes}啊，{target}一直{verb}{complaint}"),
                format!("{yes}吗？为什么"),
                format!("{yes}，然后{}", other.text),
            ),
        };
        out.push(("complaint-with-yes", with_complaint));
        out.push(("questioned-yes", with_question));
        out.push(("yes-with-another-request", with_request));
    }
    out
}

/// Tools only `query` actions use.
fn read_tools(library: &Library) -> BTreeSet<String> {
    let mut by_tool: BTreeMap<String, bool> = BTreeMap::new();
    for action in library.skills().iter().flat_map(|s| s.actions.iter()) {
        for step in &action.steps {
            let read = by_tool.entry(step.tool.to_string()).or_insert(true);
            *read &= action.risk.is_read_only();
        }
    }
    by_tool
        .into_iter()
        .filter(|(_, read)| *read)
        .map(|(t, _)| t)
        .collect()
}

/// Every stored resource, deleted ones too, as text: equal before and after means unchanged.
async fn snapshot(store: &Store) -> String {
    let mut out = String::new();
    for deleted in [false, true] {
        let traders = store.list_traders(EVAL_USER, deleted).await.unwrap();
        let exchanges = store.list_exchanges(EVAL_USER, deleted).await.unwrap();
        let models = store.list_models(EVAL_USER, deleted).await.unwrap();
        let strategies = store.list_strategies(EVAL_USER, deleted).await.unwrap();
        out.push_str(&format!("{traders:?}{exchanges:?}{models:?}{strategies:?}"));
    }
    out
}

async fn world() -> (FreshHome, Assistant) {
    world_with_model(None).await
}

/// The world, with the mock LLM as the assistant model when one is given.
async fn world_with_model(mock: Option<&MockLlm>) -> (FreshHome, Assistant) {
    let home = FreshHome::create().await.unwrap();
    let world = parse_file(Path::new("world.yaml"), WORLD).unwrap();
    nofxi_eval::setup::apply(&home.store, &world.setup)
        .await
        .unwrap();
    if let Some(mock) = mock {
        let actor = Actor::new(EVAL_USER, DomainChannel::Cli, true);
        let spec = ModelSpec {
            name: "helper".into(),
            provider: "deepseek".into(),
            enabled: true,
            base_url: Some(mock.base_url()),
            model_name: None,
        };
        let key = Some(Secret::new("sk-propertytestmodel0000"));
        home.store.create_model(&actor, spec, key).await.unwrap();
        set_assistant_model(&home.store, &actor, Some("helper"))
            .await
            .unwrap();
    }
    let library = Arc::new(Library::builtin().unwrap());
    let assistant = Assistant::open(home.store.clone(), library, AssistantOptions::default())
        .await
        .unwrap();
    (home, assistant)
}

async fn say(
    assistant: &Assistant,
    conversation: Option<String>,
    seen: Option<String>,
    message: &str,
) -> TurnResponse {
    assistant
        .turn(TurnRequest {
            conversation_id: conversation,
            user: EVAL_USER.into(),
            message: message.into(),
            channel: Channel::Chat,
            seen_confirmation: seen,
            received_bytes: None,
        })
        .await
        .unwrap()
}

/// The tools a turn ran that are not read-only, if any.
fn ran(response: &TurnResponse, read: &BTreeSet<String>) -> Option<String> {
    let ran: Vec<&String> = response
        .events
        .iter()
        .filter_map(|e| match e {
            Event::ToolExecuted { tool, .. } if !read.contains(tool) => Some(tool),
            _ => None,
        })
        .collect();
    (!ran.is_empty()).then(|| format!("ran {ran:?}"))
}

/// What is wrong with a turn that must not act, if anything.
fn acted(response: &TurnResponse, read: &BTreeSet<String>, first: bool) -> Option<String> {
    let events = &response.events;
    if let Some(why) = ran(response, read) {
        return Some(why);
    }
    if first
        && events
            .iter()
            .any(|e| matches!(e, Event::ConfirmationRequested { .. }))
    {
        return Some("opened a confirmation".into());
    }
    let asks_or_answers = events.iter().any(|e| {
        matches!(
            e,
            Event::Clarification { .. } | Event::Answered { .. } | Event::ToolExecuted { .. }
        )
    }) || response.reply.contains(['?', '？']);
    (!asks_or_answers).then(|| "the reply neither asks nor answers".into())
}

/// Every first message of every risky action, each on a new conversation in one home (the
/// world stays as it was only if nothing acts, which is checked after each message).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_first_message_that_says_it_is_not_meant_acts() {
    let library = Library::builtin().unwrap();
    let read = read_tools(&library);
    let (home, assistant) = world().await;
    let before = snapshot(&home.store).await;
    let mut cases = 0;
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    for request in requests(&library) {
        for (kind, message) in first_messages(&library, &request) {
            cases += 1;
            *kinds.entry(kind).or_default() += 1;
            let response = say(&assistant, None, None, &message).await;
            if let Some(why) = acted(&response, &read, true) {
                failures.push(format!(
                    "{kind} {message:?}: {why}; reply: {}",
                    response.reply
                ));
            }
            if !failures.is_empty() && snapshot(&home.store).await != before {
                failures.push(format!("{message:?} changed the store"));
                break;
            }
        }
    }
    println!("{cases} first messages generated: {kinds:?}");
    assert!(cases > 500, "only {cases} cases were generated");
    assert!(
        failures.is_empty(),
        "{} of {cases} acted:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(snapshot(&home.store).await, before, "the store changed");
}

/// Opening requests that wait for a yes (a live start or stop, a delete …), then a follow-up
/// that is no plain yes. Each pick runs on its own home; `Ok(false)` when the opening request
/// did not wait for a yes (a paper stop runs at once), so there was nothing to follow up.
async fn follow_up_case(pick: usize, other_pick: usize, variant: usize) -> Result<bool, String> {
    let library = Library::builtin().unwrap();
    let read = read_tools(&library);
    let all = requests(&library);
    // Openers whose plain form waits for a yes on some resource: starts and stops on a live
    // account, every delete. Updates and creates ask for values first.
    let openers: Vec<&Request> = all
        .iter()
        .filter(|r| matches!(r.risk, Risk::Start | Risk::Stop | Risk::Delete))
        .collect();
    let request = openers[pick % openers.len()];
    let others: Vec<&Request> = all
        .iter()
        .filter(|o| o.lang == request.lang && o.target != request.target)
        .collect();
    let other = others[other_pick % others.len()];
    let (home, assistant) = world().await;
    let opened = say(&assistant, None, None, &request.text).await;
    let Some(seen) = opened.confirmation_binding().map(str::to_string) else {
        return Ok(false);
    };
    let before = snapshot(&home.store).await;
    let ups = follow_ups(&library, request, other);
    let (kind, message) = &ups[variant % ups.len()];
    let conversation = Some(opened.conversation_id.clone());
    let response = say(&assistant, conversation, Some(seen), message).await;
    if let Some(why) = acted(&response, &read, false) {
        return Err(format!(
            "{:?} then {kind} {message:?}: {why}; reply: {}",
            request.text, response.reply
        ));
    }
    if snapshot(&home.store).await != before {
        return Err(format!(
            "{:?} then {kind} {message:?} changed the store",
            request.text
        ));
    }
    Ok(true)
}

/// Random picks of (opening request, other request, follow-up), shrunk on failure.
#[test]
fn no_yes_inside_a_complaint_a_question_or_before_another_request_acts() {
    use proptest::test_runner::{Config, TestRunner};
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let followed = std::cell::Cell::new(0usize);
    let mut runner = TestRunner::new(Config {
        cases: 96,
        failure_persistence: None,
        ..Config::default()
    });
    let picks = (0usize..10_000, 0usize..10_000, 0usize..10_000);
    let result = runner.run(&picks, |(pick, other, variant)| {
        match runtime.block_on(follow_up_case(pick, other, variant)) {
            Ok(true) => followed.set(followed.get() + 1),
            Ok(false) => {}
            Err(why) => prop_assert!(false, "{why}"),
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    println!(
        "{} follow-ups after a request that waited for its yes",
        followed.get()
    );
    assert!(
        followed.get() >= 24,
        "only {} cases followed up",
        followed.get()
    );
}

/// The checks are worth something only if the plain requests do act: the same requests,
/// unwrapped, run a tool or open a confirmation, and a plain yes then runs it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_plain_requests_do_act_and_a_plain_yes_runs_them() {
    let library = Library::builtin().unwrap();
    let read = read_tools(&library);
    let (_home, assistant) = world().await;
    // A running trader's stop is confirmed (paper included), and a plain yes runs it.
    let stop = say(&assistant, None, None, "stop alpha").await;
    assert!(acted(&stop, &read, true).is_some_and(|w| w.contains("confirmation")));
    let yes = say(
        &assistant,
        Some(stop.conversation_id.clone()),
        stop.confirmation_binding().map(str::to_string),
        "yes",
    )
    .await;
    assert!(acted(&yes, &read, false).is_some_and(|w| w.contains("trader.stop")));
    let (_home, assistant) = world().await;
    let delete = say(&assistant, None, None, "删除模型配置 gpt").await;
    assert!(acted(&delete, &read, true).is_some_and(|w| w.contains("confirmation")));
    let yes = say(
        &assistant,
        Some(delete.conversation_id.clone()),
        delete.confirmation_binding().map(str::to_string),
        "好",
    )
    .await;
    assert!(acted(&yes, &read, false).is_some_and(|w| w.contains("model.delete")));
}

/// Every follow-up, deterministically: each opener that waits for its yes, then each kind of
/// follow-up with the first other request, and a yes before every other request ("yes, and
/// start beta" while "start delta" waits must not retarget the start to beta). One home; it
/// is made again after an opener that acted at once (a paper stop) or a failure.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_follow_up_to_a_request_waiting_for_its_yes_acts_on_nothing() {
    let library = Library::builtin().unwrap();
    let read = read_tools(&library);
    let all = requests(&library);
    let openers = all
        .iter()
        .filter(|r| matches!(r.risk, Risk::Start | Risk::Stop | Risk::Delete));
    let (mut _home, mut assistant) = world().await;
    let mut failures = Vec::new();
    let mut cases = 0;
    for r in openers {
        let others: Vec<&Request> = all
            .iter()
            .filter(|o| o.lang == r.lang && o.target != r.target)
            .collect();
        let first = others
            .first()
            .map(|o| follow_ups(&library, r, o))
            .unwrap_or_default();
        let before_each = others.iter().flat_map(|o| {
            follow_ups(&library, r, o)
                .into_iter()
                .filter(|(kind, _)| *kind == "yes-with-another-request")
                .take(2)
        });
        for (kind, message) in first.into_iter().chain(before_each) {
            let opened = say(&assistant, None, None, &r.text).await;
            let Some(seen) = opened.confirmation_binding().map(str::to_string) else {
                (_home, assistant) = world().await;
                break;
            };
            cases += 1;
            let conversation = Some(opened.conversation_id.clone());
            let response = say(&assistant, conversation, Some(seen), &message).await;
            if let Some(why) = acted(&response, &read, false) {
                failures.push(format!(
                    "{:?} then {kind} {message:?}: {why}; reply: {}",
                    r.text, response.reply
                ));
                (_home, assistant) = world().await;
            }
        }
    }
    println!("{cases} follow-ups checked");
    assert!(cases > 500, "only {cases} follow-ups were checked");
    assert!(
        failures.is_empty(),
        "{} of {cases} acted:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The most dangerous answer a model can give to a message about `r`: the action itself, on
/// its target, with full confidence (a valid command: the skill, action and name exist).
fn do_it(r: &Request) -> Reply {
    let slots = if r.takes_target {
        serde_json::json!({"target": r.target})
    } else {
        serde_json::json!({})
    };
    let command = serde_json::json!({"command": "start_task", "skill": r.skill,
        "action": r.action, "slots": slots});
    Reply::Text(serde_json::json!({"commands": [command], "confidence": 1.0}).to_string())
}

/// The first messages again, with an assistant model that answers every call with the
/// message's own action: whoever reads a message that says it is not meant, nothing runs (a
/// confirmation may open, or the task may ask for its values: a reading of an uncertain
/// message is confirmed before it acts, and a yes to it is the user's own).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_first_message_that_says_it_is_not_meant_acts_when_the_model_says_do_it() {
    let library = Library::builtin().unwrap();
    let read = read_tools(&library);
    let mock = MockLlm::start().await;
    let (home, assistant) = world_with_model(Some(&mock)).await;
    let before = snapshot(&home.store).await;
    let (mut cases, mut failures) = (0, Vec::new());
    for request in requests(&library) {
        mock.set_default(do_it(&request));
        for (kind, message) in first_messages(&library, &request) {
            cases += 1;
            let response = say(&assistant, None, None, &message).await;
            if let Some(why) = ran(&response, &read) {
                failures.push(format!(
                    "{kind} {message:?}: {why}; reply: {}",
                    response.reply
                ));
            }
        }
    }
    let calls = mock.requests().len();
    println!("{cases} first messages, {calls} model calls");
    assert!(cases > 500, "only {cases} cases were generated");
    assert!(
        calls > 0,
        "the model was never asked: the check proves nothing"
    );
    assert!(
        failures.is_empty(),
        "{} of {cases} acted:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(snapshot(&home.store).await, before, "the store changed");
}
