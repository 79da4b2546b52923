//! `Quotes::offline`: every market, FUND included, priced without a network, every quote
//! labelled simulated and never stale.

use nofxi_portfolio::domain::Market;
use nofxi_quotes::{Quotes, SourceKind};

use crate::{at, instrument};

#[tokio::test]
async fn every_market_is_quoted_offline_and_labelled_simulated() {
    let quotes = Quotes::offline();
    // A Sunday: live A-share quotes would be Friday's; simulated ones are for now.
    let now = at("2025-01-12T03:00:00Z");
    let held = [
        (Market::Sh, "600519"),
        (Market::Sz, "000001"),
        (Market::Bj, "430047"),
        (Market::Hk, "00700"),
        (Market::Us, "AAPL"),
        (Market::Fund, "110022"),
        (Market::Crypto, "BTC"),
    ];
    for (market, symbol) in held {
        let quote = quotes
            .quote(&instrument(market, symbol), now)
            .await
            .unwrap();
        assert_eq!(quote.source, SourceKind::Simulated);
        assert!(quote.simulated, "{market} {symbol}");
        assert!(!quote.stale, "{market} {symbol}");
        assert_eq!(quote.as_of, now);
        assert!(quote.last > rust_decimal::Decimal::ZERO);
    }
}

#[tokio::test]
async fn offline_quotes_are_deterministic() {
    let a = Quotes::offline();
    let b = Quotes::offline();
    let aapl = instrument(Market::Us, "AAPL");
    let now = at("2025-01-10T15:31:20Z");
    assert_eq!(
        a.quote(&aapl, now).await.unwrap(),
        b.quote(&aapl, now).await.unwrap()
    );
}
