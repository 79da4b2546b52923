//! A request the router found (a verb with a noun or a name, or a side question while a task
//! waits), and the repairs tried on it before it starts a task: answers said with another
//! skill's words, a name two kinds share, "all" with no bulk form, list edits, "add to" and
//! "remove from" a resource, and the repairs of [`crate::nlu::repair`].

use nofxi_protocol::{Command, ListEdit, Understanding};
use nofxi_skills::{ResourceKind, SkillKind, SlotType, WordClass};

use super::Input;
use crate::nlu::route::{self, Route};
use crate::nlu::words::cover_by;
use crate::nlu::{
    ADD_TO_REASON, Context, NO_BULK_REASON, PART_OF_REASON, RuleUnderstander, new_create, one,
    repair,
};

/// "use paper and builtin, default strategy" while a trader's create asks for its account and
/// model: the answers, not an activation of the strategy said with them.
pub fn answers_beside_other_skill(
    rules: &RuleUnderstander,
    input: &Input<'_>,
    cx: &Context<'_>,
) -> Option<Understanding> {
    let r = input.started(cx)?;
    let Some((skill, _, asked, false)) = cx.top else {
        return None;
    };
    if skill == r.skill || !matches!(r.action.as_str(), "activate" | "query") || asked.is_empty() {
        return None;
    }
    let values = rules.values_for_top(input.message, cx);
    asked.iter().all(|a| values.contains_key(a)).then(|| {
        one(
            Command::SetSlots {
                slots: values.into_iter().collect(),
            },
            0.8,
        )
    })
}

/// "delete alpha" when a trader and a strategy are both called alpha: which one is the
/// user's to say, never the router's.
pub fn shared_name(
    _: &RuleUnderstander,
    input: &Input<'_>,
    cx: &Context<'_>,
) -> Option<Understanding> {
    let r = input.started(cx)?;
    if !(r.has_verb && !r.has_noun && r.action != "query") {
        return None;
    }
    shared_name_choice(r, input.message, &input.lower, cx)
}

/// "start all traders except alpha": no bulk start exists, and starting alpha (the one name
/// said) is the opposite of the request.
pub fn no_bulk(_: &RuleUnderstander, input: &Input<'_>, cx: &Context<'_>) -> Option<Understanding> {
    let r = input.started(cx)?;
    let bulk = matches!(r.action.as_str(), "start" | "delete")
        && route::says_all(&input.lower, cx.lexicon);
    bulk.then(|| {
        one(
            Command::CannotHandle {
                reason: format!("{NO_BULK_REASON}{}", r.action),
            },
            0.9,
        )
    })
}

/// "add SOL to default", "remove ETH in s3", "s3 里移除 ETH": coins in or out of a
/// strategy's list, never a new strategy nor a deleted one.
pub fn list_edit(
    rules: &RuleUnderstander,
    input: &Input<'_>,
    cx: &Context<'_>,
) -> Option<Understanding> {
    let r = input.started(cx)?;
    if !((r.action == "create" && !r.has_noun) || r.action == "delete") {
        return None;
    }
    let message = input.message;
    let mentioned = cx.names.mentioned(&input.lower);
    match mentioned.is_empty() {
        // "remove ETH from coins": a list edit of a strategy not named yet.
        true => list_edit_of(rules, &r.skill, None, message, cx),
        false => mentioned
            .into_iter()
            .find_map(|(e, ..)| list_edit_on(rules, &e.name, message, cx)),
    }
}

/// "add SOL to default" that edits no list: nothing is created.
pub fn add_to_resource(
    _: &RuleUnderstander,
    input: &Input<'_>,
    cx: &Context<'_>,
) -> Option<Understanding> {
    let r = input.started(cx)?;
    if r.action != "create" || r.has_noun {
        return None;
    }
    let whole = name_after(&input.lower, cx, WordClass::ToResource)?;
    Some(one(
        Command::CannotHandle {
            reason: format!("{ADD_TO_REASON}{whole}"),
        },
        0.9,
    ))
}

