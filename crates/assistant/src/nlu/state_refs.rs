//! Traders picked by their state: "start the stopped one", "把停着的那个启动一下", "stop the
//! running ones". The phrase is put back as the names it stands for, and the message read
//! again: one trader in that state is that trader; "the … ones" are all of them; "the … one"
//! with several in that state is asked, each answer a whole request ("stop btc-bot", "stop
//! alpha"), so the pick keeps the action. No trader in that state leaves the message as it is.
//! The phrases are the lexicon's (`running_one`, `running_all`, `stopped_one`, `stopped_all`).

use nofxi_skills::{ResourceKind, WordClass};

use super::Context;
use super::words::find_phrase;

/// What a state phrase in a message comes to.
#[derive(Debug, Clone, PartialEq)]
pub enum StateRef {
    /// The message with the phrase replaced by the name(s).
    Said(String),
    /// Several traders fit "the … one": the message once per trader, to pick from.
    Which {
        names: Vec<String>,
        messages: Vec<String>,
    },
}

/// The first state phrase of `message` and what it comes to; `None` when it says none, or no
/// trader is in that state.
pub fn read(message: &str, cx: &Context<'_>) -> Option<StateRef> {
    let lower = message.to_lowercase();
    // Lower-casing can move bytes outside ASCII; the phrase's place must be the same in both.
    if lower.len() != message.len() {
        return None;
    }
    let (from, to, running, all) = said(&lower, cx)?;
    let names: Vec<String> = cx
        .names
        .of_kind(ResourceKind::Trader)
        .filter(|e| !e.deleted && e.running == running)
        .map(|e| e.name.clone())
        .collect();
    let put = |names: &str| format!("{}{names}{}", &message[..from], &message[to..]);
    match names.as_slice() {
        [] => None,
        [one] => Some(StateRef::Said(put(one))),
        several if all => Some(StateRef::Said(put(&joined(several)))),
        several => Some(StateRef::Which {
            messages: several.iter().map(|n| put(n)).collect(),
            names: several.to_vec(),
        }),
    }
}

/// Where the first state phrase stands, and which state and number it says.
fn said(lower: &str, cx: &Context<'_>) -> Option<(usize, usize, bool, bool)> {
    let classes = [
        (WordClass::RunningAll, true, true),
        (WordClass::StoppedAll, false, true),
        (WordClass::RunningOne, true, false),
        (WordClass::StoppedOne, false, false),
    ];
    classes
        .iter()
        .flat_map(|&(class, running, all)| {
            cx.lexicon.words(class).iter().filter_map(move |w| {
                find_phrase(lower, w).map(|at| (at, at + w.len(), running, all))
            })
        })
        // The earliest, and at one place the longest ("the running ones" over "the running one").
        .min_by_key(|&(from, to, ..)| (from, std::cmp::Reverse(to)))
}

/// "btc-bot, alpha": the names as a list a request takes (no language's "and" needed).
fn joined(names: &[String]) -> String {
    names.join(", ")
}
