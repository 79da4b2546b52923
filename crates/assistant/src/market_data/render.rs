//! A book and candles as the chat shows them: a compact table under a line naming the source
//! and the time, then one line that sums it up. Every word is the catalog's; the layout (columns
//! aligned, numbers right-aligned) is here.

use nofxi_domain::moment::{Precision, labelled};
use nofxi_domain::validation::shown_input;
use nofxi_skills::runtime::{CallError, LimitedBy};
use nofxi_skills::{Catalog, Lang};
use rust_decimal::Decimal;
use serde_json::Value;

use super::call::{GET_BOOK, GET_KLINE, MarketError};
use super::report::{BookReport, KlineReport};

/// At most this many candles are drawn in the chat (the summary covers them all).
pub const CHAT_CANDLE_ROWS: usize = 12;

fn text(lang: Lang, id: &str, args: &[(&str, &str)]) -> String {
    Catalog::builtin().text(lang, id, args)
}

fn at(ms: i64, sim_clock: bool, lang: Lang) -> String {
    labelled(ms, Precision::Minute, sim_clock, lang == Lang::Zh)
}

/// `12-07 16:00`: the table's times; the line above it gives the year and the clock.
fn short_time(ms: i64) -> String {
    let face = nofxi_domain::moment::clock_face(ms, Precision::Minute);
    face.get(5..).map(str::to_string).unwrap_or(face)
}

fn or_dash(d: Option<Decimal>) -> String {
    d.map(|d| d.normalize().to_string())
        .unwrap_or_else(|| "–".into())
}

/// How many columns `cell` takes on a terminal: a CJK character two.
fn shown_width(cell: &str) -> usize {
    cell.chars()
        .map(|c| if c >= '\u{2E80}' { 2 } else { 1 })
        .sum()
}

/// `rows` under `heads` (the catalog's, separated by `|`), each column as wide as its widest
/// cell, every cell right-aligned (the figures line up on their last digit).
fn table(heads: &str, rows: &[Vec<String>]) -> Vec<String> {
    let heads: Vec<String> = heads.split('|').map(|h| h.trim().to_string()).collect();
    let width = |i: usize| {
        rows.iter()
            .filter_map(|r| r.get(i))
            .chain(heads.get(i))
            .map(|c| shown_width(c))
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..heads.len()).map(width).collect();
    let line = |cells: &[String]| {
        cells
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{}{c}", " ".repeat(w.saturating_sub(shown_width(c)))))
            .collect::<Vec<_>>()
            .join("  ")
            .trim_end()
            .to_string()
    };
    std::iter::once(line(&heads))
        .chain(rows.iter().map(|r| line(r)))
        .map(|l| format!("  {l}"))
        .collect()
}

/// The book: its head line, the levels side by side, and spread and pressure.
pub fn book_text(r: &BookReport, lang: Lang) -> String {
    let levels = r.bids.len().max(r.asks.len());
    let mut out = vec![text(
        lang,
        "market-book-header",
        &[
            ("symbol", &r.symbol),
            ("source", &r.source.label),
            ("time", &at(r.time_ms, r.source.simulated_clock, lang)),
            ("levels", &r.depth.to_string()),
        ],
    )];
    let cell = |l: Option<&super::report::Level>| {
        l.map(|l| (l.size.normalize().to_string(), l.price.to_string()))
            .unwrap_or_default()
    };
    let rows: Vec<Vec<String>> = (0..levels)
        .map(|i| {
            let (bid_size, bid) = cell(r.bids.get(i));
            let (ask_size, ask) = cell(r.asks.get(i));
            vec![bid_size, bid, ask, ask_size]
        })
        .collect();
    out.extend(table(&text(lang, "market-book-columns", &[]), &rows));
    let Some(pressure) = r.pressure_ratio else {
        out.push(text(
            lang,
            "market-book-one-sided",
            &[("levels", &r.depth.to_string())],
        ));
        return out.join("\n");
    };
    let reading = match pressure.cmp(&Decimal::ONE) {
        std::cmp::Ordering::Greater => "market-book-bids-outweigh",
        std::cmp::Ordering::Less => "market-book-asks-outweigh",
        std::cmp::Ordering::Equal => "market-book-even",
    };
    out.push(text(
        lang,
        "market-book-summary",
        &[
            ("spread", &or_dash(r.spread)),
            ("spread_pct", &or_dash(r.spread_pct)),
            ("pressure", &pressure.normalize().to_string()),
            ("bids", &r.bid_size.normalize().to_string()),
            ("asks", &r.ask_size.normalize().to_string()),
            ("levels", &levels.to_string()),
            ("reading", &text(lang, reading, &[])),
        ],
    ));
    out.join("\n")
}

