//! Understanding: a message in, typed [`Command`]s with a confidence out.
//!
//! [`RuleUnderstander`] reads everything task-specific from the skill library (verbs, nouns,
//! examples' words, slot phrases, units, aliases) and the user's resource names. The
//! [`Understander`] trait is the seam the LLM issue plugs a one-pass model into: it is asked
//! only when the rules' confidence is below the threshold, and it may only return commands.

pub mod asks;
pub mod coverage;
pub mod extract;
pub mod follow_up;
pub mod instruments;
pub mod lexicon;
pub mod market;
pub mod market_reading;
pub mod names;
pub mod new_create;
pub mod numbers;
pub mod recognisers;
pub mod repair;
pub mod reply_tone;
pub mod reply_words;
pub mod route;
pub mod shared_read;
pub mod state_refs;
pub mod typos;
pub mod unexplained;
pub mod unplaced;
pub mod words;

use nofxi_protocol::{Command, CommandSource, Understanding};
use nofxi_skills::{Lang, Library, ResourceKind, WordClass};
use serde_json::Map;
use state_refs::StateRef;

mod bulk;

use self::lexicon::Lexicon;
use self::names::Names;
use self::words::*;

/// What understanding may look at besides the message.
pub struct Context<'a> {
    pub library: &'a Library,
    pub lexicon: &'a Lexicon,
    pub names: &'a Names,
    /// (skill, action, asked slots, awaiting a yes/no) of the active task.
    pub top: Option<(&'a str, &'a str, &'a [String], bool)>,
    /// What the active task's create will be called, when it was given (see [`new_create`]).
    pub top_name: Option<&'a str>,
    /// The values the active task holds already.
    pub top_slots: Option<&'a Map<String, serde_json::Value>>,
    /// The engine asked a yes/no or a choice question last turn.
    pub engine_question: bool,
    pub current: &'a (dyn Fn(ResourceKind) -> Option<String> + Sync),
    /// The kind "it" stands for (the resource talked about last).
    pub it_kind: Option<ResourceKind>,
    /// Interrupted tasks below the top: (task id, skill id).
    pub interrupted: Vec<(nofxi_protocol::TaskId, String)>,
    /// (skill, action) of each change the last turn completed.
    pub just_done: Vec<(&'a str, &'a str)>,
    /// (skill, action) of the read the last turn completed.
    pub last_read: Option<(&'a str, &'a str)>,
    /// The request completed in the last few turns, for a fragment to re-run ([`follow_up`]).
    pub last_request: Option<&'a crate::conversation::FrameRequest>,
}

