//! The user's resource names, for recognising them in messages and resolving references.
//!
//! Resolution is layered as DESIGN "References" says: id > exact name > alias (an exchange
//! type or provider said for the one resource of that type) > fuzzy. Several candidates on
//! the best layer are ambiguous and must be asked about; none is "not found" — never a guess.
//!
//! Names are matched as substrings (ASCII names on word boundaries), longest first, with the
//! spans of longer names claimed before shorter ones: this handles Chinese without spaces
//! and needs no segmentation dictionary for names the user made up.

use nofxi_skills::ResourceKind;

use super::words::find_phrase;

#[derive(Debug, Clone, PartialEq)]
pub struct NameEntry {
    pub kind: ResourceKind,
    pub id: String,
    pub name: String,
    /// The name as names are compared: [`nofxi_domain::validation::name_key`].
    pub lower: String,
    /// Exchange type or model provider.
    pub class: Option<String>,
    pub enabled: bool,
    /// Trades real money: a non-paper exchange, a trader on one, or a model a running
    /// trader on one decides with.
    pub live: bool,
    /// Live, but on an exchange's test network (test funds): still confirmed like live,
    /// never called real money.
    pub testnet: bool,
    pub running: bool,
    /// In the trash: only `restore` resolves to it.
    pub deleted: bool,
    /// A trader's exchange, model and strategy, by id (empty for the others).
    pub uses: Vec<String>,
}

#[derive(Debug, Clone, Default)]
pub struct Names {
    pub entries: Vec<NameEntry>,
    /// The active strategy's name: what a new trader follows when none is said.
    pub active_strategy: Option<String>,
    /// The lexicon's possessives ("的"): a name that ends in digits is read only where no value
    /// can follow, before one of these, punctuation or the end.
    pub possessives: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Resolution {
    Found(NameEntry),
    Ambiguous(Vec<NameEntry>),
    NotFound,
}

/// Jaro–Winkler similarity from which a near-miss name counts as meant.
const FUZZY_MIN: f64 = 0.88;

impl Names {
    pub fn new(mut entries: Vec<NameEntry>) -> Names {
        entries.sort_by_key(|e| std::cmp::Reverse(e.lower.len()));
        Names {
            entries,
            active_strategy: None,
            possessives: Vec::new(),
        }
    }

    pub fn with_possessives(mut self, words: &[String]) -> Names {
        self.possessives = words.to_vec();
        self
    }

    pub fn with_active_strategy(mut self, name: Option<String>) -> Names {
        self.active_strategy = name;
        self
    }

    pub fn by_id(&self, id: &str) -> Option<&NameEntry> {
        self.entries.iter().find(|e| e.id == id)
    }

    pub fn of_kind(&self, kind: ResourceKind) -> impl Iterator<Item = &NameEntry> {
        self.entries.iter().filter(move |e| e.kind == kind)
    }

    /// Names occurring in `lower` (already lower-cased), with their byte span, longest first;
    /// a name inside a longer one's span is not counted again. A name that resources of two
    /// kinds share is there once per kind, on the same span: which one is meant is for the
    /// words around it (a noun, a verb only one kind has) or the user to say.
    pub fn mentioned(&self, lower: &str) -> Vec<(&NameEntry, usize, usize)> {
        let mut claimed: Vec<(usize, usize, ResourceKind)> = Vec::new();
        let mut out = Vec::new();
        for e in &self.entries {
            if e.lower.chars().count() < 2 {
                continue;
            }
            // "趋势 2" is 趋势2 when that name exists: a number after a name with a space.
            let spaced = spaced_number(&e.lower);
            // "btcbot", "btc bot" are btc-bot: the same letters, its separators left out or
            // typed as a space.
            let respelt = respellings(&e.lower);
            let mut from = 0;
            while let Some((rel, len)) = find_phrase(&lower[from..], &e.lower)
                .map(|rel| (rel, e.lower.len()))
                .or_else(|| {
                    respelt.iter().find_map(|form| {
                        find_phrase(&lower[from..], form).map(|rel| (rel, form.len()))
                    })
                })
                .or_else(|| {
                    // Only where the digits cannot be a value: before 的/'s, punctuation or
                    // the end ("趋势 2 的最大持仓", "stop trend 2"), never "trend 2 positions".
                    let spaced = spaced.as_deref()?;
                    let rel = find_phrase(&lower[from..], spaced)?;
                    let after = lower[from + rel + spaced.len()..].trim_start();
                    let ends = after.is_empty()
                        || after.starts_with(['\'', '，', ',', '。', '.', '?', '？', '!', '！'])
                        || self
                            .possessives
                            .iter()
                            .any(|p| after.starts_with(p.as_str()));
                    ends.then_some((rel, spaced.len()))
                })
            {
                let at = from + rel;
                let end = at + len;
                let taken = claimed.iter().any(|&(s, t, kind)| {
                    let same_name_other_kind = (s, t) == (at, end) && kind != e.kind;
                    at < t && end > s && !same_name_other_kind
                });
                if !taken {
                    claimed.push((at, end, e.kind));
                    out.push((e, at, end));
                    break;
                }
                from = end;
                if from >= lower.len() {
                    break;
                }
            }
        }
        out
    }

