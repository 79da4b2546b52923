//! Values said with the coins they are for: "max leverage 15 for btc/eth, 8 for alts". The
//! settings that come in a BTC/ETH and an altcoin flavour are read by their own phrases
//! ("btc/eth leverage", "alts leverage"), so the scope is put before the value in that form:
//! "… btc/eth leverage 15, alts leverage 8". Without it both values fell to the phrase
//! both settings share, and the coins after "for" were read as a new coin list.

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::{Captures, Regex};

/// A value, then "for" and a group of coins.
static SCOPED: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(\d+(?:\.\d+)?)\s*(x|倍)?\s+for\s+(?:the\s+)?(btc\s*/\s*eth|btc\s*(?:and|&)\s*eth|btc|eth|majors|alts|altcoins|alt\s+coins|alt-coins|other\s+coins|the\s+rest)\b",
    )
    .ok()
});

/// `message` with each scoped leverage put as "<scope> leverage <value>"; as it was when it
/// says nothing of leverage or has no such value.
pub fn scoped_values(message: &str) -> Cow<'_, str> {
    let lower = message.to_lowercase();
    let about_leverage = lower.contains("leverage") || message.contains("杠杆");
    let Some(re) = SCOPED.as_ref().filter(|_| about_leverage) else {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scoped_leverages_name_their_setting() {
        assert_eq!(
            scoped_values("max leverage 15 for btc/eth, 8 for alts"),
            "max leverage btc/eth leverage 15, alts leverage 8"
        );
        assert_eq!(
            scoped_values("leverage 5x for BTC and ETH"),
            "leverage btc/eth leverage 5x"
        );
        // Nothing about leverage: a coin list after "for" stays one.
        assert_eq!(
            scoped_values("min position 100 for btc"),
            "min position 100 for btc"
        );
    }
}
