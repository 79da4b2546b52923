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
pub mod names;
pub mod new_create;
pub mod numbers;
pub mod repair;
pub mod route;
pub mod shared_read;
pub mod typos;
pub mod unexplained;
pub mod unplaced;
pub mod words;

use nofxi_protocol::{AnswerKind, CancelScope, Command, CommandSource, ListEdit, Understanding};
use nofxi_skills::{Knowledge, Library, ResourceKind, SkillKind, WordClass};
use serde_json::Map;

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

/// Below this confidence a configured model would be asked (the LLM issue); with none, the
/// rules' answer stands.
pub const CONFIDENCE_THRESHOLD: f32 = 0.5;

pub struct RuleUnderstander;

fn one(command: Command, confidence: f32) -> Understanding {
    Understanding {
        commands: vec![command],
        confidence,
        source: CommandSource::Rules,
    }
}

/// The guidance entry whose `whole_message` phrases include the message itself, ignoring case
/// and surrounding punctuation.
fn whole_message_entry(library: &Library, message: &str) -> Option<String> {
    let entry_of = |part: &str| {
        library
            .skills()
            .iter()
            .filter(|s| s.meta.kind == SkillKind::Guidance)
            .flat_map(|s| s.meta.knowledge.iter())
            .find(|k| k.whole_message && k.phrases.iter().any(|p| p.to_lowercase() == part))
    };
    // "hi, what can you do?" is two such phrases: every part must be one, and the longest
    // part (the question, not the greeting) is answered.
    let mut best: Option<(usize, &Knowledge)> = None;
    for part in message.split([',', '，', '.', '。', '!', '！', '?', '？', ';', '；']) {
        let part = trim_punct(part).to_lowercase();
        if part.is_empty() {
            continue;
        }
        let k = entry_of(&part)?;
        let len = part.chars().count();
        if best.is_none_or(|(l, _)| len > l) {
            best = Some((len, k));
        }
    }
    best.map(|(_, k)| k.id.clone())
}

/// The resource something is removed from or added to ("remove ETH from default", "从
/// default 里删掉 ETH", "add SOL to default"): a name of the user's after one of `words`.
fn name_after(lower: &str, cx: &Context<'_>, class: WordClass) -> Option<String> {
    let words = cx.lexicon.words(class);
    let from_at = words.iter().filter_map(|w| lower.find(w.as_str())).min()?;
    cx.names
        .mentioned(lower)
        .into_iter()
        .find(|(_, at, _)| *at > from_at)
        .map(|(entry, ..)| entry.name.clone())
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

    /// "add SOL to default", "remove ETH from default": an update of `whole` when it is a
    /// resource whose update reads a list edit from the message; `None` otherwise (the
    /// caller says that nothing was created or deleted).
    fn list_edit_on(&self, whole: &str, message: &str, cx: &Context<'_>) -> Option<Understanding> {
        let lower = whole.to_lowercase();
        let kind = cx
            .names
            .entries
            .iter()
            .find(|e| e.lower == lower && !e.deleted)?
            .kind;
        let skill = cx
            .library
            .skills()
            .iter()
            .find(|s| s.meta.kind == SkillKind::Management && s.meta.domain == kind.as_str())?;
        self.list_edit_of(&skill.id, Some(whole), message, cx)
    }

    /// An update of `skill`'s resource `target` (asked for when `None`: "remove ETH from
    /// coins") when the message edits one of its lists; `None` otherwise.
    fn list_edit_of(
        &self,
        skill: &str,
        target: Option<&str>,
        message: &str,
        cx: &Context<'_>,
    ) -> Option<Understanding> {
        cx.library.action(skill, "update")?;
        let mut slots = self.slots_for(skill, "update", message, cx);
        if !slots.values().any(|v| ListEdit::from_value(v).is_some()) {
            return None;
        }
        slots.remove("target");
        if let Some(target) = target {
            slots.insert(
                "target".into(),
                serde_json::Value::String(target.to_string()),
            );
        }
        Some(one(
            Command::StartTask {
                skill: skill.to_string(),
                action: "update".into(),
                slots: slots.into_iter().collect(),
            },
            0.9,
        ))
    }
}

/// Whether one of the `asked` slots of the task takes a yes or a no (a boolean).
fn asks_yes_no(library: &Library, skill: &str, action: &str, asked: &[String]) -> bool {
    library.action(skill, action).is_some_and(|a| {
        asked
            .iter()
            .filter_map(|name| a.slot(name))
            .any(|slot| slot.ty == nofxi_skills::SlotType::Boolean)
    })
}

/// The glossary entry that answers a request to see a stored credential.
const SECRETS_NEVER_SHOWN: &str = "secrets_are_never_shown";

