//! Which instrument a message means: "成都银行", "Tencent", "600519", "它" aside.
//!
//! Names come from data (`names/instruments.yaml`, embedded) plus the codes of the user's own
//! records. A query is scored against every known instrument by StockTracker's confidence
//! ladder (REFERENCE §4): the code exactly 1.0, a name exactly 0.98, the query containing a
//! name 0.92, the query containing the code 0.90, a name containing the query (two characters
//! or more) 0.72. The best candidate is taken only when no other comes within 0.2 of it: two
//! close candidates are asked about, never guessed between.

use nofxi_domain::validation::shown_input;
use serde::{Deserialize, Serialize};

use crate::domain::{Instrument, Market};
use crate::error::{FieldError, PortfolioError};

const EMBEDDED: &str = include_str!("../names/instruments.yaml");

/// Two candidates closer than this are both plausible: ask.
pub const AMBIGUITY_GAP: f64 = 0.2;
/// Below this nothing is taken as meant (a name merely containing the query).
const LEAST: f64 = 0.72;

/// An instrument and the names it goes by.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Named {
    pub instrument: Instrument,
    pub zh: String,
    pub en: String,
    pub aliases: Vec<String>,
}

impl Named {
    /// The name to show in a reply in Chinese or English (the code when it has no name).
    pub fn name(&self, zh: bool) -> &str {
        let name = if zh { &self.zh } else { &self.en };
        if name.is_empty() {
            &self.instrument.symbol
        } else {
            name
        }
    }

    fn names(&self) -> impl Iterator<Item = &str> {
        [self.zh.as_str(), self.en.as_str()]
            .into_iter()
            .chain(self.aliases.iter().map(String::as_str))
            .filter(|n| !n.is_empty())
    }
}

/// A possible meaning of a query, with how sure the ladder is.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Candidate {
    pub named: Named,
    pub confidence: f64,
}

/// What a query resolves to.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum Resolved {
    One(Candidate),
    /// Two or more within [`AMBIGUITY_GAP`] of the best, best first.
    Ambiguous(Vec<Candidate>),
    None,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    code: String,
    #[serde(default)]
    zh: String,
    #[serde(default)]
    en: String,
    #[serde(default)]
    aliases: Vec<String>,
}

/// Every instrument the matcher knows by name.
#[derive(Debug, Clone, Default)]
pub struct Directory {
    entries: Vec<Named>,
}

impl Directory {
    /// The names built into the binary.
    pub fn embedded() -> Result<Self, PortfolioError> {
        Self::parse(EMBEDDED)
    }

    /// Reads a names file; every bad code and every name given to two codes is reported.
    pub fn parse(text: &str) -> Result<Self, PortfolioError> {
        let raw: Vec<Entry> = yaml_serde::from_str(text).map_err(|e| {
            PortfolioError::one(
                "instruments",
                format!("the names file cannot be read: {e}"),
                "fix the YAML at the place named",
            )
        })?;
        let mut problems = Vec::new();
        let mut entries: Vec<Named> = Vec::new();
        for (i, e) in raw.into_iter().enumerate() {
            match parse_code(&e.code) {
                Ok(instrument) => entries.push(Named {
                    instrument,
                    zh: e.zh,
                    en: e.en,
                    aliases: e.aliases,
                }),
                Err(p) => problems.push(FieldError {
                    field: format!("instruments[{i}].code"),
                    ..p
                }),
            }
        }
        let mut seen: Vec<(String, &Instrument)> = Vec::new();
        for named in &entries {
            for name in named.names() {
                let key = fold(name);
                match seen.iter().find(|(k, _)| *k == key) {
                    Some((_, other)) if *other != &named.instrument => {
                        problems.push(FieldError::new(
                            "instruments",
                            format!(
                                "`{name}` names both {} and {}",
                                other.key(),
                                named.instrument.key()
                            ),
                            "give each name to one code",
                        ))
                    }
                    _ => seen.push((key, &named.instrument)),
                }
            }
        }
        PortfolioError::check(problems)?;
        Ok(Self { entries })
    }

