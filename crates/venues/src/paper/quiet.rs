//! Whether a bar, or the current marks, would change the account: asked without changing it.
//!
//! Most bars of a backtest fill nothing and liquidate nothing; their only effect is a new
//! mark. Knowing that up front lets the exchange skip the bookkeeping (and its await) on such a
//! bar. Each question is put with the very predicates the worker acts on —
//! [`bar::fill_in_bar`] for a bar, [`matching::triggered`] for a quote, [`liquidated_at`] for
//! both — so "quiet" means exactly "the worker would only have marked".
//!
//! Those predicates compare the bar's low and high with the price levels resting on the
//! symbol (order prices, stops, liquidation prices). The levels change only when the account
//! does, so they are folded once per change into a [`Band`]: the bar is quiet when its low
//! and high fall strictly inside. That is a few comparisons per bar instead of a walk over
//! orders and positions with a liquidation price each.

use nofxi_domain::market::{Candle, Symbol, decimal_to_f64, exceeds};
use nofxi_domain::trading::{MarginMode, Order, OrderType, PositionSide, Side};
use rust_decimal::Decimal;

use super::exact::RunEquity;
use super::state::{PaperPosition, PaperState};
use super::{bar, matching, set_mark};
use crate::BarRun;

/// Whether a position with liquidation price `liq` is liquidated when the price is `mark`.
pub(super) fn liquidated_at(side: PositionSide, liq: Decimal, mark: Decimal) -> bool {
    match side {
        PositionSide::Long => mark <= liq,
        PositionSide::Short => mark >= liq,
    }
}

/// Whether [`super::PaperExchange::process_bar`] on `candle` would fill no resting order of
/// `symbol` and liquidate none of its positions (it checks the bar's low, then its high).
pub(super) fn bar_is_quiet(
    st: &mut PaperState,
    symbol: &Symbol,
    candle: &Candle,
    mmr: Decimal,
) -> bool {
    refresh_bands(st, mmr);
    match st.bands.of(symbol) {
        Some(band) => band.contains(candle.low, candle.high),
        None => {
            let from = st.open_from();
            let fills = open_on(st, from, symbol).any(|o| bar::fill_in_bar(o, candle).is_some());
            !fills
                && held_on(st, symbol).all(|p| {
                    st.liquidation_price(p, mmr).is_none_or(|liq| {
                        !liquidated_at(p.side, liq, candle.low)
                            && !liquidated_at(p.side, liq, candle.high)
                    })
                })
        }
    }
}

/// Whether a sync at the current marks (bid = ask = mark, as [`super::Quotes::Bars`] quotes)
/// would trigger no open order and liquidate no position. False as well when a symbol that
/// needs a price has no mark yet: only the market can say then.
///
/// Asked on every call into the exchange, several times per order a cycle places, each time
/// after the account changed: so the predicates are asked directly (one price each) rather
/// than through bands, which pay off only for the many bars between account changes.
pub(super) fn settled_at_marks(st: &mut PaperState, mmr: Decimal) -> bool {
    let from = st.open_from();
    let st = &*st;
    let mark = |symbol: &Symbol| st.marks.get(symbol).copied();
    st.orders[from..]
        .iter()
        .filter(|o| o.status.is_open())
        .all(|o| mark(&o.symbol).is_some_and(|m| !matching::triggered(o, m, m, m)))
        && st.positions.iter().all(|p| {
            mark(&p.symbol).is_some_and(|m| {
                st.liquidation_price(p, mmr)
                    .is_none_or(|liq| !liquidated_at(p.side, liq, m))
            })
        })
}

