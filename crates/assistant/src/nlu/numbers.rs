//! Numbers with units as people write them: 10倍, 20x, 5分钟, every 15 minutes, 1 hour, 100u,
//! 1000 USDT, $2,500, 10k, 1.5万, 五分钟, 半小时, １５分钟.
//!
//! A number is read whole or not at all: "2,500" is 2500, never 500 after a comma; "10k" is
//! 10000, never 10. Reading part of an amount would change money by orders of magnitude, with
//! a confirmation that shows a plausible-looking figure.
//!
//! The words are the lexicon's: units (`unit_*`), multipliers ("k", "万"), and numerals in
//! words (digits, places, groups, "half", "minus"); the shapes of figures are here.

use std::collections::HashMap;
use std::str::FromStr;

use nofxi_skills::{Unit, WordClass, Words};
use regex::Regex;
use rust_decimal::Decimal;

#[derive(Debug, Clone, PartialEq)]
pub struct Number {
    /// The value in the unit's base (minutes for durations), as a plain decimal: "2500",
    /// "90", "1.5".
    pub text: String,
    pub unit: Option<Unit>,
    pub start: usize,
    pub end: usize,
}

/// The unit classes of the lexicon and the unit each names.
const UNIT_CLASSES: [(WordClass, Unit); 5] = [
    (WordClass::UnitMinutes, Unit::Minutes),
    (WordClass::UnitTimes, Unit::Times),
    (WordClass::UnitUsdt, Unit::Usdt),
    (WordClass::UnitPercent, Unit::Percent),
    (WordClass::UnitCount, Unit::Count),
];

/// What reads numbers: the lexicon's number words and the patterns built from them, once.
#[derive(Debug, Clone)]
pub struct NumberWords {
    /// `$`, the figure, a multiplier, a unit; see [`NumberWords::figure_pattern`].
    number: Option<Regex>,
    /// A numeral in words and a unit said after it.
    chinese: Option<Regex>,
    /// Unit word (lower-case) → its unit and how many base units one is (an hour is 60).
    units: HashMap<String, (Unit, Decimal)>,
    multipliers: HashMap<String, Decimal>,
    digits: HashMap<char, u64>,
    places: HashMap<char, u64>,
    groups: HashMap<char, u64>,
    halves: Vec<String>,
    minus: Vec<String>,
    /// Words between an amount's whole part and its tenths ("14块5" is 14.5).
    decimal_points: Vec<String>,
}

impl Default for NumberWords {
    fn default() -> NumberWords {
        NumberWords::new(&Words::default())
    }
}

impl NumberWords {
    pub fn new(words: &Words) -> NumberWords {
        let texts = |c: WordClass| words.of(c).iter().map(|w| w.text.clone());
        let mut units = HashMap::new();
        for (class, unit) in UNIT_CLASSES {
            for w in words.of(class) {
                let per = Decimal::from(w.value.unwrap_or(1));
                units.insert(w.text.clone(), (unit, per));
            }
        }
        let valued = |c: WordClass| {
            words
                .of(c)
                .iter()
                .filter_map(|w| Some((w.text.clone(), w.value?)))
                .collect::<Vec<_>>()
        };
        let chars = |c: WordClass| {
            valued(c)
                .into_iter()
                .filter_map(|(t, v)| one_char(&t).map(|ch| (ch, v)))
                .collect::<HashMap<char, u64>>()
        };
        let multipliers: HashMap<String, Decimal> = valued(WordClass::Multiplier)
            .into_iter()
            .map(|(t, v)| (t, Decimal::from(v)))
            .collect();
        let mut reader = NumberWords {
            number: None,
            chinese: None,
            units,
            multipliers,
            digits: chars(WordClass::NumeralDigit),
            places: chars(WordClass::NumeralPlace),
            groups: chars(WordClass::NumeralGroup),
            halves: texts(WordClass::NumeralHalf).collect(),
            minus: texts(WordClass::Minus).collect(),
            decimal_points: texts(WordClass::DecimalPoint).collect(),
        };
        let unit_words: Vec<String> = reader.units.keys().cloned().collect();
        let multiplier_words: Vec<String> = reader.multipliers.keys().cloned().collect();
        reader.number = Regex::new(&format!(
            r"(?i)(\$\s*)?{}{}?\s*{}?",
            FIGURE,
            alternation(&multiplier_words),
            alternation(&unit_words),
        ))
        .ok();
        reader.chinese = reader.numeral_pattern(&texts(WordClass::NumeralUnit).collect::<Vec<_>>());
        reader
    }

