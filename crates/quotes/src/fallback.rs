//! Which live sources are tried for each market, and in what order: data, in
//! `data/sources.yaml` (embedded at build time), checked when it is loaded so a bad line fails
//! at startup, naming the line, rather than at the first quote.
//!
//! A market left out of the file, or given `[]`, has no live source; asking for its quote says
//! so ([`crate::QuoteError::NoLiveSource`]). The built-in file lists every market.

use std::collections::BTreeMap;
use std::fmt;

use nofxi_portfolio::domain::Market;

use crate::quote::SourceKind;

/// The built-in order, `crates/quotes/data/sources.yaml`.
pub const BUILTIN_SOURCES: &str = include_str!("../data/sources.yaml");
const BUILTIN_ORIGIN: &str = "crates/quotes/data/sources.yaml";

/// The fallback order per market.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FallbackOrder {
    by_market: BTreeMap<Market, Vec<SourceKind>>,
}

impl FallbackOrder {
    /// The built-in order.
    pub fn builtin() -> Result<FallbackOrder, SourcesFileError> {
        FallbackOrder::parse(BUILTIN_SOURCES, BUILTIN_ORIGIN)
    }

    /// The simulated market for every market: what [`crate::Quotes::offline`] uses.
    pub fn simulated_only() -> FallbackOrder {
        FallbackOrder {
            by_market: Market::ALL
                .into_iter()
                .map(|market| (market, vec![SourceKind::Simulated]))
                .collect(),
        }
    }

    /// Reads a sources file: `MARKET: [source, …]` per line. `origin` names the file in errors.
    pub fn parse(text: &str, origin: &str) -> Result<FallbackOrder, SourcesFileError> {
        let by_market: BTreeMap<Market, Vec<SourceKind>> =
            yaml_serde::from_str::<Option<_>>(text)
                .map_err(|e| SourcesFileError {
                    origin: origin.to_string(),
                    line: e.location().map(|l| l.line()),
                    problem: e.to_string(),
                    fix: "write one `MARKET: [source, …]` line per market; markets are SH, SZ, BJ, HK, US, FUND, CRYPTO and sources tencent, sina, eastmoney, binance".into(),
                })?
                .unwrap_or_default();
        for (market, sources) in &by_market {
            let error = |problem: String, fix: String| SourcesFileError {
                origin: origin.to_string(),
                line: line_of(text, *market),
                problem,
                fix,
            };
            for (index, source) in sources.iter().enumerate() {
                if *source == SourceKind::Simulated {
                    return Err(error(
                        format!("{market} lists `simulated`, which is not a live source"),
                        "remove it; run with the simulated market instead to use made-up prices"
                            .into(),
                    ));
                }
                if !source.covers(*market) {
                    return Err(error(
                        format!("{source} does not quote the {market} market"),
                        format!(
                            "list only sources that cover {market}: {}",
                            covering(*market)
                        ),
                    ));
                }
                if sources[..index].contains(source) {
                    return Err(error(
                        format!("{source} is listed twice for {market}"),
                        "list each source once, in the order to try them".into(),
                    ));
                }
            }
        }
        Ok(FallbackOrder { by_market })
    }

    /// The sources to try for `market`, first to last; empty when none is live.
    pub fn sources(&self, market: Market) -> &[SourceKind] {
        self.by_market.get(&market).map_or(&[], Vec::as_slice)
    }
}

/// A sources file that cannot be used, with the line at fault when there is one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourcesFileError {
    pub origin: String,
    pub line: Option<usize>,
    pub problem: String,
    pub fix: String,
}

impl fmt::Display for SourcesFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{} line {line}: ", self.origin)?,
            None => write!(f, "{}: ", self.origin)?,
        }
        write!(f, "{}; {}", self.problem, self.fix)
    }
}

impl std::error::Error for SourcesFileError {}

/// The 1-based line where `market`'s key is written.
fn line_of(text: &str, market: Market) -> Option<usize> {
    text.lines()
        .position(|line| {
            line.trim_start()
                .strip_prefix(market.code())
                .is_some_and(|rest| rest.trim_start().starts_with(':'))
        })
        .map(|index| index + 1)
}

fn covering(market: Market) -> String {
    let names: Vec<&str> = SourceKind::ALL
        .into_iter()
        .filter(|kind| *kind != SourceKind::Simulated && kind.covers(market))
        .map(SourceKind::name)
        .collect();
    if names.is_empty() {
        "none, leave it `[]`".into()
    } else {
        names.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_order_lists_every_market() {
        let order = FallbackOrder::builtin().unwrap();
        assert!(
            BUILTIN_SOURCES.lines().any(|l| l.starts_with("FUND: []")),
            "FUND is written out, with no live source"
        );
        for market in Market::ALL {
            assert!(
                line_of(BUILTIN_SOURCES, market).is_some(),
                "{market} has no line"
            );
        }
        use SourceKind::*;
        assert_eq!(order.sources(Market::Sh), [Tencent, Sina, Eastmoney]);
        assert_eq!(order.sources(Market::Hk), [Tencent, Eastmoney, Sina]);
        assert_eq!(order.sources(Market::Us), [Tencent, Sina, Eastmoney]);
        assert_eq!(order.sources(Market::Crypto), [Binance]);
        assert!(order.sources(Market::Fund).is_empty());
    }

    #[test]
    fn a_source_that_does_not_cover_the_market_names_its_line() {
        let text = "SH: [tencent]\nHK: [tencent]\nUS: [binance]\n";
        let err = FallbackOrder::parse(text, "sources.yaml").unwrap_err();
        assert_eq!(err.line, Some(3));
        assert_eq!(
            err.to_string(),
            "sources.yaml line 3: binance does not quote the US market; list only sources that cover US: tencent, sina, eastmoney"
        );
        let err = FallbackOrder::parse("SH: []\nFUND: [sina]\n", "s").unwrap_err();
        assert!(err.to_string().contains("none, leave it `[]`"), "{err}");
    }

    #[test]
    fn unknown_names_and_duplicates_name_their_line() {
        let err = FallbackOrder::parse("SH: [tencent]\nHK: [yahoo]\n", "s").unwrap_err();
        assert_eq!(err.line, Some(2), "{err}");
        assert!(err.problem.contains("yahoo"), "{err}");

        let err = FallbackOrder::parse("SH: [tencent]\nNYSE: [sina]\n", "s").unwrap_err();
        assert_eq!(err.line, Some(2), "{err}");

        let err = FallbackOrder::parse("SH: [sina, tencent, sina]\n", "s").unwrap_err();
        assert_eq!(err.line, Some(1));
        assert!(err.problem.contains("twice"), "{err}");

        let err = FallbackOrder::parse("# comment\nCRYPTO: [simulated]\n", "s").unwrap_err();
        assert_eq!(err.line, Some(2));
    }

    #[test]
    fn a_market_left_out_has_no_live_source() {
        let order = FallbackOrder::parse("SH: [sina]\n", "s").unwrap();
        assert_eq!(order.sources(Market::Sh), [SourceKind::Sina]);
        assert!(order.sources(Market::Hk).is_empty());
        assert!(
            FallbackOrder::parse("", "s")
                .unwrap()
                .sources(Market::Sh)
                .is_empty()
        );
    }
}
