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

/// The error says what was typed and how to write it instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown symbol {given:?}: use an exchange symbol such as BTCUSDT, a ticker such as BTC, or a name such as 比特币"
)]
pub struct UnknownSymbol {
    pub given: String,
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
        let unknown = || UnknownSymbol {
            given: input.to_string(),
        };
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
