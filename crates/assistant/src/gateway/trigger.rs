//! When the model is asked. Rules first, always: the model sees a message only when the rules'
//! confidence is low, or when the rules found the task but not its target because the message
//! *describes* the target by data ("the worst-performing bot") instead of naming it: then the
//! target is missing, or only a fragment that is no resource's name.

use nofxi_protocol::{Command, Understanding};
use nofxi_skills::Library;

use crate::nlu::CONFIDENCE_THRESHOLD;
use crate::nlu::names::Names;
use crate::nlu::route::{is_question, names_function_subject};

/// Words that pick a resource by comparing data: the rules can match names, not rank results.
const RANKING_WORDS: &[&str] = &[
    "最差",
    "最好",
    "最赚",
    "最亏",
    "亏得最",
    "赚得最",
    "跑得最",
    "收益最",
    "回撤最",
    "最高",
    "最低",
    "最多",
    "最少",
    "worst",
    "best",
    "most",
    "least",
    "highest",
    "lowest",
    "biggest",
    "smallest",
    "top performing",
    "losing the most",
];

/// Whether this understanding should go to the model (when one is configured).
pub fn wants_model(
    understanding: &Understanding,
    message: &str,
    library: &Library,
    names: &Names,
) -> bool {
    if understanding.confidence < CONFIDENCE_THRESHOLD {
        return true;
    }
    let lower = message.to_lowercase();
    let ranks = RANKING_WORDS.iter().any(|w| lower.contains(w));
    ranks
        && understanding.commands.iter().any(|c| match c {
            Command::StartTask {
                skill,
                action,
                slots,
            } => library.action(skill, action).is_some_and(|a| {
                a.slots.iter().any(|s| {
                    let Some(kind) = s.ref_kind else {
                        return false;
                    };
                    // Missing, or only a fragment ("bot") that is no one resource's name.
                    match slots.get(&s.name).and_then(|v| v.as_str()) {
                        None => s.required,
                        Some(v) => {
                            let v = v.to_lowercase();
                            !names.of_kind(kind).any(|e| e.lower == v)
                        }
                    }
                })
            }),
            _ => false,
        })
}

/// Question shapes beyond [`is_question`]'s (which knows "?", "which", "哪些"…): a yes/no
/// particle at the end, or an opening that asks for judgement. A message the rules could not
/// place that reads as a question goes straight to an answer over composed facts, skipping
/// the understanding call.
const OPEN_ENDINGS: &[&str] = &["吗", "呢", "么"];
const OPEN_STARTS: &[&str] = &[
    "how",
    "is ",
    "are ",
    "should",
    "can ",
    "could",
    "why",
    "do i",
    "does",
    "为什么",
    "怎么",
    "如何",
    "是否",
    "能不能",
    "要不要",
    "现在",
    "我的",
];

/// A message the rules could not place is an open question when it asks something, or when
/// it names market data ("btc price"): both are answered over composed facts.
pub fn is_open_question(understanding: &Understanding, message: &str, library: &Library) -> bool {
    let only_cannot = matches!(
        understanding.commands.as_slice(),
        [Command::CannotHandle { .. }]
    );
    if !only_cannot {
        return false;
    }
    let m = message.trim().to_lowercase();
    is_question(&m)
        || OPEN_ENDINGS.iter().any(|e| m.ends_with(e))
        || OPEN_STARTS.iter().any(|s| m.starts_with(s))
        || names_function_subject(library, &m)
}
