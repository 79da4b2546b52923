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
/// when there are some ("did you mean FIL, OP?"), else every coin nofxi knows and the forms
/// it reads ([`ACCEPTED_FORMS`]); a spelling that names something other than a USDT
/// perpetual (`BTC-USD-SWAP`, `ETH/BTC`) is said to be one, with the forms.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{}",
    said(given, nearest, *not_usdt_perpetual)
)]
pub struct UnknownSymbol {
    pub given: String,
    /// Known base assets close to what was typed, nearest first.
    pub nearest: Vec<String>,
    /// What was typed names another contract than a USDT perpetual (another quote or
    /// settlement, a dated future) or is no symbol's shape at all.
    pub not_usdt_perpetual: bool,
}

/// The ways a symbol may be written, for every message that lists them: nofxi's own, the
/// pairs people write, and each venue's and tool's spelling of the same USDT perpetual.
pub const ACCEPTED_FORMS: &str = "a ticker (BTC), a symbol (BTCUSDT), a pair (BTC-USDT, BTC/USDT, btc_usdt), a venue's perpetual (BTC-USDT-SWAP, BTC/USDT:USDT, BTC-PERP, BTCUSDT.P, BTCUSDT_UMCBL) or a name (比特币)";

fn said(given: &str, nearest: &[String], not_usdt_perpetual: bool) -> String {
    let given = crate::validation::shown_input(given);
    if not_usdt_perpetual {
        return format!(
            "\"{given}\" is no USDT perpetual nofxi can read (nofxi trades USDT-margined perpetuals): write it as {ACCEPTED_FORMS}"
        );
    }
    if nearest.is_empty() {
        let all: Vec<&str> = known_symbols().iter().map(|r| r.base.as_str()).collect();
        format!(
            "unknown coin \"{given}\"; use a coin nofxi knows ({}) as {ACCEPTED_FORMS}",
            all.join(", ")
        )
    } else {
        format!(
            "unknown coin \"{given}\"; did you mean {}?",
            nearest.join(", ")
        )
    }
}

impl UnknownSymbol {
    fn new(given: &str) -> UnknownSymbol {
        UnknownSymbol {
            given: given.trim().to_string(),
            nearest: nearest_known(given),
            not_usdt_perpetual: false,
        }
    }

    fn not_usdt_perpetual(given: &str) -> UnknownSymbol {
        UnknownSymbol {
            given: given.trim().to_string(),
            nearest: Vec::new(),
            not_usdt_perpetual: true,
        }
    }
}

/// Most suggestions offered for an unknown coin.
const NEAREST_MAX: usize = 3;

/// The known base assets within two edits of what was typed (its `USDT` quote and separators
/// dropped), nearest first. Input longer than any symbol has no near coin: it is not compared,
/// so a huge argument costs nothing.
fn nearest_known(given: &str) -> Vec<String> {
    let typed: String = match perpetual_of(given) {
        Ok(compact) => compact,
        Err(_) => given
            .trim()
            .chars()
            .filter(|c| !SEPARATORS.contains(c))
            .collect::<String>()
            .to_ascii_uppercase(),
    };
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

/// What people put between base and quote: BTC-USDT, pepe/usdt, btc_usdt, BTC USDT.
const SEPARATORS: [char; 4] = ['-', '/', '_', ' '];

/// Suffixes a venue or a tool puts after a USDT perpetual's pair to say it is the perpetual:
/// OKX's `-SWAP`, TradingView's `.P`, Bitget's (v1) `_UMCBL`, and `-PERP` after a base.
const PERPETUAL_SUFFIXES: [&str; 8] = [
    "-SWAP", "_SWAP", ".P", "_UMCBL", "-PERP", "_PERP", "/PERP", " PERP",
];

/// Quotes of other contracts than USDT perpetuals, written after a known coin without a
/// separator (`BTCUSDC`, `ETHUSD`): not read as `BTCUSDCUSDT`.
const OTHER_QUOTES: [&str; 4] = ["USDC", "BUSD", "USD", "BTC"];

/// Why a spelling is not read as a USDT perpetual.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum NotRead {
    /// It names another contract: another quote or settlement (`BTC-USD-SWAP`,
    /// `BTC/USDC:USDC`, `ETH/BTC`), a dated future (`BTC-USDT-250328`).
    OtherContract,
    /// No symbol's shape (characters no symbol holds).
    NoSymbol,
}

