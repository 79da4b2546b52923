//! Trading symbols and the names people call them by.
//!
//! The alias table is data (`aliases.json`, embedded at compile time) so adding a coin is a
//! one-line change with no code. A symbol prints back in its canonical exchange form
//! (`BTCUSDT`) so a user who typed 比特币 sees what nofxi understood.

use std::fmt;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

const ALIASES_JSON: &str = include_str!("aliases.json");

/// A canonical USDT-margined perpetual symbol such as `BTCUSDT`: upper-case ASCII letters and
/// digits only. Build one with [`Symbol::parse`], which also resolves aliases.
///
/// Held inline (at most [`Symbol::MAX_LEN`] bytes, zero-padded) rather than as a `String`:
/// orders, fills, positions and decisions all carry one, and every copy was an allocation.
/// The padding is zero and symbols are non-zero ASCII, so comparing the buffers orders and
/// equates symbols exactly as their text would.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Symbol {
    bytes: [u8; Symbol::MAX_LEN],
}

/// One row of the alias table.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct SymbolAlias {
    pub symbol: String,
    pub base: String,
    pub names: Vec<String>,
}

#[derive(Deserialize)]
struct AliasFile {
    symbols: Vec<SymbolAlias>,
}

/// The error says what was typed and how to write it instead: the known coins nearest to it
/// when there are some ("did you mean FIL, OP?"), else every coin nofxi knows.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown coin \"{}\"; {}",
    crate::validation::shown_input(.given),
    hint(nearest)
)]
pub struct UnknownSymbol {
    pub given: String,
    /// Known base assets close to what was typed, nearest first.
    pub nearest: Vec<String>,
}

fn hint(nearest: &[String]) -> String {
    if nearest.is_empty() {
        let all: Vec<&str> = known_symbols().iter().map(|r| r.base.as_str()).collect();
        format!(
            "use a coin nofxi knows ({}) as a ticker (BTC), a symbol (BTCUSDT) or a name (比特币)",
            all.join(", ")
        )
    } else {
        format!("did you mean {}?", nearest.join(", "))
    }
}

impl UnknownSymbol {
    fn new(given: &str) -> UnknownSymbol {
        UnknownSymbol {
            given: given.trim().to_string(),
            nearest: nearest_known(given),
        }
    }
}

/// Most suggestions offered for an unknown coin.
const NEAREST_MAX: usize = 3;

/// The known base assets within two edits of what was typed (its `USDT` quote and separators
/// dropped), nearest first. Input longer than any symbol has no near coin: it is not compared,
/// so a huge argument costs nothing.
fn nearest_known(given: &str) -> Vec<String> {
    let typed: String = given
        .trim()
        .chars()
        .filter(|c| !matches!(c, '-' | '/' | '_' | ' '))
        .collect::<String>()
        .to_ascii_uppercase();
    let typed = typed.strip_suffix(QUOTE).unwrap_or(&typed);
    if typed.is_empty() || typed.len() > Symbol::MAX_LEN {
        return Vec::new();
    }
    let mut near: Vec<(usize, &str)> = known_symbols()
        .iter()
        .map(|r| (strsim::levenshtein(typed, &r.base), r.base.as_str()))
        .filter(|(d, base)| *d <= 2 && *d < base.len().max(typed.len()))
        .collect();
    near.sort_by_key(|(d, _)| *d);
    near.into_iter()
        .take(NEAREST_MAX)
        .map(|(_, b)| b.to_string())
        .collect()
}

/// Every symbol the alias table knows, in file order. A broken table is a build defect that the
/// unit tests catch; at run time it degrades to "no aliases" rather than a panic.
pub fn known_symbols() -> &'static [SymbolAlias] {
    static TABLE: OnceLock<Vec<SymbolAlias>> = OnceLock::new();
    TABLE.get_or_init(|| {
        serde_json::from_str::<AliasFile>(ALIASES_JSON)
            .map(|f| f.symbols)
            .unwrap_or_default()
    })
}

const QUOTE: &str = "USDT";

fn is_known_symbol(canonical: &str) -> bool {
    known_symbols().iter().any(|r| r.symbol == canonical)
}