/// "remove ETH from default" that edits no list: nothing is deleted.
pub fn part_of_resource(
    _: &RuleUnderstander,
    input: &Input<'_>,
    cx: &Context<'_>,
) -> Option<Understanding> {
    let r = input.started(cx)?;
    if r.action != "delete" {
        return None;
    }
    let whole = name_after(&input.lower, cx, WordClass::FromResource)?;
    Some(one(
        Command::CannotHandle {
            reason: format!("{PART_OF_REASON}{whole}"),
        },
        0.9,
    ))
}

/// See [`new_create::another_create`].
pub fn another_create(
    rules: &RuleUnderstander,
    input: &Input<'_>,
    cx: &Context<'_>,
) -> Option<Understanding> {
    new_create::another_create(rules, input.started(cx)?, input.message, cx)
}

/// See [`repair::correction_of_top`].
pub fn correction_of_top(
    rules: &RuleUnderstander,
    input: &Input<'_>,
    cx: &Context<'_>,
) -> Option<Understanding> {
    repair::correction_of_top(rules, input.started(cx)?, input.message, cx)
}

/// See [`repair::rebind`].
pub fn rebind(
    rules: &RuleUnderstander,
    input: &Input<'_>,
    cx: &Context<'_>,
) -> Option<Understanding> {
    repair::rebind(rules, input.started(cx)?, input.message, cx)
}

/// See [`repair::settings_without_verb`].
pub fn settings_without_verb(
    rules: &RuleUnderstander,
    input: &Input<'_>,
    cx: &Context<'_>,
) -> Option<Understanding> {
    repair::settings_without_verb(rules, input.started(cx)?, input.message, cx)
}

/// See [`repair::create_verb_on_existing`].
pub fn create_verb_on_existing(
    rules: &RuleUnderstander,
    input: &Input<'_>,
    cx: &Context<'_>,
) -> Option<Understanding> {
    repair::create_verb_on_existing(rules, input.started(cx)?, input.message, cx)
}

/// See [`repair::use_with_settings`].
pub fn use_with_settings(
    rules: &RuleUnderstander,
    input: &Input<'_>,
    cx: &Context<'_>,
) -> Option<Understanding> {
    repair::use_with_settings(rules, input.started(cx)?, input.message, cx)
}

/// See [`repair::answer_to_asked_ref`].
pub fn answer_to_asked_ref(
    rules: &RuleUnderstander,
    input: &Input<'_>,
    cx: &Context<'_>,
) -> Option<Understanding> {
    repair::answer_to_asked_ref(rules, input.started(cx)?, input.message, cx)
}

/// The request as routed, with the slots read for it; unless it is the open task's own
/// action, which the values for that task answer instead.
pub fn start_task(
    rules: &RuleUnderstander,
    input: &Input<'_>,
    cx: &Context<'_>,
) -> Option<Understanding> {
    let r = input.started(cx)?;
    if let Some(slots) = described_create(rules, r, input.message, cx) {
        return Some(one(
            Command::StartTask {
                skill: r.skill.clone(),
                action: "create".into(),
                slots: slots.into_iter().collect(),
            },
            0.8,
        ));
    }
    if cx.top.is_some_and(|t| t.0 == r.skill && t.1 == r.action) {
        return None;
    }
    let slots = rules.slots_for(&r.skill, &r.action, input.message, cx);
    let confidence = if r.has_verb { 0.9 } else { 0.6 };
    Some(one(
        Command::StartTask {
            skill: r.skill.clone(),
            action: r.action.clone(),
            slots: slots.into_iter().collect(),
        },
        confidence,
    ))
}

