//! Whether a change waits for the user's yes, and the question it is asked with, for every
//! surface: the skill action's own `confirm` rule and `summary`, which the chat applies to its
//! task, applied here to a change made without a conversation (the HTTP API, the web form). So
//! a change the chat asks about is asked about wherever it is made, in the same words. A
//! start or a stop changes no field: [`asks`] answers only whether its rule asks (a live
//! start, a stop of a running trader, paper included).

use nofxi_domain::TraderSpec;
use nofxi_skills::{Action, Lang, Library, RefFact};
use serde_json::{Map, Value};

use crate::act::lookup;
use crate::{msg, texts};

/// The chat's action for changing a trader.
pub const TRADER_UPDATE: (&str, &str) = ("trader_management", "update");
/// The chat's actions for starting and stopping one.
pub const TRADER_START: (&str, &str) = ("trader_management", "start");
pub const TRADER_STOP: (&str, &str) = ("trader_management", "stop");

/// One field a change sets: the action's slot, and its value before and after, as a reply
/// shows them (a reference as the name of what it names).
#[derive(Debug, Clone, PartialEq)]
pub struct FieldChange {
    pub slot: String,
    pub before: Value,
    pub after: Value,
}

/// What is known of the object a change is about, that a rule may ask.
#[derive(Debug, Clone, Copy)]
pub struct Target<'a> {
    pub name: &'a str,
    /// A trader that runs (or a resource a running trader uses).
    pub running: bool,
    /// It trades on an exchange account, not paper (`live` in the rules, testnet included).
    pub live: bool,
    /// That account is a testnet (test funds).
    pub testnet: bool,
}

/// The question to ask before making `changes` to `target` by `skill.action` (in `lang`), or
/// `None` when the action's rule lets it go ahead. A fact a rule asks of another reference
/// than the target is not known here: it counts as true, so such a change is asked about.
pub fn question(
    library: &Library,
    (skill, action): (&str, &str),
    lang: Lang,
    target: Target<'_>,
    changes: &[FieldChange],
) -> Option<String> {
    let action = library.action(skill, action)?;
    let mut slots = Map::new();
    slots.insert("target".into(), Value::String(target.name.into()));
    for change in changes {
        slots.insert(change.slot.clone(), change.after.clone());
    }
    if changes.is_empty() || !action.needs_confirmation(&slots, &facts_of(target)) {
        return None;
    }
    let listed: Vec<String> = changes
        .iter()
        .map(|c| change_text(action, lang, &c.slot, &c.after, Some(&c.before)))
        .collect();
    let mut vars = Map::new();
    vars.insert("summary".into(), Value::String(listed.join(", ")));
    let account = match (target.live, target.testnet) {
        (true, false) => "confirm-account-live",
        (true, true) => "confirm-account-testnet",
        (false, _) => "confirm-account-paper",
    };
    vars.insert("account".into(), Value::String(msg(lang, account, &[])));
    Some(match &action.summary {
        Some(text) => text.render(lang, lookup(lang, &slots, &vars)),
        None => msg(lang, "confirm-go-ahead", &[]),
    })
}

/// Whether `skill.action` on `target`, changing nothing else, waits for the user's yes by the
/// action's rule. An action the library does not hold asks: a missing rule never lets a risky
/// call through.
pub fn asks(library: &Library, (skill, action): (&str, &str), target: Target<'_>) -> bool {
    let Some(action) = library.action(skill, action) else {
        return true;
    };
    let mut slots = Map::new();
    slots.insert("target".into(), Value::String(target.name.into()));
    action.needs_confirmation(&slots, &facts_of(target))
}

/// What a rule may ask of the target; a fact of another reference is not known here and
/// counts as true, so what it guards is asked about.
fn facts_of(target: Target<'_>) -> impl Fn(&str, RefFact) -> bool {
    move |slot: &str, fact: RefFact| match (slot, fact) {
        ("target", RefFact::Live) => target.live,
        ("target", RefFact::Running) => target.running,
        _ => true,
    }
}

/// One change as a confirmation lists it: "scan interval → 10 (was 5)".
pub fn change_text(
    action: &Action,
    lang: Lang,
    slot: &str,
    now: &Value,
    was: Option<&Value>,
) -> String {
    let label = action
        .slot(slot)
        .map_or_else(|| slot.to_string(), |s| s.label().get(lang).to_string());
    let now = match texts::value(lang, now) {
        // An emptied list ("stop excluding DOGE", the only one) reads as none.
        empty if empty.is_empty() => msg(lang, "confirm-emptied", &[]),
        now => now,
    };
    let was = was.map(|old| texts::value(lang, old));
    match was.filter(|was| *was != now) {
        Some(was) => format!("{label} → {now} {}", texts::was(lang, &was)),
        None => format!("{label} → {now}"),
    }
}

