//! A request about an exchange nofxi cannot trade on ("add my kraken account", "火币能用吗"):
//! said honestly, with what nofxi can trade on, rather than read as a request about something
//! else or as a word not understood. A name of the user's that holds the word ("kraken-bot")
//! is that resource, not the exchange.

use nofxi_protocol::{Command, Understanding};
use nofxi_skills::WordClass;

use super::Input;
use crate::nlu::extract::tokens::blank;
use crate::nlu::words::find_phrase;
use crate::nlu::{Context, OTHER_VENUE_REASON, RuleUnderstander, one};

pub fn other_venue(
    _: &RuleUnderstander,
    input: &Input<'_>,
    cx: &Context<'_>,
) -> Option<Understanding> {
    let mut unnamed = input.lower.clone();
    for (_, from, to) in cx.names.mentioned(&input.lower) {
        blank(&mut unnamed, from, to);
    }
    let venue = cx
        .lexicon
        .words(WordClass::OtherVenue)
        .iter()
        .find(|w| find_phrase(&unnamed, w).is_some())?;
    let reason = format!("{OTHER_VENUE_REASON}{venue}");
    Some(one(Command::CannotHandle { reason }, 0.9))
}

#[cfg(test)]
mod tests {
    use nofxi_protocol::Command;
    use nofxi_skills::ResourceKind;

    use super::super::testing::{Fixture, entry, run};

    fn reason(u: &nofxi_protocol::Understanding) -> Option<&str> {
        match u.commands.as_slice() {
            [Command::CannotHandle { reason }] => Some(reason),
            _ => None,
        }
    }

    #[test]
    fn an_exchange_nofxi_cannot_trade_on_is_said_so() {
        let f = Fixture::new();
        let cx = f.cx();
        for said in [
            "add my kraken account",
            "can I trade on Coinbase?",
            "火币能用吗",
        ] {
            let u = run("other_venue", said, &cx).expect(said);
            assert!(
                reason(&u).is_some_and(|r| r.starts_with("other venue ")),
                "{said}"
            );
        }
        assert!(run("other_venue", "add a binance account", &cx).is_none());
    }

    #[test]
    fn a_name_of_the_users_that_holds_the_word_is_that_resource() {
        let f = Fixture::with(vec![entry(ResourceKind::Trader, "kraken-bot")]);
        let cx = f.cx();
        assert!(run("other_venue", "stop kraken-bot", &cx).is_none());
    }
}