/// Turns a message into commands. Rules implement it; the LLM issue adds a model-backed one.
#[async_trait::async_trait]
pub trait Understander: Send + Sync {
    async fn understand(&self, message: &str, context: &Context<'_>) -> Understanding;
}

/// The reason of a `CannotHandle` for a verb on a name that nothing has, before that name.
pub const NOT_FOUND_REASON: &str = "no resource is called ";

/// The reason of a `CannotHandle` for a delete of part of a resource ("remove ETH from
/// default"), before the resource's name: no task deletes a part, and deleting the whole
/// would be the worst reading.
pub const PART_OF_REASON: &str = "removing part of ";

/// The reason of a `CannotHandle` for a create that adds to an existing resource ("add SOL to
/// default"), before its name: the create would make a new resource named by the next reply.
pub const ADD_TO_REASON: &str = "adding to ";
/// Values said for another resource than the open task's ("set the api key of bx to …" while
/// ds's key is asked): never the open task's values.
pub const OTHER_RESOURCE_REASON: &str = "values for another resource: ";

/// The reason of a `CannotHandle` for an action on "all" that has no bulk form ("start all
/// traders except alpha"), before the action's name: acting on the one name said would be
/// the opposite of what was asked.
pub const NO_BULK_REASON: &str = "no bulk ";

/// The reason of a `CannotHandle` for a request about an exchange nofxi cannot trade on,
/// before the exchange as said.
pub const OTHER_VENUE_REASON: &str = "other venue ";

/// The reason of a `CannotHandle` for a message that names the user's resources while a
/// confirmation waits, but is neither a yes nor a no nor another request the rules read
/// ("只停btc-bot吧 alpha留着" while a stop of both waits): the confirmation is dropped, so
/// that a later yes cannot confirm what the user may just have changed.
pub const UNREAD_WHILE_WAITING_REASON: &str = "unread while waiting";

/// Below this confidence a configured model would be asked (the LLM issue); with none, the
/// rules' answer stands.
pub const CONFIDENCE_THRESHOLD: f32 = 0.5;

/// The recogniser name a turn records when its message was read as two requests.
pub const TWO_REQUESTS: &str = "two_requests";
/// The name a reading of "the running one" with several running goes by (see [`state_refs`]).
pub const STATE_REF: &str = "state_ref";

pub struct RuleUnderstander;

fn one(command: Command, confidence: f32) -> Understanding {
    Understanding {
        commands: vec![command],
        confidence,
        source: CommandSource::Rules,
    }
}

impl RuleUnderstander {
    /// The values the message gives the active task, as a correction ("不对，我说的是 X",
    /// "算了，名字叫 Y"); `None` when it gives none.
    fn values_as_correction(&self, message: &str, cx: &Context<'_>) -> Option<Understanding> {
        cx.top?;
        let mut slots = self.values_for_top(message, cx);
        // "no, leave it where it is": "it" names the task's own target again. A correction
        // changes a value; one the task already holds is no correction, and the no stands.
        if let Some(held) = cx.top_slots
            && !slots.is_empty()
        {
            slots.retain(|k, v| held.get(k) != Some(v));
            if slots.is_empty() {
                return None;
            }
        }
        if slots.is_empty() {
            // "不对，改成 4": the value comes after the denial, with a lead-in of its own.
            let (_, rest) = message.split_once([',', '，'])?;
            return repair::value_with_lead_in(self, rest, cx);
        }
        (!slots.is_empty()).then(|| {
            one(
                Command::SetSlots {
                    slots: slots.into_iter().collect(),
                },
                0.85,
            )
        })
    }
}

/// `message` without its clauses that say what must not happen to a resource of the user's
/// ("don't stop alpha, but stop beta" is "stop beta"), when another clause is left.
fn without_negated(message: &str, cx: &Context<'_>) -> Option<String> {
    // "…, but stop beta", "…但是停掉 beta": a contrast word opens a clause of its own.
    let contrasts = cx.lexicon.words(WordClass::Contrast);
    let clauses: Vec<&str> = message
        .split([',', '，', ';', '；'])
        .flat_map(|c| split_at_words(c, contrasts))
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    let openers: Vec<&String> = [WordClass::Contrast, WordClass::AndJoin]
        .iter()
        .flat_map(|c| cx.lexicon.words(*c))
        .collect();
    let negated = |clause: &str| {
        let lower = clause.to_lowercase();
        let opened = strip_start_words(&lower, &openers);
        let opens_with = |w: &String| {
            opened.starts_with(w.as_str())
                && !(w.is_ascii()
                    && opened[w.len()..].starts_with(|c: char| c.is_ascii_alphanumeric()))
        };
        cx.lexicon.words(WordClass::Negation).iter().any(opens_with)
            && !cx.names.mentioned(&lower).is_empty()
    };
    let kept: Vec<&str> = clauses.iter().copied().filter(|c| !negated(c)).collect();
    (kept.len() < clauses.len() && !kept.is_empty()).then(|| kept.join(", "))
}

/// `message` without its trailing clause that leaves a resource as it is ("stop alpha and
/// beta, but keep gamma running", "停掉 alpha 和 beta，但保留 gamma": what it names is not part
/// of the request), when that clause names one of the user's resources ("but not now" names
/// none and stays: it changes the request).
fn without_kept(message: &str, cx: &Context<'_>) -> Option<String> {
    let lower = message.to_lowercase();
    let at = cx
        .lexicon
        .words(WordClass::KeepAsIs)
        .iter()
        .filter_map(|w| find_phrase(&lower, w))
        .min()?;
    if at == 0 || cx.names.mentioned(&lower[at..]).is_empty() {
        return None;
    }
    let kept = trim_punct(message.get(..at)?);
    (!kept.is_empty()).then(|| kept.to_string())
}

/// `message` cut at the first join whose both sides are requests of their own: a verb and a
/// name of the user's on each side. "create a trader … and start it" is one request (the
/// second side names nothing), as is "trading BTC and ETH" (no verb after the join).
///
/// A second side that is only another name of the same kind ("stop t1 and t2", "停止 t1 和
/// t2") is the first request again on that name; so is a first side that is only a name
/// ("把 t1 和 t2 停掉").
fn two_requests(message: &str, cx: &Context<'_>) -> Option<(String, String)> {
    let lower = message.to_lowercase();
    // A request names one of the user's resources, or creates a kind it names.
    let is_request = |part: &str| {
        route::route(cx.library, part, cx.names, cx.lexicon, None)
            .is_some_and(|r| r.has_verb && (r.has_name || r.action == "create" && r.has_noun))
    };
    // The lexicon's request joins ("stop t1 and delete t2", "停止 t1 然后删除 t2"), in order.
    let joins = cx.lexicon.words(WordClass::RequestJoin);
    joins.iter().find_map(|join| {
        // The last join of its kind: "停掉 alpha、beta、gamma" is "停掉 alpha、beta" and gamma.
        let at = lower.rfind(join)?;
        let (first, second) = (message.get(..at)?, message.get(at + join.len()..)?);
        let (lower_first, lower_second) = (lower.get(..at)?, lower.get(at + join.len()..)?);
        if !is_request(lower_first) {
            // "把 alpha 和 beta 停掉": the first side is only a name, the request comes after.
            let markers = cx.lexicon.words(WordClass::ObjectMarker);
            let only_name = trim_punct(strip_start_words(lower_first, markers));
            let again = is_request(lower_second)
                .then(|| same_request_on(lower_second, only_name, cx))
                .flatten()?;
            return Some((again, second.to_string()));
        }
        if is_request(lower_second) {
            return Some((first.to_string(), second.to_string()));
        }
        // "create a paper exchange p2 and a strategy s2": the second names another kind to
        // make, and the first one's create verb carries over.
        // Only across "and": after a comma the part is more often a value of the first
        // ("新建交易员 x，交易所 sandbox").
        let and = cx.lexicon.words(WordClass::AndJoin).contains(join);
        if and && let Some(again) = other_kind_created(lower_first, lower_second, second, cx) {
            return Some((first.to_string(), again));
        }
        if let Some(on_it) = request_on_it(lower_first, lower_second, cx)
            && is_request(&on_it)
        {
            return Some((first.to_string(), on_it));
        }
        let again = same_request_on(lower_first, trim_punct(lower_second), cx)?;
        Some((first.to_string(), again))
    })
}

/// "create a paper exchange p2 and a strategy s2": the second side names another kind to
/// make, and the first one's create verb carries over; the second request, so said.
fn other_kind_created(
    lower_first: &str,
    lower_second: &str,
    second: &str,
    cx: &Context<'_>,
) -> Option<String> {
    let verb = create_verb_of(lower_first, cx)?;
    let again = format!("{verb} {}", second.trim());
    // Another kind by its noun ("a trader called t1 on paper"), said before any name
    // of the user's: "用模拟盘账户" after a trader's create picks its account, it
    // makes no account.
    let first_name = cx
        .names
        .mentioned(lower_second)
        .iter()
        .map(|(_, at, _)| *at)
        .min()
        .unwrap_or(usize::MAX);
    let names_noun = |skill: &str| {
        cx.library.get(skill).is_some_and(|sk| {
            sk.meta.nouns.iter().any(|n| {
                find_phrase(lower_second, &n.to_lowercase()).is_some_and(|at| at < first_name)
            })
        })
    };
    let other_kind = route::route(
        cx.library,
        &again.to_lowercase(),
        cx.names,
        cx.lexicon,
        None,
    )
    .zip(route::route(
        cx.library,
        lower_first,
        cx.names,
        cx.lexicon,
        None,
    ))
    .is_some_and(|(b, a)| {
        b.action == "create"
            && b.skill != a.skill
            && names_noun(&b.skill)
            && !refers_to_kind_of(cx, (&a.skill, &a.action), &b.skill)
    });
    other_kind.then_some(again)
}

/// Whether `first`'s action holds a reference to the kind `skill` makes: then "create a
/// trader … and strategy s1" names the trader's strategy, not a second thing to create.
fn refers_to_kind_of(cx: &Context<'_>, (skill, action): (&str, &str), other: &str) -> bool {
    let made = cx
        .library
        .action(other, "create")
        .and_then(|create| create.steps.first())
        .and_then(|step| step.tool.resource_kind());
    let Some(act) = cx.library.action(skill, action) else {
        return false;
    };
    made.is_some_and(|kind| act.slots.iter().any(|s| s.ref_kind == Some(kind)))
}

/// The create verb `first` says, when it routes to a create.
fn create_verb_of(first: &str, cx: &Context<'_>) -> Option<String> {
    let r = route::route(cx.library, first, cx.names, cx.lexicon, None)?;
    if r.action != "create" {
        return None;
    }
    let create = cx.library.action(&r.skill, "create")?;
    cx.lexicon
        .action_verbs(create)
        .map(|v| v.to_lowercase())
        .filter_map(|v| find_phrase(first, &v).map(|at| (at, v)))
        .min_by_key(|(at, v)| (*at, std::cmp::Reverse(v.len())))
        .map(|(_, v)| v)
}

/// "stop t1 and delete it": `second` with its "it" (它) replaced by the name `first` names.
fn request_on_it(first: &str, second: &str, cx: &Context<'_>) -> Option<String> {
    let (said, ..) = cx.names.mentioned(first).into_iter().next()?;
    let (at, word) = cx
        .lexicon
        .words(WordClass::Reference)
        .iter()
        .filter_map(|w| find_phrase(second, w).map(|at| (at, w)))
        .min()?;
    Some(with_name(second, at, at + word.len(), &said.name))
}

/// What follows a yes that opens a message when nothing waits for one ("好，启动", "是的 删掉
/// alpha"), when that is a request with its own verb; `None` otherwise (a yes to a question,
/// "ok thanks", a yes alone).
fn eager_yes<'m>(message: &'m str, cx: &Context<'_>) -> Option<&'m str> {
    if cx.top.is_some() || cx.engine_question {
        return None;
    }
    let lower = message.to_lowercase();
    // Lower-casing can move bytes outside ASCII; the yes must end at the same place in both.
    if lower.len() != message.len() {
        return None;
    }
    let yes = cx.lexicon.opening(WordClass::Confirm, &lower)?;
    // Set off from the rest ("好，启动", "ok start"): "要不要停掉" opens with no yes.
    let set_off = message[yes.len()..]
        .chars()
        .next()
        .is_some_and(|c| c.is_whitespace() || c.is_ascii_punctuation() || "，、。！".contains(c));
    if !set_off {
        return None;
    }
    let rest = words::trim_punct(&message[yes.len()..]);
    // A changing action's verb ("启动", "删掉"): a read's ("怎么样") follows a yes as small talk.
    let rest_lower = rest.to_lowercase();
    let asks = cx
        .lexicon
        .reply_words()
        .all_verbs
        .iter()
        .any(|v| words::find_phrase(&rest_lower, v).is_some());
    (!rest.is_empty() && asks).then_some(rest)
}

/// `text` with `from..to` replaced by `name`.
fn with_name(text: &str, from: usize, to: usize, name: &str) -> String {
    format!("{}{name}{}", &text[..from], &text[to..])
}

/// `first` ("stop t1") on `name` instead of the name it names, when `name` is wholly a name
/// of the same kind as that one: "stop t2".
fn same_request_on(first: &str, name: &str, cx: &Context<'_>) -> Option<String> {
    let mentioned = cx.names.mentioned(first);
    let &(said, from, to) = mentioned.first()?;
    let (other, ..) = cx
        .names
        .mentioned(name)
        .into_iter()
        .find(|(e, at, end)| *at == 0 && *end == name.len() && e.kind == said.kind)?;
    // "stop alpha, beta" and gamma: the request on gamma alone, not "stop gamma, beta".
    let listed = mentioned.iter().skip(1).any(|(e, ..)| e.kind == said.kind);
    let first = if listed { &first[..to] } else { first };
    Some(with_name(first, from, to, &other.name))
}

impl RuleUnderstander {
    /// A message of two requests gives both tasks, in order (the second waits for the first);
    /// any other message is [`RuleUnderstander::understand_single`].
    ///
    /// Every reading returned accounts for the whole message it was read from
    /// ([`unexplained::account_for`]): a part is accounted for on its own words.
    pub fn understand_now(&self, message: &str, cx: &Context<'_>) -> Understanding {
        self.understand_named(message, cx).1
    }

