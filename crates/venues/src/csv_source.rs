//! Replay of recorded candles from CSV files.
//!
//! # Format
//!
//! One file per symbol and interval, with a header row. Required columns, in any order:
//!
//! ```text
//! timestamp_ms,open,high,low,close,volume
//! 1600000000000,30000.0,30012.5,29990.1,30005.2,12.5
//! ```
//!
//! `timestamp_ms` is the candle's open time in Unix epoch milliseconds (UTC), from 1973 to
//! 9999-12-30 ([`nofxi_domain::moment::LATEST_MS`]); a time in seconds, microseconds or
//! nanoseconds is refused with the multiplication or division that fixes it. Prices and volume
//! are decimal numbers (`1e-5` style exponents are accepted), kept to 8 decimal places, the
//! finest precision a venue quotes (a float written out by pandas carries 17 digits, the last
//! ones noise; dropping them also keeps every price at one scale, which makes comparing them
//! cheap). Extra columns are ignored. This is
//! the format `shared/bench/peer_backtest.py` writes, so the same file can feed nofxi's backtest
//! and the peer frameworks. Rows must be in ascending time order without duplicates; the file is
//! read once, on construction, and an error names the line that is wrong.
//!
//! The replay's "now" is the clock's, and a candle becomes visible only once it has *closed*
//! (`open + interval <= now`): its close is not known before that, and showing it earlier would
//! let a backtest trade on a price from the future. A backtest driving a
//! [`crate::ManualClock`] sees the series unfold bar by bar. The ticker is the
//! latest visible candle's close; there is no order book beyond that price and no funding.

use std::collections::BTreeMap;
use std::path::Path;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use async_trait::async_trait;
use nofxi_domain::Interval;
use nofxi_domain::market::{BookLevel, Candle, FundingRate, OrderBook, Symbol, Ticker};
use nofxi_domain::moment::{LATEST_MS, Precision, clock_face};
use nofxi_domain::validation::shown_input;
use rust_decimal::Decimal;
use rustc_hash::FxHashMap;

use crate::{Clock, KlineQuery, MarketData, VenueError};

/// The columns read, in the order a [`Candle`] is built from them.
const COLUMNS: [&str; 6] = ["timestamp_ms", "open", "high", "low", "close", "volume"];

/// Places kept of every price and volume.
const PLACES: u32 = 8;

fn decimal(field: &str, value: &str, line: u64) -> Result<Decimal, VenueError> {
    let value = value.trim();
    if let Some(d) = plain_decimal(value) {
        return Ok(d);
    }
    if let Ok(d) = Decimal::from_str(value).or_else(|_| Decimal::from_scientific(value)) {
        return Ok(d.round_dp(PLACES));
    }
    // A number a decimal cannot hold: too large is said as such; a tiny one (`1e-300`) is
    // below what is kept, so it is 0 here and [`price`] says so for a price.
    match value.parse::<f64>() {
        Ok(f) if f.is_finite() && f.abs() < 1.0 => Ok(Decimal::ZERO),
        Ok(f) if f.is_finite() => Err(VenueError::InvalidRequest(format!(
            "line {line}: {field} \"{}\" is too large: nofxi keeps numbers up to about 7.9e28",
            shown_input(value)
        ))),
        _ => Err(VenueError::InvalidRequest(format!(
            "line {line}: {field} \"{}\" is not a number",
            shown_input(value)
        ))),
    }
}

/// A price column: as [`decimal`], and a positive value that rounds to 0 at [`PLACES`]
/// (`1e-12`) is refused as given, not as the `0.00000000` it became.
fn price(field: &str, value: &str, line: u64) -> Result<Decimal, VenueError> {
    let d = decimal(field, value, line)?;
    let positive = value.trim().parse::<f64>().is_ok_and(|f| f > 0.0);
    if d.is_zero() && positive {
        return Err(VenueError::InvalidRequest(format!(
            "line {line}: {field} \"{}\" is below the smallest price nofxi keeps (0.00000001)",
            shown_input(value.trim())
        )));
    }
    Ok(d)
}