/// [`crate::SimulatedVenue::take_quiet_steps`] on the paper account: a step is taken when
/// every bar of it is quiet ([`bar_is_quiet`]) and the account is settled at its closes
/// ([`settled_at_marks`]), the two checks the bar-by-bar path makes, up to `max` steps.
/// Nothing changes between taken steps but the marks, so the bands and the positions hold
/// for the whole run, and the equity is taken at each step's closes.
pub(super) fn take_quiet_steps(
    st: &mut PaperState,
    run: &BarRun<'_>,
    max: usize,
    mmr: Decimal,
    equity: &mut Vec<Decimal>,
) -> usize {
    if max == 0 {
        return 0;
    }
    refresh_bands(st, mmr);
    // A symbol something rests on but that has no bars here keeps its mark, and whether that
    // mark is settled is the bar-by-bar path's question.
    if st
        .bands
        .bands
        .iter()
        .any(|(s, _)| run.index_of(s).is_none())
    {
        return 0;
    }
    let Some(bands) = run
        .symbols
        .iter()
        .map(|s| st.bands.of(s))
        .collect::<Option<Vec<Band>>>()
    else {
        return 0;
    };
    let Some(at) = st
        .positions
        .iter()
        .map(|p| run.index_of(&p.symbol))
        .collect::<Option<Vec<usize>>>()
    else {
        return 0;
    };
    let quiet = |t: usize| {
        bands.iter().enumerate().all(|(k, band)| {
            run.bar(k, t).is_some_and(|c| {
                // Nothing rests on a symbol without a position or an order: no conversions.
                if band.is_unbounded() {
                    return true;
                }
                let (low, high) = (Level::of(c.low), Level::of(c.high));
                let close = Level::of(c.close);
                band.contains_levels(&low, &high) && band.contains_levels(&close, &close)
            })
        })
    };
    let steps = run.len().min(max);
    // Nothing rests anywhere (a flat account without orders): every step of the run (each
    // has a bar of every symbol) is quiet, as `quiet` would find one by one.
    let taken = if bands.iter().all(Band::is_unbounded) {
        steps
    } else {
        (0..steps).take_while(|&t| quiet(t)).count()
    };
    if st.positions.is_empty() {
        // Without a position every step's equity is the same sum: take it once.
        let flat = st.equity_at(|_, _| Decimal::ZERO);
        equity.extend(std::iter::repeat_n(flat, taken));
    } else {
        let exact = RunEquity::of(st);
        for t in 0..taken {
            // `at` has one entry per position, so every position finds its close.
            let close = |i: usize| {
                at.get(i)
                    .and_then(|&k| run.bar(k, t))
                    .map_or(Decimal::ZERO, |c| c.close)
            };
            let e = exact.at(close);
            equity.push(e.unwrap_or_else(|| st.equity_at(|i, _| close(i))));
        }
    }
    if let Some(last) = taken.checked_sub(1) {
        for (k, symbol) in run.symbols.iter().enumerate() {
            if let Some(bar) = run.bar(k, last) {
                set_mark(st, symbol, bar.close);
            }
        }
    }
    taken
}

/// Open prices between which a bar (or a quote, a bar whose low and high are the mark) works
/// nothing: `low` must be above `low_above` and below `low_below`, `high` likewise. `None`
/// bounds nothing. Each bound keeps its float view, so most bars are settled by float
/// comparisons ([`exceeds`]) and only near-ties rescale decimals.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(super) struct Band {
    low_above: Option<Level>,
    low_below: Option<Level>,
    high_above: Option<Level>,
    high_below: Option<Level>,
}

/// A price and its float view.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Level {
    price: Decimal,
    float: f64,
}

impl Level {
    fn of(price: Decimal) -> Level {
        Level {
            price,
            float: decimal_to_f64(price),
        }
    }

    fn below(&self, other: &Level) -> bool {
        exceeds(other.price, other.float, self.price, self.float)
    }
}

impl Band {
    fn contains(&self, low: Decimal, high: Decimal) -> bool {
        let (low, high) = (Level::of(low), Level::of(high));
        self.contains_levels(&low, &high)
    }

    fn is_unbounded(&self) -> bool {
        self == &Band::default()
    }

    fn contains_levels(&self, low: &Level, high: &Level) -> bool {
        self.low_above.is_none_or(|x| x.below(low))
            && self.low_below.is_none_or(|x| low.below(&x))
            && self.high_above.is_none_or(|x| x.below(high))
            && self.high_below.is_none_or(|x| high.below(&x))
    }

    /// Reached when the price falls to `level` (the bar's low at or below it).
    fn falls_to(&mut self, level: Decimal) {
        narrow(&mut self.low_above, level, Decimal::max);
    }

    /// Reached when the price rises to `level` (the bar's high at or above it).
    fn rises_to(&mut self, level: Decimal) {
        narrow(&mut self.high_below, level, Decimal::min);
    }

    /// Liquidation of a long is also checked at the bar's high: the high must stay above.
    fn high_stays_above(&mut self, level: Decimal) {
        narrow(&mut self.high_above, level, Decimal::max);
    }

    /// Liquidation of a short is also checked at the bar's low: the low must stay below.
    fn low_stays_below(&mut self, level: Decimal) {
        narrow(&mut self.low_below, level, Decimal::min);
    }
}

/// Set `bound` to `level`, or to the tighter of the two as `tighter` picks it.
fn narrow(bound: &mut Option<Level>, level: Decimal, tighter: fn(Decimal, Decimal) -> Decimal) {
    *bound = Some(Level::of(bound.map_or(level, |x| tighter(x.price, level))));
}

