//! Reads: a read two skills share asked back ("我最近的交易记录"), a quote ("btc price"), and
//! a read asked on the side while a task is open ("hold on, total pnl?"), answered before the
//! task goes on and never taken as one of its values.

use nofxi_protocol::{AnswerKind, Command, CommandSource, Understanding};
use serde_json::Value;

use super::Input;
use super::follow_ups::{read_of, read_said};
use crate::market_data::GET_PRICE;
use crate::nlu::market_reading::{self, Reading};
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

/// "btc price", "比特币多少钱": a quote; "eth order book", "btc 4小时k线": the market-data
/// function the kind of words said asks for (see [`market_reading`]). Answered beside any
/// task; never a request to change something ("create a trader when btc price drops" routes
/// to its verb), nor a value of the open task's own field ("BTC on 5m candles" for a
/// strategy's candles).
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
    // A market word makes the symbols said asked about; with nothing open, an interval too
    // ("eth 4h").
    let subject = route::names_function_subject(cx.library, lower)
        || cx.top.is_none() && market_reading::interval_said(cx.lexicon, lower).is_some();
    if !subject {
        return None;
    }
    let said = market::symbols_said(cx.library, cx.names, lower);
    let symbols = market::distinct(&said);
    if symbols.is_empty() {
        return None;
    }
    let reading = market_reading::reading(cx.library, cx.lexicon, lower, &said);
    if matches!(reading, Reading::Call { .. }) && names_own_field(input, cx) {
        return None;
    }
    // A market named outright is the one read; the price is then asked as the function.
    let source = market::source_said(cx.library, cx.names, lower);
    let commands = symbols
        .into_iter()
        .map(|symbol| match (&reading, &source) {
            (Reading::Quote, None) => Command::AnswerQuestion {
                kind: AnswerKind::Market,
                topic: symbol,
            },
            (Reading::Quote, Some(source)) => Command::CallFunction {
                function: GET_PRICE.to_string(),
                args: [
                    ("symbol".to_string(), Value::String(symbol)),
                    ("source".to_string(), Value::String(source.clone())),
                ]
                .into_iter()
                .collect(),
            },
            (Reading::Call { function, args }, _) => {
                let mut args = args.clone();
                args.insert("symbol".into(), Value::String(symbol));
                if let Some(source) = &source {
                    args.insert("source".into(), Value::String(source.clone()));
                }
                Command::CallFunction {
                    function: function.to_string(),
                    args: args.into_iter().collect(),
                }
            }
        })
        .collect();
    Some(Understanding {
        commands,
        confidence: 0.9,
        source: CommandSource::Rules,
    })
}

/// "show me the order book", "看看k线": a market-data function's words and no symbol, with
/// nothing else asked and nothing open: the call, which asks which symbol.
pub fn market_call_unnamed(
    _: &RuleUnderstander,
    input: &Input<'_>,
    cx: &Context<'_>,
) -> Option<Understanding> {
    let lower = &input.lower;
    if cx.top.is_some()
        || input.routed(cx).is_some()
        || !market_reading::names_function_word(cx.lexicon, lower)
        || !market::symbols_said(cx.library, cx.names, lower).is_empty()
    {
        return None;
    }
    let Reading::Call { function, args } =
        market_reading::reading(cx.library, cx.lexicon, lower, &[])
    else {
        return None;
    };
    Some(one(
        Command::CallFunction {
            function: function.to_string(),
            args: args.into_iter().collect(),
        },
        0.85,
    ))
}