/// Most significant digits a decimal holds exactly (its mantissa is under 2^96 ≈ 7.9e28).
const EXACT_DIGITS: usize = 28;

/// `Decimal::from_str(value)` rounded to [`PLACES`] with `round_dp`'s banker's rounding, for
/// the common form `digits[.digits]` of at most [`EXACT_DIGITS`] digits, in one pass over
/// the digits; `None` for anything else (a sign, an exponent, more digits), which the general
/// parse takes. `round_dp` over a 17-digit float's decimal is a 96-bit division per field,
/// and most of a million-row file's load time went there.
fn plain_decimal(value: &str) -> Option<Decimal> {
    let (whole, fraction) = value.split_once('.').unwrap_or((value, ""));
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty()
        || whole.len() + fraction.len() > EXACT_DIGITS
        || !all_digits(whole)
        || !all_digits(fraction)
        || (value.contains('.') && fraction.is_empty())
    {
        return None;
    }
    let places = PLACES as usize;
    let (kept, dropped) = fraction.split_at(fraction.len().min(places));
    let mut mantissa: u128 = 0;
    for b in whole.bytes().chain(kept.bytes()) {
        mantissa = mantissa * 10 + u128::from(b - b'0');
    }
    // Banker's rounding on the dropped digits: above half up, below down, exactly half to
    // the even neighbour.
    let mut dropped = dropped.bytes().map(|b| b - b'0');
    if let Some(first) = dropped.next() {
        let rest_nonzero = dropped.any(|d| d != 0);
        let up = first > 5 || (first == 5 && (rest_nonzero || mantissa % 2 == 1));
        mantissa += u128::from(up);
    }
    let scale = u32::try_from(kept.len()).ok()?;
    Decimal::try_from_i128_with_scale(i128::try_from(mantissa).ok()?, scale).ok()
}

/// Candles from a CSV file (see the module docs for the format), with room for all its rows
/// reserved up front from the file's size: growing a million-candle vector by doubling
/// copied it and faulted its pages in twice over.
/// Only a regular file is read, as a stream with a cap on each line ([`crate::csv_input`]).
pub fn read_candles_file(path: &Path) -> Result<Vec<Candle>, VenueError> {
    let (file, bytes) = crate::csv_input::open_regular(path)?;
    parse_candles_sized(std::io::BufReader::new(file), bytes)
}

/// Parse candles from CSV text (see the module docs for the format).
pub fn parse_candles(reader: impl std::io::Read) -> Result<Vec<Candle>, VenueError> {
    parse_candles_sized(reader, 0)
}