    /// A numeral in words: a half, or a digit (or the first place, 十) then digits, places
    /// and groups; then a unit that may follow a numeral in words (五分钟, 两倍).
    fn numeral_pattern(&self, numeral_units: &[String]) -> Option<Regex> {
        let class = |cs: Vec<char>| -> String {
            cs.iter().map(|c| regex::escape(&c.to_string())).collect()
        };
        let least_place = self.places.values().min().copied();
        let first: Vec<char> = self
            .digits
            .keys()
            .copied()
            .chain(
                self.places
                    .iter()
                    .filter(|(_, v)| Some(**v) == least_place)
                    .map(|(c, _)| *c),
            )
            .collect();
        let all: Vec<char> = self
            .digits
            .keys()
            .chain(self.places.keys())
            .chain(self.groups.keys())
            .copied()
            .collect();
        if first.is_empty() {
            return None;
        }
        let halves = self.halves.iter().map(|h| format!("{}|", regex::escape(h)));
        Regex::new(&format!(
            r"({}[{}][{}]*)\s*{}?",
            halves.collect::<String>(),
            class(first),
            class(all),
            alternation(numeral_units),
        ))
        .ok()
    }

    /// Every number in `text`, in order.
    pub fn numbers(&self, text: &str) -> Vec<Number> {
        let ratios = ratios(text);
        let mut out: Vec<Number> = self
            .digits(text)
            .into_iter()
            .filter(|n| !ratios.iter().any(|r| n.start < r.end && r.start < n.end))
            .collect();
        out.extend(ratios);
        out.extend(self.chinese(text));
        out.sort_by_key(|n| n.start);
        self.join_tenths(text, &mut out);
        out
    }

    /// "14块5", "2块3": a whole figure, a decimal-point word, then one digit, is one amount
    /// with that digit as its tenths (14.5), not the figures 14 and 5.
    fn join_tenths(&self, text: &str, out: &mut Vec<Number>) {
        let mut i = 0;
        while i + 1 < out.len() {
            let (whole, tenth) = (&out[i], &out[i + 1]);
            let point = text.get(whole.end..tenth.start).unwrap_or_default();
            let digit = text
                .get(tenth.start..tenth.end)
                .filter(|d| d.len() == 1 && d.bytes().all(|b| b.is_ascii_digit()));
            let joined = match (digit, Decimal::from_str(&whole.text)) {
                (Some(d), Ok(w))
                    if whole.unit.is_none()
                        && tenth.unit.is_none()
                        && w.fract().is_zero()
                        && self.decimal_points.iter().any(|p| p == point) =>
                {
                    Decimal::from_str(d).ok().map(|d| w + d / Decimal::TEN)
                }
                _ => None,
            };
            if let Some(value) = joined {
                let end = out[i + 1].end;
                out[i].text = normalized(value);
                out[i].end = end;
                out.remove(i + 1);
            }
            i += 1;
        }
    }

    /// The unit a number is in ("minutes", "倍"), and how many base units one is.
    fn unit_of(&self, said: &str) -> Option<(Unit, Decimal)> {
        self.units.get(&said.to_lowercase()).copied()
    }
}

/// A figure: thousands grouped by commas, underscores or spaces ("2,500", "1_000", "1 000"),
/// an exponent ("1e4"), or plain; Unicode digits. One capture group.
const FIGURE: &str = r"(-?\d{1,3}(?:[,_]\d{3})+(?:\.\d+)?|-?\d{1,3}(?: \d{3})+(?:\.\d+)?\b|-?\d+(?:\.\d+)?e[+-]?\d{1,3}\b|-?\d+(?:\.\d+)?)";

/// One capture group matching any of `words`, longest first (a regex takes the first
/// alternative that matches, so "minutes" must come before "m"); one that never matches
/// when there are none.
fn alternation(words: &[String]) -> String {
    let mut sorted: Vec<&String> = words.iter().filter(|w| !w.is_empty()).collect();
    sorted.sort_by_key(|w| std::cmp::Reverse(w.len()));
    if sorted.is_empty() {
        return r"([^\s\S])".into();
    }
    let alts: Vec<String> = sorted.iter().map(|w| regex::escape(w)).collect();
    format!("({})", alts.join("|"))
}

/// The one character of `word`, if it is one.
fn one_char(word: &str) -> Option<char> {
    let mut chars = word.chars();
    let c = chars.next()?;
    chars.next().is_none().then_some(c)
}