    /// [`RuleUnderstander::understand_now`], with the name of the recogniser that read the
    /// message ([`TWO_REQUESTS`] when it was read as two).
    pub fn understand_named(
        &self,
        message: &str,
        cx: &Context<'_>,
    ) -> (&'static str, Understanding) {
        match state_refs::read(message, cx) {
            Some(StateRef::Said(said)) => return self.understand_named(&said, cx),
            Some(StateRef::Which { names, messages }) => {
                let question = crate::phrasing::msg(
                    Lang::detect(message),
                    "dialogue-which-of-state",
                    &[("names", &names.join(", "))],
                );
                let pick = Command::Clarify {
                    question,
                    options: messages,
                };
                return (STATE_REF, one(pick, 0.85));
            }
            None => {}
        }
        // "好，启动" with nothing waiting: the yes only says the request eagerly; it is the rest.
        if let Some(rest) = eager_yes(message, cx) {
            return self.understand_named(rest, cx);
        }
        let (name, whole) = recognisers::recognise(self, message, cx);
        let starts_task = matches!(whole.commands.as_slice(), [Command::StartTask { .. }]);
        // "stop all except alpha and beta" is one request whose exceptions are two names;
        // a "but" elsewhere ("stop alpha and beta but not now") splits as usual.
        let leaves_out = matches!(whole.commands.as_slice(),
            [Command::StartTask { slots, .. }] if slots.contains_key("except"));
        if starts_task
            && !leaves_out
            && let Some(kept) = without_kept(message, cx).or_else(|| without_negated(message, cx))
        {
            return self.understand_named(&kept, cx);
        }
        if starts_task
            && !leaves_out
            && let Some((first, second)) = two_requests(message, cx)
        {
            // Each side may hold more: "stop alpha, beta and gamma" is "stop alpha, beta"
            // and "stop gamma", and the first of those is two again.
            let (a, b) = (
                self.understand_now(&first, cx),
                self.understand_now(&second, cx),
            );
            let tasks = |u: &Understanding| {
                !u.commands.is_empty()
                    && u.commands
                        .iter()
                        .all(|c| matches!(c, Command::StartTask { .. }))
            };
            if tasks(&a) && tasks(&b) {
                let both = Understanding {
                    commands: bulk::merged(
                        a.commands.into_iter().chain(b.commands).collect(),
                        cx.library,
                        // The one bulk action (`stop_all`) acts on running traders only.
                        &|name| {
                            cx.names
                                .of_kind(ResourceKind::Trader)
                                .any(|e| e.name == name && e.running && !e.deleted)
                        },
                    ),
                    confidence: a.confidence.min(b.confidence),
                    source: CommandSource::Rules,
                };
                return (TWO_REQUESTS, both);
            }
        }
        (name, unexplained::account_for(whole, message, cx))
    }

