//! Numbers with units as people write them: 10倍, 20x, 5分钟, every 15 minutes, 1 hour, 100u,
//! 1000 USDT, $2,500, 10k, 1.5万, 五分钟, 半小时, １５分钟.
//!
//! A number is read whole or not at all: "2,500" is 2500, never 500 after a comma; "10k" is
//! 10000, never 10. Reading part of an amount would change money by orders of magnitude, with
//! a confirmation that shows a plausible-looking figure.

use std::str::FromStr;
use std::sync::LazyLock;

use nofxi_skills::Unit;
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

/// `$`, the figure (thousands grouped by commas, underscores or spaces — "2,500", "1_000",
/// "1 000" —, an exponent "1e4", or plain; Unicode digits), a multiplier, a unit. Group 1:
/// `$`; 2: figure; 3: multiplier; 4: unit.
static NUMBER: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(
        r"(?i)(\$\s*)?(-?\d{1,3}(?:[,_]\d{3})+(?:\.\d+)?|-?\d{1,3}(?: \d{3})+(?:\.\d+)?\b|-?\d+(?:\.\d+)?e[+-]?\d{1,3}\b|-?\d+(?:\.\d+)?)(k|万|千)?\s*(个小时|小时|hours|hour|hrs|hr|h|分钟|分|minutes|minute|mins|min|m|倍|x|usdt|u|刀|美元|%|percent|pct|个)?",
    )
    .ok()
});

/// A risk/reward said as a ratio: "1:3", "1：2.5" is 3, 2.5 (a reward per unit of risk).
static RATIO: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"(?:^|[^\d.])(1\s*[:：]\s*(\d+(?:\.\d+)?))").ok());

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

/// Chinese numerals: counts and durations (五分钟, 十五分钟, 两小时, 半小时) and amounts, which
/// need a place word (一百万, 两千五, 三万): a bare 一 or 二 is mostly no number ("一起").
static CHINESE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"(半|[零一二两三四五六七八九十][零一二两三四五六七八九十百千万亿]*)\s*(个小时|小时|分钟|倍|个)?")
        .ok()
});

pub fn numbers(text: &str) -> Vec<Number> {
    let ratios = ratios(text);
    let mut out: Vec<Number> = digits(text)
        .into_iter()
        .filter(|n| !ratios.iter().any(|r| n.start < r.end && r.start < n.end))
        .collect();
    out.extend(ratios);
    out.extend(chinese(text));
    out.sort_by_key(|n| n.start);
    out
}

fn digits(text: &str) -> Vec<Number> {
    let Some(re) = NUMBER.as_ref() else {
        return Vec::new();
    };
    let bytes = text.as_bytes();
    // Each number, and where a digit it took after 千/万 stands ("2千5"): the regex reads
    // that digit again as a number of its own, whose unit ("1万5 U") is the whole one's.
    let read: Vec<(Number, Option<usize>)> = re
        .captures_iter(text)
        .filter_map(|c| {
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
                Some(m) => match m.as_str().to_lowercase().as_str() {
                    "k" | "千" => Decimal::from(1000),
                    _ => Decimal::from(10_000),
                },
                None => Decimal::ONE,
            };
            // "2千5", "1万5": a digit right after 千/万 is the next place down (2500, 15000).
            let Some(mut value) = figure.checked_mul(multiplier) else {
                return Some((raw(said, num.start(), num.end()), None));
            };
            let mut tail_end = c.get(3).map(|m| m.end());
            if let Some(m) = c.get(3).filter(|m| !m.as_str().eq_ignore_ascii_case("k"))
                && let [d, rest @ ..] = &bytes[m.end()..]
                && d.is_ascii_digit()
                && rest
                    .first()
                    .is_none_or(|b| !b.is_ascii_digit() && *b != b'.')
            {
                value += Decimal::from(d - b'0') * multiplier / Decimal::TEN;
                tail_end = Some(m.end() + 1);
            }
            let dollar = c.get(1).is_some();
            // A unit letter glued to more letters (5 mins is fine, 5 xrp is not a leverage).
            let tail = tail_end
                .filter(|_| value != figure * multiplier)
                .map(|e| e - 1);
            let Some(unit_match) = c.get(4).filter(|m| !glued(*m)) else {
                let end = tail_end.unwrap_or(num.end());
                let (value, start) = signed(text, value, whole.start());
                let mut n = plain(value, start, end);
                n.unit = dollar.then_some(Unit::Usdt);
                return Some((n, tail));
            };
            let (unit, per_unit) = unit_of(&unit_match.as_str().to_lowercase())?;
            let n = Number {
                text: normalized(value * per_unit),
                unit: Some(unit),
                start: whole.start(),
                end: whole.end(),
            };
            Some((n, tail))
        })
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

