//! nofxi's dialogue engine: DESIGN "The turn" as one straight path.
//!
//! per-user lock → load the conversation → rule understanding ([`nlu`]) → the dialogue policy
//! applies commands to the task stack ([`policy`]) → the active task advances ([`act`]):
//! resolve references, ask what is missing all at once, confirm per the action's rule, run
//! steps through the tool pipeline ([`tools`]) → a reply in the user's language → the
//! conversation and the turn's trace are saved in one transaction → events.
//!
//! Rules come first and need no network. Only when they are unsure, and the user has set an
//! assistant model, does [`gateway`] make ONE model call that returns the same typed commands;
//! open questions are answered by the model over facts [`compose`]d from read-only reads.
//! Without a model every management, diagnosis and guidance task still works.

pub mod act;
pub mod assistant_model;
pub mod compose;
pub mod confirm_token;
pub mod conversation;
pub mod edit_confirm;
pub mod effects;
mod error;
pub mod exchange_errors;
pub mod exchange_probe;
pub mod gateway;
mod how_to;
pub mod llm_call;
pub mod market_data;
mod market_turn;
pub mod message_limit;
pub mod model_errors;
pub mod model_probe;
mod model_turn;
pub mod nlu;
pub mod phrasing;
pub mod policy;
pub mod probed;
pub mod scrub;
pub mod secret_message;
pub mod secrets;
mod surface;
pub mod texts;
pub mod texts_llm;
pub mod tools;
pub mod turn;
pub mod web_client;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use nofxi_protocol::{AnswerKind, Command, TaskView, TurnRequest, TurnResponse, Understanding};
use nofxi_skills::{Lang, Library, SkillKind, WordClass};
use nofxi_store::{NewTrace, Store};
use serde_json::json;
use tokio::sync::Mutex;

pub use error::AssistantError;

/// Reply text `id` in `lang` from the message catalogs beside the skills
/// (`skills/messages/<lang>.ftl`), with `args` already formatted.
/// How many turns after a request a fragment may still re-run it ("eth?").
const FOLLOW_UP_TURNS: u64 = 3;

pub(crate) fn msg(lang: Lang, id: &str, args: &[(&str, &str)]) -> String {
    phrasing::msg(lang, id, args)
}

use crate::conversation::{Conversation, Pending};
use crate::nlu::lexicon::Lexicon;
use crate::nlu::words::trim_punct;
use crate::nlu::{Context, RuleUnderstander};
use crate::turn::{Engine, Turn};

#[derive(Debug, Clone, Default)]
pub struct AssistantOptions {
    /// The language of replies when a message does not tell (digits only, say).
    pub default_lang: Option<Lang>,
}

pub struct Assistant {
    engine: Engine,
    options: AssistantOptions,
    rules: RuleUnderstander,
    locks: std::sync::Mutex<HashMap<String, Arc<Mutex<()>>>>,
}

impl Assistant {
    pub async fn open(
        store: Arc<Store>,
        library: Arc<Library>,
        options: AssistantOptions,
    ) -> Result<Assistant, AssistantError> {
        if !library
            .skills()
            .iter()
            .any(|s| s.meta.kind == SkillKind::Management)
        {
            return Err(AssistantError::NoSkills);
        }
        let lexicon = Lexicon::from_library(&library);
        let vocabulary = nlu::typos::Vocabulary::from_library(&library);
        Ok(Assistant {
            engine: Engine {
                tools: tools::ToolRunner {
                    store: store.clone(),
                },
                store,
                library,
                lexicon,
                vocabulary,
                secrets: secrets::SecretCache::default(),
                names: Mutex::new(HashMap::new()),
            },
            options,
            rules: RuleUnderstander,
            locks: std::sync::Mutex::new(HashMap::new()),
        })
    }

    /// The lock one conversation's turns take in turn: its state is read at the start of a
    /// turn and written at the end, so two turns of one conversation must not overlap. Other
    /// conversations, of the same user too, run beside it (a turn waiting on a model must not
    /// hold up another tab). A new conversation has nothing to share.
    fn conversation_lock(&self, request: &TurnRequest) -> Option<(String, Arc<Mutex<()>>)> {
        let key = format!("{}\u{0}{}", request.user, request.conversation_id.as_ref()?);
        let lock = match self.locks.lock() {
            Ok(mut locks) => locks.entry(key.clone()).or_default().clone(),
            Err(_) => return None,
        };
        Some((key, lock))
    }