/// [`parse_candles`] of a text of `bytes` bytes (0 if unknown): once the first row is read,
/// its length says about how many rows follow, and room for them is reserved.
///
/// Rows are read as raw records and each field parsed in place: a million-row file is read
/// without a string allocated per field.
fn parse_candles_sized(reader: impl std::io::Read, bytes: u64) -> Result<Vec<Candle>, VenueError> {
    let capped = crate::csv_input::LineCapped::new(reader, crate::csv_input::MAX_LINE_BYTES);
    let mut csv = csv::Reader::from_reader(capped);
    let headers = csv.headers().map_err(|e| read_error(&e, 1))?;
    let mut at = [0usize; COLUMNS.len()];
    for (slot, name) in at.iter_mut().zip(COLUMNS) {
        *slot = headers
            .iter()
            .position(|h| h.trim() == name)
            .ok_or_else(|| {
                VenueError::InvalidRequest(format!(
                    "line 1: no {name} column; the header needs {}",
                    COLUMNS.join(",")
                ))
            })?;
    }
    let header_end = csv.position().byte();
    let mut out: Vec<Candle> = Vec::new();
    let mut record = csv::StringRecord::new();
    let mut line = 1u64;
    loop {
        line += 1;
        let more = csv
            .read_record(&mut record)
            .map_err(|e| read_error(&e, line))?;
        if !more {
            break;
        }
        let field = |i: usize| record.get(at[i]).unwrap_or_default();
        let timestamp = field(0).trim();
        let open_time_ms = timestamp.parse::<i64>().map_err(|_| {
            VenueError::InvalidRequest(format!(
                "line {line}: timestamp_ms \"{}\" is not whole milliseconds",
                shown_input(timestamp)
            ))
        })?;
        let candle = Candle {
            open_time_ms,
            open: price(COLUMNS[1], field(1), line)?,
            high: price(COLUMNS[2], field(2), line)?,
            low: price(COLUMNS[3], field(3), line)?,
            close: price(COLUMNS[4], field(4), line)?,
            volume: decimal(COLUMNS[5], field(5), line)?,
        };
        check_candle(&candle, line)?;
        if let Some(prev) = out.last()
            && prev.open_time_ms >= candle.open_time_ms
        {
            return Err(VenueError::InvalidRequest(format!(
                "line {line}: timestamp {} is not after the previous row's {}: sort the file by time",
                candle.open_time_ms, prev.open_time_ms
            )));
        }
        if out.is_empty() {
            let read = csv.position().byte();
            reserve_rows(&mut out, read, read.saturating_sub(header_end), bytes);
        }
        out.push(candle);
    }
    if out.is_empty() {
        return Err(VenueError::InvalidRequest(format!(
            "line {line}: no candles after the header: the file needs at least one row of {}",
            COLUMNS.join(",")
        )));
    }
    Ok(out)
}

/// A CSV reader's error at `line`; an over-long line names its own number.
fn read_error(e: &csv::Error, line: u64) -> VenueError {
    match crate::csv_input::line_too_long(e) {
        Some(long) => VenueError::InvalidRequest(long.to_string()),
        None => VenueError::InvalidRequest(format!("line {line}: {e}")),
    }
}

/// Open times before this many milliseconds (1973-03-03) are taken for seconds: every
/// exchange's history starts decades later, and a seconds-resolution timestamp of today
/// (~1.7e9) falls far below it, where read as milliseconds it would be January 1970.
const SECONDS_BELOW_MS: i64 = 100_000_000_000;

/// A row that cannot be a traded candle, refused with its line rather than replayed: a zero
/// or negative price, a high under the low, an open or close outside the bar's range, a
/// negative volume, or a time in seconds, microseconds or nanoseconds.
fn check_candle(c: &Candle, line: u64) -> Result<(), VenueError> {
    let bad = |why: String| Err(VenueError::InvalidRequest(format!("line {line}: {why}")));
    if c.open_time_ms > LATEST_MS {
        return bad(past_latest(c.open_time_ms));
    }
    if c.open_time_ms < SECONDS_BELOW_MS {
        return bad(format!(
            "timestamp_ms {} is before 1973: it looks like seconds (or is not a time); write \
             the open time in epoch milliseconds (seconds × 1000)",
            c.open_time_ms
        ));
    }
    let prices = [
        (COLUMNS[1], c.open),
        (COLUMNS[2], c.high),
        (COLUMNS[3], c.low),
        (COLUMNS[4], c.close),
    ];
    for (name, price) in prices {
        if price <= Decimal::ZERO {
            return bad(format!("{name} {price} is not a positive price"));
        }
    }
    if c.volume < Decimal::ZERO {
        return bad(format!("volume {} is negative", c.volume));
    }
    if c.high < c.low {
        return bad(format!("high {} is below low {}", c.high, c.low));
    }
    for (name, price) in [(COLUMNS[1], c.open), (COLUMNS[4], c.close)] {
        if price < c.low || price > c.high {
            return bad(format!(
                "{name} {price} is outside the bar's range [low {}, high {}]",
                c.low, c.high
            ));
        }
    }
    Ok(())
}