/// The candles: the last [`CHAT_CANDLE_ROWS`] as a table, and the change, high and low over all.
pub fn klines_text(r: &KlineReport, lang: Lang) -> String {
    let (Some(summary), Some(last)) = (r.summary, r.time_ms) else {
        return text(
            lang,
            "market-klines-none",
            &[
                ("symbol", &r.symbol),
                ("interval", &r.interval),
                ("source", &r.source.label),
            ],
        );
    };
    let shown = &r.candles[r.candles.len().saturating_sub(CHAT_CANDLE_ROWS)..];
    let mut out = vec![text(
        lang,
        "market-klines-header",
        &[
            ("symbol", &r.symbol),
            ("interval", &r.interval),
            ("source", &r.source.label),
            ("count", &shown.len().to_string()),
            ("time", &at(last, r.source.simulated_clock, lang)),
        ],
    )];
    let rows: Vec<Vec<String>> = shown
        .iter()
        .map(|c| {
            vec![
                short_time(c.open_time_ms),
                c.open.to_string(),
                c.high.to_string(),
                c.low.to_string(),
                c.close.to_string(),
                c.volume.round_dp(2).normalize().to_string(),
            ]
        })
        .collect();
    out.extend(table(&text(lang, "market-klines-columns", &[]), &rows));
    let change = summary
        .change_pct
        .map(|c| format!("{}{}", if c > Decimal::ZERO { "+" } else { "" }, c))
        .unwrap_or_else(|| "–".into());
    out.push(text(
        lang,
        "market-klines-summary",
        &[
            ("count", &summary.count.to_string()),
            ("change", &change),
            ("first_open", &summary.first_open.to_string()),
            ("last_close", &summary.last_close.to_string()),
            ("high", &summary.high.to_string()),
            ("low", &summary.low.to_string()),
        ],
    ));
    out.join("\n")
}

/// What a call that gave no data says: the skill's own refusal, the arguments' problems, the
/// limit and when to ask again, or the source's failure. Every value the caller gave is
/// quoted through [`shown_input`].
pub fn error_text(
    e: &MarketError,
    function: &str,
    args: &Value,
    source: &str,
    lang: Lang,
) -> String {
    let what = match function {
        GET_BOOK => "market-what-book",
        GET_KLINE => "market-what-klines",
        _ => "market-what-price",
    };
    let what = text(lang, what, &[]);
    let symbol = shown_input(
        args.get("symbol")
            .and_then(Value::as_str)
            .unwrap_or_default(),
    );
    match e {
        MarketError::Call(CallError::Refused(refusal)) => refusal.message.get(lang).to_string(),
        MarketError::Call(CallError::Invalid(invalid)) => text(
            lang,
            "market-function-invalid",
            &[
                ("what", &what),
                ("problems", &quoted_safely(&invalid.message(lang), args)),
            ],
        ),
        MarketError::Call(CallError::RateLimited { by, retry_in }) => {
            let said = [
                ("what", what.as_str()),
                ("symbol", &symbol),
                ("source", source),
            ];
            rate_limited(by, *retry_in, &said, lang)
        }
        MarketError::NoSource { .. } => text(
            lang,
            "market-function-no-source",
            &[("what", &what), ("symbol", &symbol)],
        ),
        MarketError::UnknownCoin { .. } => {
            text(lang, "market-unknown-symbol", &[("symbol", &symbol)])
        }
        MarketError::BadTime { field, value } => text(
            lang,
            "market-bad-time",
            &[("field", field), ("value", &shown_input(value))],
        ),
        MarketError::StartAfterEnd => text(lang, "market-start-after-end", &[]),
        MarketError::NoAnswerWithin { .. } | MarketError::NotAnswering { .. } => text(
            lang,
            "market-function-failed",
            &[
                ("what", &what),
                ("symbol", &symbol),
                ("source", source),
                ("error", &silence_text(e, lang)),
            ],
        ),
        // The source's own words: the codes only steer the retries.
        MarketError::Call(CallError::Failed { message, .. }) => text(
            lang,
            "market-function-failed",
            &[
                ("what", &what),
                ("symbol", &symbol),
                ("source", source),
                ("error", message),
            ],
        ),
        MarketError::Call(other) => text(
            lang,
            "market-function-failed",
            &[
                ("what", &what),
                ("symbol", &symbol),
                ("source", source),
                ("error", &other.to_string()),
            ],
        ),
    }
}