/// "a paper account on binance prices", "模拟盘用币安实时行情": said without a verb and naming
/// nothing that exists, a message that says the kind of thing its skill creates (every
/// required enum field of the create) and more of it (another of its enum fields) describes a
/// new one: the create, with what it said. Read as a look-up, it searched for an account
/// called "binance prices". Not while that create is already open: its answers take it.
fn described_create(
    rules: &RuleUnderstander,
    r: &Route,
    message: &str,
    cx: &Context<'_>,
) -> Option<serde_json::Map<String, serde_json::Value>> {
    if r.has_verb || r.has_name || r.action != "query" {
        return None;
    }
    if cx.top.is_some_and(|t| t.0 == r.skill && t.1 == "create") {
        return None;
    }
    let create = cx.library.action(&r.skill, "create")?;
    let slots = rules.slots_for(&r.skill, "create", message, cx);
    let enums: Vec<_> = create
        .slots
        .iter()
        .filter(|s| s.ty == SlotType::Enum)
        .collect();
    let kind_said = enums
        .iter()
        .filter(|s| s.required)
        .all(|s| slots.contains_key(&s.name));
    let said = enums.iter().filter(|s| slots.contains_key(&s.name)).count();
    (kind_said && enums.iter().any(|s| s.required) && said >= 2).then_some(slots)
}

/// "stop", "跑起来", "帮我停下": the verb of one changing action on a resource, with nothing
/// else but filler and polite words. It is said of the resource talked about last when that
/// is of the action's kind ("create fast", then "跑起来"), as "it" would be; with none, the
/// action opens and asks which one. A verb several skills share ("delete") says too little
/// and is left to the other readings.
pub fn lone_verb(
    rules: &RuleUnderstander,
    input: &Input<'_>,
    cx: &Context<'_>,
) -> Option<Understanding> {
    let (skill, action, kind) = lone_action(&input.lower, cx)?;
    if cx.top.is_some_and(|t| t.0 == skill && t.1 == action) {
        return None;
    }
    let mut slots = rules.slots_for(skill, action, input.message, cx);
    if cx.it_kind == Some(kind)
        && let Some(it) = (cx.current)(kind)
    {
        slots.insert("target".into(), serde_json::Value::String(it));
    }
    Some(one(
        Command::StartTask {
            skill: skill.to_string(),
            action: action.to_string(),
            slots: slots.into_iter().collect(),
        },
        0.85,
    ))
}

/// Messages longer than this are never a verb said alone.
const LONE_VERB_MAX_CHARS: usize = 24;

/// The one (skill, action, kind) whose verb is all `lower` says besides filler and polite
/// words.
fn lone_action<'l>(lower: &str, cx: &Context<'l>) -> Option<(&'l str, &'l str, ResourceKind)> {
    // A verb said alone is short; a long message is a request, and the cover stays cheap.
    if lower.chars().count() > LONE_VERB_MAX_CHARS {
        return None;
    }
    let lx = cx.lexicon;
    let replies = lx.reply_words();
    let lists: [&[String]; 3] = [
        lx.words(WordClass::Filler),
        lx.words(WordClass::PoliteRequest),
        &replies.target_verbs,
    ];
    let read = cover_by(lower, &lists)?;
    let said: Vec<&str> = read
        .iter()
        .filter(|(list, _)| *list == 2)
        .map(|(_, at)| &lower[at.clone()])
        .collect();
    let [verb] = said.as_slice() else {
        return None;
    };
    let mut owners = replies
        .actions
        .iter()
        .filter(|a| a.takes_target && a.verbs.iter().any(|v| v == verb));
    let owner = owners.next()?;
    if owners.next().is_some() {
        return None;
    }
    Some((owner.skill.as_str(), owner.action.as_str(), owner.kind?))
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

/// "add SOL to default", "remove ETH from default": an update of `whole` when it is a
/// resource whose update reads a list edit from the message; `None` otherwise (the caller
/// says that nothing was created or deleted).
fn list_edit_on(
    rules: &RuleUnderstander,
    whole: &str,
    message: &str,
    cx: &Context<'_>,
) -> Option<Understanding> {
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
    list_edit_of(rules, &skill.id, Some(whole), message, cx)
}

/// An update of `skill`'s resource `target` (asked for when `None`: "remove ETH from
/// coins") when the message edits one of its lists; `None` otherwise.
fn list_edit_of(
    rules: &RuleUnderstander,
    skill: &str,
    target: Option<&str>,
    message: &str,
    cx: &Context<'_>,
) -> Option<Understanding> {
    cx.library.action(skill, "update")?;
    let mut slots = rules.slots_for(skill, "update", message, cx);
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

/// A clarification for a request that names, without its noun, a name resources of two or
/// more kinds share: the request again with each kind's noun before the name, to pick from.
fn shared_name_choice(
    r: &Route,
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
            let noun = crate::phrasing::kind_word(lang, *k);
            let (before, after) = (message.get(..from)?, message.get(from..)?);
            Some(format!("{before}{noun} {after}"))
        })
        .collect::<Option<_>>()?;
    let question = crate::phrasing::same_name_kinds(lang, &said.name, &options);
    Some(one(Command::Clarify { question, options }, 0.9))
}