/// Why an open time past [`LATEST_MS`] is no time in milliseconds, and the fix. Every `i64`
/// past it is a time of 1978 or later read in microseconds (÷1000) or, past that, of 1978 to
/// 2262 in nanoseconds (÷1000000): the unit that brings it into range is named, with the
/// date it would then be.
fn past_latest(ms: i64) -> String {
    let (unit, divisor) = if ms / 1_000 <= LATEST_MS {
        ("microseconds", 1_000)
    } else {
        ("nanoseconds", 1_000_000)
    };
    format!(
        "timestamp_ms {ms} is after 9999-12-30, the latest time nofxi reads: it looks like \
         {unit} ({} as such); divide by {divisor} for epoch milliseconds",
        clock_face(ms / divisor, Precision::Minute)
    )
}

/// Room for the rows of a `total`-byte text whose first row ended at byte `read` and took
/// `row` bytes, as if every row were an eighth shorter than the first (rows differ by a digit
/// or two), so the vector is not grown again. Unused room is address space, never touched.
fn reserve_rows(out: &mut Vec<Candle>, read: u64, row: u64, total: u64) {
    let rows = total.saturating_sub(read) / (row - row / 8).max(1);
    out.reserve(usize::try_from(rows).unwrap_or(0).saturating_add(1));
}

/// One loaded series, and where its visible part ended at the last lookup: a replay's clock
/// moves forward a candle at a time, so the next boundary is almost always at or near the last
/// one, and searching outward from there spares a binary search over millions of candles (and
/// its cache misses) several times per cycle. A backtest that reads a page ahead and comes
/// back costs a few probes, not a whole search.
#[derive(Debug)]
struct Series {
    candles: Vec<Candle>,
    hint: AtomicUsize,
}

impl Series {
    fn new(candles: Vec<Candle>) -> Series {
        Series {
            candles,
            hint: AtomicUsize::new(0),
        }
    }

    /// The candles closed at `now`: those with `open + interval <= now`.
    fn closed_by(&self, now: i64, interval: Interval) -> &[Candle] {
        let all = &self.candles;
        let step = interval.millis();
        // Saturating: a candle given at the end of `i64` (not read from a file, which bounds
        // its times) never closes rather than wrapping round to a close in the past.
        let closed = |c: &Candle| c.open_time_ms.saturating_add(step) <= now;
        let hint = self.hint.load(Ordering::Relaxed).min(all.len());
        let n = gallop(all, hint, closed);
        self.hint.store(n, Ordering::Relaxed);
        &all[..n]
    }
}

/// The partition point of `pred` over `all` (true, then false), searched outward from `near`
/// in doubling steps: O(log d) for a boundary d places away.
fn gallop<T>(all: &[T], near: usize, pred: impl Fn(&T) -> bool) -> usize {
    let near = near.min(all.len());
    if all.get(near).is_some_and(&pred) {
        // The boundary is after `near`.
        let mut lo = near + 1;
        let mut step = 1;
        loop {
            let probe = near.saturating_add(step);
            if probe >= all.len() || !pred(&all[probe]) {
                let hi = probe.min(all.len());
                return lo + all[lo..hi].partition_point(&pred);
            }
            lo = probe + 1;
            step *= 2;
        }
    }
    // The boundary is at or before `near`.
    let mut hi = near;
    let mut step = 1;
    loop {
        let Some(probe) = near.checked_sub(step) else {
            return all[..hi].partition_point(&pred);
        };
        if pred(&all[probe]) {
            return probe + 1 + all[probe + 1..hi].partition_point(&pred);
        }
        hi = probe;
        step *= 2;
    }
}

/// A market that replays CSV candles for the symbols and intervals it was given.
#[derive(Debug, Clone)]
pub struct CsvMarket {
    /// Per symbol, its series by interval, finest first (`Interval` orders by length). Keyed
    /// by symbol alone so a lookup borrows the symbol instead of building a key per call.
    series: FxHashMap<Symbol, BTreeMap<Interval, Arc<Series>>>,
    clock: Arc<dyn Clock>,
}

impl CsvMarket {
    pub fn new(clock: Arc<dyn Clock>) -> CsvMarket {
        CsvMarket {
            series: FxHashMap::default(),
            clock,
        }
    }