/// Every venue-native spelling of a USDT perpetual, reduced to upper-case ASCII: `BTCUSDT`
/// (a pair or a symbol) or `BTC` (a base alone, as `BTC-PERP` has). The one place these
/// spellings are read; [`Symbol::parse`] takes it from there.
fn perpetual_of(text: &str) -> Result<String, NotRead> {
    let upper = text.trim().to_ascii_uppercase();
    if !upper.is_ascii() {
        return Err(NotRead::NoSymbol);
    }
    // CCXT: BASE/QUOTE:SETTLE; a USDT perpetual settles in USDT.
    let pair = match upper.split_once(':') {
        Some((pair, QUOTE)) => pair,
        Some(_) => return Err(NotRead::OtherContract),
        None => upper.as_str(),
    };
    let pair = PERPETUAL_SUFFIXES
        .iter()
        .find_map(|suffix| pair.strip_suffix(suffix))
        .unwrap_or(pair);
    let parts: Vec<&str> = pair.split(SEPARATORS).filter(|p| !p.is_empty()).collect();
    let compact = match parts.as_slice() {
        [one] => {
            let other_quote = OTHER_QUOTES.iter().any(|q| {
                one.strip_suffix(q).is_some_and(|base| {
                    !base.is_empty() && known_symbols().iter().any(|r| r.base == base)
                })
            });
            if other_quote && !one.ends_with(QUOTE) {
                return Err(NotRead::OtherContract);
            }
            (*one).to_string()
        }
        [base, quote] if *quote == QUOTE => format!("{base}{QUOTE}"),
        [_, _, ..] => return Err(NotRead::OtherContract),
        [] => return Err(NotRead::NoSymbol),
    };
    if compact.chars().all(|c| c.is_ascii_alphanumeric()) {
        Ok(compact)
    } else {
        Err(NotRead::NoSymbol)
    }
}

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

    /// Resolve what a user typed: an alias (比特币, bitcoin), a base asset (BTC, btc), a
    /// symbol (btcusdt, BTC/USDT), or a venue's spelling of the USDT perpetual (OKX's
    /// `BTC-USDT-SWAP`, CCXT's `BTC/USDT:USDT`, `BTC-PERP`, TradingView's `BTCUSDT.P`, Bitget's
    /// `BTCUSDT_UMCBL`, `btc_usdt`): all `BTCUSDT`, read in one place ([`perpetual_of`]).
    /// Unknown ASCII tickers are accepted as `<TICKER>USDT` because the exchange, not this
    /// table, is the authority on which coins are listed; a spelling of another contract
    /// (`BTC-USD-SWAP`, `ETH/BTC`, `BTCUSDC`) is refused naming the forms read, never turned
    /// into a symbol no venue lists (`ETHBTCUSDT`).
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
        let compact = match perpetual_of(&wanted) {
            Ok(compact) => compact,
            Err(NotRead::OtherContract) => return Err(UnknownSymbol::not_usdt_perpetual(input)),
            Err(NotRead::NoSymbol) => return Err(unknown()),
        };
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
    fn every_venue_s_spelling_of_the_usdt_perpetual_is_read_as_it() {
        for typed in [
            "BTC-USDT-SWAP",
            "btc-usdt-swap",
            "BTCUSDT",
            "BTC-PERP",
            "btc_perp",
            "BTC/USDT:USDT",
            "btc/usdt:usdt",
            "BTC:USDT",
            "btc_usdt",
            "BTC_USDT",
            "BTC USDT",
            "BTCUSDT.P",
            "BTCUSDT_UMCBL",
            " BTC-USDT ",
        ] {
            assert_eq!(
                Symbol::parse(typed).map(|s| s.to_string()),
                Ok("BTCUSDT".to_string()),
                "{typed}"
            );
            assert_eq!(
                Symbol::parse_known(typed).map(|s| s.to_string()),
                Ok("BTCUSDT".to_string()),
                "{typed}"
            );
        }
        assert_eq!(
            Symbol::parse("1000PEPE-USDT-SWAP").unwrap().as_str(),
            "1000PEPEUSDT"
        );
        assert_eq!(Symbol::parse("wif/usdt:usdt").unwrap().as_str(), "WIFUSDT");
    }

    #[test]
    fn another_contract_is_refused_naming_the_forms_never_mangled() {
        for typed in [
            "BTC-USD-SWAP",
            "BTC/USDC:USDC",
            "ETH/BTC",
            "ETHBTC",
            "BTCUSDC",
            "ethusd",
            "BTC-USDT-250328",
            "BTC/USDT/SWAP/X",
        ] {
            let err = Symbol::parse(typed).unwrap_err();
            assert!(err.not_usdt_perpetual, "{typed}: {err}");
            let said = err.to_string();
            assert!(
                said.contains("no USDT perpetual")
                    && said.contains("BTC-USDT-SWAP")
                    && said.contains("BTC/USDT:USDT")
                    && said.contains("BTC-PERP"),
                "{typed}: {said}"
            );
            assert!(Symbol::parse_known(typed).is_err(), "{typed}");
        }
        // What no form reads lists the coins and the forms.
        let said = Symbol::parse_known("qqqqqqqq").unwrap_err().to_string();
        assert!(
            said.contains("BTC, ETH") && said.contains("BTC-USDT-SWAP"),
            "{said}"
        );
        assert!(Symbol::parse("BTC-$").is_err());
        assert!(Symbol::parse(":USDT").is_err());
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