/// Whether `word` is a coin of the alias table by its ticker, any case (`btc`, `Sol`): what
/// lets the chat read a lower-case coin after a loose lead ("for btc and sol").
pub fn is_known_coin(word: &str) -> bool {
    known_symbols()
        .iter()
        .any(|r| r.base.eq_ignore_ascii_case(word))
}

impl Symbol {
    /// Longer than any listed contract (`1000000MOGUSDT` is 14); a longer input is no symbol.
    pub const MAX_LEN: usize = 24;

    /// From canonical text (upper-case ASCII letters and digits); `None` when too long.
    fn canonical(text: &str) -> Option<Symbol> {
        let mut bytes = [0u8; Symbol::MAX_LEN];
        bytes
            .get_mut(..text.len())?
            .copy_from_slice(text.as_bytes());
        Some(Symbol { bytes })
    }

    /// Resolve what a user typed: an alias (比特币, bitcoin), a base asset (BTC, btc), or a
    /// symbol (btcusdt, BTC/USDT). Unknown ASCII tickers are accepted as `<TICKER>USDT` because
    /// the exchange, not this table, is the authority on which coins are listed.
    pub fn parse(input: &str) -> Result<Symbol, UnknownSymbol> {
        let unknown = || UnknownSymbol::new(input);
        let wanted = input.trim().to_lowercase();
        if wanted.is_empty() {
            return Err(unknown());
        }
        for row in known_symbols() {
            let hit = row.symbol.eq_ignore_ascii_case(&wanted)
                || row.base.eq_ignore_ascii_case(&wanted)
                || row.names.iter().any(|n| n.to_lowercase() == wanted);
            if hit {
                return Symbol::canonical(&row.symbol).ok_or_else(unknown);
            }
        }
        // Strip the separators people put between base and quote: BTC-USDT, pepe/usdt.
        let compact: String = wanted
            .chars()
            .filter(|c| !matches!(c, '-' | '/' | '_' | ' '))
            .collect::<String>()
            .to_ascii_uppercase();
        if compact.is_empty() || !compact.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(unknown());
        }
        if compact.len() > QUOTE.len() && compact.ends_with(QUOTE) {
            return Symbol::canonical(&compact).ok_or_else(unknown);
        }
        if (2..=12).contains(&compact.len()) {
            return Symbol::canonical(&format!("{compact}{QUOTE}")).ok_or_else(unknown);
        }
        Err(unknown())
    }

    /// What a person typed (a CLI flag, a strategy's coins, the chat), resolved as
    /// [`Symbol::parse`] does and held to the coins of the alias table: `foo` is refused with
    /// the nearest known coins instead of becoming `FOOUSDT`, which no market lists and a
    /// simulated one would have priced anyway. Venue data keeps [`Symbol::parse`]: there the
    /// exchange is the authority.
    pub fn parse_known(input: &str) -> Result<Symbol, UnknownSymbol> {
        let symbol = Symbol::parse(input)?;
        if is_known_symbol(symbol.as_str()) {
            Ok(symbol)
        } else {
            Err(UnknownSymbol::new(input))
        }
    }

    /// Whether this symbol is one of the alias table's.
    pub fn is_known(&self) -> bool {
        is_known_symbol(self.as_str())
    }

    pub fn as_str(&self) -> &str {
        let len = self
            .bytes
            .iter()
            .position(|&b| b == 0)
            .unwrap_or(Symbol::MAX_LEN);
        // Built from ASCII only, so this never falls back.
        std::str::from_utf8(&self.bytes[..len]).unwrap_or_default()
    }

    /// The base asset: `BTC` for `BTCUSDT`.
    pub fn base(&self) -> &str {
        let s = self.as_str();
        s.strip_suffix(QUOTE).unwrap_or(s)
    }
}

impl fmt::Display for Symbol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Symbol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl TryFrom<String> for Symbol {
    type Error = UnknownSymbol;
    fn try_from(value: String) -> Result<Self, Self::Error> {
        Symbol::parse(&value)
    }
}

