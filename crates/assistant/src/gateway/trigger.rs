//! When the model is asked. Rules first, always: the model sees a message only when the rules'
//! confidence is low, or when the rules found the task but not its target because the message
//! *describes* the target by data ("the worst-performing bot") instead of naming it: then the
//! target is missing, or only a fragment that is no resource's name.

use nofxi_protocol::{Command, Understanding};
use nofxi_skills::{Library, WordClass};

use crate::nlu::asks;
use crate::nlu::lexicon::Lexicon;
use crate::nlu::names::Names;
use crate::nlu::route::names_function_subject;
use crate::nlu::{CONFIDENCE_THRESHOLD, OTHER_VENUE_REASON};

/// Whether this understanding should go to the model (when one is configured).
pub fn wants_model(
    understanding: &Understanding,
    message: &str,
    library: &Library,
    lexicon: &Lexicon,
    names: &Names,
) -> bool {
    if understanding.confidence < CONFIDENCE_THRESHOLD {
        return true;
    }
    let lower = message.to_lowercase();
    // "the worst bot", "亏得最多的": the rules match names, they do not rank results.
    let ranks = lexicon.any_in(WordClass::Ranking, &lower);
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

/// A message the rules could not place is an open question when it asks something, or when
/// it names market data ("btc price"): both are answered over composed facts.
pub fn is_open_question(
    understanding: &Understanding,
    message: &str,
    library: &Library,
    lexicon: &Lexicon,
) -> bool {
    // A refusal the rules could say plainly (an exchange nofxi cannot trade on) is no open
    // question, whatever the message asks.
    let only_cannot = matches!(
        understanding.commands.as_slice(),
        [Command::CannotHandle { reason }] if !reason.starts_with(OTHER_VENUE_REASON)
    );
    if !only_cannot {
        return false;
    }
    let m = message.trim().to_lowercase();
    asks::is_open_question(&m, lexicon) || names_function_subject(library, &m)
}
