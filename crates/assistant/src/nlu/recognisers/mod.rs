//! The recognisers, in the order they are tried: each a named function that reads the
//! message in its [`Context`] and either claims it (returns the [`Understanding`]) or passes.
//! The first to claim gives the reading, and its name goes into the turn's trace, so a wrong
//! reading points at the one rule that made it.
//!
//! The order is the policy: a cancel wins over everything, a yes or no to what waits over any
//! request said with it, guidance and follow-ups over a routed request, and a request over a
//! bare value for the open task. Each family lives in its own file with its own tests.
//!
//! What several recognisers look at (the lower-cased message, the routed request) is worked
//! out once per message in [`Input`], on first use.

mod actions;
mod answers;
mod cancel;
mod follow_ups;
mod guidance;
mod reads;
#[cfg(test)]
pub(crate) mod testing;
mod venues;
mod yes_no;

use std::cell::OnceCell;

use nofxi_protocol::{Command, Understanding};
use nofxi_skills::{ResourceKind, WordClass};

use super::route::{self, Route};
use super::words::find_phrase;
use super::{Context, RuleUnderstander};

/// A recogniser: the reading it claims the message for, or `None` to let the next one try.
pub type Recognise = fn(&RuleUnderstander, &Input<'_>, &Context<'_>) -> Option<Understanding>;

/// A recogniser and the name the trace knows it by.
pub struct Recogniser {
    pub name: &'static str,
    pub recognise: Recognise,
}

const fn named(name: &'static str, recognise: Recognise) -> Recogniser {
    Recogniser { name, recognise }
}

/// Every recogniser, in the order they are tried.
pub const RECOGNISERS: &[Recogniser] = &[
    named("cancel_all", cancel::cancel_all),
    named("take_back_done", cancel::take_back_done),
    named("cancel", cancel::cancel),
    named("take_back_waiting", cancel::take_back_waiting),
    named("yes_but_new_value", yes_no::yes_but_new_value),
    named("yes_no_to_waiting", yes_no::yes_no_to_waiting),
    named("reply_without_question", yes_no::reply_without_question),
    named("value_with_lead_in", answers::value_with_lead_in),
    named("whole_message_guidance", guidance::whole_message),
    named("secret_request", guidance::secret_request),
    named("other_venue", venues::other_venue),
    named("follow_up", follow_ups::follow_up),
    named("market_facet", reads::market_facet),
    named("shared_read", reads::shared_read),
    named("how_to", guidance::how_to),
    named("how_to_guidance", guidance::how_to_guidance),
    named("market_quote", reads::market_quote),
    named("side_read", reads::side_read),
    named("side_follow_up_read", reads::side_follow_up_read),
    named("resume", follow_ups::resume),
    named("restated_waiting", follow_ups::restated),
    named("error_explanation", guidance::error_explanation),
    named("glossary_question", guidance::glossary_question),
    named("market_call_unnamed", reads::market_call_unnamed),
    named(
        "answers_beside_other_skill",
        actions::answers_beside_other_skill,
    ),
    named("shared_name", actions::shared_name),
    named("no_bulk", actions::no_bulk),
    named("list_edit", actions::list_edit),
    named("add_to_resource", actions::add_to_resource),
    named("part_of_resource", actions::part_of_resource),
    named("another_create", actions::another_create),
    named("correction_of_top", actions::correction_of_top),
    named("rebind", actions::rebind),
    named("settings_without_verb", actions::settings_without_verb),
    named("create_verb_on_existing", actions::create_verb_on_existing),
    named("use_with_settings", actions::use_with_settings),
    named("answer_to_asked_ref", actions::answer_to_asked_ref),
    named("lone_verb", actions::lone_verb),
    named("start_task", actions::start_task),
    named("settings_of_it", follow_ups::settings_of_it),
    named("follow_up_read", follow_ups::follow_up_read),
    named("bare_yes_no", yes_no::bare_yes_no),
    named("answer_to_task", answers::answer_to_task),
    named("not_found", answers::not_found),
    named("unread_while_waiting", answers::unread_while_waiting),
];

/// The name recorded when no recogniser claims the message.
pub const UNMATCHED: &str = "none";

/// The first recogniser's reading of `message`, with its name; "not understood" when none
/// claims it.
pub fn recognise(
    rules: &RuleUnderstander,
    message: &str,
    cx: &Context<'_>,
) -> (&'static str, Understanding) {
    let input = Input::new(message);
    RECOGNISERS
        .iter()
        .find_map(|r| (r.recognise)(rules, &input, cx).map(|u| (r.name, u)))
        .unwrap_or_else(|| {
            let reason = "no skill matched".into();
            (UNMATCHED, super::one(Command::CannotHandle { reason }, 0.2))
        })
}