/// Why a source gave nothing: it did not answer in time, or did not a moment ago (and is
/// left alone until the time said).
pub fn silence_text(e: &MarketError, lang: Lang) -> String {
    match e {
        MarketError::NoAnswerWithin { budget } => text(
            lang,
            "market-error-no-answer",
            &[("seconds", &budget.as_secs().to_string())],
        ),
        MarketError::NotAnswering { ago, again_in } => text(
            lang,
            "market-error-not-answering",
            &[
                ("ago", &ago.as_secs().to_string()),
                ("again", &again_in.as_secs().max(1).to_string()),
            ],
        ),
        other => other.to_string(),
    }
}

/// A rate limit, the budget's or the source's, and when to ask again; `said` names what was
/// asked and where.
fn rate_limited(
    by: &LimitedBy,
    retry_in: std::time::Duration,
    said: &[(&str, &str)],
    lang: Lang,
) -> String {
    // Whole seconds, rounded up: "ask again in 0 s" would be asked again too soon.
    let seconds = retry_in.as_secs() + u64::from(retry_in.subsec_nanos() > 0);
    let seconds = seconds.max(1).to_string();
    match by {
        LimitedBy::Budget { per_minute, .. } => {
            let limit = per_minute.to_string();
            let all = [said, &[("limit", &limit), ("seconds", &seconds)]].concat();
            text(lang, "market-function-rate-limited", &all)
        }
        LimitedBy::Source { message, .. } => {
            let all = [said, &[("error", message), ("seconds", &seconds)]].concat();
            text(lang, "market-function-rate-limited-source", &all)
        }
    }
}

/// `message` with each text argument the caller gave shown as [`shown_input`] shows it: the
/// schema's message repeats values as they came.
pub fn quoted_safely(message: &str, args: &Value) -> String {
    let mut out = message.to_string();
    if let Some(map) = args.as_object() {
        for value in map.values().filter_map(Value::as_str) {
            let shown = shown_input(value);
            if !value.is_empty() && shown != value {
                out = out.replace(value, &shown);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use nofxi_skills::runtime::SkillRuntime;
    use serde_json::json;

    use super::*;
    use crate::market_data::call::market_skill;

    #[test]
    fn a_limit_says_when_to_ask_again_in_whole_seconds() {
        let limited = MarketError::Call(CallError::RateLimited {
            by: LimitedBy::Budget {
                function: Some(GET_KLINE.into()),
                per_minute: 20,
            },
            retry_in: Duration::from_millis(2_500),
        });
        let args = json!({"symbol": "BTCUSDT"});
        let en = error_text(&limited, GET_KLINE, &args, "main (okx), live", Lang::En);
        assert!(
            en.contains("candles of BTCUSDT") && en.contains(" 20 ") && en.contains("3 s"),
            "{en}"
        );
        let zh = error_text(&limited, GET_BOOK, &args, "main（okx）", Lang::Zh);
        assert!(zh.contains("订单簿") && zh.contains("3 秒"), "{zh}");
    }

    #[test]
    fn a_refused_value_is_quoted_escaped() {
        let args = json!({"symbol": "BTCUSDT", "interval": "1h\u{1b}[2J"});
        let runtime = SkillRuntime::new(market_skill().unwrap());
        let invalid = runtime.prepare(GET_KLINE, &args).unwrap_err();
        let said = error_text(&MarketError::Call(invalid), GET_KLINE, &args, "x", Lang::En);
        assert!(
            !said.contains('\u{1b}') && said.contains("\\u{1b}"),
            "{said}"
        );
    }
}
