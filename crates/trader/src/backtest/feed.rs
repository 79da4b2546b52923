//! The bars a backtest steps through, read from the market a page at a time.
//!
//! The backtest driver plays the world, not the trader: it may read ahead to know the next
//! bar, as a replay engine reads its file. The trader's cycle still sees only candles that are
//! closed at the clock, which the driver sets to each bar's close before the cycle runs. A
//! page costs one market read per thousand bars instead of one per bar.

use nofxi_domain::Interval;
use nofxi_domain::market::{Candle, Symbol};
use nofxi_venues::{Clock, KlineQuery, ManualClock, MarketData, VenueError};

/// Most steps one run is offered; a longer quiet stretch is taken in several runs.
const RUN_LOOKAHEAD: usize = 64;

/// One symbol's read-ahead.
struct Page {
    candles: Vec<Candle>,
    next: usize,
    /// Every candle opening at or before this time has been read.
    read_to: i64,
    /// The newest candle handed out: a gap in the data hands it out again.
    newest: Option<Candle>,
}

pub(super) struct BarFeed<'a> {
    market: &'a dyn MarketData,
    clock: &'a ManualClock,
    interval: Interval,
    /// Open time of the last bar of the backtest: nothing after it is read.
    last_open: i64,
    pages: Vec<Page>,
}

impl<'a> BarFeed<'a> {
    pub(super) fn new(
        market: &'a dyn MarketData,
        clock: &'a ManualClock,
        interval: Interval,
        symbols: usize,
        last_open: i64,
    ) -> BarFeed<'a> {
        let page = || Page {
            candles: Vec::new(),
            next: 0,
            read_to: i64::MIN,
            newest: None,
        };
        BarFeed {
            market,
            clock,
            interval,
            last_open,
            pages: (0..symbols).map(|_| page()).collect(),
        }
    }

    /// The newest candle of `symbol` (the `index`th of the feed) opening at or before
    /// `open_ms`, as `klines(ending_at(open_ms, 1))` at that candle's close returns it. Bars
    /// must be asked for in time order; the clock is left where it was.
    pub(super) async fn bar(
        &mut self,
        index: usize,
        symbol: &Symbol,
        open_ms: i64,
    ) -> Result<Option<Candle>, VenueError> {
        let now = self.clock.now_ms();
        let step = self.interval.millis();
        let Some(page) = self.pages.get_mut(index) else {
            return Ok(None);
        };
        if page.read_to == i64::MIN {
            // The first bar may lie before the data or after a gap: ask as the bar would.
            page.newest = self
                .market
                .klines(symbol, self.interval, KlineQuery::ending_at(open_ms, 1))
                .await?
                .pop();
            page.read_to = open_ms;
        }
        loop {
            while let Some(c) = page.candles.get(page.next)
                && c.open_time_ms <= open_ms
            {
                page.newest = Some(*c);
                page.next += 1;
            }
            if page.next < page.candles.len() || page.read_to >= open_ms.min(self.last_open) {
                break;
            }
            let limit = KlineQuery::MAX_LIMIT;
            let start = page.read_to + 1;
            let end = self
                .last_open
                .min(start.saturating_add(step.saturating_mul(limit as i64)));
            // Set the clock to the page's last close, so every candle in it is closed.
            self.clock.set(end.saturating_add(step));
            let read = self
                .market
                .klines(
                    symbol,
                    self.interval,
                    KlineQuery {
                        start_ms: Some(start),
                        end_ms: Some(end),
                        limit,
                    },
                )
                .await;
            self.clock.set(now);
            page.candles = read?;
            page.next = 0;
            page.read_to = match page.candles.last() {
                Some(last) if page.candles.len() == limit => last.open_time_ms,
                _ => end,
            };
        }
        Ok(page.newest)
    }

    /// The bars steps `open_ms`, `open_ms` + 1 interval, … would be handed by
    /// [`BarFeed::bar`], for every symbol, as far as that is one new candle per step from what
    /// is already read; at most `max` steps, cut to the shortest symbol. `None` when the
    /// next step of some symbol is not such a candle (a gap repeats the last one; a page end
    /// needs a read): the bar-by-bar path takes it.
    pub(super) fn run(&self, open_ms: i64, max: usize) -> Option<Vec<&[Candle]>> {
        let step = self.interval.millis();
        // Runs end at the first bar where something happens, a few dozen steps in on the
        // peers' benchmark; checking a whole page ahead each time would be wasted.
        let mut len = max.min(RUN_LOOKAHEAD);
        let mut rests = Vec::with_capacity(self.pages.len());
        for page in &self.pages {
            if page.read_to == i64::MIN {
                return None;
            }
            let rest = page.candles.get(page.next..)?;
            let aligned = (0..rest.len().min(len))
                .take_while(|&t| {
                    let at = open_ms.saturating_add(step.saturating_mul(t as i64));
                    // The newest candle opening by `at` is this one and no later one.
                    rest[t].open_time_ms <= at
                        && match rest.get(t + 1) {
                            Some(later) => later.open_time_ms > at,
                            None => page.read_to >= at,
                        }
                })
                .count();
            if aligned == 0 {
                return None;
            }
            len = len.min(aligned);
            rests.push(rest);
        }
        Some(rests.into_iter().map(|rest| &rest[..len]).collect())
    }

    /// Count the first `n` bars of [`BarFeed::run`] as handed out.
    pub(super) fn advance(&mut self, n: usize) {
        for page in &mut self.pages {
            page.next = (page.next + n).min(page.candles.len());
            if let Some(last) = page.next.checked_sub(1) {
                page.newest = page.candles.get(last).copied().or(page.newest);
            }
        }
    }
}
