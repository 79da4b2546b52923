//! Paging a venue's klines into the store: plan what time is not covered yet, then ask for it
//! one page at a time, recording each page as covered once its candles are on disk.

use std::ops::ControlFlow;

use nofxi_domain::Interval;

use super::ranges::{self, Span};
use super::store::{HistoryError, HistoryStore, Hole, SeriesKey};
use crate::{KlineQuery, MarketData, align_open_time};

/// Candles asked for per request: the most every venue's klines take through [`KlineQuery`].
pub const PAGE: usize = KlineQuery::MAX_LIMIT;

/// What a download of one series will ask for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DownloadPlan {
    pub series: SeriesKey,
    /// The range asked for, aligned to the interval and ended at the last closed candle.
    pub range: Span,
    /// The parts of it not downloaded before.
    pub missing: Vec<Span>,
    pub pages: u64,
}

/// The range `[from_ms, to_ms)` of `series` (candles whose open time is in it), less what the
/// store already covers. Only closed candles are downloaded: the range ends at the candle open
/// at `now_ms`, whose prices are still moving.
pub fn plan(
    store: &HistoryStore,
    series: &SeriesKey,
    from_ms: i64,
    to_ms: i64,
    now_ms: i64,
) -> Result<DownloadPlan, HistoryError> {
    let step = series.interval.millis();
    let up = |t: i64| align_open_time(series.interval, t.saturating_add(step - 1));
    let range = Span::new(
        up(from_ms),
        up(to_ms).min(align_open_time(series.interval, now_ms)),
    );
    let manifest = store.manifest(series)?;
    let missing = if range.is_empty() {
        Vec::new()
    } else {
        ranges::uncovered(&manifest.covered, range)
    };
    let pages = missing.iter().map(|s| pages_in(*s, series.interval)).sum();
    Ok(DownloadPlan {
        series: series.clone(),
        range,
        missing,
        pages,
    })
}

fn pages_in(span: Span, interval: Interval) -> u64 {
    let per_page = interval.millis() * PAGE as i64;
    u64::try_from((span.to_ms - span.from_ms + per_page - 1) / per_page).unwrap_or(0)
}

/// One page on disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageDone {
    pub candles: usize,
    pub to_ms: i64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DownloadReport {
    pub series: SeriesKey,
    pub range: Span,
    pub pages: u64,
    /// Candles the venue sent in this run.
    pub received: u64,
    /// False when the progress callback asked to stop before the end.
    pub complete: bool,
    /// Holes inside the range asked for (the whole series' holes are in its manifest).
    pub holes: Vec<Hole>,
    /// Candles the series holds now, all ranges together.
    pub stored: u64,
}

/// Carry out `plan` from `market`. Each page is one klines request for at most [`PAGE`]
/// candles, through the venue client's own pacing and retries; its candles are appended and
/// then its time recorded as covered. `on_page` is told of each page and may stop the run
/// ([`ControlFlow::Break`]), which leaves the store resumable as a kill would. A venue error
/// ends the run with the pages before it kept.
pub async fn download(
    market: &dyn MarketData,
    store: &HistoryStore,
    plan: &DownloadPlan,
    on_page: &mut (dyn FnMut(PageDone) -> ControlFlow<()> + Send),
) -> Result<DownloadReport, HistoryError> {
    let series = &plan.series;
    let step = series.interval.millis();
    let _writer = store.lock(series)?;
    // Months a killed run left uncompressed are folded in first.
    store.compress_parts(series)?;
    let mut covered = store.manifest(series)?.covered;
    let mut pages = 0;
    let mut received = 0u64;
    let mut complete = true;
    let result = async {
        'spans: for span in &plan.missing {
            let mut cursor = span.from_ms;
            while cursor < span.to_ms {
                let end = cursor.saturating_add(step * PAGE as i64).min(span.to_ms);
                let query = KlineQuery {
                    start_ms: Some(cursor),
                    end_ms: Some(end - 1),
                    limit: PAGE,
                };
                let mut candles = market
                    .klines(&series.symbol, series.interval, query)
                    .await?;
                candles.retain(|c| (cursor..end).contains(&c.open_time_ms));
                store.append(series, &candles)?;
                covered = ranges::add(&covered, Span::new(cursor, end));
                let mut m = store.manifest(series)?;
                m.covered = covered.clone();
                store.save_manifest(series, &m)?;
                pages += 1;
                received += candles.len() as u64;
                cursor = end;
                let done = PageDone {
                    candles: candles.len(),
                    to_ms: end,
                };
                if on_page(done).is_break() {
                    complete = false;
                    break 'spans;
                }
            }
        }
        Ok::<(), HistoryError>(())
    }
    .await;
    // Whatever happened, what is on disk is folded into months and counted again; a failed run
    // reports its own error, not one of this tidying.
    let tidy = store
        .compress_parts(series)
        .and_then(|()| store.recount(series, covered));
    result?;
    let manifest = tidy?;
    let holes = manifest
        .holes
        .iter()
        .filter(|h| h.to_ms > plan.range.from_ms && h.from_ms < plan.range.to_ms)
        .copied()
        .collect();
    Ok(DownloadReport {
        series: series.clone(),
        range: plan.range,
        pages,
        received,
        complete,
        holes,
        stored: manifest.candles,
    })
}
