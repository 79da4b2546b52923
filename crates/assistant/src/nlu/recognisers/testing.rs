//! What the recognisers' tests read with: the builtin skills, the lexicon loaded from them
//! as a turn loads it, and a few resources of the user's.

use nofxi_protocol::Understanding;
use nofxi_skills::{Library, ResourceKind};

use super::{Input, RECOGNISERS};
use crate::nlu::lexicon::Lexicon;
use crate::nlu::names::{NameEntry, Names};
use crate::nlu::{Context, RuleUnderstander};

pub fn entry(kind: ResourceKind, name: &str) -> NameEntry {
    NameEntry {
        kind,
        id: format!("id-{name}"),
        name: name.into(),
        lower: name.to_lowercase(),
        class: None,
        enabled: true,
        live: false,
        testnet: false,
        running: true,
        deleted: false,
        uses: Vec::new(),
    }
}

fn no_current(_: ResourceKind) -> Option<String> {
    None
}

/// Traders alpha and btc-bot, a strategy default and an exchange account paper.
pub struct Fixture {
    pub library: Library,
    pub lexicon: Lexicon,
    pub names: Names,
}

impl Fixture {
    pub fn new() -> Fixture {
        Fixture::with(vec![
            entry(ResourceKind::Trader, "alpha"),
            entry(ResourceKind::Trader, "btc-bot"),
            entry(ResourceKind::Strategy, "default"),
            entry(ResourceKind::Exchange, "paper"),
        ])
    }

    pub fn with(names: Vec<NameEntry>) -> Fixture {
        let library = Library::builtin().expect("builtin skills");
        let lexicon = Lexicon::from_library(&library);
        Fixture {
            library,
            lexicon,
            names: Names::new(names),
        }
    }

    /// Nothing open, nothing done, nothing asked.
    pub fn cx(&self) -> Context<'_> {
        Context {
            library: &self.library,
            lexicon: &self.lexicon,
            names: &self.names,
            top: None,
            top_name: None,
            top_slots: None,
            engine_question: false,
            current: &no_current,
            it_kind: None,
            interrupted: Vec::new(),
            just_done: Vec::new(),
            last_read: None,
            last_request: None,
        }
    }
}

/// What the recogniser called `name` alone makes of `message`.
pub fn run(name: &str, message: &str, cx: &Context<'_>) -> Option<Understanding> {
    let r = RECOGNISERS
        .iter()
        .find(|r| r.name == name)
        .expect("a recogniser of that name");
    (r.recognise)(&RuleUnderstander, &Input::new(message), cx)
}

/// The name of the recogniser that claims `message`.
pub fn claimed_by(message: &str, cx: &Context<'_>) -> &'static str {
    super::recognise(&RuleUnderstander, message, cx).0
}