/// A risk/reward said as a ratio: "1:3", "1：2.5" is 3, 2.5 (a reward per unit of risk).
static RATIO: std::sync::LazyLock<Option<Regex>> =
    std::sync::LazyLock::new(|| Regex::new(r"(?:^|[^\d.])(1\s*[:：]\s*(\d+(?:\.\d+)?))").ok());

fn ratios(text: &str) -> Vec<Number> {
    let Some(re) = RATIO.as_ref() else {
        return Vec::new();
    };
    re.captures_iter(text)
        .filter_map(|c| {
            let whole = c.get(1)?;
            Some(Number {
                text: c.get(2)?.as_str().to_string(),
                unit: None,
                start: whole.start(),
                end: whole.end(),
            })
        })
        .collect()
}

/// "2千5", "1万5": the single digit right after a place word written in Chinese (千, 万),
/// which is the next place down; none after "k" ("2k5" is no amount people write).
fn digit_after_place(bytes: &[u8], place: regex::Match<'_>) -> Option<Decimal> {
    if place.as_str().is_ascii() {
        return None;
    }
    let [d, rest @ ..] = bytes.get(place.end()..)? else {
        return None;
    };
    let alone = rest
        .first()
        .is_none_or(|b| !b.is_ascii_digit() && *b != b'.');
    (d.is_ascii_digit() && alone).then(|| Decimal::from(d - b'0'))
}

impl NumberWords {
    fn digits(&self, text: &str) -> Vec<Number> {
        let Some(re) = self.number.as_ref() else {
            return Vec::new();
        };
        // Each number, and where a digit it took after 千/万 stands ("2千5"): the regex reads
        // that digit again as a number of its own, whose unit ("1万5 U") is the whole one's.
        let read: Vec<(Number, Option<usize>)> = re
            .captures_iter(text)
            .filter_map(|c| self.digit_number(text, &c))
            .collect();
        let mut out: Vec<Number> = Vec::with_capacity(read.len());
        let mut tail = None;
        for (n, its_tail) in read {
            if tail == Some(n.start) {
                if let Some(whole) = out.last_mut() {
                    whole.unit = whole.unit.or(n.unit);
                    whole.end = n.end;
                }
            } else if out.last().is_none_or(|last| n.start >= last.end) {
                // Not a piece of the figure before it ("50" of "1.000,50").
                out.push(n);
            }
            tail = its_tail;
        }
        out
    }