    /// An ASCII word (3+ characters) that begins a part of a name of `kind` but is no whole
    /// name: "delete btc" when btc-bot and btc-pro exist. Resolution then asks which one.
    pub fn partial(&self, lower: &str, kind: ResourceKind) -> Option<(String, usize)> {
        let mut at = 0;
        for word in lower.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_')) {
            let pos = lower[at..].find(word).map_or(at, |p| at + p);
            at = pos + word.len();
            if word.len() < 3 || !word.is_ascii() {
                continue;
            }
            // Where a part of the name begins: "btc" in btc-bot, never "and" in sandbox.
            let begins_part = |name: &str| {
                name.split(['-', '_', ' ', '.'])
                    .any(|part| part.starts_with(word))
            };
            if self
                .of_kind(kind)
                .any(|e| !e.deleted && e.lower != word && begins_part(&e.lower))
            {
                return Some((word.to_string(), pos));
            }
        }
        None
    }

    /// Whether a name of `kind` begins with `word` ("bot" begins bot1, not btc-bot).
    pub fn begins_a_name(&self, word: &str, kind: ResourceKind) -> bool {
        self.of_kind(kind)
            .any(|e| !e.deleted && e.lower.starts_with(word))
    }

    /// Resolves what the user said for a resource of `kind`. `class` is the canonical type
    /// or provider the words stand for, when they name one (币安 → binance).
    pub fn resolve(
        &self,
        kind: ResourceKind,
        said: &str,
        class: Option<&str>,
        trash: bool,
    ) -> Resolution {
        // The store's lookup rule (NFKC, then lower case): `ｂｔｃ-bot` is btc-bot here too.
        let said_lower = nofxi_domain::validation::name_key(said);
        let pool: Vec<&NameEntry> = self.of_kind(kind).filter(|e| e.deleted == trash).collect();
        if let Some(e) = pool.iter().find(|e| e.id == said.trim()) {
            return Resolution::Found((*e).clone());
        }
        let exact: Vec<&&NameEntry> = pool.iter().filter(|e| e.lower == said_lower).collect();
        if let Some(found) = one_or_many(&exact) {
            return found;
        }
        if let Some(class) = class {
            let by_class: Vec<&&NameEntry> = pool
                .iter()
                .filter(|e| e.class.as_deref() == Some(class))
                .collect();
            // "the deepseek model", "我币安那个账户" name the one of that type (a type's name in
            // Chinese is its name, not a short form); a short form of the type ("ds", "bn")
            // may as well be a name the user misremembers: offered, not taken.
            let names_the_type =
                said_lower.contains(&class.to_lowercase()) || !said_lower.is_ascii();
            let found = match names_the_type {
                true => one_or_many(&by_class),
                false => offered(&by_class),
            };
            if let Some(found) = found {
                return found;
            }
        }
        let containing: Vec<&&NameEntry> = pool
            .iter()
            .filter(|e| {
                // The name inside what was said only as a whole word: "btc-bot3" is not
                // btc-bot, it is a name that does not exist.
                said_lower.chars().count() >= 2
                    && (e.lower.contains(&said_lower)
                        || find_phrase(&said_lower, &e.lower).is_some())
            })
            .collect();
        // Part of a name, or a near miss, is never taken on its own: "stop btc-bot2" must not
        // stop btc-bot. One such name is offered as a choice, as several are.
        if let Some(found) = offered(&containing) {
            return found;
        }
        let fuzzy: Vec<&&NameEntry> = pool
            .iter()
            .filter(|e| strsim::jaro_winkler(&e.lower, &said_lower) >= FUZZY_MIN)
            .collect();
        offered(&fuzzy).unwrap_or(Resolution::NotFound)
    }
}

/// A name ending in digits after other characters, with a space put before the digits:
/// "趋势2" → "趋势 2", "bot2" → "bot 2".
fn spaced_number(name: &str) -> Option<String> {
    let digits = name.len() - name.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let head = &name[..name.len() - digits];
    (digits > 0 && !head.is_empty() && !head.ends_with([' ', '-', '_']))
        .then(|| format!("{head} {}", &name[head.len()..]))
}

/// Names that only resemble what was said, as a choice for the user.
fn offered(found: &[&&NameEntry]) -> Option<Resolution> {
    if found.is_empty() {
        return None;
    }
    let mut all: Vec<NameEntry> = found.iter().map(|e| (**e).clone()).collect();
    all.sort_by(|a, b| a.lower.cmp(&b.lower));
    Some(Resolution::Ambiguous(all))
}

fn one_or_many(found: &[&&NameEntry]) -> Option<Resolution> {
    match found {
        [] => None,
        [one] => Some(Resolution::Found((**one).clone())),
        many => {
            // Listed in name order, so "the first one" means the same to everyone.
            let mut all: Vec<NameEntry> = many.iter().map(|e| (**e).clone()).collect();
            all.sort_by(|a, b| a.lower.cmp(&b.lower));
            Some(Resolution::Ambiguous(all))
        }
    }
}

/// Other spellings of a name with separators (`btc-bot`): without them (`btcbot`) and with
/// spaces (`btc bot`). None for a name without separators, or shorter than 4 letters, where a
/// run-together word could be something else.
fn respellings(name: &str) -> Vec<String> {
    let separators = ['-', '_', '.'];
    if !name.contains(separators) || name.chars().filter(|c| c.is_alphanumeric()).count() < 4 {
        return Vec::new();
    }
    let joined: String = name.chars().filter(|c| !separators.contains(c)).collect();
    let spaced: String = name
        .chars()
        .map(|c| if separators.contains(&c) { ' ' } else { c })
        .collect();
    vec![joined, spaced]
}