    pub fn with_candles(
        mut self,
        symbol: Symbol,
        interval: Interval,
        candles: Vec<Candle>,
    ) -> Self {
        self.series
            .entry(symbol)
            .or_default()
            .insert(interval, Arc::new(Series::new(candles)));
        self
    }

    pub fn with_file(
        self,
        symbol: Symbol,
        interval: Interval,
        path: &Path,
    ) -> Result<Self, VenueError> {
        let candles = read_candles_file(path)?;
        Ok(self.with_candles(symbol, interval, candles))
    }

    fn series(&self, symbol: &Symbol, interval: Interval) -> Result<&Series, VenueError> {
        self.series
            .get(symbol)
            .and_then(|by_interval| by_interval.get(&interval))
            .map(|s| s.as_ref())
            .ok_or_else(|| VenueError::NoData {
                venue: "csv".into(),
                what: format!("{symbol} {interval} (load a file for it)"),
            })
    }

    /// Candles closed at the clock's now.
    fn visible(&self, symbol: &Symbol, interval: Interval) -> Result<&[Candle], VenueError> {
        Ok(self.visible_in(self.series(symbol, interval)?, interval))
    }

    fn visible_in<'a>(&self, series: &'a Series, interval: Interval) -> &'a [Candle] {
        series.closed_by(self.clock.now_ms(), interval)
    }

    /// The finest series loaded for a symbol: what the ticker reads.
    fn finest(&self, symbol: &Symbol) -> Result<&[Candle], VenueError> {
        let (interval, all) = self
            .series
            .get(symbol)
            .and_then(|by_interval| by_interval.iter().next())
            .ok_or_else(|| VenueError::NoData {
                venue: "csv".into(),
                what: symbol.to_string(),
            })?;
        Ok(self.visible_in(all, *interval))
    }
}

#[async_trait]
impl MarketData for CsvMarket {
    fn source(&self) -> &str {
        "csv"
    }

    async fn ticker(&self, symbol: &Symbol) -> Result<Ticker, VenueError> {
        let last = self
            .finest(symbol)?
            .last()
            .ok_or_else(|| VenueError::NoData {
                venue: "csv".into(),
                what: format!("{symbol} before the replay's first candle"),
            })?;
        Ok(Ticker {
            symbol: symbol.clone(),
            last: last.close,
            bid: last.close,
            ask: last.close,
            mark: last.close,
            volume_24h: last.volume,
            time_ms: self.clock.now_ms(),
        })
    }

    async fn order_book(&self, symbol: &Symbol, _depth: usize) -> Result<OrderBook, VenueError> {
        let t = self.ticker(symbol).await?;
        let level = BookLevel {
            price: t.last,
            quantity: t.volume_24h,
        };
        Ok(OrderBook {
            symbol: symbol.clone(),
            bids: vec![level],
            asks: vec![level],
            time_ms: t.time_ms,
        })
    }

    async fn klines(
        &self,
        symbol: &Symbol,
        interval: Interval,
        query: KlineQuery,
    ) -> Result<Vec<Candle>, VenueError> {
        query.validate()?;
        let visible = self.visible(symbol, interval)?;
        let end = query.end_ms.unwrap_or(i64::MAX);
        // Usually the query ends at or after the newest visible candle: no search needed.
        let upto = if visible.last().is_none_or(|c| c.open_time_ms <= end) {
            visible.len()
        } else {
            visible.partition_point(|c| c.open_time_ms <= end)
        };
        let from = match query.start_ms {
            // A warm decider asks for the last few candles: search back from the end.
            Some(s) => gallop(&visible[..upto], upto, |c| c.open_time_ms < s),
            None => upto.saturating_sub(query.limit),
        };
        let to = upto.min(from.saturating_add(query.limit)).max(from);
        Ok(visible[from..to].to_vec())
    }

