//! The live sources over HTTP: one [`HttpSource`] per [`Feed`], each with its base URL (the
//! real host unless overridden, e.g. by a test's loopback server), the `Referer` the feed wants,
//! and a short timeout, since a quote that takes longer than a few seconds is better asked of
//! the next source.
//!
//! Failures are typed before any layout is read: unreachable → [`QuoteError::Transport`], a
//! non-2xx status → [`QuoteError::Http`] (except Binance's 400 "no such pair", which is
//! [`QuoteError::NotFound`]), an HTML page with status 200 → [`QuoteError::HtmlPage`].

use std::fmt;
use std::time::Duration;

use async_trait::async_trait;
use jiff::Timestamp;
use nofxi_portfolio::domain::Instrument;
use reqwest::header::REFERER;

use crate::error::QuoteError;
use crate::quote::{Quote, SourceKind};
use crate::source::QuoteSource;
use crate::{binance, eastmoney, sina, tencent};

/// How long one request may take, connection included.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(5);

/// The feeds reached over HTTP (every [`SourceKind`] but the simulated one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Feed {
    Tencent,
    Sina,
    Eastmoney,
    Binance,
}

impl Feed {
    pub const ALL: [Feed; 4] = [Feed::Tencent, Feed::Sina, Feed::Eastmoney, Feed::Binance];

    pub fn kind(self) -> SourceKind {
        match self {
            Feed::Tencent => SourceKind::Tencent,
            Feed::Sina => SourceKind::Sina,
            Feed::Eastmoney => SourceKind::Eastmoney,
            Feed::Binance => SourceKind::Binance,
        }
    }

    /// The feed behind a source kind; `None` for the simulated market.
    pub fn of(kind: SourceKind) -> Option<Feed> {
        Feed::ALL.into_iter().find(|feed| feed.kind() == kind)
    }

    pub fn default_base_url(self) -> &'static str {
        match self {
            Feed::Tencent => tencent::DEFAULT_BASE_URL,
            Feed::Sina => sina::DEFAULT_BASE_URL,
            Feed::Eastmoney => eastmoney::DEFAULT_BASE_URL,
            Feed::Binance => binance::DEFAULT_BASE_URL,
        }
    }

    /// The `Referer` the feed expects (Sina refuses requests without one); Binance wants none.
    pub fn referer(self) -> Option<&'static str> {
        match self {
            Feed::Tencent => Some(tencent::REFERER),
            Feed::Sina => Some(sina::REFERER),
            Feed::Eastmoney => Some(eastmoney::REFERER),
            Feed::Binance => None,
        }
    }
}

impl fmt::Display for Feed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kind().name())
    }
}

/// One live feed over HTTP.
#[derive(Debug, Clone)]
pub struct HttpSource {
    feed: Feed,
    base_url: String,
    http: reqwest::Client,
}

impl HttpSource {
    /// The feed at its real host, with [`DEFAULT_TIMEOUT`].
    pub fn new(feed: Feed) -> Result<HttpSource, QuoteError> {
        HttpSource::with_base_url(feed, feed.default_base_url(), DEFAULT_TIMEOUT)
    }

    /// The feed at `base_url` (scheme and host, e.g. `http://127.0.0.1:41234`).
    pub fn with_base_url(
        feed: Feed,
        base_url: &str,
        timeout: Duration,
    ) -> Result<HttpSource, QuoteError> {
        let http = reqwest::Client::builder()
            .timeout(timeout)
            .connect_timeout(timeout)
            .user_agent(concat!("nofxi-quotes/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| QuoteError::Transport {
                source: feed.kind(),
                detail: format!("cannot build an HTTP client: {}", error_chain(&e)),
            })?;
        Ok(HttpSource {
            feed,
            base_url: base_url.trim_end_matches('/').to_string(),
            http,
        })
    }