    /// The reading of the first recogniser that claims the message ([`recognisers`]).
    pub fn understand_single(&self, message: &str, cx: &Context<'_>) -> Understanding {
        recognisers::recognise(self, message, cx).1
    }

    /// Values the message gives the active task: slots read by their phrases, then a bare
    /// answer to what it just asked ("500" after "what initial balance?").
    pub(crate) fn values_for_top(
        &self,
        message: &str,
        cx: &Context<'_>,
    ) -> Map<String, serde_json::Value> {
        let Some((skill, action, asked, _)) = cx.top else {
            return Map::new();
        };
        // A number alone ("90%") answers what was asked; read by its unit it could land on
        // another setting (a percent on the minimum confidence).
        let found = cx.lexicon.numbers(message);
        let only_number = match found.as_slice() {
            [n] => {
                // Around it only signs, and multiple words ("x 10"): nothing else is said.
                let around = [message.get(..n.start), message.get(n.end..)];
                let rest = around.into_iter().flatten().collect::<Vec<_>>().join(" ");
                let times = cx.lexicon.words(WordClass::UnitTimes);
                let rest = times
                    .iter()
                    .fold(rest.to_lowercase(), |r, t| r.replace(t.as_str(), " "));
                rest.chars().all(|c| !c.is_alphanumeric())
            }
            _ => false,
        };
        if only_number && let Some(act) = cx.library.action(skill, action) {
            let bare = extract::bare_answer(act, asked, message, cx.names, cx.lexicon, &Map::new());
            if !bare.is_empty() {
                return bare;
            }
        }
        let mut slots = self.slots_for(skill, action, message, cx);
        // "builtin" after "what should it be called?" once the provider is builtin: a value
        // the task holds already, said again, is no news; the message answers the question.
        if let Some(held) = cx.top_slots
            && !asked.is_empty()
        {
            slots.retain(|k, v| asked.contains(k) || held.get(k) != Some(v));
        }
        // "deepseek-reasoner" after "what model name?": an answer, not a target nobody has.
        let made_up_target = slots
            .get("target")
            .and_then(serde_json::Value::as_str)
            .is_some_and(|t| !cx.names.entries.iter().any(|e| e.lower == t.to_lowercase()));
        if made_up_target && !asked.iter().any(|a| a == "target") && !asked.is_empty() {
            slots.remove("target");
        }
        if let Some(act) = cx.library.action(skill, action) {
            for (k, v) in extract::bare_answer(act, asked, message, cx.names, cx.lexicon, &slots) {
                slots.insert(k, v);
            }
        }
        slots
    }