    async fn funding_rate(&self, _symbol: &Symbol) -> Result<Option<FundingRate>, VenueError> {
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The general parse, rounded: what `plain_decimal` must give whenever it gives anything.
    fn reference(value: &str) -> Option<Decimal> {
        Decimal::from_str(value).ok().map(|d| d.round_dp(PLACES))
    }

    /// Digit strings of every length up to past the exact limit, with the dropped digits at
    /// and around the rounding midpoint (…5, …50…0, …49…9, …50…01) and on odd and even
    /// kept digits: the fast path equals `from_str` + `round_dp` digit for digit, scale
    /// included, or declines.
    #[test]
    fn plain_decimals_round_as_round_dp_does() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        let tails = [
            "", "5", "50", "500000", "49999", "500001", "4", "6", "0", "99",
        ];
        let mut taken = 0;
        for _ in 0..100_000 {
            let whole: String = (0..1 + next(12))
                .map(|_| char::from(b'0' + next(10) as u8))
                .collect();
            let kept: String = (0..next(10))
                .map(|_| char::from(b'0' + next(10) as u8))
                .collect();
            let tail = tails[next(tails.len() as u64) as usize];
            let value = if kept.is_empty() && tail.is_empty() {
                whole
            } else {
                format!("{whole}.{kept}{tail}")
            };
            match plain_decimal(&value) {
                Some(fast) => {
                    taken += 1;
                    let want = reference(&value).unwrap();
                    assert_eq!(
                        fast.serialize(),
                        want.serialize(),
                        "{value}: {fast} vs {want}"
                    );
                }
                None => assert!(value.len() > EXACT_DIGITS, "{value} declined"),
            }
        }
        assert!(taken > 90_000, "{taken}");
        for declined in ["-1.5", "+1", "1e5", "1.", ".5", "", "1.2.3", "1_000", " 1"] {
            assert_eq!(plain_decimal(declined), None, "{declined}");
        }
        assert_eq!(plain_decimal("0.000000015"), reference("0.000000015"));
        assert_eq!(plain_decimal("0.000000025"), reference("0.000000025"));
        assert_eq!(plain_decimal("30000.0"), Some(Decimal::new(300000, 1)));
    }
    use crate::ManualClock;

    #[test]
    fn a_missing_column_or_a_bad_timestamp_is_named() {
        let no_close = "timestamp_ms,open,high,low,volume\n1600000000000,1,2,0.5,3\n";
        let err = parse_candles(no_close.as_bytes()).unwrap_err().to_string();
        assert!(
            err.contains("line 1") && err.contains("no close column"),
            "{err}"
        );
        let bad_time = "timestamp_ms,open,high,low,close,volume\n2020-01-01,1,2,0.5,1.5,3\n";
        let err = parse_candles(bad_time.as_bytes()).unwrap_err().to_string();
        assert!(
            err.contains("line 2") && err.contains("timestamp_ms"),
            "{err}"
        );
    }

    #[test]
    fn galloping_from_any_hint_finds_the_partition_point() {
        for len in 0..40usize {
            let values: Vec<usize> = (0..len).collect();
            for cut in 0..=len {
                for near in 0..=len + 2 {
                    assert_eq!(
                        gallop(&values, near, |&v| v < cut),
                        cut,
                        "len {len} near {near}"
                    );
                }
            }
        }
    }

    const CSV: &str = "timestamp_ms,open,high,low,close,volume\n\
        1600000000000,30000.0,30010.0,29990.0,30005.0,12.5\n\
        1600000060000,30005.0,30020.0,30000.0,30015.5,3.25e1\n\
        1600000120000,30015.5,30016.0,29980.0,29985.0,7\n";