/// The message as the recognisers read it, with what several of them need worked out once.
pub struct Input<'m> {
    pub message: &'m str,
    pub lower: String,
    routed: OnceCell<Option<Route>>,
}

impl<'m> Input<'m> {
    pub fn new(message: &'m str) -> Input<'m> {
        Input {
            message,
            lower: message.to_lowercase(),
            routed: OnceCell::new(),
        }
    }

    /// A yes/no question waits: the engine's, or the open task's confirmation.
    pub fn yes_no_pending(&self, cx: &Context<'_>) -> bool {
        cx.engine_question || cx.top.is_some_and(|t| t.3)
    }

    /// The kind "it" stands for, and where the message says "it".
    pub fn it(&self, cx: &Context<'_>) -> Option<(ResourceKind, usize)> {
        let it_at = cx
            .lexicon
            .words(WordClass::Reference)
            .iter()
            .filter_map(|w| find_phrase(&self.lower, w))
            .min();
        cx.it_kind.zip(it_at)
    }

    /// The request the router reads, as a read done last turn carries it on.
    pub fn routed(&self, cx: &Context<'_>) -> Option<&Route> {
        self.routed
            .get_or_init(|| {
                let routed =
                    route::route(cx.library, &self.lower, cx.names, cx.lexicon, self.it(cx));
                routed.map(|r| carried_read(r, cx))
            })
            .as_ref()
    }

    /// Whether the message says a question word.
    pub fn questioning(&self, cx: &Context<'_>) -> bool {
        cx.lexicon
            .words(WordClass::Question)
            .iter()
            .any(|q| self.lower.contains(q.as_str()))
    }

    /// The routed request when it is one to start (or a side question while a task waits):
    /// it names a noun or a resource, and a verb unless nothing is open.
    pub fn started(&self, cx: &Context<'_>) -> Option<&Route> {
        // "alpha 盈亏多少？" while a change of alpha waits for its yes, "what exchanges do I
        // have?" while a creation asks which one to use: a side question, answered before the
        // task asks again.
        let side_question = |r: &Route| {
            r.action == "query"
                && self.questioning(cx)
                && match cx.top {
                    Some(t) if t.3 => {
                        r.has_name
                            || r.has_noun && super::asks::asks_what_exists(&self.lower, cx.lexicon)
                    }
                    Some(_) => r.has_noun && super::asks::asks_what_exists(&self.lower, cx.lexicon),
                    None => false,
                }
        };
        self.routed(cx).filter(|r| {
            (r.has_verb || cx.top.is_none() || side_question(r)) && (r.has_noun || r.has_name)
        })
    }
}

/// "eth-bot journal", then "what about btc-bot" / "那 btc-bot 的呢": a name with no verb or
/// noun of its own right after a read of its kind is that read again, of this one ("show
/// trader btc-bot" still shows the trader).
fn carried_read(mut r: Route, cx: &Context<'_>) -> Route {
    // Resources only: "how many Tencent shares do I have" after a list of records asks for
    // the holding (a security said is no resource's name).
    let of_resources = cx
        .library
        .get(&r.skill)
        .is_some_and(|s| ResourceKind::parse(&s.meta.domain).is_some());
    if !r.has_noun
        && of_resources
        && r.has_name
        && r.action == "query"
        && let Some((skill, action)) = cx.last_read
        && skill == r.skill
    {
        r.action = action.to_string();
    }
    r
}

#[cfg(test)]
mod tests {
    use super::testing::Fixture;
    use super::*;

    #[test]
    fn every_recogniser_has_a_name_of_its_own() {
        let mut names: Vec<&str> = RECOGNISERS.iter().map(|r| r.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), RECOGNISERS.len());
        assert!(!names.contains(&UNMATCHED));
    }

    #[test]
    fn the_first_to_claim_names_the_reading() {
        let f = Fixture::new();
        let cx = f.cx();
        assert_eq!(
            recognise(&RuleUnderstander, "stop alpha", &cx).0,
            "start_task"
        );
        assert_eq!(recognise(&RuleUnderstander, "cancel", &cx).0, "cancel");
        let (name, u) = recognise(&RuleUnderstander, "zzqx", &cx);
        assert_eq!(name, UNMATCHED);
        assert!(matches!(
            u.commands.as_slice(),
            [Command::CannotHandle { .. }]
        ));
    }
}