    /// Forgets a conversation's lock once no turn holds or waits for it, so the table does not
    /// grow with every conversation ever seen. Clones are only made under the table's mutex,
    /// so a count of two (the table's and the caller's) means nobody else has it.
    fn release_lock(&self, key: &str, lock: Arc<Mutex<()>>) {
        if let Ok(mut locks) = self.locks.lock()
            && Arc::strong_count(&lock) <= 2
        {
            locks.remove(key);
        }
    }

    pub async fn turn(&self, request: TurnRequest) -> Result<TurnResponse, AssistantError> {
        self.turn_streaming(request, &|_| {}).await
    }

    /// A turn whose model-written text (open answers) is also passed to `on_delta` as it
    /// arrives. The full reply is still in the response.
    pub async fn turn_streaming(
        &self,
        request: TurnRequest,
        on_delta: &(dyn Fn(&str) + Send + Sync),
    ) -> Result<TurnResponse, AssistantError> {
        self.locked_turn(request, None, on_delta).await
    }

    /// A turn whose understanding is given as typed commands in `lang` (an MCP client's tool
    /// call: "start the create action with these slots", "confirm"), not read from a message.
    /// They pass everything a rule's or a model's commands pass: the dialogue policy, slot
    /// validation, confirmations, the tool inspectors, redaction, the trace. `request.message`
    /// is what the trace shows for it.
    pub async fn command_turn(
        &self,
        request: TurnRequest,
        commands: Vec<Command>,
        lang: Lang,
    ) -> Result<TurnResponse, AssistantError> {
        self.locked_turn(request, Some((commands, lang)), &|_| {})
            .await
    }

    async fn locked_turn(
        &self,
        request: TurnRequest,
        given: Option<(Vec<Command>, Lang)>,
        on_delta: &(dyn Fn(&str) + Send + Sync),
    ) -> Result<TurnResponse, AssistantError> {
        let channel = request.channel;
        let Some((key, lock)) = self.conversation_lock(&request) else {
            let turn = self.turn_unlocked(request, given, on_delta);
            return web_client::within(channel, turn).await;
        };
        let result = {
            let _guard = lock.lock().await;
            web_client::within(channel, self.turn_unlocked(request, given, on_delta)).await
        };
        self.release_lock(&key, lock);
        result
    }