/// Whether the message asks to see a stored credential ("print the api key of ds", "what is
/// my okx passphrase", "显示 ds 的 key"). A message that carries a key-shaped value gives
/// one instead, and is not such a request. A credential repeated ("echo", "复述") is one
/// shown, so the lexicon's `see` words include asking to have it said again.
fn asks_to_see_secret(lower: &str, names: &Names, lexicon: &Lexicon) -> bool {
    let said = |text: &str| {
        lexicon.any_in(WordClass::See, text) && lexicon.any_in(WordClass::SecretNoun, text)
    };
    // Most messages have neither word: the names are looked for only when both are there.
    if !said(lower) {
        return false;
    }
    // "show strategy secret": a name of the user's is no word of the request.
    let mut unnamed = lower.to_string();
    for (_, from, to) in names.mentioned(lower) {
        extract::tokens::blank(&mut unnamed, from, to);
    }
    said(&unnamed) && crate::scrub::scrub(lower) == lower
}

/// A clarification for a request that names, without its noun, a name resources of two or
/// more kinds share: the request again with each kind's noun before the name, to pick from.
fn shared_name_choice(
    r: &route::Route,
    message: &str,
    lower: &str,
    cx: &Context<'_>,
) -> Option<Understanding> {
    let kind = cx.library.get(&r.skill)?.meta.domain.clone();
    let (said, from, _) = cx
        .names
        .mentioned(lower)
        .into_iter()
        .find(|(e, ..)| e.kind.as_str() == kind)?;
    // Only kinds the request can act on: "start alpha" is the trader's, whatever else is
    // called alpha.
    let acts_on = |kind: ResourceKind| {
        cx.library.skills().iter().any(|s| {
            s.meta.kind == SkillKind::Management
                && s.meta.domain == kind.as_str()
                && s.action(&r.action).is_some()
        })
    };
    let mut kinds: Vec<ResourceKind> = cx
        .names
        .entries
        .iter()
        .filter(|e| e.lower == said.lower && !e.deleted && acts_on(e.kind))
        .map(|e| e.kind)
        .collect();
    kinds.sort_by_key(|k| k.as_str());
    kinds.dedup();
    if kinds.len() < 2 {
        return None;
    }
    let lang = nofxi_skills::Lang::detect(message);
    let options: Vec<String> = kinds
        .iter()
        .map(|k| {
            let noun = crate::texts::kind_word(lang, *k);
            let (before, after) = (message.get(..from)?, message.get(from..)?);
            Some(format!("{before}{noun} {after}"))
        })
        .collect::<Option<_>>()?;
    let question = crate::texts::same_name_kinds(lang, &said.name, &options);
    Some(one(Command::Clarify { question, options }, 0.9))
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
        if and && let Some(verb) = create_verb_of(lower_first, cx) {
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
                        find_phrase(lower_second, &n.to_lowercase())
                            .is_some_and(|at| at < first_name)
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
            if other_kind {
                return Some((first.to_string(), again));
            }
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

/// A resource the message names that the open task is not about and cannot take as a value:
/// not its target or name, and of no kind its reference slots hold. Values said with it are
/// that resource's; a credential for one account must never land in another's task.
fn another_resource_named(
    lower: &str,
    cx: &Context<'_>,
    skill: &str,
    action: &str,
) -> Option<String> {
    let act = cx.library.action(skill, action)?;
    let own = cx.top_name.map(nofxi_domain::validation::name_key);
    cx.names
        .mentioned(lower)
        .into_iter()
        .map(|(e, _, _)| e)
        .find(|e| {
            own.as_deref() != Some(e.lower.as_str())
                && !act.slots.iter().any(|s| s.ref_kind == Some(e.kind))
        })
        .map(|e| e.name.clone())
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
        let whole = self.understand_single(message, cx);
        let starts_task = matches!(whole.commands.as_slice(), [Command::StartTask { .. }]);
        // "stop all except alpha and beta" is one request whose exceptions are two names;
        // a "but" elsewhere ("stop alpha and beta but not now") splits as usual.
        let leaves_out = matches!(whole.commands.as_slice(),
            [Command::StartTask { slots, .. }] if slots.contains_key("except"));
        if starts_task
            && !leaves_out
            && let Some(kept) = without_kept(message, cx).or_else(|| without_negated(message, cx))
        {
            return self.understand_now(&kept, cx);
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
                return Understanding {
                    commands: a.commands.into_iter().chain(b.commands).collect(),
                    confidence: a.confidence.min(b.confidence),
                    source: CommandSource::Rules,
                };
            }
        }
        unexplained::account_for(whole, message, cx)
    }

    /// "stop btc-bot" done, then "actually no, leave it running", "算了不停了", "no wait,
    /// cancel that": with no task open, a message that opens with a retraction, a cancel or
    /// a no, and asks for nothing but the change just made, takes that change back. It is a
    /// cancel the policy answers with what was done and how to undo it; never another reading
    /// of the same words (the trader's status, "nothing in progress").
    fn takes_back_what_was_done(&self, message: &str, cx: &Context<'_>) -> bool {
        if cx.top.is_some() || cx.just_done.is_empty() {
            return false;
        }
        let lx = cx.lexicon;
        let lower_message = message.to_lowercase();
        let opens = [WordClass::Retraction, WordClass::Cancel]
            .into_iter()
            .any(|class| lx.any_in(class, &lower_message))
            || lx.is(WordClass::Deny, message)
            || lx.starts(WordClass::Deny, message, 48);
        if !opens {
            return false;
        }
        let lower = message.to_lowercase();
        match route::route(cx.library, &lower, cx.names, cx.lexicon, None) {
            // "算了不停了" says the change again, negated; "no, start beta" is a new request.
            Some(r) if r.has_verb => {
                !r.has_name
                    && cx
                        .just_done
                        .iter()
                        .any(|(skill, action)| *skill == r.skill && *action == r.action)
            }
            _ => true,
        }
    }

    /// What `rest` changes of the open task, read as the message it would be on its own
    /// ("改成20分钟吧"): its values, or the same change of the same resource restated.
    fn new_values_for_top(&self, rest: &str, cx: &Context<'_>) -> Option<Understanding> {
        let (skill, action, ..) = cx.top?;
        let u = self.understand_single(rest, cx);
        if sets_values(&u) {
            return Some(u);
        }
        let slots = u.commands.iter().find_map(|c| match c {
            Command::StartTask {
                skill: s,
                action: a,
                slots,
            } if s == skill && a == action => Some(slots.clone()),
            _ => None,
        })?;
        let slots: std::collections::BTreeMap<String, serde_json::Value> =
            slots.into_iter().filter(|(k, _)| k != "target").collect();
        (!slots.is_empty()).then(|| one(Command::SetSlots { slots }, 0.85))
    }

    /// The waiting task taken back: its own verb negated ("don't delete", "别删"), or a
    /// retraction or cancel word anywhere ("wait no", "nah cancel that"). A cancel, then what
    /// the rest of the message asks when it is a request of its own.
    fn takes_back_waiting(&self, message: &str, cx: &Context<'_>) -> Option<Understanding> {
        let (skill, action, ..) = cx.top?;
        let lx = cx.lexicon;
        let lower = message.to_lowercase();
        let act = cx.library.action(skill, action)?;
        let negations = lx.words(WordClass::Negation);
        let negated_verb = lx.action_verbs(act).any(|v| {
            let v = v.to_lowercase();
            // "别删" for 删除: a Chinese verb is said by its first character too.
            let short: String = v.chars().take(1).collect();
            let forms = match v.is_ascii() {
                true => vec![v.clone()],
                false => vec![v.clone(), short],
            };
            forms.iter().any(|form| {
                words::phrase_positions(&lower, form)
                    .any(|at| words::preceded_by(&lower, at, negations))
            })
        });
        let retracts = [WordClass::Retraction, WordClass::Cancel]
            .into_iter()
            .any(|class| lx.any_in(class, &lower));
        if !negated_verb && !retracts {
            return None;
        }
        // "no wait, make it 20": taking back a value, not the task.
        if !negated_verb
            && let Some(u) = self.values_as_correction(message, cx)
            && sets_values(&u)
        {
            return Some(u);
        }
        let mut commands = vec![Command::Cancel {
            scope: CancelScope::Current,
        }];
        let free = Context {
            top: None,
            top_name: None,
            top_slots: None,
            engine_question: false,
            interrupted: Vec::new(),
            just_done: Vec::new(),
            last_read: None,
            ..*cx
        };
        let rest = self.understand_single(message, &free);
        let another = |c: &Command| matches!(c, Command::StartTask { skill: s, action: a, .. } if !(s == skill && a == action));
        if rest.commands.iter().all(another) && !rest.commands.is_empty() {
            commands.extend(rest.commands);
        }
        Some(Understanding {
            commands,
            confidence: 0.9,
            source: CommandSource::Rules,
        })
    }

    pub fn understand_single(&self, message: &str, cx: &Context<'_>) -> Understanding {
        let lower = message.to_lowercase();
        let yes_no_pending = cx.engine_question || cx.top.is_some_and(|t| t.3);
        let lx = cx.lexicon;
        if lx.is(WordClass::CancelAll, message) || lx.starts(WordClass::CancelAll, message, 16) {
            return one(
                Command::Cancel {
                    scope: CancelScope::All,
                },
                0.95,
            );
        }
        if self.takes_back_what_was_done(message, cx) {
            return one(
                Command::Cancel {
                    scope: CancelScope::Current,
                },
                0.9,
            );
        }
        if lx.is(WordClass::Cancel, message) || lx.starts(WordClass::Cancel, message, 12) {
            // "算了，名字叫 bot2": never mind the value said before, here is another one.
            let then_value = lx.words(WordClass::Cancel).iter().any(|w| {
                lower
                    .trim_start()
                    .strip_prefix(w)
                    .is_some_and(|rest| rest.starts_with([',', '，']))
            });
            if then_value && let Some(u) = self.values_as_correction(message, cx) {
                return u;
            }
            return one(
                Command::Cancel {
                    scope: CancelScope::Current,
                },
                0.95,
            );
        }
        // "delete omega" waits for its yes, then "hold on, don't delete it, just stop it",
        // "等等 先别删 把它停了就行", "nah cancel that": the waiting task is dropped, never
        // confirmed, and whatever else the message asks is read on its own.
        if yes_no_pending && let Some(u) = self.takes_back_waiting(message, cx) {
            return u;
        }
        // "可以，不过改成20吧", "yes but make it 20 instead": the yes comes with a new value,
        // which replaces the one waiting; the change is confirmed anew with it.
        if yes_no_pending
            && !lx.is(WordClass::Confirm, message)
            && let Some(rest) = after_word(&lower, lx.words(WordClass::Confirm))
            && let Some(rest) = after_word(rest, lx.words(WordClass::Contrast))
            && let Some(u) = self.new_values_for_top(rest, cx)
        {
            return u;
        }
        if yes_no_pending {
            // A yes and nothing else: "是啊，一直启动不了" is a complaint, "yes, and stop
            // btc-bot" another request; neither confirms what waits.
            if lx.is(WordClass::Confirm, message)
                || lx.starts(WordClass::Confirm, message, 10)
                    && !lx.starts(WordClass::Deny, message, 10)
                    && unexplained::only_a_yes(message, cx)
            {
                return one(Command::Confirm, 0.95);
            }
            if lx.is(WordClass::Deny, message) {
                return one(Command::Deny, 0.95);
            }
            if lx.starts(WordClass::Deny, message, 24) {
                // "不对，我说的是 btc-pro": a denial that carries a new value is a correction.
                if let Some(u) = self.values_as_correction(message, cx) {
                    return u;
                }
                return one(Command::Deny, 0.9);
            }
        }
        if let Some(u) = repair::value_with_lead_in(self, message, cx) {
            return u;
        }
        // "hi", "help", "谢谢": a whole message a guidance entry answers; any task stays put.
        if let Some(topic) = whole_message_entry(cx.library, message) {
            return one(
                Command::AnswerQuestion {
                    kind: AnswerKind::Glossary,
                    topic,
                },
                0.95,
            );
        }
        // "print the api key of ds", "显示 ds 的 key": a stored credential is never shown,
        // and the request must not become a change of it that the next reply would fill.
        if asks_to_see_secret(&lower, cx.names, cx.lexicon) {
            return one(
                Command::AnswerQuestion {
                    kind: AnswerKind::Glossary,
                    topic: SECRETS_NEVER_SHOWN.into(),
                },
                0.9,
            );
        }
        // "eth?" after a BTC quote, "and alpha too" after "stop btc-bot": the last request again.
        if let Some(u) = follow_up::follow_up(message, cx) {
            return u;
        }
        // A pasted error or code: explained like a new goal; the task resumes after.
        let it_at = lx
            .words(WordClass::Reference)
            .iter()
            .filter_map(|w| find_phrase(&lower, w))
            .min();
        let it = cx.it_kind.zip(it_at);
        let routed = route::route(cx.library, &lower, cx.names, cx.lexicon, it);
        // "我最近的交易记录": a read two skills have, with no noun, name or security saying
        // whose, is asked back rather than given to whichever the rules met first.
        let says_whose = route::names_a_subject(cx.library, cx.lexicon, &lower)
            || it.is_some()
            || !cx.names.mentioned(&lower).is_empty()
            || instruments::find(&lower).is_some();
        if !says_whose {
            match shared_read::choice(cx.library, cx.lexicon, cx.names, message, &lower) {
                Some(shared_read::SharedRead::Ask { question, options }) => {
                    return one(Command::Clarify { question, options }, 0.85);
                }
                Some(shared_read::SharedRead::Only { skill, action }) => {
                    let slots = self.slots_for(&skill, &action, message, cx);
                    return one(
                        Command::StartTask {
                            skill,
                            action,
                            slots: slots.into_iter().collect(),
                        },
                        0.85,
                    );
                }
                None => {}
            }
        }
        // "eth-bot journal", then "what about btc-bot" / "那 btc-bot 的呢": a name with no
        // verb or noun of its own right after a read of its kind is that read again, of this
        // one ("show trader btc-bot" still shows the trader).
        let routed = routed.map(|mut r| {
            // Resources only: "how many Tencent shares do I have" after a list of records
            // asks for the holding (a security said is no resource's name).
            let of_resources = cx
                .library
                .get(&r.skill)
                .is_some_and(|s| ResourceKind::parse(&s.meta.domain).is_some());
            if !r.has_noun
                && of_resources
                && r.has_name
                && r.action == "query"
                && let Some((skill, action)) = cx.last_read
                && skill == r.skill
            {
                r.action = action.to_string();
            }
            r
        });
        // "how do I add an exchange?", "怎么创建策略": how it is done, never done; "how do I
        // get a binance api key?" is no action of ours: the guidance that tells it.
        if let Some(topic) = routed.as_ref().and_then(|r| asks::how_to(r, &lower, cx)) {
            return one(
                Command::AnswerQuestion {
                    kind: AnswerKind::HowTo,
                    topic,
                },
                0.9,
            );
        }
        if lx.opens(WordClass::HowTo, &lower)
            && let Some(k) = guidance_for(cx.library, message)
        {
            return one(
                Command::AnswerQuestion {
                    kind: AnswerKind::Glossary,
                    topic: k,
                },
                0.85,
            );
        }
        // "btc price", "比特币多少钱": a quote, answered beside any task; never a request to
        // change something ("create a trader when btc price drops" routes to its verb).
        if routed.as_ref().is_none_or(|r| {
            (!r.has_verb || is_read(cx.library, r))
                && !market::subject_is_verbs_object(
                    cx.library, cx.lexicon, &lower, &r.skill, &r.action,
                )
        }) {
            let symbols = market::quoted_symbols(cx.library, cx.names, &lower);
            if !symbols.is_empty() {
                let commands = symbols
                    .into_iter()
                    .map(|topic| Command::AnswerQuestion {
                        kind: AnswerKind::Market,
                        topic,
                    })
                    .collect();
                return Understanding {
                    commands,
                    confidence: 0.9,
                    source: CommandSource::Rules,
                };
            }
        }
        // "hold on, total pnl?", "btc-bot的持仓看下", "等下 回收站有啥" while something is being
        // created: a read asked on the side, answered before the task goes on; never a value
        // of the task (a strategy once got "btc-bot的持仓看下" as its name).
        // A word that names one of the task's own fields ("initial balance 500" while a
        // trader is created) is that field's, not a read of something else.
        let names_own_field = cx.top.is_some_and(|(skill, action, ..)| {
            cx.library.action(skill, action).is_some_and(|a| {
                a.slots
                    .iter()
                    .flat_map(|slot| slot.phrases.iter())
                    .any(|p| find_phrase(&lower, &p.to_lowercase()).is_some())
            })
        });
        if let Some((top_skill, top_action, ..)) = cx.top.filter(|_| !names_own_field) {
            let side_read = routed.as_ref().filter(|r| {
                r.has_verb
                    && (r.has_noun || r.has_name)
                    && is_read(cx.library, r)
                    && !(r.skill == top_skill && r.action == top_action)
            });
            if let Some(r) = side_read {
                let slots = self.slots_for(&r.skill, &r.action, message, cx);
                return one(
                    Command::StartTask {
                        skill: r.skill.clone(),
                        action: r.action.clone(),
                        slots: slots.into_iter().collect(),
                    },
                    0.85,
                );
            }
            if let Some((skill, action, target)) = follow_up_read(&lower, cx)
                && !(skill == top_skill && action == top_action)
            {
                return one(read_of(skill, action, target), 0.8);
            }
        }
        // "back to the trader", "继续创建交易员": the interrupted task, not a new one.
        if lx.any_in(WordClass::Resume, &lower) {
            let named = |skill: &str| {
                cx.library.get(skill).is_some_and(|s| {
                    s.meta
                        .nouns
                        .iter()
                        .any(|n| find_phrase(&lower, &n.to_lowercase()).is_some())
                })
            };
            if let Some((id, _)) = cx.interrupted.iter().rev().find(|(_, skill)| named(skill)) {
                return one(
                    Command::Resume {
                        task_id: Some(id.clone()),
                    },
                    0.85,
                );
            }
            if let Some((skill, ..)) = cx.top
                && named(skill)
                && routed.as_ref().is_none_or(|r| r.skill == skill)
            {
                return one(Command::Resume { task_id: None }, 0.8);
            }
        }
        if let Some(diag) = cx
            .library
            .skills()
            .iter()
            .find(|s| s.meta.kind == SkillKind::Diagnosis)
            && let Some(k) = diag.knowledge_matching(message).first()
            // "switch alpha to isolated and give it 500 USDT" is a request, whatever code
            // ("500") it happens to contain.
            && routed.as_ref().is_none_or(|r| {
                !r.has_verb
                    || !(r.has_noun || r.has_name)
                    // "币安提示余额不足": the error's own words (余额不足) hold a read's verb
                    // (余额); an error report is never a request to read. But "主账户为什么
                    // 连不上" asks for the check of the account named, which finds the error.
                    || (k.phrase_in(&lower) && is_read(cx.library, r) && !checks_named(r))
            })
            // "initial balance 500" (or a bare "500") while a task is open is an answer to
            // it: a bare code there reports an error only with words that say so.
            && !((cx.top.is_some() || !self.values_for_top(message, cx).is_empty())
                && !k.phrase_in(&lower)
                && !lx.any_in(WordClass::ErrorReport, &lower))
        {
            return one(
                Command::AnswerQuestion {
                    kind: AnswerKind::ErrorExplanation,
                    topic: k.id.clone(),
                },
                0.9,
            );
        }
        let questioning = lx
            .words(WordClass::Question)
            .iter()
            .any(|q| lower.contains(q.as_str()));
        // "which permissions should I tick for the binance key", "kimi的key哪里申请": a read
        // of a kind the user has none of by that name (binance, kimi) is the guidance asked.
        let none_named = cx.names.mentioned(&lower).is_empty();
        if questioning
            && routed.as_ref().is_none_or(|r| {
                let about_resource =
                    r.has_name && repair::names_a_field(cx.library, &r.skill, &lower);
                !(r.has_verb || about_resource) || (none_named && is_read(cx.library, r))
            })
            && let Some(glossary) = cx
                .library
                .skills()
                .iter()
                .find(|s| s.meta.kind == SkillKind::Guidance)
            && let Some(k) = glossary.knowledge_matching(message).first()
        {
            return one(
                Command::AnswerQuestion {
                    kind: AnswerKind::Glossary,
                    topic: k.id.clone(),
                },
                0.85,
            );
        }
        // "alpha 盈亏多少？" while a change of alpha waits for its yes, "what exchanges do I
        // have?" while a creation asks which one to use: a side question, answered before the
        // task asks again.
        let side_question = |r: &route::Route| {
            r.action == "query"
                && questioning
                && match cx.top {
                    Some(t) if t.3 => {
                        r.has_name || r.has_noun && asks::asks_what_exists(&lower, cx.lexicon)
                    }
                    Some(_) => r.has_noun && asks::asks_what_exists(&lower, cx.lexicon),
                    None => false,
                }
        };
        let start = routed.filter(|r| {
            (r.has_verb || cx.top.is_none() || side_question(r)) && (r.has_noun || r.has_name)
        });
        if let Some(r) = start {
            // "use paper and builtin, default strategy" while a trader's create asks for its
            // account and model: the answers, not an activation of the strategy said with them.
            if let Some((skill, _, asked, false)) = cx.top
                && skill != r.skill
                && matches!(r.action.as_str(), "activate" | "query")
                && !asked.is_empty()
            {
                let values = self.values_for_top(message, cx);
                if asked.iter().all(|a| values.contains_key(a)) {
                    return one(
                        Command::SetSlots {
                            slots: values.into_iter().collect(),
                        },
                        0.8,
                    );
                }
            }
            // "delete alpha" when a trader and a strategy are both called alpha: which one is
            // the user's to say, never the router's.
            if r.has_verb
                && !r.has_noun
                && r.action != "query"
                && let Some(u) = shared_name_choice(&r, message, &lower, cx)
            {
                return u;
            }
            // "start all traders except alpha": no bulk start exists, and starting alpha
            // (the one name said) is the opposite of the request.
            if matches!(r.action.as_str(), "start" | "delete")
                && route::says_all(&lower, cx.lexicon)
            {
                return one(
                    Command::CannotHandle {
                        reason: format!("{NO_BULK_REASON}{}", r.action),
                    },
                    0.9,
                );
            }
            // "add SOL to default", "remove ETH in s3", "s3 里移除 ETH": coins in or out of a
            // strategy's list, never a new strategy nor a deleted one.
            if (r.action == "create" && !r.has_noun) || r.action == "delete" {
                let mentioned = cx.names.mentioned(&lower);
                let edit = match mentioned.is_empty() {
                    // "remove ETH from coins": a list edit of a strategy not named yet.
                    true => self.list_edit_of(&r.skill, None, message, cx),
                    false => mentioned
                        .into_iter()
                        .find_map(|(e, ..)| self.list_edit_on(&e.name, message, cx)),
                };
                if let Some(u) = edit {
                    return u;
                }
            }
            if r.action == "create"
                && !r.has_noun
                && let Some(whole) = name_after(&lower, cx, WordClass::ToResource)
            {
                return one(
                    Command::CannotHandle {
                        reason: format!("{ADD_TO_REASON}{whole}"),
                    },
                    0.9,
                );
            }
            if r.action == "delete"
                && let Some(whole) = name_after(&lower, cx, WordClass::FromResource)
            {
                return one(
                    Command::CannotHandle {
                        reason: format!("{PART_OF_REASON}{whole}"),
                    },
                    0.9,
                );
            }
            let same = cx.top.is_some_and(|t| t.0 == r.skill && t.1 == r.action);
            if let Some(u) = new_create::another_create(self, &r, message, cx) {
                return u;
            }
            if let Some(u) = repair::correction_of_top(self, &r, message, cx) {
                return u;
            }
            if let Some(u) = repair::rebind(self, &r, message, cx) {
                return u;
            }
            if let Some(u) = repair::settings_without_verb(self, &r, message, cx) {
                return u;
            }
            if let Some(u) = repair::create_verb_on_existing(self, &r, message, cx) {
                return u;
            }
            if let Some(u) = repair::use_with_settings(self, &r, message, cx) {
                return u;
            }
            if let Some(u) = repair::answer_to_asked_ref(self, &r, message, cx) {
                return u;
            }
            if !same {
                let slots = self.slots_for(&r.skill, &r.action, message, cx);
                let confidence = if r.has_verb { 0.9 } else { 0.6 };
                return one(
                    Command::StartTask {
                        skill: r.skill,
                        action: r.action,
                        slots: slots.into_iter().collect(),
                    },
                    confidence,
                );
            }
        }
        // No task, no verb, but settings of the resource just talked about ("杠杆 100 倍"
        // right after creating a strategy): a change to that resource.
        if cx.top.is_none()
            && let Some(kind) = cx.it_kind
            && let Some(target) = (cx.current)(kind)
            && let Some(skill) =
                cx.library.skills().iter().find(|s| {
                    s.meta.kind == SkillKind::Management && s.meta.domain == kind.as_str()
                })
            && skill.action("update").is_some()
        {
            let mut slots = self.slots_for(&skill.id, "update", message, cx);
            slots.remove("target");
            if !slots.is_empty() {
                slots.insert("target".into(), serde_json::Value::String(target));
                return one(
                    Command::StartTask {
                        skill: skill.id.clone(),
                        action: "update".into(),
                        slots: slots.into_iter().collect(),
                    },
                    0.6,
                );
            }
        }
        // No noun, no name, but a read's own word ("and positions", "持仓呢", "胜率多少")
        // right after a resource was talked about: that read of that resource.
        if cx.top.is_none()
            && let Some((skill, action, target)) = follow_up_read(&lower, cx)
        {
            return one(read_of(skill, action, target), 0.7);
        }
        // A bare yes or no is no value ("create a trader" → "no" must not name the trader
        // "no"), unless a yes/no question is asked (start it right away?): no cancels the task,
        // yes shows what it still needs. With nothing open, the policy says nothing is in
        // progress or waits for a confirmation, which tells more than "not understood".
        if cx
            .top
            .is_none_or(|(skill, action, asked, _)| !asks_yes_no(cx.library, skill, action, asked))
        {
            if cx.lexicon.is(WordClass::Deny, message) {
                return one(
                    Command::Cancel {
                        scope: CancelScope::Current,
                    },
                    0.8,
                );
            }
            if cx.lexicon.is(WordClass::Confirm, message) {
                return one(Command::Confirm, 0.6);
            }
        }
        if let Some((skill, action, ..)) = cx.top {
            // "is 4 minutes too fast?" while a change waits for its yes asks; it sets nothing.
            let asks = cx.top.is_some_and(|t| t.3) && asks::only_asks(&lower, cx.lexicon);
            let mut slots = match asks {
                true => Map::new(),
                false => self.values_for_top(message, cx),
            };
            // "start it" while a key rotation waits names a target, but with another action's
            // verb: a request of its own, which must not retarget the waiting task.
            let target_only = slots.len() == 1 && slots.contains_key("target");
            if target_only && route::has_foreign_verb(cx.library, &lower, skill, action) {
                slots.clear();
            }
            if !slots.is_empty()
                && let Some(other) = another_resource_named(&lower, cx, skill, action)
            {
                return one(
                    Command::CannotHandle {
                        reason: format!("{OTHER_RESOURCE_REASON}{other}"),
                    },
                    0.5,
                );
            }
            if !slots.is_empty() {
                return one(
                    Command::SetSlots {
                        slots: slots.into_iter().collect(),
                    },
                    0.8,
                );
            }
            if cx.lexicon.is(WordClass::Defaults, message)
                || cx.lexicon.starts(WordClass::Defaults, message, 10)
            {
                return one(
                    Command::SetSlots {
                        slots: Default::default(),
                    },
                    0.7,
                );
            }
            if cx.lexicon.is(WordClass::Confirm, message) {
                return one(Command::Confirm, 0.7);
            }
        }
        // "delete nosuchbot": a verb on a name no resource has. Said as such, not as a
        // message that was not understood.
        // A made-up name anywhere beside a verb ("show journal for sol-bot", "sol-bot的日志")
        // is the one said; else the word right after the verb ("delete nosuchbot").
        let made_up = extract::made_up_name(&lower, cx.lexicon).filter(|_| {
            route::target_word_after_verb(cx.library, cx.lexicon, &lower).is_some()
                || route::says_a_verb(cx.library, &lower)
        });
        if let Some(word) =
            made_up.or_else(|| route::target_word_after_verb(cx.library, cx.lexicon, &lower))
            && cx.names.entries.iter().all(|e| e.lower != word)
        {
            return one(
                Command::CannotHandle {
                    reason: format!("{NOT_FOUND_REASON}{word}"),
                },
                0.3,
            );
        }
        one(
            Command::CannotHandle {
                reason: "no skill matched".into(),
            },
            0.2,
        )
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

/// A check of a resource the message names: its connectivity test, a trader's diagnosis.
fn checks_named(r: &route::Route) -> bool {
    r.has_name && matches!(r.action.as_str(), "test" | "diagnose")
}

/// Whether the routed action only reads.
fn is_read(library: &Library, r: &route::Route) -> bool {
    library
        .get(&r.skill)
        .and_then(|s| s.action(&r.action))
        .is_some_and(|a| a.risk == nofxi_skills::Risk::Query)
}

/// A read task of `target`, or of everything when none is given.
fn read_of(skill: String, action: String, target: Option<String>) -> Command {
    let slots = target
        .map(|t| ("target".to_string(), serde_json::Value::String(t)))
        .into_iter()
        .collect();
    Command::StartTask {
        skill,
        action,
        slots,
    }
}

/// The read (other than the generic look-up) whose verb the message says, of a resource
/// talked about: (skill, action, that resource's name). With none talked about, a read that
/// needs no resource ("我总共亏了多少钱": every trader's P&L) is that read of them all, and
/// one that needs a resource ("what's my balance") asks which, as its task does (or takes
/// the only one). The kind "it" stands for wins when two skills could read; none when it
/// stays ambiguous.
fn follow_up_read(lower: &str, cx: &Context<'_>) -> Option<(String, String, Option<String>)> {
    let guards = cx.lexicon.verb_guards();
    let mut found: Vec<(String, String, Option<String>, bool, bool)> = Vec::new();
    for skill in cx.library.skills() {
        let Some(kind) = ResourceKind::parse(&skill.meta.domain) else {
            continue;
        };
        let current = (cx.current)(kind);
        let read = skill.actions.iter().find_map(|a| {
            let reads = a.risk == nofxi_skills::Risk::Query
                && a.name != "query"
                && a.slot("target").is_some();
            reads.then_some(())?;
            cx.lexicon.action_verbs(a).find_map(|v| {
                let v = v.to_lowercase();
                words::find_verb(lower, &v, &guards, Vec::new).map(|at| (a, at + v.len()))
            })
        });
        if let Some((a, verb_end)) = read {
            let is_it = current.is_some() && cx.it_kind == Some(kind);
            let target = named_after(&lower[verb_end..], cx.lexicon).or(current);
            // Answered as said: the read needs no resource, or has one.
            let whole = target.is_some() || a.slot("target").is_some_and(|t| !t.required);
            // "我的持仓风险大吗？" asks for a judgement over the read, a model's to answer.
            let judges = cx.lexicon.ends(
                WordClass::QuestionParticle,
                lower.trim_end_matches(['?', '？']),
            ) || cx.lexicon.opens(WordClass::OpenQuestionOpener, lower);
            if !whole && judges {
                continue;
            }
            found.push((skill.id.clone(), a.name.clone(), target, is_it, whole));
        }
    }
    // "how much money do I have in total": every trader's P&L needs no resource, an
    // account's balance would ask which; the read answered as said is meant.
    if found.len() > 1 && !found.iter().any(|f| f.3) {
        found.retain(|f| f.4);
    }
    let pick = match found.iter().position(|f| f.3) {
        Some(i) => Some(found.swap_remove(i)),
        None if found.len() == 1 => found.pop(),
        None => None,
    };
    pick.map(|(skill, action, target, ..)| (skill, action, target))
}

/// The guidance entry whose phrase the message says most specifically.
fn guidance_for(library: &Library, message: &str) -> Option<String> {
    let glossary = library
        .skills()
        .iter()
        .find(|s| s.meta.kind == SkillKind::Guidance)?;
    glossary
        .knowledge_matching(message)
        .first()
        .map(|k| k.id.clone())
}

/// "balance of ghost", "journal for xyz": a name-shaped word after a read's verb and a lead is
/// the resource meant, known or not, so the read says it is not found rather than reading
/// the one talked about (or the only one).
fn named_after(after_verb: &str, lexicon: &lexicon::Lexicon) -> Option<String> {
    let leads = lexicon.words(WordClass::NotAName);
    let mut words = after_verb
        .split(|c: char| c.is_whitespace() || matches!(c, '?' | '!' | ',' | '.' | '？' | '，'))
        .filter(|w| !w.is_empty());
    let lead = words.next()?;
    let word = words.next()?;
    let name_shaped = word.len() >= 2
        && word.chars().any(|c| c.is_ascii_alphabetic())
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    (leads.iter().any(|l| l == lead) && name_shaped && !leads.iter().any(|l| l == word))
        .then(|| word.to_string())
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

/// The message after the longest of `words` it starts with, without the punctuation between.
fn after_word<'m>(lower: &'m str, words: &[String]) -> Option<&'m str> {
    let m = trim_punct(lower);
    let word = words
        .iter()
        .filter(|w| m.starts_with(w.as_str()))
        .max_by_key(|w| w.len())?;
    let rest = trim_punct(&m[word.len()..]);
    (!rest.is_empty()).then_some(rest)
}