    pub(crate) fn slots_for(
        &self,
        skill: &str,
        action: &str,
        message: &str,
        cx: &Context<'_>,
    ) -> Map<String, serde_json::Value> {
        match cx.library.action(skill, action) {
            Some(act) => {
                let nouns = cx
                    .library
                    .get(skill)
                    .map(|s| s.meta.nouns.clone())
                    .unwrap_or_default();
                extract::extract(act, &nouns, message, cx.names, cx.lexicon, cx.current).slots
            }
            None => Map::new(),
        }
    }
}

#[async_trait::async_trait]
impl Understander for RuleUnderstander {
    async fn understand(&self, message: &str, context: &Context<'_>) -> Understanding {
        self.understand_now(message, context)
    }
}

/// Whether the routed action only reads.
fn is_read(library: &Library, r: &route::Route) -> bool {
    library
        .get(&r.skill)
        .and_then(|s| s.action(&r.action))
        .is_some_and(|a| a.risk == nofxi_skills::Risk::Query)
}

/// Whether an understanding sets a value of the open task other than what it acts on ("nah
/// cancel that" names the task's own target through "that"; it changes no value).
fn sets_values(u: &Understanding) -> bool {
    u.commands.iter().any(|c| match c {
        Command::SetSlots { slots } => slots.keys().any(|k| k != "target"),
        Command::CorrectSlot { slot, .. } => slot != "target",
        _ => false,
    })
}