/// "eth price" then "and the order book", "depth 10", "1小时的呢", "现在多少钱": no symbol of its
/// own, only another function, interval or price of the market data asked last: the symbol
/// (and the market named, if one was) of the last market request, kept. A name, a verb of
/// another request, or a symbol of its own, and it is no such follow-up.
pub fn market_facet(
    _: &RuleUnderstander,
    input: &Input<'_>,
    cx: &Context<'_>,
) -> Option<Understanding> {
    let lower = &input.lower;
    let kept = last_market_args(cx)?;
    if cx.top.is_some()
        || !cx.names.mentioned(lower).is_empty()
        || !market::symbols_said(cx.library, cx.names, lower).is_empty()
        || input
            .routed(cx)
            .is_some_and(|r| r.has_verb && !is_read(cx.library, r))
    {
        return None;
    }
    let reading = market_reading::reading(cx.library, cx.lexicon, lower, &[]);
    let last_function = match cx.last_request? {
        crate::conversation::FrameRequest::Function { function, .. } => function.as_str(),
        _ => GET_PRICE,
    };
    let (function, mut args) = match reading {
        // "and the order book", "4h k线", "1小时的呢" after candles, "10 levels".
        Reading::Call { function, args } => (function, args),
        // "现在多少钱", "price?": the quote of the same symbol.
        Reading::Quote if route::names_function_subject(cx.library, lower) => {
            (GET_PRICE, Default::default())
        }
        Reading::Quote => return None,
    };
    // Candles asked again keep their interval and count unless the message says new ones.
    if function == last_function {
        for (k, v) in &kept {
            args.entry(k.clone()).or_insert_with(|| v.clone());
        }
    } else {
        // Another function keeps only what it is asked about, and where.
        for k in [SYMBOL_ARG, SOURCE_ARG] {
            if let Some(v) = kept.get(k) {
                args.insert(k.to_string(), v.clone());
            }
        }
    }
    Some(one(
        Command::CallFunction {
            function: function.to_string(),
            args: args.into_iter().collect(),
        },
        0.85,
    ))
}

/// The market function arguments a follow-up keeps when it asks for another function.
const SYMBOL_ARG: &str = "symbol";
const SOURCE_ARG: &str = "source";

/// The arguments of the last market request that named a symbol.
fn last_market_args(cx: &Context<'_>) -> Option<serde_json::Map<String, Value>> {
    use crate::conversation::FrameRequest;
    let args = match cx.last_request? {
        FrameRequest::Quote { symbol } => [("symbol".to_string(), Value::String(symbol.clone()))]
            .into_iter()
            .collect(),
        FrameRequest::Function { args, .. } => args.clone(),
        FrameRequest::Task { .. } => return None,
    };
    args.contains_key("symbol").then_some(args)
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
    (!names_own_field(input, cx)).then_some((skill, action))
}

/// A word of the message names one of the open task's own fields.
fn names_own_field(input: &Input<'_>, cx: &Context<'_>) -> bool {
    cx.top
        .and_then(|(skill, action, ..)| cx.library.action(skill, action))
        .is_some_and(|a| {
            a.slots
                .iter()
                .flat_map(|slot| slot.phrases.iter())
                .any(|p| find_phrase(&input.lower, &p.to_lowercase()).is_some())
        })
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

    fn function_of(u: &nofxi_protocol::Understanding) -> Vec<(String, Option<String>)> {
        u.commands
            .iter()
            .filter_map(|c| match c {
                Command::CallFunction { function, args } => Some((
                    function.clone(),
                    args.get("symbol")
                        .and_then(|s| s.as_str())
                        .map(str::to_string),
                )),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn book_and_candle_words_call_their_function_on_each_symbol() {
        let f = Fixture::new();
        let cx = f.cx();
        let one = |f: &str, s: &str| vec![(f.to_string(), Some(s.to_string()))];
        let u = run("market_quote", "eth order book", &cx).expect("a book");
        assert_eq!(function_of(&u), one("get_order_book", "ETHUSDT"));
        let u = run("market_quote", "btc 4小时k线给我看看", &cx).expect("candles");
        assert_eq!(function_of(&u), one("get_kline", "BTCUSDT"));
        let u = run("market_quote", "eth 1h", &cx).expect("an interval alone asks for candles");
        assert_eq!(function_of(&u), one("get_kline", "ETHUSDT"));
        let u = run("market_quote", "btc and eth 盘口", &cx).expect("two books");
        assert_eq!(function_of(&u).len(), 2);
        assert_eq!(claimed_by("btc 买卖压力比", &cx), "market_quote");
    }

    #[test]
    fn a_function_without_its_symbol_is_called_to_ask_for_it() {
        let f = Fixture::new();
        let mut cx = f.cx();
        let u = run("market_call_unnamed", "show me the order book", &cx).expect("a call");
        assert_eq!(function_of(&u), vec![("get_order_book".to_string(), None)]);
        assert_eq!(claimed_by("看看k线", &cx), "market_call_unnamed");
        // A symbol said is market_quote's; an open task's own words are its values.
        assert!(run("market_call_unnamed", "btc order book", &cx).is_none());
        cx.top = Some(("strategy_management", "create", NONE, false));
        assert!(run("market_call_unnamed", "15m candles", &cx).is_none());
        assert!(run("market_quote", "BTC and SOL on 5m candles", &cx).is_none());
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