    async fn turn_unlocked(
        &self,
        request: TurnRequest,
        given: Option<(Vec<Command>, Lang)>,
        on_delta: &(dyn Fn(&str) + Send + Sync),
    ) -> Result<TurnResponse, AssistantError> {
        let started = Instant::now();
        let user = request.user.as_str();
        let conv = match &request.conversation_id {
            Some(id) => self
                .load_conversation(user, id)
                .await?
                .unwrap_or_else(|| Conversation {
                    id: id.clone(),
                    ..Conversation::new()
                }),
            None => Conversation::new(),
        };
        if message_limit::over_cap(&request.message) {
            return self.refuse_long(&request, conv, started).await;
        }
        let names = self.engine.names_for(user).await?;
        // Asked for a secret, the whole answer is one, whether or not a rule can read it.
        let answers_secret = self.asks_secret(&conv);
        // A bare token ("sk-…", "btc-bot", "500"), a pasted error, or only names and keys
        // ("paper builtin", "key: sk-…") answers in the conversation's language; it says
        // nothing about the user's.
        let bare_token = request.message.trim().is_ascii()
            && (!request.message.trim().contains(char::is_whitespace)
                || pasted_error(&request.message)
                || only_names_and_tokens(&request.message, &names))
            && conv.lang.is_some();
        let lang = if let Some((_, lang)) = &given {
            *lang
        } else if request.message.chars().any(|c| c.is_alphabetic()) && !bare_token {
            Lang::detect(&request.message)
        } else {
            conv.lang.or(self.options.default_lang).unwrap_or(Lang::Zh)
        };
        let mut turn = Turn {
            engine: &self.engine,
            user,
            channel: audit_channel(request.channel),
            lang,
            conv,
            names,
            events: Vec::new(),
            reply: Vec::new(),
            tool_trace: Vec::new(),
            llm_calls: Vec::new(),
            model: None,
            seen_confirmation: request.seen_confirmation.clone(),
            tool_call: given.is_some(),
            unclaimed: Vec::new(),
            recogniser: "",
            read_by_model: false,
            model_answer: None,
        };
        turn.conv.lang = Some(lang);
        // A yes/no question asked last turn (an undo offered, "cancel it too?") is answered by
        // this one, whatever it says: a later yes must not answer it.
        let asked_last_turn = match &turn.conv.pending {
            Some(asked @ (Pending::Undo { .. } | Pending::CancelParent { .. })) => {
                Some(asked.clone())
            }
            _ => None,
        };
        let t_understand = Instant::now();
        // A yes to "did you mean alpha?" is the request again, with the name put right.
        let retried = match given {
            Some(_) => None,
            None => retry(&mut turn, &request.message),
        };
        let message = retried.as_deref().unwrap_or(&request.message);
        let commands = if given.is_none() && choose(&mut turn, message) {
            act::advance(&mut turn).await;
            vec![json!({"command": "choose"})]
        } else {
            let understanding = match given {
                Some((commands, _)) => Understanding {
                    commands,
                    confidence: 1.0,
                    source: nofxi_protocol::CommandSource::Client,
                },
                None => {
                    let (rules, unclaimed, recogniser) = self.rule_understanding(&turn, message);
                    turn.unclaimed = unclaimed;
                    turn.recogniser = recogniser;
                    let understanding = self.consult_model(&mut turn, message, rules).await;
                    turn.read_by_model = understanding.source == nofxi_protocol::CommandSource::Llm;
                    // The gateway's answer to a question goes with the commands it read
                    // ("you add it under … — shall I start?"): said first, unless an open
                    // answer below says it.
                    let answers_open = understanding.commands.iter().any(|c| {
                        matches!(
                            c,
                            Command::AnswerQuestion {
                                kind: AnswerKind::Open | AnswerKind::Facts,
                                ..
                            }
                        )
                    });
                    if !answers_open && let Some(answer) = turn.model_answer.take() {
                        turn.say(answer);
                    }
                    offer_retry(&mut turn, message, &understanding.commands);
                    understanding
                }
            };
            // The message's secrets are registered before anything is recorded.
            for c in &understanding.commands {
                register_secrets(&mut turn, c);
            }
            let recorded: Vec<serde_json::Value> = understanding
                .commands
                .iter()
                .map(|c| serde_json::to_value(c).unwrap_or_default())
                .collect();
            // Quotes ("btc and eth price") are said one by one, the waiting task once after.
            let mut quoted = false;
            for c in understanding.commands {
                match c {
                    Command::AnswerQuestion {
                        kind: AnswerKind::Open | AnswerKind::Facts,
                        ..
                    } => self.answer_open(&mut turn, message, on_delta).await,
                    Command::AnswerQuestion {
                        kind: AnswerKind::Market,
                        topic,
                    } => {
                        self.answer_market(&mut turn, &topic).await;
                        quoted = true;
                    }
                    Command::CallFunction { function, args } => {
                        self.answer_function(&mut turn, &function, args).await;
                        quoted = true;
                    }
                    c => policy::apply(&mut turn, c).await,
                }
            }
            if quoted {
                policy::reprompt(&mut turn);
            }
            recorded
        };
        drop_stale_questions(&mut turn);
        if asked_last_turn.is_some() && turn.conv.pending == asked_last_turn {
            turn.conv.pending = None;
        }
        // Every turn answers: a message that changed nothing and asked nothing still hears
        // what waits, or that nothing was done (an empty reply reads as a hang).
        if turn.reply.is_empty() {
            policy::reprompt(&mut turn);
        }
        if turn.reply.is_empty() {
            let text = nofxi_skills::Catalog::builtin().text(turn.lang, "turn-nothing-done", &[]);
            turn.say(text);
        }
        let understand_ms = t_understand.elapsed().as_secs_f64() * 1000.0;
        let secrets = &self.engine.secrets;
        let reply = secrets.redact(&turn.reply.join("\n"));
        let events: Vec<nofxi_protocol::Event> = turn
            .events
            .iter()
            .filter_map(|e| {
                serde_json::from_value(
                    secrets.redact_json(&serde_json::to_value(e).unwrap_or_default()),
                )
                .ok()
            })
            .collect();
        let stack = self.views(&turn.conv);
        let masked_message = secret_message::stored_form(
            &secrets.redact(&request.message),
            answers_secret,
            &self.engine.lexicon,
        );
        turn.conv.remember(masked_message.clone(), reply.clone());
        // The words the rules left unexplained, as far as the stored message shows them: a
        // secret masked there (a seed phrase, a pasted key) is never kept word by word here.
        let shown = masked_message.to_lowercase();
        let unclaimed: Vec<&String> = turn
            .unclaimed
            .iter()
            .filter(|w| shown.contains(w.as_str()))
            .collect();
        let trace_id = uuid::Uuid::now_v7().to_string();
        let usage = turn.llm_usage();
        let record = json!({
            "channel": request.channel,
            "lang": lang,
            "commands": secrets.redact_json(&json!(commands)),
            "unclaimed": unclaimed,
            "recogniser": turn.recogniser,
            "tool_calls": turn.tool_trace,
            "events": events,
            "timings_ms": {"understand_and_act": understand_ms, "total": started.elapsed().as_secs_f64() * 1000.0},
            "llm": usage,
            "llm_calls": secrets.redact_json(&json!(turn.llm_calls)),
            "reply": reply,
        });
        let state = serde_json::to_value(turn.conv.redacted(secrets)).unwrap_or_default();
        self.engine
            .store
            .save_turn(
                user,
                &turn.conv.id,
                &state,
                &NewTrace {
                    id: trace_id.clone(),
                    message: masked_message,
                    record,
                },
            )
            .await?;
        Ok(TurnResponse {
            conversation_id: turn.conv.id.clone(),
            reply,
            events,
            stack,
            llm: usage,
            trace_id,
        })
    }

