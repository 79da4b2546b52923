//! Why a quote could not be had, typed so a caller can tell "wrong symbol" from "source down",
//! and worded so the user knows what to do next.
//!
//! Each error has a short [`QuoteError::reason`] (what happened) and a [`QuoteError::fix`] (what
//! to do now); `Display` joins them. [`QuoteError::AllFailed`] keeps only the reasons of the
//! sources it tried, so its message stays one readable line.
//!
//! `Display` is written by hand rather than derived with `thiserror`: the variants name the
//! feed in a field called `source`, which `thiserror` would take for the underlying error.

use std::fmt;

use nofxi_portfolio::domain::Market;

use crate::quote::SourceKind;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum QuoteError {
    /// The answer is not in the layout this crate reads: truncated, garbled, or the source
    /// changed its format.
    UnknownFormat { source: SourceKind, detail: String },
    /// An HTML page (a block page, a captcha, an error page) came back instead of data.
    HtmlPage { source: SourceKind },
    /// The source answered, and it has no such symbol.
    NotFound { symbol: String, source: SourceKind },
    /// The source does not quote this market at all.
    Unsupported { market: Market, source: SourceKind },
    /// No live source is configured for this market (off-exchange funds: none exists here).
    NoLiveSource { market: Market },
    /// The source answered with a non-2xx status.
    Http { source: SourceKind, status: u16 },
    /// The source could not be reached: DNS, connection, TLS, timeout.
    Transport { source: SourceKind, detail: String },
    /// Every source in the market's fallback order failed; each one's reason, in order.
    AllFailed {
        symbol: String,
        tried: Vec<(SourceKind, String)>,
    },
}

impl QuoteError {
    /// What happened, in one clause.
    pub fn reason(&self) -> String {
        match self {
            QuoteError::UnknownFormat { source, detail } => {
                format!("{source} answered in a layout nofxi does not read ({detail})")
            }
            QuoteError::HtmlPage { source } => {
                format!("{source} sent a web page instead of quote data")
            }
            QuoteError::NotFound { symbol, source } => {
                format!("{source} has no quote for `{symbol}`")
            }
            QuoteError::Unsupported { market, source } if *market == Market::Fund => format!(
                "{source} does not quote off-exchange funds (FUND); no live source here does"
            ),
            QuoteError::Unsupported { market, source } => {
                format!("{source} does not quote the {market} market")
            }
            QuoteError::NoLiveSource { market } => {
                format!("no live quote source is configured for the {market} market")
            }
            QuoteError::Http { source, status } => format!("{source} answered HTTP {status}"),
            QuoteError::Transport { source, detail } => {
                format!("could not reach {source} ({detail})")
            }
            QuoteError::AllFailed { symbol, tried } => {
                let each: Vec<String> = tried
                    .iter()
                    .map(|(kind, why)| format!("{kind}: {why}"))
                    .collect();
                format!("no source could quote `{symbol}` ({})", each.join("; "))
            }
        }
    }

    /// What to do now.
    pub fn fix(&self) -> &'static str {
        match self {
            QuoteError::UnknownFormat { .. } => {
                "the source may have changed its format; try again later or another source, or run with the simulated market"
            }
            QuoteError::HtmlPage { .. } => {
                "the source may be blocking this network or asking for a captcha; try again later or another source"
            }
            QuoteError::NotFound { .. } => {
                "check the symbol and its market (600519 on SH, 00700 on HK, AAPL on US, BTC on CRYPTO), or run with the simulated market"
            }
            QuoteError::Unsupported {
                market: Market::Fund,
                ..
            }
            | QuoteError::NoLiveSource {
                market: Market::Fund,
            } => "enter the fund's NAV by hand, or run with the simulated market",
            QuoteError::Unsupported { .. } => {
                "list a source that covers this market in data/sources.yaml"
            }
            QuoteError::NoLiveSource { .. } => {
                "add a source for this market in data/sources.yaml, or run with the simulated market"
            }
            QuoteError::Http { status: 403, .. } => {
                "403 usually means a missing Referer or a blocked IP; try again later or another source"
            }
            QuoteError::Http { status: 429, .. } => {
                "too many requests; wait a minute and try again"
            }
            QuoteError::Http { .. } => {
                "the source is failing; try again later, or run with the simulated market"
            }
            QuoteError::Transport { .. } => {
                "check the network or proxy, or run with the simulated market"
            }
            QuoteError::AllFailed { .. } => {
                "check the symbol and the network, or run with the simulated market"
            }
        }
    }
}

impl fmt::Display for QuoteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}; {}", self.reason(), self.fix())
    }
}

impl std::error::Error for QuoteError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_say_what_happened_and_what_to_do() {
        let e = QuoteError::NotFound {
            symbol: "600000X".into(),
            source: SourceKind::Tencent,
        };
        assert_eq!(
            e.to_string(),
            "tencent has no quote for `600000X`; check the symbol and its market (600519 on SH, 00700 on HK, AAPL on US, BTC on CRYPTO), or run with the simulated market"
        );
        let fund = QuoteError::Unsupported {
            market: Market::Fund,
            source: SourceKind::Sina,
        };
        assert!(
            fund.to_string().contains("no live source here does"),
            "{fund}"
        );
        assert!(fund.fix().contains("NAV by hand"));
    }

    #[test]
    fn all_failed_lists_each_source_in_order() {
        let e = QuoteError::AllFailed {
            symbol: "600519".into(),
            tried: vec![
                (SourceKind::Tencent, "tencent answered HTTP 500".into()),
                (
                    SourceKind::Sina,
                    "sina sent a web page instead of quote data".into(),
                ),
            ],
        };
        let text = e.to_string();
        let tencent = text.find("tencent:").unwrap();
        let sina = text.find("sina:").unwrap();
        assert!(tencent < sina, "{text}");
        assert!(text.ends_with("run with the simulated market"), "{text}");
    }
}
