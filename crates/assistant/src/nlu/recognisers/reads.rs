//! Reads: a read two skills share asked back ("我最近的交易记录"), a quote ("btc price"), and
//! a read asked on the side while a task is open ("hold on, total pnl?"), answered before the
//! task goes on and never taken as one of its values.

use nofxi_protocol::{AnswerKind, Command, CommandSource, Understanding};

use super::Input;
use super::follow_ups::{read_of, read_said};
use crate::nlu::route::{self, Route};
use crate::nlu::words::find_phrase;
use crate::nlu::{Context, RuleUnderstander, instruments, is_read, market, one, shared_read};

/// "我最近的交易记录": a read two skills have, with no noun, name or security saying whose,
/// is asked back rather than given to whichever the rules met first.
pub fn shared_read(
    rules: &RuleUnderstander,
    input: &Input<'_>,
    cx: &Context<'_>,
) -> Option<Understanding> {
    let (message, lower) = (input.message, &input.lower);
    let says_whose = route::names_a_subject(cx.library, cx.lexicon, lower)
        || input.it(cx).is_some()
        || !cx.names.mentioned(lower).is_empty()
        || instruments::find(lower).is_some();
    if says_whose {
        return None;
    }
    match shared_read::choice(cx.library, cx.lexicon, cx.names, message, lower)? {
        shared_read::SharedRead::Ask { question, options } => {
            Some(one(Command::Clarify { question, options }, 0.85))
        }
        shared_read::SharedRead::Only { skill, action } => {
            let slots = rules.slots_for(&skill, &action, message, cx);
            Some(one(
                Command::StartTask {
                    skill,
                    action,
                    slots: slots.into_iter().collect(),
                },
                0.85,
            ))
        }
    }
}

/// "btc price", "比特币多少钱": a quote, answered beside any task; never a request to change
/// something ("create a trader when btc price drops" routes to its verb).
pub fn market_quote(
    _: &RuleUnderstander,
    input: &Input<'_>,
    cx: &Context<'_>,
) -> Option<Understanding> {
    let lower = &input.lower;
    let quotable = input.routed(cx).is_none_or(|r| {
        (!r.has_verb || is_read(cx.library, r))
            && !market::subject_is_verbs_object(cx.library, cx.lexicon, lower, &r.skill, &r.action)
    });
    if !quotable {
        return None;
    }
    let symbols = market::quoted_symbols(cx.library, cx.names, lower);
    if symbols.is_empty() {
        return None;
    }
    let commands = symbols
        .into_iter()
        .map(|topic| Command::AnswerQuestion {
            kind: AnswerKind::Market,
            topic,
        })
        .collect();
    Some(Understanding {
        commands,
        confidence: 0.9,
        source: CommandSource::Rules,
    })
}

/// "hold on, total pnl?", "btc-bot的持仓看下", "等下 回收站有啥" while something is being
/// created: a read of something else with its verb and its noun or name.
pub fn side_read(
    rules: &RuleUnderstander,
    input: &Input<'_>,
    cx: &Context<'_>,
) -> Option<Understanding> {
    let (top_skill, top_action) = open_beside(input, cx)?;
    let r: &Route = input.routed(cx).filter(|r| {
        r.has_verb
            && (r.has_noun || r.has_name)
            && is_read(cx.library, r)
            && !(r.skill == top_skill && r.action == top_action)
    })?;
    let slots = rules.slots_for(&r.skill, &r.action, input.message, cx);
    Some(one(
        Command::StartTask {
            skill: r.skill.clone(),
            action: r.action.clone(),
            slots: slots.into_iter().collect(),
        },
        0.85,
    ))
}

/// A read's own word ("持仓呢") while a task is open: that read of the resource talked about.
pub fn side_follow_up_read(
    _: &RuleUnderstander,
    input: &Input<'_>,
    cx: &Context<'_>,
) -> Option<Understanding> {
    let (top_skill, top_action) = open_beside(input, cx)?;
    let (skill, action, target) = read_said(&input.lower, cx)?;
    if skill == top_skill && action == top_action {
        return None;
    }
    Some(one(read_of(skill, action, target), 0.8))
}

/// The open task a read can be asked beside: not when a word names one of the task's own
/// fields ("initial balance 500" while a trader is created is that field's, not a read of
/// something else; a strategy once got "btc-bot的持仓看下" as its name otherwise).
fn open_beside<'c>(input: &Input<'_>, cx: &Context<'c>) -> Option<(&'c str, &'c str)> {
    let (skill, action, ..) = cx.top?;
    let names_own_field = cx.library.action(skill, action).is_some_and(|a| {
        a.slots
            .iter()
            .flat_map(|slot| slot.phrases.iter())
            .any(|p| find_phrase(&input.lower, &p.to_lowercase()).is_some())
    });
    (!names_own_field).then_some((skill, action))
}

#[cfg(test)]
mod tests {
    use nofxi_protocol::{AnswerKind, Command};

    use super::super::testing::{Fixture, claimed_by, run};

    const NONE: &[String] = &[];

    #[test]
    fn a_price_is_quoted_and_a_change_is_not() {
        let f = Fixture::new();
        let cx = f.cx();
        let u = run("market_quote", "btc price", &cx).expect("a quote");
        assert!(
            matches!(
                u.commands.as_slice(),
                [Command::AnswerQuestion {
                    kind: AnswerKind::Market,
                    ..
                }]
            ),
            "{u:?}"
        );
        assert!(run("market_quote", "stop alpha", &cx).is_none());
        assert_eq!(claimed_by("比特币多少钱", &cx), "market_quote");
    }

    #[test]
    fn a_read_beside_an_open_task_is_answered_not_taken_as_a_value() {
        let f = Fixture::new();
        let mut cx = f.cx();
        assert!(run("side_read", "show alpha journal", &cx).is_none());
        cx.top = Some(("strategy_management", "create", NONE, false));
        let u = run("side_read", "show alpha journal", &cx).expect("a side read");
        assert!(
            matches!(u.commands.as_slice(), [Command::StartTask { skill, .. }] if skill == "trader_management"),
            "{u:?}"
        );
        assert_eq!(
            claimed_by("hold on, total pnl?", &cx),
            "side_follow_up_read"
        );
    }

    #[test]
    fn a_shared_read_with_whose_said_is_left_to_the_router() {
        let f = Fixture::new();
        let cx = f.cx();
        assert!(run("shared_read", "alpha 的交易记录", &cx).is_none());
    }
}
