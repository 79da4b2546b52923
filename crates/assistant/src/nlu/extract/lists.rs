//! Symbol lists: the coins a strategy trades and the coins it excludes, after their phrase
//! or a looser lead ("币种 BTC、ETH", "只做 BTC 和 SOL", "don't trade DOGE"), and whether the
//! coins said are the new list or an edit of the one it has ("also exclude SHIB", "remove
//! ETH from default").

use nofxi_domain::market::is_known_coin;
use nofxi_protocol::ListEdit;
use nofxi_skills::{Action, Risk, Slot, SlotType, WordClass};
use serde_json::{Map, Value};

use super::super::lexicon::Lexicon;
use super::super::words::{find_phrase, preceded_by};
use super::Scan;
use super::values::occurrences;

/// Lists of symbols after their phrase ("币种 BTC、ETH", "不要交易 DOGE"). On an update, the
/// coins may be an edit of the list the strategy has rather than the new list: see
/// [`edit_of`] and [`edits_by_verb`].
pub fn symbol_lists(
    action: &Action,
    scan: &Scan,
    lexicon: &Lexicon,
    slots: &mut Map<String, Value>,
) {
    let words = |c: WordClass| lexicon.words(c);
    let lists: Vec<&Slot> = action
        .slots
        .iter()
        .filter(|s| s.list && s.ty == SlotType::Symbol)
        .collect();
    // Where the lists' own phrases stand: a lead inside one ("交易" of "不要交易", "trade" of
    // "don't trade") belongs to that phrase, not to the coins traded.
    let owned: Vec<(usize, usize)> = lists
        .iter()
        .flat_map(|s| s.phrases.iter())
        .filter_map(|p| {
            let lp = p.to_lowercase();
            find_phrase(&scan.text, &lp).map(|at| (at, at + lp.len()))
        })
        .collect();
    let lead_free = |at: usize| lead_is_free(scan, lexicon, &owned, at);
    let updates = action.risk == Risk::Update;
    // Where the coins read with a list's phrase end: a remove word over the same coins
    // ("stop excluding DOGE") is that list's, not another edit.
    let mut used = Vec::new();
    for (k, slot) in lists.iter().enumerate() {
        // After the slot's own phrase ("coins doge pepe") any coin-shaped word counts; after
        // a looser lead ("for BTC and SOL", "只做 BTC 和 SOL") only words that are surely coins,
        // and only for the first list, the coins traded: "trading BTC … excluding DOGE" must
        // not put BTC among the excluded.
        let by_phrase = slot.phrases.iter().map(|p| (p.to_lowercase(), false));
        let leads = if k == 0 {
            words(WordClass::CoinLead)
        } else {
            &[]
        };
        let by_lead = leads.iter().map(|p| (p.clone(), true));
        for (lp, strict) in by_phrase.chain(by_lead) {
            let Some(at) = find_phrase(&scan.text, &lp) else {
                continue;
            };
            if strict && !lead_free(at) {
                continue;
            }
            let from = at + lp.len();
            let (run, set_to) = run_after(scan, lexicon, at, from, strict);
            if run.coins.is_empty() {
                continue;
            }
            used.push(run.end);
            let said = Said {
                at,
                end: from,
                coins_end: run.end,
                set_to,
                excludes: k > 0,
            };
            let value = match edit_of(&scan.text, lexicon, &said).filter(|_| updates) {
                Some(edit) => edit.of(run.coins).to_value(),
                None => Value::Array(run.coins),
            };
            slots.insert(slot.name.clone(), value);
            break;
        }
    }
    if updates {
        edits_by_verb(&lists, scan, lexicon, slots, &used);
    }
}