    #[tokio::test]
    async fn replays_the_peer_backtest_format_up_to_the_clock() {
        let candles = parse_candles(CSV.as_bytes()).unwrap();
        assert_eq!(candles[1].volume, Decimal::from(325) / Decimal::from(10));
        let clock = ManualClock::new(1_600_000_060_000);
        let btc = Symbol::parse("BTC").unwrap();
        let m = CsvMarket::new(Arc::new(clock.clone())).with_candles(
            btc.clone(),
            Interval::M1,
            candles,
        );
        // The second candle has just opened: its close is the future, so it is not visible.
        let seen = m
            .klines(&btc, Interval::M1, KlineQuery::latest(10))
            .await
            .unwrap();
        assert_eq!(seen.len(), 1);
        assert_eq!(m.ticker(&btc).await.unwrap().last.to_string(), "30005.0");
        // At its close it is.
        clock.set(1_600_000_120_000);
        assert_eq!(m.ticker(&btc).await.unwrap().last.to_string(), "30015.5");
        clock.set(1_600_000_200_000);
        let seen = m
            .klines(&btc, Interval::M1, KlineQuery::latest(2))
            .await
            .unwrap();
        assert_eq!(seen[1].close.to_string(), "29985.0");
        assert!(
            m.klines(&btc, Interval::H1, KlineQuery::latest(2))
                .await
                .is_err()
        );
    }

    #[test]
    fn a_bad_row_is_reported_with_its_line() {
        let bad = "timestamp_ms,open,high,low,close,volume\n\
            1600000000000,1,1,1,1,1\n1600000060000,1,x,1,1,1\n";
        let err = parse_candles(bad.as_bytes()).unwrap_err().to_string();
        assert!(err.contains("line 3") && err.contains("high"), "{err}");
        let unsorted = "timestamp_ms,open,high,low,close,volume\n\
            1600000060000,1,1,1,1,1\n1600000000000,1,1,1,1,1\n";
        assert!(
            parse_candles(unsorted.as_bytes())
                .unwrap_err()
                .to_string()
                .contains("sort")
        );
    }

    /// A number too large for a decimal is said to be too large, and a price below the
    /// smallest one kept is said as given (it used to read `0.00000000 is not a positive
    /// price`).
    #[test]
    fn out_of_reach_numbers_are_said_as_given() {
        let head = "timestamp_ms,open,high,low,close,volume\n";
        let big = format!("{head}1600000000000,1,1e+300,1,1,1\n");
        let err = parse_candles(big.as_bytes()).unwrap_err().to_string();
        assert!(err.contains("high \"1e+300\" is too large"), "{err}");
        for tiny in ["1e-12", "0.000000001", "1e-300"] {
            let text = format!("{head}1600000000000,{tiny},1,{tiny},1,1\n");
            let err = parse_candles(text.as_bytes()).unwrap_err().to_string();
            assert!(
                err.contains(&format!("open \"{tiny}\" is below the smallest price")),
                "{err}"
            );
        }
        let long = format!("{head}{}\n", "\0".repeat(200_000));
        let err = parse_candles(long.as_bytes()).unwrap_err().to_string();
        assert!(err.contains("line 2 is longer than"), "{err}");
    }

    /// A timestamp past 9999 (`i64::MAX` was accepted as year 292 million, and the end one
    /// candle after it overflowed into a negative date) is refused by its line and column,
    /// with the unit it looks like and the division that fixes it.
    #[test]
    fn timestamps_past_the_year_9999_are_refused_with_their_unit() {
        const HEAD: &str = "timestamp_ms,open,high,low,close,volume\n";
        const OK: &str = "1600000000000,10,12,9,11,5\n";
        let cases = [
            ("1600000000000000", "microseconds", "divide by 1000"),
            ("1600000000000000000", "nanoseconds", "divide by 1000000"),
            (&i64::MAX.to_string(), "nanoseconds", "divide by 1000000"),
            ("999999999999999999", "nanoseconds", "divide by 1000000"),
        ];
        for (stamp, unit, fix) in cases {
            let text = format!("{HEAD}{OK}{stamp},10,12,9,11,5\n");
            let err = parse_candles(text.as_bytes()).unwrap_err().to_string();
            assert!(
                err.contains("line 3")
                    && err.contains(&format!("timestamp_ms {stamp} is after 9999-12-30"))
                    && err.contains(unit)
                    && err.contains(fix),
                "{stamp}: {err}"
            );
        }
        let last = nofxi_domain::moment::LATEST_MS;
        let text = format!("{HEAD}{last},10,12,9,11,5\n");
        assert_eq!(
            parse_candles(text.as_bytes()).unwrap()[0].open_time_ms,
            last
        );
    }