    /// One number the digits regex matched, and where a digit it took after 千/万 stands.
    fn digit_number(&self, text: &str, c: &regex::Captures<'_>) -> Option<(Number, Option<usize>)> {
        let bytes = text.as_bytes();
        let whole = c.get(0)?;
        let num = c.get(2)?;
        // A digit glued to letters (btc-bot2, ak-123456) is part of a name, not a number.
        let glued_before = num.start() > 0
            && bytes
                .get(num.start() - 1)
                .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'-' || *b == b'_');
        if glued_before {
            return None;
        }
        // "1.000,50", "2,5", "1.5e3.2", "0x10": the figure goes on in a way no reading
        // takes whole. Kept as said, so the slot refuses it by name; read in part it was
        // 1, 2, 1500 and 0, each without a word.
        if let Some(end) = figure_goes_on(bytes, num.end()) {
            let said = text[num.start()..end].to_string();
            return Some((raw(said, num.start(), end), None));
        }
        let said = ascii_digits(num.as_str());
        let parsed = match said.contains(['e', 'E']) {
            true => Decimal::from_scientific(&said).ok(),
            false => Decimal::from_str(&said).ok(),
        };
        // Too large for a decimal (32 digits, 1e40): kept as said, so the slot's range
        // refuses it with its bounds instead of the number vanishing without a word.
        let Some(figure) = parsed else {
            return Some((raw(said, num.start(), num.end()), None));
        };
        let glued = |m: regex::Match<'_>| {
            m.as_str().is_ascii() && bytes.get(m.end()).is_some_and(u8::is_ascii_alphanumeric)
        };
        // "10 kg" or "3 kiwi" are no thousands; the figure alone stands.
        let multiplier = match c.get(3) {
            Some(m) if glued(m) => {
                return Some((plain(figure, num.start(), num.end()), None));
            }
            Some(m) => self
                .multipliers
                .get(&m.as_str().to_lowercase())
                .copied()
                .unwrap_or(Decimal::ONE),
            None => Decimal::ONE,
        };
        // "2千5", "1万5": a digit right after 千/万 is the next place down (2500, 15000);
        // after "k" it is not ("2k5" is no amount people write).
        let Some(mut value) = figure.checked_mul(multiplier) else {
            return Some((raw(said, num.start(), num.end()), None));
        };
        let mut tail_end = c.get(3).map(|m| m.end());
        if let Some(m) = c.get(3)
            && let Some(d) = digit_after_place(bytes, m)
        {
            value += d * multiplier / Decimal::TEN;
            tail_end = Some(m.end() + 1);
        }
        let dollar = c.get(1).is_some();
        // A unit letter glued to more letters (5 mins is fine, 5 xrp is not a leverage).
        let tail = tail_end
            .filter(|_| value != figure * multiplier)
            .map(|e| e - 1);
        let Some(unit_match) = c.get(4).filter(|m| !glued(*m)) else {
            let end = tail_end.unwrap_or(num.end());
            let (value, start) = self.signed(text, value, whole.start());
            let mut n = plain(value, start, end);
            n.unit = dollar.then_some(Unit::Usdt);
            return Some((n, tail));
        };
        let (unit, per_unit) = self.unit_of(unit_match.as_str())?;
        let n = Number {
            text: normalized(value * per_unit),
            unit: Some(unit),
            start: whole.start(),
            end: whole.end(),
        };
        Some((n, tail))
    }

    fn chinese(&self, text: &str) -> Vec<Number> {
        let Some(re) = self.chinese.as_ref() else {
            return Vec::new();
        };
        re.captures_iter(text)
            .filter_map(|c| {
                let whole = c.get(0)?;
                let said = c.get(1)?.as_str();
                let unit = c.get(2).map_or("", |m| m.as_str());
                let value = if self.halves.iter().any(|h| h == said) {
                    Decimal::new(5, 1)
                } else {
                    self.numeral(said)?
                };
                // 一个 is mostly "a" ("换一个策略"), not a count of one.
                let counted = self.unit_of(unit).map(|(u, _)| u);
                if value == Decimal::ONE && counted == Some(Unit::Count) {
                    return None;
                }
                // 两千, 一百万, 两千五: an amount, in no unit, said with a place word above ten
                // ("十一" alone is mostly part of a word or a date).
                if unit.is_empty() {
                    let big_place = said.chars().any(|c| {
                        self.places.get(&c).is_some_and(|v| *v >= 100)
                            || self.groups.contains_key(&c)
                    });
                    if !big_place {
                        return None;
                    }
                    let (value, start) = self.signed(text, value, whole.start());
                    return Some(plain(value, start, whole.end()));
                }
                let (unit, per_unit) = self.unit_of(unit)?;
                Some(Number {
                    text: normalized(value * per_unit),
                    unit: Some(unit),
                    start: whole.start(),
                    end: whole.end(),
                })
            })
            .collect()
    }
}

fn plain(value: Decimal, start: usize, end: usize) -> Number {
    Number {
        text: normalized(value),
        unit: None,
        start,
        end,
    }
}

/// Where a figure that ends at `end` really ends, when a separator or a letter glued to a digit
/// carries it on (`,5`, `.2`, `e3`, `x10`); `None` when it ends there.
fn figure_goes_on(bytes: &[u8], end: usize) -> Option<usize> {
    let (&next, rest) = bytes.get(end..)?.split_first()?;
    let joins = matches!(next, b'.' | b',' | b'e' | b'E' | b'x' | b'X');
    if !joins || !rest.first().is_some_and(u8::is_ascii_digit) {
        return None;
    }
    let carried = bytes[end..]
        .iter()
        .take_while(|b| {
            b.is_ascii_digit() || matches!(b, b'.' | b',' | b'_' | b'e' | b'E' | b'x' | b'X')
        })
        .count();
    Some(end + carried)
}

/// A figure kept as said (grouping removed): too large to be read as a decimal.
fn raw(said: String, start: usize, end: usize) -> Number {
    Number {
        text: said,
        unit: None,
        start,
        end,
    }
}

/// "2,500" → "2500", "1 000" → "1000", "１５" → "15" (other scripts' digits fail to parse:
/// no number).
fn ascii_digits(said: &str) -> String {
    said.chars()
        .filter(|c| !matches!(c, ',' | '_' | ' '))
        .map(|c| match c {
            '０'..='９' => char::from_u32(c as u32 - '０' as u32 + '0' as u32).unwrap_or(c),
            _ => c,
        })
        .collect()
}