/// Whether a looser lead at `at` leads the coins traded: not inside a list's own phrase
/// (`owned`), not after a not-traded word, and not after a value. "leverage 15 for btc/eth":
/// after a value the lead says what the value is for, not which coins are traded.
fn lead_is_free(scan: &Scan, lexicon: &Lexicon, owned: &[(usize, usize)], at: usize) -> bool {
    let value_units: Vec<&String> = [WordClass::UnitTimes, WordClass::UnitPercent]
        .iter()
        .flat_map(|c| lexicon.words(*c))
        .collect();
    let after_value = |at: usize| {
        let before = scan.text[..at].trim_end();
        // A unit glued to its figure ("15x") is no word of its own: stripped as it stands.
        let figure = value_units
            .iter()
            .find_map(|u| before.strip_suffix(u.as_str()))
            .unwrap_or(before);
        figure.trim_end().ends_with(|c: char| c.is_ascii_digit())
    };
    !owned.iter().any(|&(from, to)| from <= at && at < to)
        && !preceded_by(&scan.text, at, lexicon.words(WordClass::NotTraded))
        && !after_value(at)
}

/// The coins a list's phrase or lead at `at` (ending at `from`) is said with, and whether
/// they follow a "to" ("币种改成 BTC、SOL").
fn run_after(scan: &Scan, lexicon: &Lexicon, at: usize, from: usize, strict: bool) -> (Run, bool) {
    let words = |c: WordClass| lexicon.words(c);
    let mut run = coin_run(scan, lexicon, from, strict);
    // "the coins of default to BTC, SOL", "币种改成 BTC、SOL", "币种为 BTC", "coins:
    // BTC": the list follows a "to" (or "is", a colon) a few words on.
    let mut set_to = false;
    if run.coins.is_empty() && !strict {
        let after = scan.text.get(from..).unwrap_or_default();
        let to = words(WordClass::ListSetTo)
            .iter()
            .filter_map(|w| after.find(w).map(|i| i + w.len()))
            .filter(|i| *i <= 40)
            .min();
        if let Some(to) = to {
            run = coin_run(scan, lexicon, from + to, false);
            set_to = true;
        }
    }
    // "s1 把 BNB 也排除掉": the coins come after 把, before the phrase.
    let start = clause_start(&scan.text, at);
    if run.coins.is_empty()
        && !strict
        && let Some(after) = after_object_marker(&scan.text[start..at], lexicon, true)
    {
        run = coin_run(scan, lexicon, start + after, true);
        run.end = run.end.max(from);
    }
    (run, set_to)
}

/// Where the object after an object marker starts in `clause` ("把 ETH 删掉" → at "ETH"),
/// from the last marker or the first.
fn after_object_marker(clause: &str, lexicon: &Lexicon, last: bool) -> Option<usize> {
    let found = lexicon
        .words(WordClass::ObjectMarker)
        .iter()
        .filter_map(|m| {
            let at = if last {
                clause.rfind(m.as_str())
            } else {
                clause.find(m.as_str())
            };
            at.map(|at| (at, at + m.len()))
        });
    if last {
        found.max().map(|(_, end)| end)
    } else {
        found.min().map(|(_, end)| end)
    }
}

/// Where the clause holding `at` starts.
fn clause_start(text: &str, at: usize) -> usize {
    // A clause end may be a full-width '，' (three bytes): step over the whole character.
    text[..at]
        .char_indices()
        .rev()
        .find(|(_, c)| CLAUSE_ENDS.contains(c))
        .map_or(0, |(i, c)| i + c.len_utf8())
}