impl From<Symbol> for String {
    fn from(value: Symbol) -> Self {
        value.as_str().to_string()
    }
}

impl std::str::FromStr for Symbol {
    type Err = UnknownSymbol;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Symbol::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_alias_table_parses_and_every_row_is_canonical() {
        let table = known_symbols();
        assert!(table.len() >= 6);
        for row in table {
            assert_eq!(row.symbol, format!("{}USDT", row.base));
            assert_eq!(Symbol::parse(&row.symbol).unwrap().as_str(), row.symbol);
        }
    }

    #[test]
    fn names_tickers_and_symbols_resolve_to_the_canonical_form() {
        for (typed, want) in [
            ("比特币", "BTCUSDT"),
            ("BTC", "BTCUSDT"),
            ("btc", "BTCUSDT"),
            ("btcusdt", "BTCUSDT"),
            (" BTC/USDT ", "BTCUSDT"),
            ("以太坊", "ETHUSDT"),
            ("ETH", "ETHUSDT"),
            ("sol", "SOLUSDT"),
            ("BNB", "BNBUSDT"),
            ("xrp", "XRPUSDT"),
            ("狗狗币", "DOGEUSDT"),
            ("pepe", "PEPEUSDT"),
        ] {
            assert_eq!(Symbol::parse(typed).unwrap().to_string(), want, "{typed}");
        }
    }

    #[test]
    fn unknown_names_are_refused_not_guessed() {
        assert!(Symbol::parse("不存在的币").is_err());
        assert!(Symbol::parse("").is_err());
        assert!(Symbol::parse("B").is_err());
        assert_eq!(Symbol::parse("BTCUSDT").unwrap().base(), "BTC");
    }

    #[test]
    fn a_coin_outside_the_table_is_refused_with_the_nearest_known_ones() {
        for typed in ["btc", "比特币", "ETHUSDT", "pepe", " sol/usdt "] {
            assert!(Symbol::parse_known(typed).is_ok(), "{typed}");
        }
        let err = Symbol::parse_known("foo").unwrap_err();
        assert_eq!(err.given, "foo");
        assert!(err.to_string().contains("unknown coin \"foo\""), "{err}");
        let err = Symbol::parse_known("btcc").unwrap_err();
        assert_eq!(
            err.nearest.first().map(String::as_str),
            Some("BTC"),
            "{err}"
        );
        assert!(err.to_string().contains("did you mean BTC"), "{err}");
        let err = Symbol::parse_known("ehtusdt").unwrap_err();
        assert!(err.nearest.contains(&"ETH".to_string()), "{err}");
        // Nothing near: the known coins are listed.
        let err = Symbol::parse_known("qqqqqqqq").unwrap_err().to_string();
        assert!(err.contains("BTC, ETH"), "{err}");
        assert!(Symbol::parse_known(&"z".repeat(1 << 20)).is_err());
        assert!(is_known_coin("Doge") && !is_known_coin("foo"));
    }

    #[test]
    fn symbols_order_and_compare_as_their_text() {
        let mut typed = [
            "ethusdt",
            "BTC",
            "1000shibusdt",
            "btcdomusdt",
            "ab",
            "abc",
            "sol",
        ]
        .map(|t| Symbol::parse(t).unwrap());
        typed.sort();
        let text: Vec<&str> = typed.iter().map(Symbol::as_str).collect();
        let mut want = text.clone();
        want.sort();
        assert_eq!(text, want);
        assert_eq!(
            format!("{:?}", typed[0]),
            format!("{:?}", typed[0].as_str())
        );
        let longest = "A".repeat(Symbol::MAX_LEN - 4) + "USDT";
        assert_eq!(Symbol::parse(&longest).unwrap().as_str(), longest);
        assert!(Symbol::parse(&("A".repeat(Symbol::MAX_LEN) + "USDT")).is_err());
    }

    #[test]
    fn serde_round_trips_through_the_canonical_string() {
        let s: Symbol = serde_json::from_str("\"eth\"").unwrap();
        assert_eq!(serde_json::to_string(&s).unwrap(), "\"ETHUSDT\"");
    }
}