    /// Adds instruments the user holds or traded that the names file lacks, by code only.
    pub fn with_codes<'a>(mut self, instruments: impl IntoIterator<Item = &'a Instrument>) -> Self {
        for instrument in instruments {
            if !self.entries.iter().any(|n| &n.instrument == instrument) {
                self.entries.push(Named {
                    instrument: instrument.clone(),
                    zh: String::new(),
                    en: String::new(),
                    aliases: Vec::new(),
                });
            }
        }
        self
    }

    /// The entry of an instrument, named or not.
    pub fn named(&self, instrument: &Instrument) -> Named {
        self.entries
            .iter()
            .find(|n| &n.instrument == instrument)
            .cloned()
            .unwrap_or_else(|| Named {
                instrument: instrument.clone(),
                zh: String::new(),
                en: String::new(),
                aliases: Vec::new(),
            })
    }

    /// Every name the directory knows, for spotting one in a message.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().flat_map(Named::names)
    }

    /// Every way the directory's instruments are written in a message, lower-cased: names,
    /// and codes that cannot be a plain number said for something else (`00700`, `600519`,
    /// `aapl`, `700.hk`; not `700`).
    pub fn spellings(&self) -> Vec<String> {
        let mut out: Vec<String> = self.names().map(fold).collect();
        out.extend(self.fragments());
        for named in &self.entries {
            out.extend(
                codes_of(&named.instrument)
                    .into_iter()
                    .filter(|c| c.len() >= 5 || c.chars().any(|ch| !ch.is_ascii_digit())),
            );
        }
        out.sort_by_key(|s| std::cmp::Reverse(s.len()));
        out.dedup();
        out
    }

    /// Parts of names people say alone (平安 of 平安银行 and 中国平安, "Ping An" of "Ping An
    /// Bank"): every run of two or more characters inside a Chinese name, the leading two or
    /// more words of a longer Latin one; unless the part is in the names of three or more
    /// instruments (银行, 中国), which says what kind a company is, not which one. The ladder
    /// still decides, and asks between the two 平安.
    fn fragments(&self) -> Vec<String> {
        let mut owners: std::collections::BTreeMap<String, Vec<&Instrument>> = Default::default();
        for named in &self.entries {
            for name in named.names() {
                let chars: Vec<char> = name.chars().collect();
                if chars.iter().any(char::is_ascii) {
                    // "Ping An" of "Ping An Bank": leading words, two or more, of a longer name.
                    let words: Vec<&str> = name.split_whitespace().collect();
                    for n in 2..words.len() {
                        let part = fold(&words[..n].join(" "));
                        let list = owners.entry(part).or_default();
                        if !list.contains(&&named.instrument) {
                            list.push(&named.instrument);
                        }
                    }
                    continue;
                }
                for len in 2..chars.len() {
                    for start in 0..=chars.len() - len {
                        let part: String = chars[start..start + len].iter().collect();
                        let list = owners.entry(part).or_default();
                        if !list.contains(&&named.instrument) {
                            list.push(&named.instrument);
                        }
                    }
                }
            }
        }
        owners
            .into_iter()
            .filter(|(_, instruments)| instruments.len() <= 2)
            .map(|(part, _)| part)
            .collect()
    }

    /// Every instrument the query might mean, best first (ties in file order).
    pub fn candidates(&self, query: &str) -> Vec<Candidate> {
        let mut out: Vec<Candidate> = self
            .entries
            .iter()
            .filter_map(|named| {
                let confidence = score(named, query);
                (confidence >= LEAST).then(|| Candidate {
                    named: named.clone(),
                    confidence,
                })
            })
            .collect();
        out.sort_by(|a, b| b.confidence.total_cmp(&a.confidence));
        out
    }

    /// The one instrument the query means, or the close candidates to ask between.
    pub fn resolve(&self, query: &str) -> Resolved {
        let mut all = self.candidates(query);
        let Some(best) = all.first().map(|c| c.confidence) else {
            return Resolved::None;
        };
        all.retain(|c| best - c.confidence < AMBIGUITY_GAP);
        match all.len() {
            1 => Resolved::One(all.remove(0)),
            _ => Resolved::Ambiguous(all),
        }
    }
}