/// Where a list's coins were said: its phrase (or lead) and the end of the coins.
struct Said {
    at: usize,
    end: usize,
    coins_end: usize,
    /// The coins came after a "to" ("the coins of default to BTC"): a new list.
    set_to: bool,
    /// The list is of coins not traded: naming coins there adds them ("exclude SHIB").
    excludes: bool,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Edit {
    Add,
    Remove,
}

impl Edit {
    fn of(self, coins: Vec<Value>) -> ListEdit {
        match self {
            Edit::Add => ListEdit::Add(coins),
            Edit::Remove => ListEdit::Remove(coins),
        }
    }
}

/// Whether coins said with a list's phrase change the list it has: "also exclude SHIB",
/// "再排除 SHIB", "exclude SHIB too" add; "stop excluding DOGE", "不再排除 DOGE", "no longer
/// trade ETH" remove; naming coins to exclude adds them unless a new list is said ("set the
/// exclusions to DOGE", "只排除 DOGE"). `None` is a new list.
fn edit_of(text: &str, lexicon: &Lexicon, said: &Said) -> Option<Edit> {
    let words = |c: WordClass| lexicon.words(c);
    let before = text.get(..said.end).unwrap_or_default();
    let touches = |w: &str| {
        occurrences(before, w).into_iter().any(|o| {
            let e = o + w.len();
            e > said.at
                || text
                    .get(e..said.at)
                    .is_some_and(|gap| gap.trim().is_empty())
        })
    };
    if words(WordClass::ListRemove).iter().any(|w| touches(w)) {
        return Some(Edit::Remove);
    }
    let after = text.get(said.coins_end..).unwrap_or_default().trim_start();
    let too = words(WordClass::ListAddAfter).iter().any(|w| {
        after.starts_with(w) && !after[w.len()..].starts_with(|c: char| c.is_ascii_alphanumeric())
    });
    if words(WordClass::ListAddBefore).iter().any(|w| touches(w)) || too {
        return Some(Edit::Add);
    }
    let new_list = said.set_to || words(WordClass::ListOnly).iter().any(|w| touches(w));
    (said.excludes && !new_list).then_some(Edit::Add)
}

/// Coins right after an add or remove word, for a list named later in the clause or, with
/// none named, the coins traded: "add SOL to default", "remove DOGE from the exclusions",
/// "default 去掉 ETH", "把 ETH 从 default 里删掉". Lists already said with their phrase keep
/// what they got.
fn edits_by_verb(
    lists: &[&Slot],
    scan: &Scan,
    lexicon: &Lexicon,
    slots: &mut Map<String, Value>,
    used: &[usize],
) {
    let text = &scan.text;
    let adds = lexicon.words(WordClass::ListAddVerb).iter();
    let removes = lexicon.words(WordClass::ListRemove).iter();
    let verbs = adds
        .map(|w| (w.as_str(), Edit::Add))
        .chain(removes.map(|w| (w.as_str(), Edit::Remove)));
    let list_nouns = lexicon.words(WordClass::ListNoun);
    for (verb, edit) in verbs {
        for at in occurrences(text, verb) {
            let start = clause_start(text, at);
            let mut run = coin_run(scan, lexicon, at + verb.len(), true);
            // "把 ETH 从 default 里删掉": the coins come after 把, before the verb.
            if run.coins.is_empty()
                && let Some(after) = after_object_marker(&text[start..at], lexicon, false)
            {
                run = coin_run(scan, lexicon, start + after, true);
            }
            if run.coins.is_empty() || used.contains(&run.end) {
                continue;
            }
            let rest = text.get(run.end..).unwrap_or_default();
            let clause = &rest[..rest.find(CLAUSE_ENDS).unwrap_or(rest.len())];
            let whole_clause = &text[start..run.end + clause.len()];
            // A list named after the coins ("remove DOGE from the exclusions"), or named as a
            // list anywhere in the clause ("从排除列表里移除 DOGE").
            let names_list = |s: &Slot| {
                s.phrases
                    .iter()
                    .any(|p| find_phrase(clause, &p.to_lowercase()).is_some())
                    || s.phrases
                        .iter()
                        .map(|p| p.to_lowercase())
                        .filter(|p| list_nouns.contains(p))
                        .any(|p| find_phrase(whole_clause, &p).is_some())
            };
            // "unexclude DOGE", "不要排除 DOGE": the verb itself names the exclusions (holds
            // one of their phrases).
            let of_exclusions = lists.get(1).is_some_and(|ex| {
                ex.phrases
                    .iter()
                    .any(|p| verb.contains(p.to_lowercase().as_str()))
            });
            let slot = lists
                .iter()
                .skip(1)
                .find(|s| of_exclusions || names_list(s))
                .or_else(|| lists.first());
            let Some(slot) = slot else {
                return;
            };
            if slots.contains_key(&slot.name) {
                continue;
            }
            slots.insert(slot.name.clone(), edit.of(run.coins).to_value());
        }
    }
}

const CLAUSE_ENDS: &[char] = &[',', '，', ';', '；', '。'];

/// The coins a list holds, and where they end in the message.
struct Run {
    coins: Vec<Value>,
    end: usize,
}

/// The coins that open the message at `from`, as pairs: words joined by spaces, commas,
/// "and" or 和, up to the first word that is no coin ("BTC and SOL on 5m candles" →
/// BTCUSDT, SOLUSDT).
fn coin_run(scan: &Scan, lexicon: &Lexicon, from: usize, strict: bool) -> Run {
    let joins = lexicon.words(WordClass::CoinJoin);
    let ends = lexicon.words(WordClass::CoinListEnd);
    let text = scan.original.get(from..).unwrap_or_default();
    let mut run = Run {
        coins: Vec::new(),
        end: from,
    };
    let shouting = !scan.original.chars().any(|c| c.is_ascii_lowercase());
    for word in list_words(text) {
        let lower = word.to_lowercase();
        if joins.contains(&lower) {
            continue;
        }
        let shaped =
            (2..=10).contains(&word.len()) && word.chars().all(|c| c.is_ascii_alphabetic());
        // An upper-case word stands out as a symbol only in a message that is not all upper
        // case: "DELETE THAT STRATEGY" shouts, it names no coins.
        let sure =
            is_known_coin(word) || (!shouting && word.chars().all(|c| c.is_ascii_uppercase()));
        // Words are slices of `text`: their offset is where they start in it.
        let at = word.as_ptr() as usize - text.as_ptr() as usize;
        // "use btc-trend": after a loose lead, a coin inside a longer name is that name's.
        let compound =
            text[at + word.len()..].starts_with(['-', '_']) || text[..at].ends_with(['-', '_']);
        if !shaped || (strict && (!sure || compound)) || ends.contains(&lower) {
            break;
        }
        run.coins.push(Value::String(usdt_pair(word)));
        run.end = from + at + word.len();
    }
    run
}

/// The words of `text`: runs of ASCII letters and digits, and runs of other letters (Chinese),
/// split at spaces and punctuation (，、 included). A Chinese word is a word too: "只做 BTC 和
/// SOL，除了 DOGE" ends its list at 除了, not at the end of the message.
fn list_words(text: &str) -> impl Iterator<Item = &str> {
    let class = |c: char| {
        if c.is_ascii_alphanumeric() {
            1
        } else if c.is_alphanumeric() {
            2
        } else {
            0
        }
    };
    let mut words = Vec::new();
    let mut start = None;
    let mut current = 0;
    for (i, c) in text.char_indices() {
        let k = class(c);
        if k != current {
            if let Some(s) = start.take() {
                words.push(&text[s..i]);
            }
            if k != 0 {
                start = Some(i);
            }
            current = k;
        }
    }
    if let Some(s) = start {
        words.push(&text[s..]);
    }
    words.into_iter()
}

/// A coin as the USDⓈ-M pair nofxi trades: "doge" → DOGEUSDT; a pair stays as it is.
fn usdt_pair(coin: &str) -> String {
    let c = coin.to_uppercase();
    if ["USDT", "USDC", "BUSD", "USD"]
        .iter()
        .any(|q| c.ends_with(q) && c.len() > q.len())
    {
        c
    } else {
        format!("{c}USDT")
    }
}
