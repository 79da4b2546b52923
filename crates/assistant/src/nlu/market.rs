//! "btc price", "比特币现在多少钱", "what's NVDA.US at": a market-data subject and a symbol
//! the message names, outside every resource name said ("btc-bot 的余额" is the trader's).
//! The symbols are data: the market skill's `value_aliases` (英伟达 → NVDA.US) and the coin
//! table (`domain/market/aliases.json`), never a list here.

use nofxi_domain::market::known_symbols;
use nofxi_skills::{Library, SkillKind};

use super::extract::tokens::blank;
use super::lexicon::Lexicon;
use super::names::Names;
use super::route::names_function_subject;
use super::words::phrase_positions;

/// The symbols a price question asks about, canonical (`BTCUSDT`, `NVDA.US`), in the order
/// said, when the message names market data; none when it names no symbol.
pub fn quoted_symbols(library: &Library, names: &Names, lower: &str) -> Vec<String> {
    if !names_function_subject(library, lower) {
        return Vec::new();
    }
    let mut text = lower.to_string();
    for (_, from, to) in names.mentioned(lower) {
        blank(&mut text, from, to);
    }
    let mut found: Vec<(usize, String)> = Vec::new();
    let mut look = |phrase: &str, symbol: &str| {
        if let Some(at) = phrase_positions(&text, &phrase.to_lowercase()).next() {
            found.push((at, symbol.to_string()));
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
        found.push((at, word.to_uppercase()));
    }
    // A listed security by name or code (成都银行, 600519): the portfolio's names, resolved by
    // the tool's confidence ladder; unless a symbol above was said in the same place.
    if let Some((from, to)) = super::instruments::find(&text)
        && !found.iter().any(|(at, _)| (from..to).contains(at))
    {
        found.push((from, text[from..to].to_string()));
    }
    found.sort();
    let mut symbols: Vec<String> = Vec::new();
    for (_, symbol) in found {
        if !symbols.contains(&symbol) {
            symbols.push(symbol);
        }
    }
    symbols
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
