//! "btc price", "比特币现在多少钱", "what's NVDA.US at": a market-data subject and a symbol
//! the message names, outside every resource name said ("btc-bot 的余额" is the trader's).
//! The symbols are data: the market skill's `value_aliases` (英伟达 → NVDA.US) and the coin
//! table (`domain/market/aliases.json`), never a list here.

use nofxi_domain::market::known_symbols;
use nofxi_skills::{Library, ResourceKind, SkillKind};

use super::extract::tokens::blank;
use super::lexicon::Lexicon;
use super::names::Names;
use super::route::names_function_subject;
use super::words::{find_phrase, phrase_positions};
use crate::market_data::source::source_names;

/// A symbol the message names, canonical (`BTCUSDT`, `NVDA.US`), and where it is said.
#[derive(Debug, Clone, PartialEq)]
pub struct SaidSymbol {
    pub symbol: String,
    pub from: usize,
    pub to: usize,
}

/// The symbols a price question asks about, canonical (`BTCUSDT`, `NVDA.US`), in the order
/// said, when the message names market data; none when it names no symbol.
pub fn quoted_symbols(library: &Library, names: &Names, lower: &str) -> Vec<String> {
    if !names_function_subject(library, lower) {
        return Vec::new();
    }
    distinct(&symbols_said(library, names, lower))
}

/// A market named outright beside a symbol, as the market tools take it: one of the user's
/// exchange accounts by its name ("btc price on paper"), else a source nofxi reads
/// ("okx上的btc", "eth order book from bybit").
pub fn source_said(library: &Library, names: &Names, lower: &str) -> Option<String> {
    let account = names
        .mentioned(lower)
        .into_iter()
        .find(|(e, ..)| e.kind == ResourceKind::Exchange && !e.deleted);
    if let Some((e, ..)) = account {
        return Some(e.name.clone());
    }
    source_names()
        .find(|n| find_phrase(lower, n).is_some())
        .map(str::to_string)
        .or_else(|| venue_by_alias(library, lower))
}

/// A source said by another name of its exchange type ("币安", "欧易"): the exchange skills'
/// `exchange_type` aliases, for the types that are market sources.
fn venue_by_alias(library: &Library, lower: &str) -> Option<String> {
    let values = library
        .skills()
        .iter()
        .flat_map(|s| s.actions.iter())
        .flat_map(|a| a.slots.iter())
        .filter(|slot| slot.name == "exchange_type")
        .flat_map(|slot| slot.values.iter());
    for value in values {
        let said = value
            .aliases
            .iter()
            .any(|a| find_phrase(lower, &a.to_lowercase()).is_some());
        if said && source_names().any(|n| n == value.value) {
            return Some(value.value.clone());
        }
    }
    None
}

/// Each symbol once, in the order first said.
pub fn distinct(said: &[SaidSymbol]) -> Vec<String> {
    let mut symbols: Vec<String> = Vec::new();
    for s in said {
        if !symbols.contains(&s.symbol) {
            symbols.push(s.symbol.clone());
        }
    }
    symbols
}

/// Every symbol `lower` names outside the user's resource names, in the order said: by the
/// market skill's `value_aliases`, the coin table, a symbol written out whole, or a listed
/// security's name or code.
pub fn symbols_said(library: &Library, names: &Names, lower: &str) -> Vec<SaidSymbol> {
    let mut text = lower.to_string();
    for (_, from, to) in names.mentioned(lower) {
        blank(&mut text, from, to);
    }
    let mut found: Vec<SaidSymbol> = Vec::new();
    let mut look = |phrase: &str, symbol: &str| {
        let phrase = phrase.to_lowercase();
        if let Some(at) = phrase_positions(&text, &phrase).next() {
            found.push(SaidSymbol {
                symbol: symbol.to_string(),
                from: at,
                to: at + phrase.len(),
            });
        }
    };
    for skill in library
        .skills()
        .iter()
        .filter(|s| s.meta.kind == SkillKind::Function)
    {
        for (alias, symbol) in &skill.meta.value_aliases {
            look(alias, symbol);
        }
    }
    for row in known_symbols() {
        look(&row.symbol, &row.symbol);
        look(&row.base, &row.symbol);
        for name in &row.names {
            look(name, &row.symbol);
        }
    }
    // A symbol written out whole (`NVDA.US`, `700.HK`), as the market skill's pattern has it.
    for (at, word) in dotted_words(&text) {
        found.push(SaidSymbol {
            symbol: word.to_uppercase(),
            from: at,
            to: at + word.len(),
        });
    }
    // A listed security by name or code (成都银行, 600519): the portfolio's names, resolved by
    // the tool's confidence ladder; unless a symbol above was said in the same place.
    if let Some((from, to)) = super::instruments::find(&text)
        && !found.iter().any(|s| (from..to).contains(&s.from))
    {
        found.push(SaidSymbol {
            symbol: text[from..to].to_string(),
            from,
            to,
        });
    }
    found.sort_by_key(|s| (s.from, s.to));
    found
}

/// "茅台赚了多少钱", "亏了多少钱": a market subject said right after a verb of the read the
/// message routes to is that verb's object (how much was made), not a price asked.
pub fn subject_is_verbs_object(
    library: &Library,
    lexicon: &Lexicon,
    lower: &str,
    skill: &str,
    action: &str,
) -> bool {
    let Some(action) = library.action(skill, action) else {
        return false;
    };
    let subjects: Vec<String> = library
        .skills()
        .iter()
        .filter(|s| s.meta.kind == SkillKind::Function)
        .flat_map(|s| s.meta.nouns.iter().map(|n| n.to_lowercase()))
        .collect();
    lexicon.action_verbs(action).any(|verb| {
        let verb = verb.to_lowercase();
        phrase_positions(lower, &verb).any(|at| {
            let rest = lower[at + verb.len()..].trim_start();
            subjects.iter().any(|s| rest.starts_with(s.as_str()))
        })
    })
}

/// `code.xx` words: letters or digits, a dot, two letters.
fn dotted_words(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text
        .char_indices()
        .chain(std::iter::once((text.len(), ' ')))
    {
        let part = c.is_ascii_alphanumeric() || c == '.';
        match (part, start) {
            (true, None) => start = Some(i),
            (false, Some(from)) => {
                let word = &text[from..i];
                if let Some((code, market)) = word.split_once('.')
                    && !code.is_empty()
                    && market.len() == 2
                    && market.chars().all(|c| c.is_ascii_alphabetic())
                {
                    out.push((from, word));
                }
                start = None;
            }
            _ => {}
        }
    }
    out
}
