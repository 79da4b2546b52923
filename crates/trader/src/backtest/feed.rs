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
    /// `candles[next..gapless]` follow each other one interval apart, so a run through
    /// them needs no candle-by-candle check. Found again after each gap.
    gapless: usize,
}

/// How many leading candles follow each other exactly `step` apart.
fn gapless_prefix(candles: &[Candle], step: i64) -> usize {
    let joined = candles
        .windows(2)
        .take_while(|w| w[0].open_time_ms.checked_add(step) == Some(w[1].open_time_ms))
        .count();
    (joined + 1).min(candles.len())
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
            gapless: 0,
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
            page.gapless = 0;
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
    pub(super) fn run(&mut self, open_ms: i64, max: usize) -> Option<Vec<&[Candle]>> {
        let step = self.interval.millis();
        // Runs end at the first bar where something happens, a few dozen steps in on the
        // peers' benchmark; checking a whole page ahead each time would be wasted.
        let mut len = max.min(RUN_LOOKAHEAD);
        let mut rests = Vec::with_capacity(self.pages.len());
        for page in &mut self.pages {
            if page.read_to == i64::MIN {
                return None;
            }
            if page.gapless <= page.next {
                let rest = page.candles.get(page.next..).unwrap_or_default();
                page.gapless = page.next + gapless_prefix(rest, step);
            }
            let page = &*page;
            let rest = page.candles.get(page.next..)?;
            // The common case: the next candle is the one of this step and a gapless stretch
            // follows, so each of them is the newest at its step. The stretch's last candle
            // of a page also needs the page read up to its step.
            if let Some(first) = rest.first()
                && first.open_time_ms <= open_ms
                && first.open_time_ms > open_ms - step
                && page.next < page.gapless
            {
                let mut stretch = page.gapless - page.next;
                let last_at = open_ms.saturating_add(step.saturating_mul(stretch as i64 - 1));
                if page.gapless == page.candles.len() && page.read_to < last_at {
                    stretch -= 1;
                }
                if stretch > 0 {
                    len = len.min(stretch);
                    rests.push(rest);
                    continue;
                }
            }
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::sync::Arc;

    use nofxi_venues::Clock;
    use nofxi_venues::csv_source::CsvMarket;
    use rust_decimal::Decimal;

    use super::*;

    const FROM: i64 = 1_600_000_000_000;
    const MINUTE: i64 = 60_000;

    /// Every run the feed offers is what asking bar by bar would hand out, on data with
    /// holes of every length (repeats of the last candle), some across page ends.
    #[tokio::test]
    async fn runs_hand_out_what_bar_by_bar_would() {
        let symbol = Symbol::parse("BTCUSDT").unwrap();
        let candles: Vec<Candle> = (0..5_000i64)
            .filter(|i| i % 331 > i % 7 && !(1_995..2_003).contains(i))
            .map(|i| Candle {
                open_time_ms: FROM + i * MINUTE,
                open: Decimal::from(i),
                high: Decimal::from(i + 1),
                low: Decimal::from(i),
                close: Decimal::from(i),
                volume: Decimal::ONE,
            })
            .collect();
        let clock = Arc::new(ManualClock::new(FROM));
        let market = CsvMarket::new(clock.clone() as Arc<dyn Clock>).with_candles(
            symbol.clone(),
            Interval::M1,
            candles,
        );
        let last_open = FROM + 4_999 * MINUTE;
        for offset in [0, 20_000] {
            let runs = compare(&market, &clock, &symbol, FROM + offset, last_open).await;
            assert!(runs > 50, "{runs} runs at offset {offset}");
        }
    }

    /// Steps from `open` to `last_open`, each one as the backtest would (a run when the
    /// feed offers one, else a bar), checking every bar against a bar-by-bar feed.
    async fn compare(
        market: &CsvMarket,
        clock: &ManualClock,
        symbol: &Symbol,
        mut open: i64,
        last_open: i64,
    ) -> usize {
        let mut feed = BarFeed::new(market, clock, Interval::M1, 1, last_open);
        let mut reference = BarFeed::new(market, clock, Interval::M1, 1, last_open);
        let mut runs = 0;
        while open <= last_open {
            clock.set(open + MINUTE);
            let offered: Option<Vec<Candle>> = feed.run(open, 100).map(|r| r[0].to_vec());
            let taken = match offered {
                Some(run) => {
                    runs += 1;
                    for (t, candle) in run.iter().enumerate() {
                        let at = open + t as i64 * MINUTE;
                        let want = reference.bar(0, symbol, at).await.unwrap();
                        assert_eq!(Some(*candle), want, "step at {at}");
                    }
                    feed.advance(run.len());
                    run.len()
                }
                None => {
                    let got = feed.bar(0, symbol, open).await.unwrap();
                    assert_eq!(got, reference.bar(0, symbol, open).await.unwrap());
                    1
                }
            };
            open += taken as i64 * MINUTE;
        }
        runs
    }
}
