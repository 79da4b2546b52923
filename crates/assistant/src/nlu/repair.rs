//! Readings that repair what the router alone gets wrong, each a named rule:
//!
//! - *correction of the task in progress*: while creating a model, "换成 Kimi 吧" routes to
//!   "update a model" by its verb, but names no existing model; its values fit the create
//!   being collected, so they correct it (DESIGN "a later value for a filled slot is a
//!   correction").
//! - *settings without a verb*: "minimum position 20u for scalper", "它不要交易 DOGE" name a
//!   resource and settings of it but no verb; that is a change, not a look-up — unless it is
//!   a question ("is main on testnet?").
//! - *an answer said with another verb*: "use strategy scalper" answers a trader create's
//!   "which strategy?"; it does not activate scalper for everyone.
//! - *a question about a resource*: "is main on testnet?" names a resource and one of its
//!   fields, so it is a look-up, not a glossary question about testnets.
//! - *one resource for another's*: "use ds for alpha" sets alpha's model to ds.
//! - *"use" with settings*: "default use 15m candles" changes default, it does not activate it.
//! - *a create verb on an existing resource*: "make alpha isolated margin" changes alpha.
//! - *a value said with a lead-in*: "make it 4", "actually 4", "改成 4" while a task waits is
//!   a new value for it; "make" is no request to create anything there.

use nofxi_protocol::{Command, CommandSource, Understanding};
use nofxi_skills::{Library, Risk, SlotType, WordClass};
use serde_json::{Map, Value};

use super::asks::{is_question, only_asks};
use super::route::{self, Route};
use super::words::{find_phrase, strip_end_words};
use super::{Context, RuleUnderstander};

fn one(command: Command, confidence: f32) -> Understanding {
    Understanding {
        commands: vec![command],
        confidence,
        source: CommandSource::Rules,
    }
}

/// The message says one of the fields of `skill`'s resources (a non-ref slot phrase of any
/// of its actions, e.g. "testnet" for an exchange).
pub fn names_a_field(library: &Library, skill: &str, lower: &str) -> bool {
    library.get(skill).is_some_and(|s| {
        s.actions
            .iter()
            .flat_map(|a| a.slots.iter())
            .filter(|slot| slot.ty != SlotType::Ref && !slot.is_secret())
            .flat_map(|slot| slot.phrases.iter())
            .any(|p| p.chars().count() >= 3 && find_phrase(lower, &p.to_lowercase()).is_some())
    })
}

/// Values for the task in progress, said with another action's verb of the same skill but
/// naming none of the user's resources.
pub fn correction_of_top(
    rules: &RuleUnderstander,
    r: &Route,
    message: &str,
    cx: &Context<'_>,
) -> Option<Understanding> {
    let (skill, action, _, _) = cx.top?;
    if skill != r.skill || action == r.action || r.has_name || action != "create" {
        return None;
    }
    let slots = rules.slots_for(skill, action, message, cx);
    (!slots.is_empty()).then(|| {
        one(
            Command::SetSlots {
                slots: slots.into_iter().collect(),
            },
            0.8,
        )
    })
}

/// The answer to a reference the task in progress asked for, said with another skill's verb:
/// "use strategy scalper" when a trader being created asked which strategy. It picks one of
/// the user's resources for the task; activating, changing or looking that resource up was
/// not asked. Creating or deleting one is a request of its own and is left to the router.
pub fn answer_to_asked_ref(
    rules: &RuleUnderstander,
    r: &Route,
    message: &str,
    cx: &Context<'_>,
) -> Option<Understanding> {
    let (skill, action, asked, _) = cx.top?;
    if skill == r.skill || !r.has_name {
        return None;
    }
    let routed_risk = cx.library.action(&r.skill, &r.action)?.risk;
    if !matches!(routed_risk, Risk::Update | Risk::Query) {
        return None;
    }
    let top = cx.library.action(skill, action)?;
    let domain = &cx.library.get(&r.skill)?.meta.domain;
    let asked_here = asked.iter().any(|name| {
        top.slot(name)
            .and_then(|s| s.ref_kind)
            .is_some_and(|kind| kind.as_str() == domain)
    });
    if !asked_here {
        return None;
    }
    let slots = rules.values_for_top(message, cx);
    asked.iter().any(|a| slots.contains_key(a)).then(|| {
        one(
            Command::SetSlots {
                slots: slots.into_iter().collect(),
            },
            0.8,
        )
    })
}