/// Whether a token is written like a code with its market (`600519.SH`, `sh600519`,
/// `00700.HK`, `hk700`, `AAPL.US`), or like a bare A-share code (six digits with a listing
/// prefix: 60, 68, 00, 30, 51, 15, 16, 18; not 100000, which is more likely a quantity).
pub fn looks_like_code(token: &str) -> bool {
    let t = token.trim().to_ascii_lowercase();
    let digits = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    let letters = |s: &str| (1..=6).contains(&s.len()) && s.chars().all(|c| c.is_ascii_lowercase());
    if let Some((code, tag)) = t.rsplit_once('.') {
        return match tag {
            "sh" | "sz" | "bj" => code.len() == 6 && digits(code),
            "hk" => code.len() <= 5 && digits(code),
            "us" => letters(code),
            _ => false,
        };
    }
    for prefix in ["sh", "sz", "bj"] {
        if let Some(code) = t.strip_prefix(prefix) {
            return code.len() == 6 && digits(code);
        }
    }
    if let Some(code) = t.strip_prefix("hk") {
        return code.len() <= 5 && digits(code);
    }
    t.len() == 6
        && digits(&t)
        && ["60", "68", "00", "30", "51", "15", "16", "18"]
            .iter()
            .any(|p| t.starts_with(p))
}

/// `600519.SH`, `00700.HK`, `AAPL.US`, `BTC.CRYPTO`: the market after the last dot.
fn parse_code(code: &str) -> Result<Instrument, FieldError> {
    let Some((symbol, tag)) = code.trim().rsplit_once('.') else {
        return Err(FieldError::new(
            "code",
            format!("`{}` has no market", shown_input(code)),
            "write it as CODE.MARKET, e.g. 600519.SH or AAPL.US",
        ));
    };
    let market: Market = tag.parse()?;
    Instrument::new(market, symbol).map_err(|mut e| e.0.remove(0))
}

/// The ladder's score of one instrument for a query.
fn score(named: &Named, query: &str) -> f64 {
    let q = fold(query);
    if q.is_empty() {
        return 0.0;
    }
    let codes = codes_of(&named.instrument);
    if codes.contains(&q) {
        return 1.0;
    }
    let names: Vec<String> = named.names().map(fold).collect();
    if names.contains(&q) {
        return 0.98;
    }
    if names.iter().any(|n| contains_word(&q, n)) {
        return 0.92;
    }
    if codes.iter().any(|c| c.len() >= 3 && contains_word(&q, c)) {
        return 0.90;
    }
    if q.chars().count() >= 2 && names.iter().any(|n| n.contains(&q)) {
        return 0.72;
    }
    0.0
}

/// The ways a code is written: 600519, 600519.sh, sh600519; 00700, 700, 00700.hk, hk00700.
fn codes_of(instrument: &Instrument) -> Vec<String> {
    let symbol = instrument.symbol.to_lowercase();
    let market = instrument.market.code().to_lowercase();
    let mut codes = vec![
        symbol.clone(),
        format!("{symbol}.{market}"),
        format!("{market}{symbol}"),
    ];
    if instrument.market == Market::Hk {
        let short = symbol.trim_start_matches('0').to_string();
        codes.push(format!("{short}.hk"));
        codes.push(short);
    }
    codes
}

fn fold(text: &str) -> String {
    text.trim().to_lowercase()
}

/// Whether `needle` occurs in `haystack` not as part of a longer Latin word or number
/// ("aia" in "my aia shares", not in "malaia"; "700" not in "17000"). Chinese has no spaces, so
/// a CJK needle matches anywhere.
fn contains_word(haystack: &str, needle: &str) -> bool {
    find_word(haystack, needle).is_some()
}