/// A value as slots take it: no trailing zeros after the point ("2500", "1234.5").
fn normalized(value: Decimal) -> String {
    value.normalize().to_string()
}

impl NumberWords {
    /// A Chinese numeral's value: 五 → 5, 十五 → 15, 三百零五 → 305, 一百万 → 1000000,
    /// 两千五 → 2500 (a digit after the last place word is the next place down), 一万五 → 15000.
    /// None when it is no well-formed numeral (two digits in a row, a place word twice).
    fn numeral(&self, said: &str) -> Option<Decimal> {
        let digit = |c: char| self.digits.get(&c).copied();
        let place = |c: char| self.places.get(&c).copied();
        // `big` holds whole 亿 and 万 groups, `section` the group being read, `number` the last digit.
        let (mut big, mut section, mut number): (u64, u64, Option<u64>) = (0, 0, None);
        let mut last_place = 1u64;
        // 三百零五: a 零 says the digit after it is a unit, not the place below (305, not 350).
        let mut zero = false;
        for c in said.chars() {
            if let Some(d) = digit(c) {
                if number.is_some() && d != 0 {
                    return None;
                }
                zero |= d == 0;
                number = (d != 0).then_some(d);
            } else if let Some(p) = place(c) {
                section = section.checked_add(number.unwrap_or(1).checked_mul(p)?)?;
                number = None;
                zero = false;
                last_place = p;
            } else {
                let group = self.groups.get(&c).copied()?;
                let value = section.checked_add(number.unwrap_or(0))?;
                let value = if value == 0 { 1 } else { value };
                big = big.checked_add(value.checked_mul(group)?)?;
                section = 0;
                number = None;
                zero = false;
                last_place = group;
            }
        }
        // 两千五: the last digit after a place word counts in the place below it.
        let tail = match number {
            Some(d) if !zero && last_place >= 100 && said.chars().count() >= 3 => {
                d.checked_mul(last_place / 10)?
            }
            Some(d) => d,
            None => 0,
        };
        let total = big.checked_add(section)?.checked_add(tail)?;
        Some(Decimal::from(total))
    }

