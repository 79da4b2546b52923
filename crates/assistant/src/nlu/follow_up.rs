//! Follow-ups as frames: a fragment that names only something new re-runs the last request.
//!
//! "btc price?" then "eth?", "比特币多少钱" then "以太坊呢", "btc-bot's journal" then "what about
//! alpha", "stop btc-bot" then "and alpha too": the second message has no verb and no noun of
//! its own, only a coin or one of the user's names and words that say "the same again"
//! ([`WordClass::FollowUp`]). It is the last completed request ([`FrameRequest`]) with that one
//! thing put in place of the old one. A read re-runs on a bare fragment; a change (start, stop,
//! delete …) only when a word says it adds to what was done ([`WordClass::FollowUpAdds`]:
//! "too", "also", "也"), and it is then confirmed by the usual rules. Anything else in the
//! message — a verb, a question word, a second name — and it is no follow-up: the message is
//! read on its own.

use nofxi_domain::market::known_symbols;
use nofxi_protocol::{AnswerKind, Command, CommandSource, Understanding};
use nofxi_skills::{Risk, SlotType, WordClass};
use serde_json::{Map, Value};

use super::Context;
use super::extract::tokens::blank;
use super::words::phrase_positions;
use crate::conversation::FrameRequest;

/// The classes whose words a fragment may hold beside the thing it names.
const AROUND: [WordClass; 7] = [
    WordClass::FollowUp,
    WordClass::FollowUpAdds,
    WordClass::Filler,
    WordClass::Article,
    WordClass::QuestionParticle,
    WordClass::Possessive,
    WordClass::Reference,
];

/// The last request again on what `message` names, when the message is such a fragment.
pub fn follow_up(message: &str, cx: &Context<'_>) -> Option<Understanding> {
    // "stop btc-bot" waits for its yes, then "and alpha too": the waiting change is the
    // frame, and alpha gets one of its own (never the waiting one's target replaced).
    let waiting = cx
        .top
        .filter(|t| t.3)
        .map(|(skill, action, ..)| FrameRequest::Task {
            skill: skill.to_string(),
            action: action.to_string(),
            slots: Map::new(),
        });
    let frame = match (&waiting, cx.top) {
        (Some(waiting), _) => waiting,
        // Any other task in progress takes what is said as its values.
        (None, Some(_)) => return None,
        (None, None) => cx.last_request?,
    };
    let lower = message.to_lowercase();
    let mut rest = lower.clone();
    let mut adds = false;
    for class in AROUND {
        for word in cx.lexicon.words(class) {
            let at: Vec<usize> = phrase_positions(&lower, word).collect();
            adds |= class == WordClass::FollowUpAdds && !at.is_empty();
            for at in at {
                blank(&mut rest, at, at + word.len());
            }
        }
    }
    if waiting.is_some() && !adds {
        return None;
    }
    let command = match frame {
        FrameRequest::Quote { .. } => quote_of(&rest)?,
        FrameRequest::Function { function, args } => function_on(&rest, function, args)?,
        FrameRequest::Task {
            skill,
            action,
            slots,
        } => task_on(&rest, cx, skill, action, slots, adds)
            .or_else(|| facet_of(&rest, cx, skill, action, slots))?,
    };
    Some(Understanding {
        commands: vec![command],
        confidence: 0.85,
        source: CommandSource::Rules,
    })
}

/// A quote of the one coin `rest` names and nothing else.
fn quote_of(rest: &str) -> Option<Command> {
    Some(Command::AnswerQuestion {
        kind: AnswerKind::Market,
        topic: coin_of(rest)?,
    })
}

/// The function called last ("eth order book", or one that asked which symbol) again, on the
/// one coin `rest` names, with its other arguments kept.
fn function_on(rest: &str, function: &str, args: &Map<String, Value>) -> Option<Command> {
    let mut args = args.clone();
    args.insert("symbol".into(), Value::String(coin_of(rest)?));
    Some(Command::CallFunction {
        function: function.to_string(),
        args: args.into_iter().collect(),
    })
}

/// The one coin `rest` names and nothing else: a coin of the alias table by its symbol,
/// ticker or a name people use ("eth", "以太坊"). Never a symbol made up of whatever was typed
/// ("btc price" is no coin, "list traders" none either).
fn coin_of(rest: &str) -> Option<String> {
    let said = rest
        .trim_matches(|c: char| !c.is_alphanumeric() && c != '-')
        .to_lowercase();
    let coin = known_symbols().iter().find(|c| {
        c.symbol.eq_ignore_ascii_case(&said)
            || c.base.eq_ignore_ascii_case(&said)
            || c.names.iter().any(|n| n.to_lowercase() == said)
    })?;
    Some(coin.symbol.clone())
}

/// "持仓呢" after "btc-bot 怎么样" or after "stop btc-bot", "成本呢" after "茅台的成本是多少",
/// "its win rate?" after alpha's status: a fragment that is only a word of a read of the same
/// skill (one of its verbs or `facets`) asks that read of the object the last request was
/// about. Only reads are found this way: a facet never becomes a change.
fn facet_of(
    rest: &str,
    cx: &Context<'_>,
    skill: &str,
    action: &str,
    slots: &Map<String, Value>,
) -> Option<Command> {
    // The frame may be a change ("stop btc-bot" … "持仓呢"): what the fragment asks is a read.
    cx.library.action(skill, action)?;
    if slots.is_empty() {
        return None;
    }
    let said = super::words::trim_punct(rest).to_lowercase();
    if said.is_empty() {
        return None;
    }
    let read = cx.library.get(skill)?.actions.iter().find(|a| {
        a.risk == Risk::Query
            && a.verbs
                .iter()
                .chain(&a.facets)
                .any(|w| w.to_lowercase() == said)
    })?;
    let slots = slots
        .iter()
        .filter(|(k, _)| read.slot(k).is_some())
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    Some(Command::StartTask {
        skill: skill.to_string(),
        action: read.name.clone(),
        slots,
    })
}

fn task_on(
    rest: &str,
    cx: &Context<'_>,
    skill: &str,
    action: &str,
    slots: &Map<String, Value>,
    adds: bool,
) -> Option<Command> {
    let act = cx.library.action(skill, action)?;
    let target = act
        .slots
        .iter()
        .find(|s| s.name == "target" && s.ty == SlotType::Ref)?;
    let kind = target.ref_kind?;
    let mentioned = cx.names.mentioned(rest);
    let [(entry, from, to)] = mentioned.as_slice() else {
        return None;
    };
    let mut left = rest.to_string();
    blank(&mut left, *from, *to);
    if entry.kind != kind || left.chars().any(char::is_alphanumeric) {
        return None;
    }
    let reads = act.risk == Risk::Query;
    if !reads && !adds {
        return None;
    }
    let mut slots: Map<String, Value> = if reads { slots.clone() } else { Map::new() };
    slots.insert("target".into(), Value::String(entry.name.clone()));
    Some(Command::StartTask {
        skill: skill.to_string(),
        action: action.to_string(),
        slots: slots.into_iter().collect(),
    })
}
