//! Messages that lean on what came before: a fragment that re-runs the last request ("eth?",
//! "and alpha too"), "back to the trader", settings of the resource just talked about, and a
//! read's own word ("持仓呢", "胜率多少") about it.

use nofxi_protocol::{Command, Understanding};
use nofxi_skills::{ResourceKind, SkillKind, WordClass};

use super::Input;
use crate::nlu::lexicon::Lexicon;
use crate::nlu::words::{self, find_phrase};
use crate::nlu::{Context, RuleUnderstander, follow_up as frame, one};

/// "eth?" after a BTC quote, "and alpha too" after "stop btc-bot": the last request again.
pub fn follow_up(
    _: &RuleUnderstander,
    input: &Input<'_>,
    cx: &Context<'_>,
) -> Option<Understanding> {
    frame::follow_up(input.message, cx)
}

/// "back to the trader", "继续创建交易员": the interrupted task, not a new one.
pub fn resume(_: &RuleUnderstander, input: &Input<'_>, cx: &Context<'_>) -> Option<Understanding> {
    let lower = &input.lower;
    if !cx.lexicon.any_in(WordClass::Resume, lower) {
        return None;
    }
    let named = |skill: &str| {
        cx.library.get(skill).is_some_and(|s| {
            s.meta
                .nouns
                .iter()
                .any(|n| find_phrase(lower, &n.to_lowercase()).is_some())
        })
    };
    if let Some((id, _)) = cx.interrupted.iter().rev().find(|(_, skill)| named(skill)) {
        return Some(one(
            Command::Resume {
                task_id: Some(id.clone()),
            },
            0.85,
        ));
    }
    if let Some((skill, ..)) = cx.top
        && named(skill)
        && input.routed(cx).is_none_or(|r| r.skill == skill)
    {
        return Some(one(Command::Resume { task_id: None }, 0.8));
    }
    None
}

/// "ok go ahead and stop it" while "stop btc-bot" waits to be asked again (a side question
/// came between): the waiting request said again. Its "it" is the waiting task's object, not
/// what the side question talked about ("alpha's pnl?" made "it" alpha), so the waiting task
/// is resumed: its own confirmation is shown again, and only a yes to that acts.
pub fn restated(
    _: &RuleUnderstander,
    input: &Input<'_>,
    cx: &Context<'_>,
) -> Option<Understanding> {
    let (skill, action, _, awaiting_yes_no) = cx.top?;
    if awaiting_yes_no || !cx.lexicon.any_in(WordClass::Reference, &input.lower) {
        return None;
    }
    // Its "it" may route as a name (the object talked about last): only a name said counts.
    if !cx.names.mentioned(&input.lower).is_empty() {
        return None;
    }
    let routed = input.routed(cx)?;
    let same = routed.skill == skill && routed.action == action;
    (same && routed.has_verb).then(|| one(Command::Resume { task_id: None }, 0.85))
}

/// No task, no verb, but settings of the resource just talked about ("杠杆 100 倍" right
/// after creating a strategy): a change to that resource.
pub fn settings_of_it(
    rules: &RuleUnderstander,
    input: &Input<'_>,
    cx: &Context<'_>,
) -> Option<Understanding> {
    if cx.top.is_some() {
        return None;
    }
    let kind = cx.it_kind?;
    let target = (cx.current)(kind)?;
    let skill = cx
        .library
        .skills()
        .iter()
        .find(|s| s.meta.kind == SkillKind::Management && s.meta.domain == kind.as_str())?;
    skill.action("update")?;
    let mut slots = rules.slots_for(&skill.id, "update", input.message, cx);
    slots.remove("target");
    if slots.is_empty() {
        return None;
    }
    slots.insert("target".into(), serde_json::Value::String(target));
    Some(one(
        Command::StartTask {
            skill: skill.id.clone(),
            action: "update".into(),
            slots: slots.into_iter().collect(),
        },
        0.6,
    ))
}

/// No noun, no name, but a read's own word ("and positions", "持仓呢", "胜率多少") right
/// after a resource was talked about: that read of that resource.
pub fn follow_up_read(
    _: &RuleUnderstander,
    input: &Input<'_>,
    cx: &Context<'_>,
) -> Option<Understanding> {
    if cx.top.is_some() {
        return None;
    }
    let (skill, action, target) = read_said(&input.lower, cx)?;
    Some(one(read_of(skill, action, target), 0.7))
}

/// A read task of `target`, or of everything when none is given.
pub(super) fn read_of(skill: String, action: String, target: Option<String>) -> Command {
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
pub(super) fn read_said(lower: &str, cx: &Context<'_>) -> Option<(String, String, Option<String>)> {
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

/// "balance of ghost", "journal for xyz": a name-shaped word after a read's verb and a lead is
/// the resource meant, known or not, so the read says it is not found rather than reading
/// the one talked about (or the only one).
fn named_after(after_verb: &str, lexicon: &Lexicon) -> Option<String> {
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

#[cfg(test)]
mod tests {
    use nofxi_protocol::Command;
    use nofxi_skills::ResourceKind;

    use super::super::testing::{Fixture, run};

    const NONE: &[String] = &[];

    fn alpha(_: ResourceKind) -> Option<String> {
        Some("alpha".into())
    }

    #[test]
    fn a_reads_own_word_reads_the_resource_talked_about() {
        let f = Fixture::new();
        let mut cx = f.cx();
        cx.it_kind = Some(ResourceKind::Trader);
        cx.current = &alpha;
        let u = run("follow_up_read", "持仓呢", &cx).expect("a read");
        let [Command::StartTask { slots, .. }] = u.commands.as_slice() else {
            panic!("{u:?}");
        };
        assert_eq!(slots.get("target").and_then(|t| t.as_str()), Some("alpha"));
        cx.top = Some(("trader_management", "create", NONE, false));
        assert!(run("follow_up_read", "持仓呢", &cx).is_none());
    }

    #[test]
    fn settings_said_alone_change_the_resource_just_talked_about() {
        let f = Fixture::new();
        let mut cx = f.cx();
        assert!(run("settings_of_it", "杠杆 10 倍", &cx).is_none());
        cx.it_kind = Some(ResourceKind::Strategy);
        cx.current = &alpha;
        let u = run("settings_of_it", "杠杆 10 倍", &cx).expect("an update");
        assert!(
            matches!(u.commands.as_slice(), [Command::StartTask { action, .. }] if action == "update"),
            "{u:?}"
        );
    }

    #[test]
    fn back_to_an_interrupted_task_resumes_it() {
        let f = Fixture::new();
        let mut cx = f.cx();
        assert!(run("resume", "back to the trader", &cx).is_none());
        let id = nofxi_protocol::TaskId("t1".into());
        cx.interrupted = vec![(id.clone(), "trader_management".into())];
        let u = run("resume", "back to the trader", &cx).expect("a resume");
        assert_eq!(u.commands, [Command::Resume { task_id: Some(id) }]);
    }
}