#[cfg(test)]
mod tests {
    use nofxi_protocol::Command;
    use nofxi_skills::ResourceKind;

    use super::super::testing::{Fixture, claimed_by, entry, run};
    use crate::nlu::{ADD_TO_REASON, NO_BULK_REASON};

    #[test]
    fn a_routed_request_starts_its_task() {
        let f = Fixture::new();
        let cx = f.cx();
        let u = run("start_task", "stop alpha", &cx).expect("a stop");
        assert!(
            matches!(u.commands.as_slice(), [Command::StartTask { action, .. }] if action == "stop"),
            "{u:?}"
        );
        assert!(run("start_task", "hello there", &cx).is_none());
    }

    #[test]
    fn a_name_two_kinds_share_is_asked_back() {
        let f = Fixture::with(vec![
            entry(ResourceKind::Trader, "alpha"),
            entry(ResourceKind::Strategy, "alpha"),
        ]);
        let cx = f.cx();
        let u = run("shared_name", "delete alpha", &cx).expect("a question");
        let [Command::Clarify { options, .. }] = u.commands.as_slice() else {
            panic!("{u:?}");
        };
        assert_eq!(options.len(), 2);
        assert_eq!(claimed_by("delete alpha", &cx), "shared_name");
        assert!(run("shared_name", "delete the trader alpha", &cx).is_none());
    }

    #[test]
    fn all_with_no_bulk_form_and_adding_to_a_resource_are_said_as_such() {
        let f = Fixture::new();
        let cx = f.cx();
        let u = run("no_bulk", "start all traders except alpha", &cx).expect("no bulk");
        assert_eq!(
            u.commands,
            [Command::CannotHandle {
                reason: format!("{NO_BULK_REASON}start")
            }]
        );
        assert_eq!(claimed_by("add SOL to default", &cx), "list_edit");
        let u = run("add_to_resource", "add eth to alpha", &cx);
        assert!(
            matches!(u.as_ref().map(|u| u.commands.as_slice()), Some([Command::CannotHandle { reason }]) if reason.starts_with(ADD_TO_REASON)),
            "{u:?}"
        );
    }

    #[test]
    fn answers_said_with_another_skills_words_fill_what_was_asked() {
        let f = Fixture::with(vec![
            entry(ResourceKind::Exchange, "paper"),
            entry(ResourceKind::Model, "ds"),
            entry(ResourceKind::Strategy, "default"),
        ]);
        let mut cx = f.cx();
        let asked = ["exchange".to_string(), "model".to_string()];
        let message = "use paper and ds, default strategy";
        assert!(run("answers_beside_other_skill", message, &cx).is_none());
        cx.top = Some(("trader_management", "create", &asked, false));
        let u = run("answers_beside_other_skill", message, &cx).expect("the answers");
        let [Command::SetSlots { slots }] = u.commands.as_slice() else {
            panic!("{u:?}");
        };
        assert!(asked.iter().all(|a| slots.contains_key(a)), "{slots:?}");
    }
}