/// Where `needle` first occurs in `haystack` as a word of its own ([`contains_word`]).
pub fn find_word(haystack: &str, needle: &str) -> Option<usize> {
    if needle.is_empty() {
        return None;
    }
    // `btc-bot` is a name of its own, not the coin: a hyphen or underscore joins words.
    let latin = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    haystack
        .match_indices(needle)
        .map(|(at, _)| at)
        .find(|&at| {
            let before = haystack[..at].chars().next_back();
            let after = haystack[at + needle.len()..].chars().next();
            let starts = needle.chars().next().is_some_and(latin);
            let ends = needle.chars().next_back().is_some_and(latin);
            let joined_before = starts && before.is_some_and(latin);
            let joined_after = ends && after.is_some_and(latin);
            !joined_before && !joined_after
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn directory() -> Directory {
        Directory::embedded().unwrap()
    }

    fn best(query: &str) -> Option<(String, f64)> {
        match directory().resolve(query) {
            Resolved::One(c) => Some((c.named.instrument.key(), c.confidence)),
            _ => None,
        }
    }

    #[test]
    fn the_embedded_names_parse() {
        assert!(directory().entries.len() > 30);
    }

    #[test]
    fn each_rung_of_the_ladder() {
        assert_eq!(best("600519"), Some(("SH:600519".into(), 1.0)));
        assert_eq!(best("hk00700"), Some(("HK:00700".into(), 1.0)));
        assert_eq!(best("700"), Some(("HK:00700".into(), 1.0)));
        assert_eq!(best("成都银行"), Some(("SH:601838".into(), 0.98)));
        assert_eq!(best("tencent"), Some(("HK:00700".into(), 0.98)));
        assert_eq!(
            best("今天买了 100 股成都银行，15.2 元"),
            Some(("SH:601838".into(), 0.92))
        );
        assert_eq!(
            best("what did I pay for my Apple shares"),
            Some(("US:AAPL".into(), 0.92))
        );
        assert_eq!(
            best("what did I pay for AAPL"),
            Some(("US:AAPL".into(), 0.90))
        );
        assert_eq!(
            best("how much 601838 do I hold"),
            Some(("SH:601838".into(), 0.90))
        );
        assert_eq!(best("宁德"), Some(("SZ:300750".into(), 0.72)));
    }

    #[test]
    fn close_candidates_are_asked_about() {
        // 平安 is inside both 平安银行 and 中国平安 (0.72 each).
        let Resolved::Ambiguous(both) = directory().resolve("平安") else {
            panic!("平安 must be ambiguous")
        };
        let keys: Vec<_> = both.iter().map(|c| c.named.instrument.key()).collect();
        assert!(keys.contains(&"SH:601318".to_string()) && keys.contains(&"SZ:000001".to_string()));
        // Two names in one message, both 0.92.
        assert!(matches!(
            directory().resolve("比较一下茅台和五粮液"),
            Resolved::Ambiguous(_)
        ));
    }

    #[test]
    fn latin_names_match_whole_words_only() {
        assert_eq!(best("metadata"), None);
        assert_eq!(best("17000"), None);
        assert!(contains_word("my aia shares", "aia"));
        assert!(!contains_word("malaia", "aia"));
    }

    #[test]
    fn codes_of_the_users_records_are_known_without_names() {
        let fund = Instrument::new(Market::Fund, "110022").unwrap();
        let d = directory().with_codes([&fund]);
        let Resolved::One(c) = d.resolve("110022") else {
            panic!("a held code resolves")
        };
        assert_eq!(c.named.name(true), "110022");
    }

    #[test]
    fn a_name_given_to_two_codes_is_refused() {
        let text = "- {code: 600519.SH, zh: 茅台}\n- {code: 000858.SZ, zh: 茅台}\n";
        let err = Directory::parse(text).unwrap_err();
        assert!(err.to_string().contains("names both"), "{err}");
        let err = Directory::parse("- {code: 600519}\n").unwrap_err();
        assert!(err.to_string().contains("instruments[0].code"), "{err}");
    }
}