    /// An over-long message: answered with the limit, in the user's language; nothing of it
    /// is understood, executed or stored (the trace keeps its size only). The conversation's
    /// tasks stay as they were.
    async fn refuse_long(
        &self,
        request: &TurnRequest,
        mut conv: Conversation,
        started: Instant,
    ) -> Result<TurnResponse, AssistantError> {
        // The size received, not the size kept: a client holds only the start of a huge line.
        let bytes = request
            .received_bytes
            .unwrap_or(0)
            .max(request.message.len());
        let lang = message_limit::lang_of(&request.message);
        let reply = message_limit::too_long(lang, bytes);
        let note = message_limit::stored_note(bytes);
        conv.remember(note.clone(), reply.clone());
        let trace_id = uuid::Uuid::now_v7().to_string();
        let record = json!({
            "channel": request.channel,
            "lang": lang,
            "commands": [],
            "refused": {"message_bytes": bytes, "limit": message_limit::MAX_MESSAGE_BYTES},
            "timings_ms": {"total": started.elapsed().as_secs_f64() * 1000.0},
            "reply": reply,
        });
        let state = serde_json::to_value(conv.redacted(&self.engine.secrets)).unwrap_or_default();
        self.engine
            .store
            .save_turn(
                &request.user,
                &conv.id,
                &state,
                &NewTrace {
                    id: trace_id.clone(),
                    message: note,
                    record,
                },
            )
            .await?;
        Ok(TurnResponse {
            conversation_id: conv.id.clone(),
            reply,
            events: Vec::new(),
            stack: self.views(&conv),
            llm: nofxi_protocol::LlmUsage::default(),
            trace_id,
        })
    }

    /// How the rules read `message` on a new conversation, without acting or storing
    /// anything: for benchmarks and diagnostics. Unlike a turn it has no length cap, so the
    /// cost of understanding itself can be measured on long input.
    pub async fn read_message(
        &self,
        user: &str,
        message: &str,
    ) -> Result<Understanding, AssistantError> {
        let names = self.engine.names_for(user).await?;
        let turn = Turn {
            engine: &self.engine,
            user,
            channel: nofxi_domain::Channel::Chat,
            lang: Lang::detect(message),
            conv: Conversation::new(),
            names,
            events: Vec::new(),
            reply: Vec::new(),
            tool_trace: Vec::new(),
            llm_calls: Vec::new(),
            model: None,
            seen_confirmation: None,
            tool_call: false,
            unclaimed: Vec::new(),
            recogniser: "",
            read_by_model: false,
            model_answer: None,
        };
        Ok(self.rule_understanding(&turn, message).0)
    }

