//! A quote as every source reports it: the same fields whichever feed it came from, the feed
//! named, the quote's own time kept (not the time we asked), and two flags a reader must never
//! miss: `simulated` (made up offline, not a market price) and `stale` (older than the market's
//! last session).

use std::fmt;
use std::str::FromStr;

use jiff::Timestamp;
use nofxi_portfolio::domain::{Instrument, Market};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// Where a quote came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SourceKind {
    /// Made up offline by [`crate::SimulatedSource`]; never a market price.
    Simulated,
    /// `qt.gtimg.cn`: A-shares, Hong Kong, US.
    Tencent,
    /// `hq.sinajs.cn`: A-shares, Hong Kong, US.
    Sina,
    /// `push2.eastmoney.com`: A-shares, Hong Kong, US.
    Eastmoney,
    /// Binance spot `api/v3/ticker/24hr`: crypto.
    Binance,
}

impl SourceKind {
    pub const ALL: [SourceKind; 5] = [
        SourceKind::Simulated,
        SourceKind::Tencent,
        SourceKind::Sina,
        SourceKind::Eastmoney,
        SourceKind::Binance,
    ];

    /// The name used in `data/sources.yaml`, messages and serialized quotes.
    pub fn name(self) -> &'static str {
        match self {
            SourceKind::Simulated => "simulated",
            SourceKind::Tencent => "tencent",
            SourceKind::Sina => "sina",
            SourceKind::Eastmoney => "eastmoney",
            SourceKind::Binance => "binance",
        }
    }

    /// Whether this source can quote instruments of `market` at all. Off-exchange funds (FUND)
    /// publish a daily NAV that none of the live feeds here carry; only the simulated market
    /// covers them.
    pub fn covers(self, market: Market) -> bool {
        match self {
            SourceKind::Simulated => true,
            SourceKind::Tencent | SourceKind::Sina | SourceKind::Eastmoney => matches!(
                market,
                Market::Sh | Market::Sz | Market::Bj | Market::Hk | Market::Us
            ),
            SourceKind::Binance => market == Market::Crypto,
        }
    }
}

impl fmt::Display for SourceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for SourceKind {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let wanted = text.trim().to_ascii_lowercase();
        SourceKind::ALL
            .into_iter()
            .find(|kind| kind.name() == wanted)
            .ok_or_else(|| {
                format!(
                    "`{}` is not a quote source; use one of simulated, tencent, sina, eastmoney, binance",
                    text.trim()
                )
            })
    }
}

/// One instrument's price at one moment, from one source.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Quote {
    pub instrument: Instrument,
    /// The name the source gives (`贵州茅台`, `腾讯控股`), when it gives one.
    pub name: Option<String>,
    /// The last traded price (a fund's NAV, for funds).
    pub last: Decimal,
    pub previous_close: Option<Decimal>,
    pub open: Option<Decimal>,
    pub high: Option<Decimal>,
    pub low: Option<Decimal>,
    /// Change from the previous close in percent (`0.68` means +0.68 %).
    pub change_pct: Option<Decimal>,
    /// The quote's own time, as the source stamps it: the last trade or update, not the moment
    /// we asked.
    pub as_of: Timestamp,
    pub source: SourceKind,
    /// Made up by the simulated market, not a price anyone traded at.
    pub simulated: bool,
    /// Older than the start of the market's last trading session (see [`crate::stale`]).
    pub stale: bool,
}

impl Quote {
    /// A live quote as a parser reads it: not simulated, staleness not judged yet (the caller
    /// who knows `now` does that).
    pub(crate) fn live(
        instrument: Instrument,
        source: SourceKind,
        last: Decimal,
        as_of: Timestamp,
    ) -> Quote {
        Quote {
            instrument,
            name: None,
            last,
            previous_close: None,
            open: None,
            high: None,
            low: None,
            change_pct: None,
            as_of,
            source,
            simulated: false,
            stale: false,
        }
    }
}

/// Percent change from `previous` to `last`, rounded to 2 decimals, for feeds that give both
/// prices but no change field. `None` when there is no previous price to compare with.
pub(crate) fn change_pct(last: Decimal, previous: Option<Decimal>) -> Option<Decimal> {
    let previous = previous.filter(|p| !p.is_zero())?;
    let pct = (last - previous) / previous * Decimal::ONE_HUNDRED;
    Some(pct.round_dp(2))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal_macros::dec;

    #[test]
    fn source_names_round_trip() {
        for kind in SourceKind::ALL {
            assert_eq!(kind.name().parse::<SourceKind>().unwrap(), kind);
        }
        assert!(
            "yahoo"
                .parse::<SourceKind>()
                .unwrap_err()
                .contains("tencent")
        );
    }

    #[test]
    fn no_live_source_covers_off_exchange_funds() {
        for kind in SourceKind::ALL {
            assert_eq!(kind.covers(Market::Fund), kind == SourceKind::Simulated);
        }
        assert!(SourceKind::Binance.covers(Market::Crypto));
        assert!(!SourceKind::Tencent.covers(Market::Crypto));
    }

    #[test]
    fn change_is_derived_only_against_a_real_previous_close() {
        assert_eq!(change_pct(dec!(5.70), Some(dec!(5.64))), Some(dec!(1.06)));
        assert_eq!(change_pct(dec!(5.70), Some(dec!(0))), None);
        assert_eq!(change_pct(dec!(5.70), None), None);
    }
}