/// The fields of a trader that `after` changes from `before`, as the chat's update slots name
/// them; references (`model`, `exchange`, `strategy`) as ids, for the caller to show by name.
pub fn trader_changes(before: &TraderSpec, after: &TraderSpec) -> Vec<FieldChange> {
    let text = |s: &str| Value::String(s.to_string());
    let fields = [
        ("name", text(&before.name), text(&after.name)),
        ("model", text(&before.ai_model_id), text(&after.ai_model_id)),
        (
            "exchange",
            text(&before.exchange_id),
            text(&after.exchange_id),
        ),
        (
            "strategy",
            text(&before.strategy_id),
            text(&after.strategy_id),
        ),
        (
            "initial_balance",
            text(&before.initial_balance.normalize().to_string()),
            text(&after.initial_balance.normalize().to_string()),
        ),
        (
            "scan_interval_minutes",
            Value::from(before.scan_interval_minutes),
            Value::from(after.scan_interval_minutes),
        ),
        (
            "is_cross_margin",
            Value::Bool(before.is_cross_margin),
            Value::Bool(after.is_cross_margin),
        ),
    ];
    fields
        .into_iter()
        .filter(|(_, was, now)| was != now)
        .map(|(slot, before, after)| FieldChange {
            slot: slot.into(),
            before,
            after,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use nofxi_domain::TraderSpec;
    use rust_decimal::Decimal;

    use super::*;

    fn spec(model: &str, minutes: i64) -> TraderSpec {
        let mut spec = TraderSpec::new("bot", model, "ex-1", "st-1", Decimal::from(1_000));
        spec.scan_interval_minutes = minutes;
        spec
    }

    fn ask(running: bool, changes: &[FieldChange], lang: Lang) -> Option<String> {
        let library = Library::builtin().expect("the built-in skills load");
        let target = Target {
            name: "bot",
            running,
            live: false,
            testnet: false,
        };
        question(&library, TRADER_UPDATE, lang, target, changes)
    }

    #[test]
    fn a_model_or_interval_change_is_asked_about_as_the_chat_asks_and_a_rename_is_not() {
        let changes = trader_changes(&spec("m-1", 5), &spec("m-2", 10));
        let slots: Vec<&str> = changes.iter().map(|c| c.slot.as_str()).collect();
        assert_eq!(slots, ["model", "scan_interval_minutes"]);
        let asked = ask(true, &changes, Lang::En).unwrap_or_default();
        assert!(asked.contains("\"bot\""), "{asked}");
        assert!(asked.contains("→ m-2 (was m-1)"), "{asked}");
        assert!(asked.contains("→ 10 (was 5)"), "{asked}");
        let zh = ask(true, &changes, Lang::Zh).unwrap_or_default();
        assert!(
            zh.contains("交易员「bot」") && zh.contains("（原为 m-1）"),
            "{zh}"
        );

        let mut renamed = spec("m-1", 5);
        renamed.name = "bot-2".into();
        let changes = trader_changes(&spec("m-1", 5), &renamed);
        assert_eq!(changes.len(), 1);
        assert_eq!(ask(true, &changes, Lang::En), None);
        assert_eq!(ask(true, &[], Lang::En), None);
    }

    #[test]
    fn a_stop_of_a_running_trader_and_a_live_start_ask_as_the_chat_does() {
        let library = Library::builtin().expect("the built-in skills load");
        let target = |running, live| Target {
            name: "bot",
            running,
            live,
            testnet: false,
        };
        // Starting: only on a live account (testnet included), never on paper.
        assert!(!asks(&library, TRADER_START, target(false, false)));
        assert!(asks(&library, TRADER_START, target(false, true)));
        // Stopping: whenever it runs, paper included; a live one always.
        assert!(asks(&library, TRADER_STOP, target(true, false)));
        assert!(!asks(&library, TRADER_STOP, target(false, false)));
        assert!(asks(&library, TRADER_STOP, target(false, true)));
        // No rule to go by: asked.
        assert!(asks(
            &library,
            ("trader_management", "no_such"),
            target(false, false)
        ));
    }
}