    /// Whether the active task's question is for a secret.
    fn asks_secret(&self, conv: &Conversation) -> bool {
        conv.top().is_some_and(|t| {
            self.engine
                .library
                .action(&t.skill, &t.action)
                .is_some_and(|a| {
                    t.asked
                        .iter()
                        .any(|s| a.slot(s).is_some_and(|s| s.is_secret()))
                })
        })
    }

    /// The rules' reading of `message`, the words of it nothing explains (see
    /// [`nlu::coverage`]: with any, the reading is unsure), and the recogniser that read it.
    fn rule_understanding(
        &self,
        turn: &Turn<'_>,
        message: &str,
    ) -> (Understanding, Vec<String>, &'static str) {
        let words = surface::command_words(message);
        let message: &str = &words;
        // A credential is read exactly as typed: its width, spaces and last `!` are its own.
        let carries_secret =
            self.asks_secret(&turn.conv) || secret_message::names_credential(message);
        let plain = (!carries_secret).then(|| {
            let plain = surface::plain(message);
            self.engine
                .vocabulary
                .correct(&plain, &turn.names)
                .into_owned()
        });
        let message = match &plain {
            Some(plain) => plain,
            None => surface::sentence_end_only(message),
        };
        let focused = nlu::instruments::with_focus(
            message,
            turn.conv.focus.as_deref(),
            &self.engine.library,
            &self.engine.lexicon,
            &turn.names,
        );
        let message = focused.as_deref().unwrap_or(message);
        let current_names = turn.names.clone();
        let current_map = turn.conv.current.clone();
        let current = move |k| {
            current_map
                .get(&k)
                .and_then(|id| current_names.by_id(id))
                .map(|e| e.name.clone())
        };
        let top = turn.conv.top().map(|t| {
            (
                t.skill.as_str(),
                t.action.as_str(),
                t.asked.as_slice(),
                t.offer.is_some() || t.status == nofxi_protocol::TaskStatus::AwaitingConfirmation,
            )
        });
        // What the open task is about: a create's name, or the resource a change targets.
        let top_name = turn.conv.top().and_then(|t| {
            let action = self.engine.library.action(&t.skill, &t.action)?;
            let slot = nlu::new_create::name_slot(action).unwrap_or("target");
            t.slots.get(slot)?.as_str()
        });
        let cx = Context {
            library: &self.engine.library,
            lexicon: &self.engine.lexicon,
            names: &turn.names,
            top,
            top_name,
            top_slots: turn.conv.top().map(|t| &t.slots),
            engine_question: turn.conv.pending.is_some(),
            current: &current,
            it_kind: turn.conv.last_kind,
            interrupted: turn
                .conv
                .stack
                .iter()
                .filter(|t| t.status == nofxi_protocol::TaskStatus::Interrupted)
                .map(|t| (t.id.clone(), t.skill.clone()))
                .collect(),
            just_done: turn
                .conv
                .done_last_turn()
                .map(|d| (d.skill.as_str(), d.action.as_str()))
                .collect(),
            last_read: turn
                .conv
                .read_last_turn()
                .map(|d| (d.skill.as_str(), d.action.as_str())),
            last_request: turn.conv.recent_request(FOLLOW_UP_TURNS),
        };
        let (recogniser, mut understanding) = self.rules.understand_named(message, &cx);
        let values = nlu::coverage::values_of(&understanding.commands);
        let unclaimed = nlu::coverage::unclaimed(message, &values, &cx);
        if !unclaimed.is_empty() {
            // Sure only of what it explains: a model, when set, reads the message instead.
            understanding.confidence = understanding.confidence.min(nlu::coverage::UNSURE);
        }
        (understanding, unclaimed, recogniser)
    }