/// The band of every symbol with a position or an open order, as of one account state.
/// A cache, not state: it never takes part in equality.
#[derive(Debug, Clone, Default)]
pub(super) struct BandCache {
    key: Option<(Fingerprint, Decimal)>,
    /// `None` for a symbol no band can vouch for: a resting market order, a trigger without
    /// its price (the two workers disagree on it), or a liquidation price that moves with
    /// another symbol's mark (two or more cross positions). The direct checks decide then.
    bands: Vec<(Symbol, Option<Band>)>,
}

impl PartialEq for BandCache {
    fn eq(&self, _: &BandCache) -> bool {
        true
    }
}

impl BandCache {
    /// A symbol without a position or an open order has nothing to work: an unbounded band.
    fn of(&self, symbol: &Symbol) -> Option<Band> {
        self.bands
            .iter()
            .find(|(s, _)| s == symbol)
            .map_or(Some(Band::default()), |(_, band)| *band)
    }
}

fn refresh_bands(st: &mut PaperState, mmr: Decimal) {
    let key = (Fingerprint::of(st), mmr);
    if st.bands.key.as_ref() == Some(&key) {
        return;
    }
    let from = st.open_from();
    let mut symbols: Vec<Symbol> = Vec::new();
    let resting = st.positions.iter().map(|p| &p.symbol);
    for symbol in resting.chain(
        st.orders[from..]
            .iter()
            .filter(|o| o.status.is_open())
            .map(|o| &o.symbol),
    ) {
        if !symbols.contains(symbol) {
            symbols.push(symbol.clone());
        }
    }
    let bands = symbols
        .into_iter()
        .map(|symbol| {
            let band = band_of(st, from, &symbol, mmr);
            (symbol, band)
        })
        .collect();
    st.bands = BandCache {
        key: Some(key),
        bands,
    };
}

fn band_of(st: &PaperState, from: usize, symbol: &Symbol, mmr: Decimal) -> Option<Band> {
    let mut band = Band::default();
    for order in open_on(st, from, symbol) {
        // The sides as `bar::fill_in_bar` and `matching::triggered` reach them.
        match (order.order_type, order.side) {
            (OrderType::Market, _) => return None,
            (OrderType::Limit, side) => {
                // A limit without a price never fills, in either worker.
                if let Some(price) = order.price {
                    if side == Side::Buy {
                        band.falls_to(price);
                    } else {
                        band.rises_to(price);
                    }
                }
            }
            (OrderType::StopMarket, Side::Sell) | (OrderType::TakeProfitMarket, Side::Buy) => {
                band.falls_to(order.stop_price?);
            }
            (OrderType::StopMarket, Side::Buy) | (OrderType::TakeProfitMarket, Side::Sell) => {
                band.rises_to(order.stop_price?);
            }
        }
    }
    let cross = st
        .positions
        .iter()
        .filter(|p| p.margin_mode == MarginMode::Cross)
        .count();
    for p in held_on(st, symbol) {
        if p.margin_mode == MarginMode::Cross && cross > 1 {
            return None;
        }
        let Some(liq) = st.liquidation_price(p, mmr) else {
            continue;
        };
        // Liquidation is checked at the bar's low and at its high.
        match p.side {
            PositionSide::Long => {
                band.falls_to(liq);
                band.high_stays_above(liq);
            }
            PositionSide::Short => {
                band.rises_to(liq);
                band.low_stays_below(liq);
            }
        }
    }
    Some(band)
}

fn open_on<'a>(
    st: &'a PaperState,
    from: usize,
    symbol: &'a Symbol,
) -> impl Iterator<Item = &'a Order> {
    st.orders[from..]
        .iter()
        .filter(move |o| &o.symbol == symbol && o.status.is_open())
}

fn held_on<'a>(st: &'a PaperState, symbol: &'a Symbol) -> impl Iterator<Item = &'a PaperPosition> {
    st.positions.iter().filter(move |p| &p.symbol == symbol)
}

/// What a sync can change besides marks, cheap to take: every fill and every new order (a
/// liquidation is both) draws an id, triggered or expired orders leave the open set, and the
/// wallet moves with fills. Positions change only through fills, so they need no comparison.
/// Comparing this instead of a clone of the whole state keeps `sync` O(open orders +
/// positions), not O(history).
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Fingerprint {
    wallet: Decimal,
    next_id: u64,
    fills: usize,
    orders: usize,
    open_orders: usize,
}

impl Fingerprint {
    pub(super) fn of(st: &mut PaperState) -> Fingerprint {
        let from = st.open_from();
        Fingerprint {
            wallet: st.wallet_balance,
            next_id: st.next_id,
            fills: st.fills.len(),
            orders: st.orders.len(),
            open_orders: st.orders[from..]
                .iter()
                .filter(|o| o.status.is_open())
                .count(),
        }
    }
}
