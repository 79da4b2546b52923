//! `nofxi chat`: the assistant in a terminal. A REPL with history that shows the active task
//! and its missing slots; `--json` reads one message per stdin line and writes one
//! `TurnResponse` per line (the DESIGN chat protocol) for scripts and tests.

use std::io::{IsTerminal, Write};
use std::sync::Arc;

use anyhow::{Context, Result};
use clap::Args;
use nofxi_assistant::nlu::lexicon::Lexicon;
use nofxi_assistant::scrub::{mentions_credential, scrub};
use nofxi_assistant::texts::task_label;
use nofxi_assistant::{Assistant, AssistantOptions};
use nofxi_domain::{Actor, Channel, Credentials, ExchangeSpec, ModelSpec, StrategySpec};
use nofxi_protocol::{TaskView, TurnRequest, TurnResponse};
use nofxi_skills::{Lang, Library, WordClass};
use nofxi_store::Store;
use rustyline::error::ReadlineError;

use super::chat_lines::{EMPTY_LINE, Line, NOT_UTF8, next_line};
use super::common::{block_on, open_store};
use super::skills::user_skill_dirs;
use crate::home::GlobalArgs;

#[derive(Debug, Args)]
pub struct ChatArgs {
    /// Continue this conversation (default: the latest one).
    #[arg(long)]
    pub conversation: Option<String>,
    /// Start a new conversation.
    #[arg(long)]
    pub new: bool,
    /// With `--json`: before each turn's object, write `{"type":"delta","text":…}` lines as
    /// the model's answer arrives.
    #[arg(long)]
    pub stream: bool,
}

pub fn run(global: &GlobalArgs, args: ChatArgs) -> Result<()> {
    block_on(async {
        let store = Arc::new(open_store(global).await?);
        let library = Arc::new(chat_library(global)?);
        let conversation = match (&args.conversation, args.new) {
            (Some(id), _) => Some(id.clone()),
            (None, true) => None,
            (None, false) => store.latest_conversation(&global.user).await?,
        };
        if global.json {
            let assistant = Assistant::open(store, library, AssistantOptions::default()).await?;
            return json_mode(global, &assistant, conversation, args.stream).await;
        }
        // An answer to the first-run question that is neither yes nor no is the user's first
        // message: it is handled as one, not taken as a yes.
        let mut pending = first_run(global, &store, &Lexicon::from_library(&library)).await?;
        let assistant =
            Assistant::open(store, library.clone(), AssistantOptions::default()).await?;
        let mut editor = rustyline::DefaultEditor::new()?;
        let history = global.home_dir().ok().map(|h| h.join("chat_history.txt"));
        if let Some(h) = &history {
            let _ = editor.load_history(h);
        }
        println!(
            "nofxi chat — 说中文或英文都可以；输入 exit 或按 Ctrl-D 退出。 (exit or Ctrl-D to quit)"
        );
        // Continuing a conversation continues its unfinished task: say so, or the next line
        // would be taken as an answer to a question asked in an earlier session.
        let mut asks_secret = false;
        let mut session = Session {
            conversation,
            ..Session::default()
        };
        if let Some(id) = &session.conversation {
            let open = assistant.open_tasks(&global.user, id).await?;
            if let Some(task) = open.last() {
                println!("{}", continuing_note(&library, task));
                asks_secret = asks_for_secret(&library, task);
            }
        }
        // `exit`, Ctrl-D or a closed terminal end the session. Ctrl-C drops the line being
        // typed, as a shell does; a line that is not UTF-8 is answered, and the session goes on.
        // Piped input is read as `--json` reads it: bounded, so a 200 MB line is refused by its
        // true size instead of being held whole (and misreported) by the line editor.
        let piped = !std::io::stdin().is_terminal();
        loop {
            let (line, received) = match pending.take() {
                Some(line) => line,
                None if piped => match next_line(&mut std::io::stdin().lock())? {
                    Some(Line::Text(line)) => (line, None),
                    Some(Line::Long { start, bytes }) => (start, Some(bytes)),
                    Some(Line::NotUtf8) => {
                        println!("{NOT_UTF8}");
                        continue;
                    }
                    None => break,
                },
                None => match editor.readline("› ") {
                    Ok(line) => (line, None),
                    Err(ReadlineError::Interrupted) => {
                        println!("{CTRL_C_HINT}");
                        continue;
                    }
                    Err(ReadlineError::Io(e)) if e.kind() == std::io::ErrorKind::InvalidData => {
                        println!("{NOT_UTF8}");
                        continue;
                    }
                    Err(_) => break,
                },
            };
            if line.trim().is_empty() {
                continue;
            }
            if is_quit(&line) {
                break;
            }
            let answers_secret_question = asks_secret;
            // Model-written answers appear token by token; the full reply follows only when
            // nothing was streamed.
            let streamed = std::sync::atomic::AtomicBool::new(false);
            let print_delta = |text: &str| {
                streamed.store(true, std::sync::atomic::Ordering::Relaxed);
                print!("{text}");
                let _ = std::io::stdout().flush();
            };
            let response = assistant
                .turn_streaming(
                    request(global, &session, line.clone(), received),
                    &print_delta,
                )
                .await?;
            // The history file keeps no secret: not an answer to a question for one, not a
            // line a secret was read from or that speaks of one ("change the passphrase of ok
            // to …"), and nothing secret-shaped in any other line.
            if !answers_secret_question
                && !sets_secret(&library, &response)
                && !mentions_credential(&line)
                && !nofxi_assistant::message_limit::over_cap(&line)
            {
                let _ = editor.add_history_entry(scrub(&line).as_str());
            }
            session.learn(&response);
            asks_secret = response
                .active_task()
                .is_some_and(|t| asks_for_secret(&library, t));
            if streamed.load(std::sync::atomic::Ordering::Relaxed) {
                println!();
                print_task(&response);
            } else {
                print_turn(&response);
            }
        }
        if let Some(h) = &history {
            let _ = editor.save_history(h);
        }
        Ok(())
    })?
}