    /// The open tasks of a stored conversation, as a turn would report them: what a client
    /// shows when it continues the conversation, so an unfinished task is not a surprise.
    pub async fn open_tasks(
        &self,
        user: &str,
        conversation_id: &str,
    ) -> Result<Vec<TaskView>, AssistantError> {
        let conv = self.load_conversation(user, conversation_id).await?;
        Ok(conv.map(|c| self.views(&c)).unwrap_or_default())
    }

    /// `message` as this conversation's next turn will store and show it: secrets masked, and
    /// all of it hidden when it answers a question for a secret. What a client that shows the
    /// message to other tabs before the turn ends must show.
    pub async fn shown_message(
        &self,
        user: &str,
        conversation_id: Option<&str>,
        message: &str,
    ) -> Result<String, AssistantError> {
        let conv = match conversation_id {
            Some(id) => self.load_conversation(user, id).await?,
            None => None,
        };
        let answers_secret = conv.as_ref().is_some_and(|c| self.asks_secret(c));
        let redacted = scrub::scrub(&self.engine.secrets.redact(message));
        Ok(secret_message::stored_form(
            &redacted,
            answers_secret,
            &self.engine.lexicon,
        ))
    }

    /// The binding of the confirmation the conversation waits on, if it waits on one: a
    /// client's Confirm button carries the binding it was shown, and one that is not this is
    /// stale.
    pub async fn pending_binding(
        &self,
        user: &str,
        conversation_id: &str,
    ) -> Result<Option<String>, AssistantError> {
        let conv = self.load_conversation(user, conversation_id).await?;
        Ok(conv
            .and_then(|c| c.top().and_then(|t| t.confirmation.clone()))
            .map(|c| c.binding)
            .filter(|b| !b.is_empty()))
    }

    /// `text` as a reply would show it: the user's stored credentials (read again now, so
    /// one added by another process counts), values typed in any chat, and secret-shaped
    /// words masked. What a surface showing store data outside a turn passes it through.
    pub async fn redact_for(&self, user: &str, text: &str) -> Result<String, AssistantError> {
        self.engine.load_names(user).await?;
        Ok(scrub::scrub(&self.engine.secrets.redact(text)))
    }

    async fn load_conversation(
        &self,
        user: &str,
        id: &str,
    ) -> Result<Option<Conversation>, AssistantError> {
        let Some(row) = self.engine.store.get_conversation(user, id).await? else {
            return Ok(None);
        };
        serde_json::from_value::<Conversation>(row.state)
            .map(Some)
            .map_err(|e| AssistantError::CorruptConversation {
                id: id.to_string(),
                detail: e.to_string(),
            })
    }

    fn views(&self, conv: &Conversation) -> Vec<TaskView> {
        let mut out = Vec::new();
        for task in &conv.stack {
            let missing = match self.engine.library.action(&task.skill, &task.action) {
                Some(action) => {
                    let mut slots = task.slots.clone();
                    for s in &task.secret_slots {
                        if self.engine.secrets.get(&conv.id, &task.id.0, s).is_none() {
                            slots.remove(s);
                        }
                    }
                    let mut missing: Vec<String> = action
                        .missing_slots(&slots)
                        .iter()
                        .map(|s| s.name.clone())
                        .collect();
                    // A slot the task asked for and has no value yet is missing too, required
                    // or not (the strategy a trader needs when none is active).
                    for name in &task.asked {
                        if !slots.contains_key(name) && !missing.contains(name) {
                            missing.push(name.clone());
                        }
                    }
                    missing
                }
                None => Vec::new(),
            };
            out.push(task.view(missing));
        }
        out
    }
}

