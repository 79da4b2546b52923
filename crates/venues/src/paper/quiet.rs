//! Whether a bar, or the current marks, would change the account: asked without changing it.
//!
//! Most bars of a backtest fill nothing and liquidate nothing; their only effect is a new
//! mark. Knowing that up front lets the exchange skip the bookkeeping (and its await) on such a
//! bar. Each question is put with the very predicate the worker acts on —
//! [`bar::fill_in_bar`] for a bar, [`matching::triggered`] for a quote, [`liquidated_at`] for
//! both — so "quiet" means exactly "the worker would only have marked".

use nofxi_domain::market::{Candle, Symbol};
use nofxi_domain::trading::PositionSide;
use rust_decimal::Decimal;

use super::state::PaperState;
use super::{bar, matching};

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
    let from = st.open_from();
    let fills = st.orders[from..].iter().any(|o| {
        &o.symbol == symbol && o.status.is_open() && bar::fill_in_bar(o, candle).is_some()
    });
    !fills
        && st
            .positions
            .iter()
            .filter(|p| &p.symbol == symbol)
            .all(|p| {
                st.liquidation_price(p, mmr).is_none_or(|liq| {
                    !liquidated_at(p.side, liq, candle.low)
                        && !liquidated_at(p.side, liq, candle.high)
                })
            })
}

/// Whether a sync at the current marks (bid = ask = mark, as [`super::Quotes::Bars`] quotes)
/// would trigger no open order and liquidate no position. False as well when a symbol that
/// needs a price has no mark yet: only the market can say then.
pub(super) fn settled_at_marks(st: &mut PaperState, mmr: Decimal) -> bool {
    let from = st.open_from();
    let orders_rest = st.orders[from..]
        .iter()
        .filter(|o| o.status.is_open())
        .all(|o| {
            st.marks
                .get(&o.symbol)
                .is_some_and(|&m| !matching::triggered(o, m, m, m))
        });
    orders_rest
        && st.positions.iter().all(|p| {
            st.marks.get(&p.symbol).is_some_and(|&m| {
                st.liquidation_price(p, mmr)
                    .is_none_or(|liq| !liquidated_at(p.side, liq, m))
            })
        })
}