/// Whether `task` is waiting for a secret (an API key, a passphrase …).
fn asks_for_secret(library: &Library, task: &TaskView) -> bool {
    library.action(&task.skill, &task.action).is_some_and(|a| {
        task.missing
            .iter()
            .any(|m| a.slot(m).is_some_and(|s| s.is_secret()))
    })
}

/// Whether the turn set a secret slot (its value is masked in the event, but the line held it).
fn sets_secret(library: &Library, response: &TurnResponse) -> bool {
    let secret = |slot: &str| {
        library.skills().iter().any(|s| {
            s.actions
                .iter()
                .flat_map(|a| a.slots.iter())
                .any(|x| x.name == slot && x.is_secret())
        })
    };
    response.events.iter().any(|e| match e {
        nofxi_protocol::Event::SlotSet { slot, .. } => secret(slot),
        _ => false,
    })
}

/// What `chat` says when the conversation it continues has a task open.
fn continuing_note(library: &Library, task: &TaskView) -> String {
    let label = |lang| task_label(library, &task.skill, &task.action, lang);
    let missing = if task.missing.is_empty() {
        String::new()
    } else {
        format!(" · missing: {}", task.missing.join(", "))
    };
    format!(
        "继续上次的对话：「{}」还没有完成，说“取消”可以放弃它。\n\
         Continuing your last conversation: \"{}\" is still open{missing}. Say \"cancel\" to \
         drop it, or start afresh with `nofxi chat --new`.",
        label(Lang::Zh),
        label(Lang::En),
    )
}

/// What Ctrl-C at the prompt says: the line was dropped, and how to leave.
const CTRL_C_HINT: &str =
    "（已清除这一行；输入 exit 或按 Ctrl-D 退出）(line cleared; exit or Ctrl-D to quit)";

/// A line that is only a quit word ends the session: what people type at a prompt before
/// they look for Ctrl-D. Anything more ("exit the task", "退出任务") is for the assistant.
fn is_quit(line: &str) -> bool {
    let word = line.trim().trim_start_matches('/').to_lowercase();
    matches!(word.as_str(), "exit" | "quit" | "退出")
}

/// What this chat keeps between turns: its conversation and the last confirmation it showed,
/// whose binding goes back with every message so a yes here confirms only what was shown here.
#[derive(Default)]
struct Session {
    conversation: Option<String>,
    seen_confirmation: Option<String>,
}

impl Session {
    fn learn(&mut self, response: &TurnResponse) {
        self.conversation = Some(response.conversation_id.clone());
        if let Some(binding) = response.confirmation_binding() {
            self.seen_confirmation = Some(binding.to_string());
        }
    }
}

/// `received_bytes`: the line's true length when only its start was kept (see `chat_lines`).
fn request(
    global: &GlobalArgs,
    session: &Session,
    message: String,
    received_bytes: Option<usize>,
) -> TurnRequest {
    TurnRequest {
        conversation_id: session.conversation.clone(),
        user: global.user.clone(),
        message,
        channel: nofxi_protocol::Channel::Cli,
        seen_confirmation: session.seen_confirmation.clone(),
        received_bytes,
    }
}