fn register_secrets(turn: &mut Turn<'_>, command: &nofxi_protocol::Command) {
    let (skill, action, slots) = match command {
        nofxi_protocol::Command::StartTask {
            skill,
            action,
            slots,
        } => (skill.clone(), action.clone(), slots.clone()),
        nofxi_protocol::Command::SetSlots { slots } => match turn.conv.top() {
            Some(t) => (t.skill.clone(), t.action.clone(), slots.clone()),
            None => return,
        },
        _ => return,
    };
    let Some(action) = turn.engine.library.action(&skill, &action) else {
        return;
    };
    let held = turn.conv.top().map(|t| t.slots.clone()).unwrap_or_default();
    let given: serde_json::Map<String, serde_json::Value> = slots.clone().into_iter().collect();
    let account = secrets::account_type(&given, &held, &turn.names);
    for (k, v) in &slots {
        // "later" said when a key was asked is refused, not a secret: masking it would
        // blank that word in every reply after.
        if action.slot(k).is_some_and(|s| s.is_secret())
            && let Some(clear) = v.as_str()
            && !nofxi_skills::validate::is_filler(clear)
        {
            turn.engine
                .secrets
                .put(&turn.conv.id, "_seen", k, clear, account);
        }
    }
}

/// An error copied from an exchange or a model ("APIError(code=-2015): …", `{"code":-1022,…}`,
/// "Error code: 401 - …"): the words are the machine's, not the user's language.
/// Whether every word of `message` is one of the user's names, a short word (≤ 3 letters:
/// "key", "api") or a token with a digit, `-` or `_` (a key, an amount): nothing in it is
/// English prose.
fn only_names_and_tokens(message: &str, names: &crate::nlu::names::Names) -> bool {
    message
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | ':' | ';'))
        .filter(|w| !w.is_empty())
        .all(|w| {
            let lower = w.to_lowercase();
            w.chars().count() <= 3
                || w.chars()
                    .any(|c| c.is_ascii_digit() || c == '-' || c == '_')
                || names.entries.iter().any(|e| e.lower == lower)
        })
}

fn pasted_error(message: &str) -> bool {
    let m = message.trim().to_lowercase();
    const MARKS: &[&str] = &[
        "error(",
        "code=",
        "\"code\"",
        "error code",
        "exception",
        "status code",
    ];
    m.starts_with('{')
        || MARKS.iter().any(|w| m.contains(w))
        || m.split_whitespace().next().is_some_and(|w| {
            w.len() == 3 && w.starts_with(['4', '5']) && w.chars().all(|c| c.is_ascii_digit())
        })
}

/// The message a yes retries ([`Pending::Retry`]), or the option an answer picks
/// ([`Pending::Pick`]); the offer is gone after this turn either way.
fn retry(turn: &mut Turn<'_>, message: &str) -> Option<String> {
    match turn.conv.pending {
        Some(Pending::Retry { .. } | Pending::Pick { .. }) => {}
        _ => return None,
    }
    let lexicon = &turn.engine.lexicon;
    match turn.conv.pending.take()? {
        Pending::Retry { message: again } => (lexicon.is(WordClass::Confirm, message)
            || lexicon.is(WordClass::AcceptOffer, message))
        .then_some(again),
        Pending::Pick { options } => picked(lexicon, &options, message).cloned(),
        _ => None,
    }
}

/// The option `answer` picks: by its position ("the second", "2", "第二个"), or by words
/// only that option says ("alpha" of "stop btc-bot" / "stop alpha").
fn picked<'a>(
    lexicon: &nlu::lexicon::Lexicon,
    options: &'a [String],
    answer: &str,
) -> Option<&'a String> {
    let said = nlu::words::trim_punct(answer.trim()).to_lowercase();
    if said.is_empty() {
        return None;
    }
    let position = lexicon
        .ordinal_in(&said)
        .or_else(|| said.parse::<usize>().ok().and_then(|n| n.checked_sub(1)));
    if let Some(at) = position {
        return options.get(at);
    }
    // "the btc one", "alpha那个": the words that only point ("the", "one", "那个") left out.
    let mut core = said.clone();
    for class in [WordClass::Article, WordClass::Reference, WordClass::Filler] {
        for word in lexicon.words(class) {
            let at: Vec<usize> = nlu::words::phrase_positions(&core, word).collect();
            for at in at.into_iter().rev() {
                core.replace_range(at..at + word.len(), " ");
            }
        }
    }
    let core: Vec<&str> = core
        .split_whitespace()
        .filter(|w| w.chars().count() >= 2)
        .collect();
    let says = |option: &&String| {
        let option = option.to_lowercase();
        nlu::words::find_phrase(&option, &said).is_some()
            || option
                .split(|c: char| c.is_whitespace() || matches!(c, ',' | '，'))
                .any(|word| core.iter().any(|c| word.starts_with(c)))
    };
    let mut saying = options.iter().filter(says);
    match (saying.next(), saying.next()) {
        (Some(only), None) => Some(only),
        _ => None,
    }
}