    pub fn feed(&self) -> Feed {
        self.feed
    }

    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// GETs `path`; `Ok` is a 2xx body, `Err` a typed transport or status failure. The body of
    /// a non-2xx answer comes back in the error case too, for feeds that explain themselves.
    async fn get(&self, path: &str) -> Result<Vec<u8>, (QuoteError, Vec<u8>)> {
        let source = self.feed.kind();
        let mut request = self.http.get(format!("{}{path}", self.base_url));
        if let Some(referer) = self.feed.referer() {
            request = request.header(REFERER, referer);
        }
        let transport = |e: reqwest::Error| {
            let detail = if e.is_timeout() {
                "timed out".to_string()
            } else {
                error_chain(&e)
            };
            (QuoteError::Transport { source, detail }, Vec::new())
        };
        let response = request.send().await.map_err(transport)?;
        let status = response.status();
        let body = response.bytes().await.map_err(transport)?.to_vec();
        if status.is_success() {
            Ok(body)
        } else {
            let error = QuoteError::Http {
                source,
                status: status.as_u16(),
            };
            Err((error, body))
        }
    }

    async fn tencent(&self, instrument: &Instrument) -> Result<Quote, QuoteError> {
        let path = tencent::path(&[tencent::code(instrument)?]);
        let body = self.get(&path).await.map_err(|(e, _)| e)?;
        tencent::parse_for(&body, instrument)
    }

    async fn sina(&self, instrument: &Instrument) -> Result<Quote, QuoteError> {
        let path = sina::path(&[sina::code(instrument)?]);
        let body = self.get(&path).await.map_err(|(e, _)| e)?;
        sina::parse_for(&body, instrument)
    }

    /// US listings are asked on each US exchange in turn until one knows the symbol.
    async fn eastmoney(&self, instrument: &Instrument) -> Result<Quote, QuoteError> {
        let mut last_error = QuoteError::NotFound {
            symbol: instrument.symbol.clone(),
            source: SourceKind::Eastmoney,
        };
        for secid in eastmoney::secids(instrument)? {
            let body = self
                .get(&eastmoney::path(&secid))
                .await
                .map_err(|(e, _)| e)?;
            match eastmoney::parse(&body, instrument) {
                Err(e @ QuoteError::NotFound { .. }) => last_error = e,
                other => return other,
            }
        }
        Err(last_error)
    }

    async fn binance(&self, instrument: &Instrument) -> Result<Quote, QuoteError> {
        let path = binance::path(&binance::pair(instrument)?);
        match self.get(&path).await {
            Ok(body) => binance::parse(&body, instrument),
            // Binance answers an unknown pair with 400 and an error object; any other
            // refusal keeps its status.
            Err((error @ QuoteError::Http { status: 400, .. }, body)) => {
                match binance::parse(&body, instrument) {
                    Err(not_found @ QuoteError::NotFound { .. }) => Err(not_found),
                    _ => Err(error),
                }
            }
            Err((error, _)) => Err(error),
        }
    }
}

#[async_trait]
impl QuoteSource for HttpSource {
    fn kind(&self) -> SourceKind {
        self.feed.kind()
    }

    async fn quote(&self, instrument: &Instrument, _now: Timestamp) -> Result<Quote, QuoteError> {
        if !self.feed.kind().covers(instrument.market) {
            return Err(QuoteError::Unsupported {
                market: instrument.market,
                source: self.feed.kind(),
            });
        }
        match self.feed {
            Feed::Tencent => self.tencent(instrument).await,
            Feed::Sina => self.sina(instrument).await,
            Feed::Eastmoney => self.eastmoney(instrument).await,
            Feed::Binance => self.binance(instrument).await,
        }
    }
}

/// The error and its causes, `a: b: c`: reqwest's own message is only "error sending request",
/// the cause (connection refused, DNS, TLS) is further down.
fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(inner) = cause {
        text.push_str(": ");
        text.push_str(&inner.to_string());
        cause = inner.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feeds_and_kinds_match() {
        for feed in Feed::ALL {
            assert_eq!(Feed::of(feed.kind()), Some(feed));
        }
        assert_eq!(Feed::of(SourceKind::Simulated), None);
        assert_eq!(Feed::Sina.referer(), Some("https://finance.sina.com.cn"));
        assert_eq!(Feed::Tencent.referer(), Some("https://gu.qq.com"));
        assert_eq!(
            Feed::Eastmoney.referer(),
            Some("https://quote.eastmoney.com")
        );
    }

    #[test]
    fn base_urls_lose_a_trailing_slash() {
        let source =
            HttpSource::with_base_url(Feed::Sina, "http://127.0.0.1:9/", DEFAULT_TIMEOUT).unwrap();
        assert_eq!(source.base_url(), "http://127.0.0.1:9");
    }
}
