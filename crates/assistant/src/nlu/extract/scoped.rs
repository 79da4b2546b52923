//! Values said with the coins they are for: "max leverage 15 for btc/eth, 8 for alts". The
//! settings that come in a BTC/ETH and an altcoin flavour are read by their own phrases
//! ("btc/eth leverage", "alts leverage"), so the scope is put before the value in that form:
//! "… btc/eth leverage 15, alts leverage 8". Without it both values fell to the phrase
//! both settings share, and the coins after "for" were read as a new coin list.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{LazyLock, Mutex, PoisonError};

use nofxi_skills::{Action, Unit, WordClass};
use regex::{Captures, Regex};

use super::super::lexicon::Lexicon;

/// A value, then "for" and a group of coins; `{times}` is where the multiple words go.
const SCOPED: &str = r"(?i)\b(\d+(?:\.\d+)?)\s*{times}?\s+for\s+(?:the\s+)?(btc\s*/\s*eth|btc\s*(?:and|&)\s*eth|btc|eth|majors|alts|altcoins|alt\s+coins|alt-coins|other\s+coins|the\s+rest)\b";

/// `message` with each scoped leverage put as "<scope> leverage <value>"; as it was when it
/// says nothing of leverage or has no such value.
pub fn scoped_values<'m>(message: &'m str, action: &Action, lexicon: &Lexicon) -> Cow<'m, str> {
    let lower = message.to_lowercase();
    // Said about leverage: a phrase of a setting in multiples ("leverage", "杠杆").
    let about_leverage = action
        .slots
        .iter()
        .filter(|s| s.unit == Some(Unit::Times))
        .flat_map(|s| &s.phrases)
        .any(|p| lower.contains(&p.to_lowercase()));
    if !about_leverage {
        return Cow::Borrowed(message);
    }
    let times: Vec<String> = lexicon
        .words(WordClass::UnitTimes)
        .iter()
        .map(|w| regex::escape(w))
        .collect();
    let pattern = SCOPED.replace("{times}", &format!("({})", times.join("|")));
    let Some(re) = compiled(&pattern) else {
        return Cow::Borrowed(message);
    };
    re.replace_all(message, |c: &Captures| {
        let scope = c[3].to_lowercase();
        let majors = scope.starts_with("btc") || scope == "eth" || scope == "majors";
        let word = if majors { "btc/eth" } else { "alts" };
        format!(
            "{word} leverage {}{}",
            &c[1],
            c.get(2).map_or("", |x| x.as_str())
        )
    })
}

/// `pattern` compiled once per process: a message about leverage comes on most strategy
/// changes, and compiling the pattern cost more than reading the message. Keyed by the
/// pattern, as it holds the lexicon's words.
fn compiled(pattern: &str) -> Option<Regex> {
    static CACHE: LazyLock<Mutex<HashMap<String, Regex>>> = LazyLock::new(Default::default);
    let mut cache = CACHE.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(re) = cache.get(pattern) {
        return Some(re.clone());
    }
    let re = Regex::new(pattern).ok()?;
    cache.insert(pattern.to_string(), re.clone());
    Some(re)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(message: &str) -> String {
        let library = nofxi_skills::Library::builtin().expect("builtin skills");
        let action = library
            .action("strategy_management", "update")
            .expect("update");
        scoped_values(message, action, &Lexicon::from_library(&library)).into_owned()
    }

    #[test]
    fn scoped_leverages_name_their_setting() {
        assert_eq!(
            read("max leverage 15 for btc/eth, 8 for alts"),
            "max leverage btc/eth leverage 15, alts leverage 8"
        );
        assert_eq!(
            read("leverage 5x for BTC and ETH"),
            "leverage btc/eth leverage 5x"
        );
        // Nothing about leverage: a coin list after "for" stays one.
        assert_eq!(read("min position 100 for btc"), "min position 100 for btc");
    }
}