/// After "nothing is called alpah" with one near name, a yes will mean the same request on
/// that name.
fn offer_retry(turn: &mut Turn<'_>, message: &str, commands: &[Command]) {
    let [Command::CannotHandle { reason }] = commands else {
        return;
    };
    let Some(word) = reason.strip_prefix(nlu::NOT_FOUND_REASON) else {
        return;
    };
    let similar = policy::similar_names(turn, word);
    let [name] = similar.as_slice() else {
        return;
    };
    let lower = message.to_lowercase();
    // Lower-casing can move bytes outside ASCII; then the offer is left out.
    if let Some(at) = lower.find(&word.to_lowercase())
        && lower.len() == message.len()
    {
        let again = format!("{}{name}{}", &message[..at], &message[at + word.len()..]);
        turn.conv.pending = Some(Pending::Retry { message: again });
    }
}

/// A "which one?" or a "cancel it too?" whose task is no longer the active one is no longer
/// asked.
fn drop_stale_questions(turn: &mut Turn<'_>) {
    // A choice for a task, or "cancel it too?" about a task, that is no longer the active one
    // (another request came on top): a later yes or pick must not answer it.
    let asked_about = match &turn.conv.pending {
        Some(Pending::Choose { task_id, .. } | Pending::CancelParent { task_id }) => task_id,
        _ => return,
    };
    if turn.conv.top().map(|t| &t.id) != Some(asked_about) {
        turn.conv.pending = None;
    }
}

/// The answer to "which one?": an ordinal, a number, or one of the offered names.
fn choose(turn: &mut Turn<'_>, message: &str) -> bool {
    let Some(Pending::Choose {
        task_id,
        slot,
        options,
    }) = turn.conv.pending.clone()
    else {
        return false;
    };
    let m = trim_punct(message).to_lowercase();
    let lexicon = &turn.engine.lexicon;
    let index = lexicon
        .ordinal_in(&m)
        .or_else(|| m.parse::<usize>().ok().and_then(|n| n.checked_sub(1)))
        .or_else(|| {
            options
                .iter()
                .position(|(name, _)| name.to_lowercase() == m)
        })
        .or_else(|| options.iter().position(|(_, id)| id == &m))
        // One name offered ("did you mean btc-bot?"): a yes takes it.
        .or_else(|| (options.len() == 1 && lexicon.is(WordClass::Confirm, message)).then_some(0));
    // "Did you mean swing?" of a value the task can ask for again (a create's strategy),
    // answered no: that value is asked for, the task goes on.
    let deny = lexicon.is(WordClass::Deny, message);
    let confirm = lexicon.is(WordClass::Confirm, message);
    if index.is_none() && options.len() == 1 && slot != "target" && deny {
        turn.conv.pending = None;
        if let Some(task) = turn.conv.stack.iter_mut().find(|t| t.id == task_id) {
            task.slots.remove(&slot);
            task.resolved.remove(&slot);
            if !task.asked.contains(&slot) {
                task.asked.push(slot);
            }
        }
        return true;
    }
    let Some((name, id)) = index.and_then(|i| options.get(i).cloned()) else {
        // A bare yes to "which one?" picks none: the task asks again. Anything else is
        // understood as usual, and the question stays open while its task is on top (a
        // side question is answered, then "2" still picks); see `drop_stale_questions`.
        return confirm;
    };
    turn.conv.pending = None;
    if let Some(task) = turn.conv.stack.iter_mut().find(|t| t.id == task_id) {
        task.slots
            .insert(slot.clone(), serde_json::Value::String(name));
        task.resolved.insert(slot, id);
    }
    true
}

/// The audit trail's channel of a turn's changes: an MCP client's are its own; the CLI's and
/// the web's chats are the chat's.
fn audit_channel(channel: nofxi_protocol::Channel) -> nofxi_domain::Channel {
    match channel {
        nofxi_protocol::Channel::Mcp => nofxi_domain::Channel::Mcp,
        _ => nofxi_domain::Channel::Chat,
    }
}
