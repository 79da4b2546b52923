//! A short reply made of nothing but a yes or a no said in several words: "yes go", "ok yes
//! stop", "no not yet", "那不删了", "那先不停了", "不用 知道了", "没事 不用了". Such a reply
//! answers the question that waits, or says with nothing waiting that nothing is to be done;
//! it is neither "not understood" nor a request of its own. Every word of it must be a yes or
//! a no (a cancel and a negation are noes), a filler or a polite word, small talk ("got it",
//! "知道了"), or a verb of the action it answers; a name, a value or another action's verb
//! makes it something else, left to the other readings.

use nofxi_skills::WordClass;

use super::Context;
use super::words::cover_by;

/// What a reply says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    Yes,
    No,
}

/// Replies longer than this are requests, never a bare yes or no.
const MAX_CHARS: usize = 32;

/// The tone of `message`, a reply to `action` (skill, action) when one waits, or to
/// whatever was said last when none does (any changing action's verb may then be in it);
/// `None` when it is not only a yes or only a no.
pub fn tone(message: &str, action: Option<(&str, &str)>, cx: &Context<'_>) -> Option<Tone> {
    if message.chars().count() > MAX_CHARS {
        return None;
    }
    let lx = cx.lexicon;
    let replies = lx.reply_words();
    // The verbs a reply may repeat: the waiting action's ("ok yes stop"), or every changing
    // action's when none waits ("那不删了"). A look-up verb never: "yes status" asks something.
    let verbs = match action {
        Some((skill, action)) => replies.verbs_of(skill, action),
        None => replies.all_verbs.as_slice(),
    };
    // Neutral first: a word both a filler and a yes ("ok", "嗯") says neither on its own.
    let lists: [&[String]; 8] = [
        lx.words(WordClass::Filler),
        lx.words(WordClass::PoliteRequest),
        &replies.small_talk,
        verbs,
        lx.words(WordClass::Deny),
        lx.words(WordClass::Cancel),
        lx.words(WordClass::Negation),
        lx.words(WordClass::Confirm),
    ];
    let read = cover_by(&message.to_lowercase(), &lists)?;
    let said_yes = read.iter().any(|(list, _)| *list == 7);
    let said_no = read.iter().any(|(list, _)| (4..=6).contains(list));
    // With nothing waiting, a yes and a verb ("好，启动", "ok yes stop it") is that request said
    // eagerly, not an answer: left to the readings that find its object.
    let said_verb = read.iter().any(|(list, _)| *list == 3);
    if action.is_none() && said_yes && said_verb {
        return None;
    }
    match (said_yes, said_no) {
        (true, false) => Some(Tone::Yes),
        (false, true) => Some(Tone::No),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::recognisers::testing::Fixture;
    use super::{Tone, tone};

    #[test]
    fn a_yes_or_a_no_in_several_words_is_that_yes_or_no() {
        let f = Fixture::new();
        let cx = f.cx();
        let stop = Some(("trader_management", "stop"));
        assert_eq!(tone("ok yes stop", stop, &cx), Some(Tone::Yes));
        assert_eq!(tone("ok then go", stop, &cx), Some(Tone::Yes));
        assert_eq!(tone("no not yet", stop, &cx), Some(Tone::No));
        assert_eq!(tone("那先不停了", None, &cx), Some(Tone::No));
        assert_eq!(tone("那不删了", None, &cx), Some(Tone::No));
        assert_eq!(tone("不用 知道了", None, &cx), Some(Tone::No));
        assert_eq!(tone("没事 不用了", None, &cx), Some(Tone::No));
    }

    #[test]
    fn a_name_a_value_another_verb_or_both_tones_make_it_something_else() {
        let f = Fixture::new();
        let cx = f.cx();
        let stop = Some(("trader_management", "stop"));
        assert_eq!(tone("yes stop alpha", stop, &cx), None);
        assert_eq!(tone("yes delete it", stop, &cx), None);
        assert_eq!(tone("yes no", stop, &cx), None);
        assert_eq!(tone("ok", stop, &cx), None);
        assert_eq!(tone("stop", stop, &cx), None);
        assert_eq!(tone("yes set leverage to 5", None, &cx), None);
        // Nothing waits: a yes with a verb is that request, said eagerly.
        assert_eq!(tone("好，启动", None, &cx), None);
    }
}