/// "make alpha isolated margin", "make default 3x": a create verb on one of the user's
/// resources, with settings and no noun of a new one, changes that resource. A create
/// would only ask for a name and make another.
pub fn create_verb_on_existing(
    rules: &RuleUnderstander,
    r: &Route,
    message: &str,
    cx: &Context<'_>,
) -> Option<Understanding> {
    if r.action != "create" || !r.has_name || r.has_noun {
        return None;
    }
    update_of(rules, &r.skill, message, cx, names_target_and_more, 0.7)
}

/// "default use 15m candles", "s1 用 30 根K线", "use the 15m timeframe": "use" is a verb of
/// activating a strategy, but with settings of it the message changes them; activating
/// would switch every new trader's strategy and leave the setting as it was.
pub fn use_with_settings(
    rules: &RuleUnderstander,
    r: &Route,
    message: &str,
    cx: &Context<'_>,
) -> Option<Understanding> {
    if r.action != "activate" {
        return None;
    }
    update_of(
        rules,
        &r.skill,
        message,
        cx,
        |slots| slots.keys().any(|k| k != "target"),
        0.7,
    )
}

/// "use ds for alpha", "move alpha to main": two of the user's resources, one a value the
/// other's update takes (a trader's model or exchange), with a word that switches. The
/// router would take the first name said and look it up (or change it).
pub fn rebind(
    rules: &RuleUnderstander,
    r: &Route,
    message: &str,
    cx: &Context<'_>,
) -> Option<Understanding> {
    if !matches!(r.action.as_str(), "query" | "update" | "activate") {
        return None;
    }
    let lower = message.to_lowercase();
    if !cx.lexicon.any_in(WordClass::RebindVerb, &lower) || only_asks(&lower, cx.lexicon) {
        return None;
    }
    let mentioned = cx.names.mentioned(&lower);
    let skill_of = |kind: nofxi_skills::ResourceKind| {
        cx.library.skills().iter().find(|s| {
            s.meta.kind == nofxi_skills::SkillKind::Management && s.meta.domain == kind.as_str()
        })
    };
    let noun_said = |kind| {
        skill_of(kind).is_some_and(|s| {
            s.meta
                .nouns
                .iter()
                .any(|n| find_phrase(&lower, &n.to_lowercase()).is_some())
        })
    };
    let (holder, value, skill, slot) = mentioned.iter().find_map(|(holder, ..)| {
        let skill = skill_of(holder.kind)?;
        let update = skill.action("update")?;
        mentioned.iter().find_map(|(said, ..)| {
            // A name two kinds share ("main", a model and an account) is the kind whose noun
            // the message says; without one it is not guessed.
            let fits: Vec<_> = cx
                .names
                .entries
                .iter()
                .filter(|e| e.lower == said.lower && !e.deleted && e.kind != holder.kind)
                .filter_map(|e| {
                    let slot = update
                        .slots
                        .iter()
                        .find(|s| s.name != "target" && s.ref_kind == Some(e.kind))?;
                    Some((e, slot))
                })
                .collect();
            let chosen = match fits.as_slice() {
                [one] => Some(*one),
                _ => {
                    let mut by_noun = fits.iter().filter(|(e, _)| noun_said(e.kind));
                    match (by_noun.next(), by_noun.next()) {
                        (Some(one), None) => Some(*one),
                        _ => None,
                    }
                }
            };
            chosen.map(|(value, slot)| (*holder, value, skill, slot))
        })
    })?;
    let mut slots = rules.slots_for(&skill.id, "update", message, cx);
    // The name read as the other kind it also names ("main", the account) is not that too.
    slots.retain(|_, v| {
        v.as_str()
            .is_none_or(|s| !s.eq_ignore_ascii_case(&value.name))
    });
    slots.insert("target".into(), holder.name.clone().into());
    slots.insert(slot.name.clone(), value.name.clone().into());
    Some(one(
        Command::StartTask {
            skill: skill.id.clone(),
            action: "update".into(),
            slots: slots.into_iter().collect(),
        },
        0.75,
    ))
}