    /// A cell an error quotes is escaped and cut: a candle file cannot rewrite the terminal
    /// through the error about it, nor flood it.
    #[test]
    fn errors_quote_cells_escaped_and_cut() {
        const HEAD: &str = "timestamp_ms,open,high,low,close,volume\n";
        let esc = "\u{1b}]0;pwned\u{7}\u{1b}[2J";
        let long = "7".repeat(5000);
        for row in [
            format!("16000000{esc}00000,1,1,1,1,1\n"),
            format!("1600000000000,1{esc},1,1,1,1\n"),
            format!("1600000000000,1,1,1,1,{long}x\n"),
        ] {
            let err = parse_candles(format!("{HEAD}{row}").as_bytes())
                .unwrap_err()
                .to_string();
            assert!(
                err.contains("line 2")
                    && !err.chars().any(nofxi_domain::validation::hidden_character)
                    && err.len() < 300,
                "{err:?}"
            );
        }
        let err = parse_candles(format!("{HEAD}1600000000000,1{esc},1,1,1,1\n").as_bytes())
            .unwrap_err()
            .to_string();
        assert!(err.contains("open \"1\\u{1b}]0;pwned\\u{7}"), "{err}");
    }

    /// Candles given as they are (not read from a file) at the end of `i64` never close and
    /// never overflow the close time computed from them.
    #[tokio::test]
    async fn candles_at_the_end_of_time_never_overflow() {
        let btc = Symbol::parse("BTC").unwrap();
        let candle = |t: i64| Candle {
            open_time_ms: t,
            open: Decimal::ONE,
            high: Decimal::ONE,
            low: Decimal::ONE,
            close: Decimal::ONE,
            volume: Decimal::ONE,
        };
        let clock = ManualClock::new(i64::MAX - 1);
        let m = CsvMarket::new(Arc::new(clock)).with_candles(
            btc.clone(),
            Interval::M1,
            vec![candle(1_600_000_000_000), candle(i64::MAX - 1)],
        );
        let seen = m
            .klines(&btc, Interval::M1, KlineQuery::latest(10))
            .await
            .unwrap();
        assert_eq!(seen.len(), 1);
    }

    /// Files that cannot be a market's history are refused with the line and the reason,
    /// not replayed: a backtest over them would report figures of nothing.
    #[test]
    fn impossible_candles_are_refused_with_their_line() {
        const HEAD: &str = "timestamp_ms,open,high,low,close,volume\n";
        const OK: &str = "1600000000000,10,12,9,11,5\n";
        let cases = [
            ("", "line 2", "no candles"),
            (
                "1600000060000,0,12,9,11,5\n",
                "line 3",
                "open 0 is not a positive price",
            ),
            (
                "1600000060000,10,12,-9,11,5\n",
                "line 3",
                "low -9 is not a positive price",
            ),
            (
                "1600000060000,10,9,12,11,5\n",
                "line 3",
                "high 9 is below low 12",
            ),
            (
                "1600000060000,13,12,9,11,5\n",
                "line 3",
                "open 13 is outside",
            ),
            (
                "1600000060000,10,12,9,8,5\n",
                "line 3",
                "close 8 is outside",
            ),
            (
                "1600000060000,10,12,9,11,-1\n",
                "line 3",
                "volume -1 is negative",
            ),
            ("1600000060,10,12,9,11,5\n", "line 3", "looks like seconds"),
        ];
        for (row, line, why) in cases {
            let text = format!("{HEAD}{}{row}", if row.is_empty() { "" } else { OK });
            let err = parse_candles(text.as_bytes()).unwrap_err().to_string();
            assert!(err.contains(line) && err.contains(why), "{row:?}: {err}");
        }
        let header_only = parse_candles(HEAD.as_bytes()).unwrap_err().to_string();
        assert!(header_only.contains("line 2"), "{header_only}");
        assert!(parse_candles(format!("{HEAD}{OK}").as_bytes()).is_ok());
    }
}
