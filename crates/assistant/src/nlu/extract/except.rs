//! The names a bulk action leaves out: "stop all traders except alpha", "stop everything but
//! alpha and beta", "停止除了 alpha 之外的所有交易员". A word after the marker that names
//! nothing of the user's is kept as said, so the tool refuses it ("no trader called alpah")
//! instead of the action running on everything, the misspelt one included.

use nofxi_skills::{Action, WordClass};
use serde_json::{Map, Value};

use super::Scan;
use super::tokens::token_after;
use crate::nlu::lexicon::Lexicon;
use crate::nlu::names::Names;
use crate::nlu::words::find_phrase;

/// Where a marker that starts the list of what is left out ("except", "除了") ends in
/// `lower`, the earliest one.
pub fn except_at(lower: &str, lexicon: &Lexicon) -> Option<usize> {
    lexicon
        .words(WordClass::Except)
        .iter()
        .filter_map(|w| find_phrase(lower, w).map(|at| (at, at + w.len())))
        .min()
        .map(|(_, end)| end)
}

/// Fills the action's `except` slot: the user's names after the marker.
pub fn excepted(
    action: &Action,
    scan: &Scan,
    names: &Names,
    lexicon: &Lexicon,
    slots: &mut Map<String, Value>,
) {
    if action.slot("except").is_none() {
        return;
    }
    let Some(from) = except_at(&scan.text, lexicon) else {
        return;
    };
    let rest = &scan.text[from..];
    // A Chinese list of what is left out ends at its closing word ("除了 alpha 之外").
    let until = lexicon
        .words(WordClass::ExceptEnd)
        .iter()
        .filter_map(|w| rest.find(w.as_str()))
        .min()
        .unwrap_or(rest.len());
    let span = &rest[..until];
    let mentioned = names.mentioned(span);
    let mut left_out: Vec<Value> = mentioned
        .iter()
        .map(|(e, ..)| Value::String(e.name.clone()))
        .collect();
    // "except alpha and btea": every item of the list must be a name; one that is not is
    // kept as said (the first word of it), and the tool refuses the whole request.
    let original = scan.original.get(from..from + until).unwrap_or("");
    for (start, end) in items(span, lexicon.words(WordClass::ListSeparator)) {
        let named = mentioned.iter().any(|(_, s, e)| *s < end && start < *e);
        if named || span[start..end].trim().is_empty() {
            continue;
        }
        if let Some((word, ..)) = original
            .get(start..end)
            .and_then(|o| token_after(o, 0, lexicon))
        {
            left_out.push(Value::String(word));
        }
    }
    if left_out.is_empty() {
        return;
    }
    slots.insert("except".into(), Value::Array(left_out));
}

/// The byte ranges of a list's items, between its separators ("alpha, beta and gamma").
fn items(span: &str, separators: &[String]) -> Vec<(usize, usize)> {
    let mut cuts: Vec<(usize, usize)> = separators
        .iter()
        .flat_map(|sep| {
            span.match_indices(sep.as_str())
                .map(|(i, m)| (i, i + m.len()))
        })
        .collect();
    cuts.sort();
    let mut out = Vec::new();
    let mut from = 0;
    for (start, end) in cuts {
        if start >= from {
            out.push((from, start));
            from = end;
        }
    }
    out.push((from, span.len()));
    out
}