    /// A number with a minus word ("负") right before it is negative: "负100" is -100, not 100.
    fn signed(&self, text: &str, value: Decimal, start: usize) -> (Decimal, usize) {
        let before = &text[..start];
        match self
            .minus
            .iter()
            .find_map(|m| before.strip_suffix(m.as_str()))
        {
            Some(before) => (-value, before.len()),
            None => (value, start),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbers(text: &str) -> Vec<Number> {
        let library = nofxi_skills::Library::builtin().expect("builtin skills");
        NumberWords::new(library.words()).numbers(text)
    }

    #[test]
    fn chinese_amounts_read_whole_and_minus_stays() {
        let one = |t: &str| numbers(t).first().map(|n| n.text.clone());
        assert_eq!(one("初始资金一百万").as_deref(), Some("1000000"));
        assert_eq!(one("初始资金两千五").as_deref(), Some("2500"));
        assert_eq!(one("一万五").as_deref(), Some("15000"));
        assert_eq!(one("三百零五").as_deref(), Some("305"));
        assert_eq!(one("初始资金负100").as_deref(), Some("-100"));
        assert_eq!(one("负两千").as_deref(), Some("-2000"));
        // Words that hold a numeral character but no amount.
        assert!(numbers("万一出错了怎么办").is_empty());
        assert!(numbers("一起看看").is_empty());
    }

    fn read(text: &str) -> Vec<(String, Option<Unit>)> {
        numbers(text)
            .into_iter()
            .map(|n| (n.text, n.unit))
            .collect()
    }

    #[test]
    fn amounts_are_read_whole() {
        assert_eq!(
            read("balance 2,500 USDT"),
            [("2500".into(), Some(Unit::Usdt))]
        );
        assert_eq!(read("$2,500"), [("2500".into(), Some(Unit::Usdt))]);
        assert_eq!(read("give it $3k"), [("3000".into(), Some(Unit::Usdt))]);
        assert_eq!(read("10k"), [("10000".into(), None)]);
        assert_eq!(read("2.5k u"), [("2500".into(), Some(Unit::Usdt))]);
        assert_eq!(read("1,234.50"), [("1234.5".into(), None)]);
        assert_eq!(read("初始资金 1万"), [("10000".into(), None)]);
        assert_eq!(read("1.5万 U"), [("15000".into(), Some(Unit::Usdt))]);
        assert_eq!(read("5千"), [("5000".into(), None)]);
        assert_eq!(read("2千5"), [("2500".into(), None)]);
        assert_eq!(read("1万5 U"), [("15000".into(), Some(Unit::Usdt))]);
        assert_eq!(read("两千"), [("2000".into(), None)]);
        assert_eq!(read("五万"), [("50000".into(), None)]);
        assert_eq!(read("１５分钟"), [("15".into(), Some(Unit::Minutes))]);
    }

    /// "1e4", "1 000" and "1_000" were read as 1: part of the number, a figure 10 000 times
    /// too small shown in a plausible confirmation.
    #[test]
    fn grouped_and_exponent_figures_are_read_whole() {
        assert_eq!(read("balance 1e4"), [("10000".into(), None)]);
        assert_eq!(read("1.5E3 usdt"), [("1500".into(), Some(Unit::Usdt))]);
        assert_eq!(read("balance 1 000"), [("1000".into(), None)]);
        assert_eq!(read("1 000 000 u"), [("1000000".into(), Some(Unit::Usdt))]);
        assert_eq!(read("1_000"), [("1000".into(), None)]);
        // Two numbers, not one: the second is no group of three.
        assert_eq!(read("3 12"), [("3".into(), None), ("12".into(), None)]);
    }

    /// Figures that go on past what any reading takes whole are kept as said, never read in
    /// part.
    #[test]
    fn a_figure_read_only_in_part_is_kept_as_said() {
        for said in ["1.000,50", "2,5", "1.5e3.2", "0x10"] {
            assert_eq!(
                read(&format!("balance {said}")),
                [(said.into(), None)],
                "{said}"
            );
        }
        // A list with spaces is several numbers; a unit ends a figure.
        assert_eq!(read("3, 5"), [("3".into(), None), ("5".into(), None)]);
        assert_eq!(read("20x"), [("20".into(), Some(Unit::Times))]);
    }

    /// A 32-digit figure used to vanish (it does not fit a decimal): it is kept as said, for
    /// the slot's range to refuse it by name.
    #[test]
    fn a_figure_too_large_for_a_decimal_is_kept_as_said() {
        let huge = "12345678901234567890123456789012";
        assert_eq!(read(&format!("balance {huge}")), [(huge.into(), None)]);
        assert_eq!(read("1e40"), [("1e40".into(), None)]);
        assert_eq!(
            read("79228162514264337593543950335万"),
            [("79228162514264337593543950335".into(), None)]
        );
    }

    #[test]
    fn a_ratio_is_the_reward_per_risk_and_percent_words_are_percent() {
        assert_eq!(read("risk reward 1:3"), [("3".into(), None)]);
        assert_eq!(read("盈亏比 1：2.5"), [("2.5".into(), None)]);
        assert_eq!(read("50 percent"), [("50".into(), Some(Unit::Percent))]);
    }

    #[test]
    fn a_whole_amount_then_a_point_word_then_a_digit_is_its_tenths() {
        assert_eq!(read("14块5 买的"), vec![("14.5".to_string(), None)]);
        assert_eq!(read("12块钱"), vec![("12".to_string(), None)]);
        assert!(read("卖了100股 15块8").contains(&("15.8".to_string(), None)));
        // A figure after a space is another figure, not the tenths.
        assert!(read("14块 5").contains(&("14".to_string(), None)));
    }

    #[test]
    fn durations_are_minutes() {
        assert_eq!(read("every 1 hour"), [("60".into(), Some(Unit::Minutes))]);
        assert_eq!(read("1h"), [("60".into(), Some(Unit::Minutes))]);
        assert_eq!(read("15m"), [("15".into(), Some(Unit::Minutes))]);
        assert_eq!(read("1 小时"), [("60".into(), Some(Unit::Minutes))]);
        assert_eq!(read("半小时"), [("30".into(), Some(Unit::Minutes))]);
        assert_eq!(read("十五分钟"), [("15".into(), Some(Unit::Minutes))]);
        assert_eq!(read("两个小时"), [("120".into(), Some(Unit::Minutes))]);
    }

    #[test]
    fn a_figure_glued_to_letters_is_no_amount() {
        assert_eq!(read("btc-bot2"), []);
        assert_eq!(read("5 xrp"), [("5".into(), None)]);
        assert_eq!(read("3 kiwis"), [("3".into(), None)]);
        assert_eq!(read("20x"), [("20".into(), Some(Unit::Times))]);
    }
}