/// A resource named with settings of it and no verb: a change of that resource.
pub fn settings_without_verb(
    rules: &RuleUnderstander,
    r: &Route,
    message: &str,
    cx: &Context<'_>,
) -> Option<Understanding> {
    // "is main on testnet" asks, with or without its question mark: a question changes
    // nothing.
    let lower = message.to_lowercase();
    if r.has_verb
        || r.action != "query"
        || !r.has_name
        || is_question(&lower, cx.lexicon)
        || only_asks(&lower, cx.lexicon)
    {
        return None;
    }
    update_of(rules, &r.skill, message, cx, names_target_and_more, 0.6)
}

/// A change of `skill`'s resource with the values the message gives its update, when
/// `accept` takes them.
fn update_of(
    rules: &RuleUnderstander,
    skill: &str,
    message: &str,
    cx: &Context<'_>,
    accept: impl Fn(&Map<String, Value>) -> bool,
    confidence: f32,
) -> Option<Understanding> {
    cx.library.action(skill, "update")?;
    let slots = rules.slots_for(skill, "update", message, cx);
    accept(&slots).then(|| {
        one(
            Command::StartTask {
                skill: skill.to_string(),
                action: "update".into(),
                slots: slots.into_iter().collect(),
            },
            confidence,
        )
    })
}

/// The values name their target and at least one setting of it.
fn names_target_and_more(slots: &Map<String, Value>) -> bool {
    slots.contains_key("target") && slots.len() >= 2
}

/// A new value for the task in progress said with a lead-in (the lexicon's
/// `correction_lead`: "make it", "还是") or a trailing "instead" ("4 instead"), and no
/// request of its own: "make it 4" while a change of leverage waits for its yes sets the
/// value, where "make" alone would start creating a strategy. "actually delete beta" is a
/// request (it has a verb) and is left to the router.
pub fn value_with_lead_in(
    rules: &RuleUnderstander,
    message: &str,
    cx: &Context<'_>,
) -> Option<Understanding> {
    cx.top?;
    let trimmed = message.trim();
    let lower = trimmed.to_lowercase();
    let lead = cx.lexicon.opening(WordClass::CorrectionLead, &lower);
    let closing = lower.trim_end_matches(['.', '!', '。', '！']);
    let instead = cx.lexicon.ends(WordClass::InsteadEnd, closing);
    if lead.is_none() && !instead {
        return None;
    }
    // The leads are ASCII or CJK, which lower-casing leaves as they are: the same bytes.
    let rest = trimmed.get(lead.map_or(0, |l| l.len())..)?;
    let rest = rest.trim_start_matches([' ', ',', '，']);
    let rest = rest.trim_end_matches(['.', '。', '!', '！']).trim();
    let rest = strip_end_words(rest, cx.lexicon.words(WordClass::Softener));
    let rest = strip_end_words(rest, cx.lexicon.words(WordClass::InsteadEnd));
    if rest.is_empty() {
        return None;
    }
    let rest_lower = rest.to_lowercase();
    let routed = route::route(cx.library, &rest_lower, cx.names, cx.lexicon, None);
    if routed.is_some_and(|r| r.has_verb) {
        return None;
    }
    let mut slots = rules.values_for_top(rest, cx);
    // A key is pasted, not "changed to": "换成 Kimi 吧" while a key is asked names a provider.
    if let Some((skill, action, ..)) = cx.top
        && let Some(act) = cx.library.action(skill, action)
    {
        slots.retain(|k, _| act.slot(k).is_none_or(|s| !s.is_secret()));
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