fn chinese(text: &str) -> Vec<Number> {
    let Some(re) = CHINESE.as_ref() else {
        return Vec::new();
    };
    re.captures_iter(text)
        .filter_map(|c| {
            let whole = c.get(0)?;
            let said = c.get(1)?.as_str();
            let unit = c.get(2).map_or("", |m| m.as_str());
            // 一个 is mostly "a" ("换一个策略"), not a count of one.
            if said == "一" && unit == "个" {
                return None;
            }
            let value = if said == "半" {
                Decimal::new(5, 1)
            } else {
                chinese_numeral(said)?
            };
            // 两千, 一百万, 两千五: an amount, in no unit, said with a place word.
            if unit.is_empty() {
                if !said.contains(['百', '千', '万', '亿']) {
                    return None;
                }
                let (value, start) = signed(text, value, whole.start());
                return Some(plain(value, start, whole.end()));
            }
            let (unit, per_unit) = unit_of(unit)?;
            Some(Number {
                text: normalized(value * per_unit),
                unit: Some(unit),
                start: whole.start(),
                end: whole.end(),
            })
        })
        .collect()
}

/// A unit as said, and how many of its base unit one of it is (an hour is 60 minutes).
fn unit_of(said: &str) -> Option<(Unit, Decimal)> {
    Some(match said {
        "个小时" | "小时" | "hours" | "hour" | "hrs" | "hr" | "h" => {
            (Unit::Minutes, Decimal::from(60))
        }
        "分钟" | "分" | "minutes" | "minute" | "mins" | "min" | "m" => {
            (Unit::Minutes, Decimal::ONE)
        }
        "倍" | "x" => (Unit::Times, Decimal::ONE),
        "usdt" | "u" | "刀" | "美元" => (Unit::Usdt, Decimal::ONE),
        "%" | "percent" | "pct" => (Unit::Percent, Decimal::ONE),
        "个" => (Unit::Count, Decimal::ONE),
        _ => return None,
    })
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

/// A Chinese numeral's value: 五 → 5, 十五 → 15, 三百零五 → 305, 一百万 → 1000000,
/// 两千五 → 2500 (a digit after the last place word is the next place down), 一万五 → 15000.
/// None when it is no well-formed numeral (two digits in a row, a place word twice).
fn chinese_numeral(said: &str) -> Option<Decimal> {
    let digit = |c: char| {
        "零一二三四五六七八九"
            .find(c)
            .map(|i| (i / 3) as u64)
            .or((c == '两').then_some(2))
    };
    let place = |c: char| match c {
        '十' => Some(10u64),
        '百' => Some(100),
        '千' => Some(1000),
        _ => None,
    };
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
            let group = match c {
                '万' => 10_000u64,
                '亿' => 100_000_000,
                _ => return None,
            };
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

/// A number with 负 ("minus") right before it is negative: "负100" is -100, not 100.
fn signed(text: &str, value: Decimal, start: usize) -> (Decimal, usize) {
    match text[..start].strip_suffix('负') {
        Some(before) => (-value, before.len()),
        None => (value, start),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
