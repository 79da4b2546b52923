//! Which market data a message asks for, read by the kind of words it says rather than
//! sentence by sentence: an order-book word ("order book", "盘口", "买卖压力比") asks for the
//! book; a candle word ("k线", "candles") or an interval ("4小时", "1h", "日线") asks for
//! candles; anything else about a symbol is its price. A number said beside them is how many
//! levels or candles ("10 levels", "最近20根"). The words are the lexicon's
//! (`order_book_word`, `candle_word`, `candle_interval`, the time units).

use nofxi_domain::Interval;
use nofxi_skills::{Library, Unit, WordClass};
use rust_decimal::Decimal;
use serde_json::{Map, Number, Value};

use super::extract::tokens::blank;
use super::lexicon::Lexicon;
use super::market::SaidSymbol;
use super::route::names_function_subject;
use super::words::find_phrase;
use crate::market_data::render::CHAT_CANDLE_ROWS;
use crate::market_data::{GET_BOOK, GET_KLINE};

/// What a message about a symbol asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Reading {
    /// Its price: `get_realtime_price`.
    Quote,
    /// A function and the arguments the message gave besides the symbol.
    Call {
        function: &'static str,
        args: Map<String, Value>,
    },
}

/// The reading of `lower`, the symbols said in it (`said`) aside.
pub fn reading(library: &Library, lexicon: &Lexicon, lower: &str, said: &[SaidSymbol]) -> Reading {
    let mut text = lower.to_string();
    for s in said {
        blank(&mut text, s.from, s.to);
    }
    let first = |class: WordClass| {
        lexicon
            .words(class)
            .iter()
            .filter_map(|w| find_phrase(&text, w))
            .min()
    };
    let (book, candle) = (
        first(WordClass::OrderBookWord),
        first(WordClass::CandleWord),
    );
    if book.is_some_and(|b| candle.is_none_or(|c| b < c)) {
        let mut args = Map::new();
        if let Some(depth) = count_said(lexicon, &text) {
            args.insert("depth".into(), depth);
        }
        return Reading::Call {
            function: GET_BOOK,
            args,
        };
    }
    let interval = interval_said(lexicon, &text);
    if let Some((_, from, to)) = &interval {
        blank(&mut text, *from, *to);
    }
    // An interval alone asks for candles unless the message names what else it asks ("btc
    // 24h price" is the quote's).
    let candles = candle.is_some() || interval.is_some() && !names_function_subject(library, &text);
    if !candles {
        return Reading::Quote;
    }
    let mut args = Map::new();
    if let Some((value, ..)) = interval {
        args.insert("interval".into(), Value::String(value));
    }
    let limit = count_said(lexicon, &text).unwrap_or_else(|| Value::from(CHAT_CANDLE_ROWS));
    args.insert("limit".into(), limit);
    Reading::Call {
        function: GET_KLINE,
        args,
    }
}

/// Whether `lower` says an order-book or a candle word: a function asked for by its words,
/// with or without a symbol.
pub fn names_function_word(lexicon: &Lexicon, lower: &str) -> bool {
    lexicon.any_in(WordClass::OrderBookWord, lower) || lexicon.any_in(WordClass::CandleWord, lower)
}

/// The candle interval `text` says, as the skill spells it (`4h`), with where it stands: a
/// number with a time unit ("4小时", "15 minutes", "1h") or an interval word ("日线"). One the
/// skill has no spelling for is given as said ("1.5h"), for its schema to refuse with the
/// intervals it takes.
pub fn interval_said(lexicon: &Lexicon, text: &str) -> Option<(String, usize, usize)> {
    let spelled = |minutes: Decimal, said: &str| {
        Interval::ALL
            .iter()
            .find(|i| Decimal::from(i.millis() / 60_000) == minutes)
            .map(|i| i.as_str().to_string())
            .unwrap_or_else(|| said.trim().to_string())
    };
    if let Some(n) = lexicon
        .numbers(text)
        .into_iter()
        .find(|n| n.unit == Some(Unit::Minutes))
    {
        let minutes = n.text.parse::<Decimal>().ok()?;
        return Some((spelled(minutes, &text[n.start..n.end]), n.start, n.end));
    }
    let (minutes, from, to) = lexicon.candle_interval_in(text)?;
    Some((spelled(Decimal::from(minutes), &text[from..to]), from, to))
}

/// A count said without a unit other than a count's ("10", "10个"): how many levels or
/// candles. A whole number as one; anything else as said, for the schema to refuse.
fn count_said(lexicon: &Lexicon, text: &str) -> Option<Value> {
    let n = lexicon
        .numbers(text)
        .into_iter()
        .find(|n| n.unit.is_none() || n.unit == Some(Unit::Count))?;
    if let Ok(whole) = n.text.parse::<u64>() {
        return Some(Value::from(whole));
    }
    let real = n.text.parse::<f64>().ok()?;
    Number::from_f64(real).map(Value::Number)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nlu::market::symbols_said;
    use crate::nlu::names::Names;

    fn read(message: &str) -> Reading {
        let library = Library::builtin().unwrap();
        let lexicon = Lexicon::from_library(&library);
        let lower = message.to_lowercase();
        let said = symbols_said(&library, &Names::default(), &lower);
        reading(&library, &lexicon, &lower, &said)
    }

    fn call(function: &'static str, args: serde_json::Value) -> Reading {
        Reading::Call {
            function,
            args: args.as_object().cloned().unwrap(),
        }
    }

    #[test]
    fn the_kind_of_word_said_picks_the_function() {
        let klines = |interval: &str, limit: u64| {
            call(
                GET_KLINE,
                serde_json::json!({"interval": interval, "limit": limit}),
            )
        };
        assert_eq!(read("btc 4小时k线给我看看"), klines("4h", 12));
        assert_eq!(read("show me eth 1h candles"), klines("1h", 12));
        assert_eq!(read("btc 日线"), klines("1d", 12));
        assert_eq!(read("eth 15分钟 k线 最近 30 根"), klines("15m", 30));
        assert_eq!(read("eth 1.5h candles"), klines("1.5h", 12));
        assert_eq!(
            read("eth order book"),
            call(GET_BOOK, serde_json::json!({}))
        );
        assert_eq!(
            read("btc 买卖压力比"),
            call(GET_BOOK, serde_json::json!({}))
        );
        assert_eq!(
            read("show me 10 levels of the ETH order book"),
            call(GET_BOOK, serde_json::json!({"depth": 10}))
        );
        assert_eq!(read("btc price"), Reading::Quote);
        assert_eq!(read("btc 24h volume price"), Reading::Quote);
        // The numbers of a symbol are the symbol's, never a count.
        assert_eq!(read("S&P 500 盘口"), call(GET_BOOK, serde_json::json!({})));
    }
}