async fn json_mode(
    global: &GlobalArgs,
    assistant: &Assistant,
    conversation: Option<String>,
    stream: bool,
) -> Result<()> {
    let mut session = Session {
        conversation,
        ..Session::default()
    };
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    // One answer per line, whatever the line: a client waiting for the answer to the line it
    // wrote never waits forever.
    while let Some(line) = next_line(&mut input)? {
        let (line, received) = match line {
            Line::Text(line) if line.trim().is_empty() => {
                line_error("empty_line", EMPTY_LINE)?;
                continue;
            }
            Line::Text(line) => (line, None),
            Line::Long { start, bytes } => (start, Some(bytes)),
            Line::NotUtf8 => {
                line_error("invalid_utf8", NOT_UTF8)?;
                continue;
            }
        };
        let write_delta = |text: &str| {
            if stream {
                let event = nofxi_protocol::Event::Delta {
                    text: text.to_string(),
                };
                let mut o = std::io::stdout().lock();
                let _ = writeln!(o, "{}", serde_json::to_string(&event).unwrap_or_default());
                let _ = o.flush();
            }
        };
        let response = assistant
            .turn_streaming(request(global, &session, line, received), &write_delta)
            .await?;
        session.learn(&response);
        // Locked per write: a lock held across the await could block the delta writer.
        let mut out = std::io::stdout().lock();
        writeln!(out, "{}", serde_json::to_string(&response)?)?;
        out.flush()?;
    }
    Ok(())
}

/// A line answered with an error object instead of a turn.
fn line_error(code: &str, message: &str) -> Result<()> {
    let error = nofxi_protocol::LineError {
        code: code.into(),
        message: message.into(),
    };
    let mut out = std::io::stdout().lock();
    writeln!(out, "{}", serde_json::to_string(&error)?)?;
    out.flush()?;
    Ok(())
}

fn print_turn(response: &TurnResponse) {
    println!("{}", response.reply);
    print_task(response);
}

fn print_task(response: &TurnResponse) {
    if let Some(task) = response.active_task() {
        let missing = if task.missing.is_empty() {
            String::new()
        } else {
            format!(" · missing: {}", task.missing.join(", "))
        };
        println!(
            "  [{}.{} · {:?}{missing}]",
            task.skill, task.action, task.status
        );
    }
}

/// On an empty home, offer a paper exchange, the builtin model and a default strategy, so
/// a first trader is two sentences away. Creates them on a yes (or Enter); returns the line
/// when it answers neither yes nor no ("hi", "add my Binance account"): the user skipped the
/// question, and nothing is created on a guess.
async fn first_run(
    global: &GlobalArgs,
    store: &Store,
    lexicon: &Lexicon,
) -> Result<Option<(String, Option<usize>)>> {
    let user = &global.user;
    let empty = store.list_exchanges(user, false).await?.is_empty()
        && store.list_models(user, false).await?.is_empty()
        && store.list_strategies(user, false).await?.is_empty();
    if !empty {
        return Ok(None);
    }
    print!(
        "第一次使用：要创建一个模拟盘交易所（paper）、内置模型（builtin）和一个默认策略吗？\nFirst run: create a paper exchange, the builtin model and a default strategy? [Y/n] "
    );
    std::io::stdout().flush()?;
    // A bad line answers neither yes nor no: it is said so, and nothing is created.
    let (answer, received) = match next_line(&mut std::io::stdin().lock())? {
        Some(Line::Text(answer)) => (answer, None),
        // Too long to be an answer: the message it is, refused by its true size.
        Some(Line::Long { start, bytes }) => return Ok(Some((start, Some(bytes)))),
        Some(Line::NotUtf8) => {
            println!("{NOT_UTF8}");
            return Ok(None);
        }
        None => (String::new(), None),
    };
    // The assistant's own yes and no words, so the question reads answers as the chat does.
    let answer = answer.trim();
    if lexicon.is(WordClass::Deny, answer) {
        return Ok(None);
    }
    if !(answer.is_empty() || lexicon.is(WordClass::Confirm, answer)) {
        return Ok(Some((answer.to_string(), received)));
    }
    let actor = Actor::new(user.clone(), Channel::Chat, true);
    let spec = ExchangeSpec {
        exchange_type: "paper".into(),
        account_name: "paper".into(),
        enabled: true,
        testnet: false,
    };
    store
        .create_exchange(&actor, spec, Credentials::new())
        .await?;
    let model = ModelSpec {
        name: "builtin".into(),
        provider: "builtin".into(),
        enabled: true,
        base_url: None,
        model_name: None,
    };
    store.create_model(&actor, model, None).await?;
    let mut strategy = StrategySpec::new("default");
    strategy.is_active = true;
    store.create_strategy(&actor, strategy).await?;
    println!("已创建 paper、builtin 和 default。Created paper, builtin and default.");
    Ok(None)
}

/// The skills the assistant runs on: a broken user SKILL.md is reported (file:line:col, with
/// the lint command) and left out, so the chat still starts on everything else.
pub fn chat_library(global: &GlobalArgs) -> Result<Library> {
    let (library, skipped) = Library::load_skipping_broken(&user_skill_dirs(global, &[]))
        .context("loading the skill library")?;
    for d in &skipped {
        eprintln!("warning: skill left out: {d}");
    }
    if !skipped.is_empty() {
        eprintln!("(fix the files above and check them with `nofxi skills lint DIR`)");
    }
    Ok(library)
}
