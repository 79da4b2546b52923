//! A venue's public market data, without an account: what history downloads read, and what a
//! paper account that follows a venue's live prices fills against.
//!
//! The clients are the adapters' own, built without credentials, so the same pacing, retries
//! and typed errors apply; the base-URL variables (`NOFXI_BINANCE_BASE_URL`, …) point them
//! elsewhere as they do for accounts.

use std::sync::Arc;

use nofxi_venues::binance::{BinanceClient, BinanceMarket, BinanceOptions};
use nofxi_venues::bitget::{
    BitgetClient, BitgetMarket, BitgetOptions, Contracts as BitgetContracts,
};
use nofxi_venues::bybit::{BybitClient, BybitMarket, BybitOptions, Instruments};
use nofxi_venues::hyperliquid::{Assets, HyperliquidClient, HyperliquidMarket, HyperliquidOptions};
use nofxi_venues::okx::{Contracts as OkxContracts, OkxClient, OkxMarket, OkxOptions};
use nofxi_venues::{Clock, MarketData};

use super::connect::{
    ConnectError, binance_endpoints, bitget_endpoints, bybit_endpoints, hyperliquid_endpoints,
    okx_endpoints,
};

/// Venues whose public market data nofxi reads, as users name them.
pub const PUBLIC_MARKETS: [&str; 5] = ["binance", "okx", "bybit", "hyperliquid", "bitget"];

/// `binance, okx, bybit, hyperliquid or bitget`, for messages that list the choices.
pub fn public_markets_text() -> String {
    let (last, rest) = PUBLIC_MARKETS.split_last().unwrap_or((&"", &[]));
    format!("{} or {last}", rest.join(", "))
}

/// The public market data of `venue` (one of [`PUBLIC_MARKETS`], mainnet), or `None` for a
/// name that is none of them.
pub fn public_market(
    venue: &str,
    clock: Arc<dyn Clock>,
) -> Result<Option<Arc<dyn MarketData>>, ConnectError> {
    let market: Arc<dyn MarketData> = match venue {
        "binance" => {
            let client = BinanceClient::new(
                venue,
                binance_endpoints(false)?,
                None,
                BinanceOptions::default(),
                clock,
            )?;
            Arc::new(BinanceMarket::new(Arc::new(client)))
        }
        "okx" => {
            let client = Arc::new(OkxClient::new(
                venue,
                okx_endpoints()?,
                None,
                OkxOptions::default(),
                clock,
            )?);
            let contracts = Arc::new(OkxContracts::new(client.clone()));
            Arc::new(OkxMarket::new(client, contracts))
        }
        "bybit" => {
            let client = Arc::new(BybitClient::new(
                venue,
                bybit_endpoints(false)?,
                None,
                BybitOptions::default(),
                clock,
            )?);
            let instruments = Arc::new(Instruments::new(client.clone()));
            Arc::new(BybitMarket::new(client, instruments))
        }
        "hyperliquid" => {
            let client = Arc::new(HyperliquidClient::new(
                venue,
                hyperliquid_endpoints(false)?,
                None,
                HyperliquidOptions::default(),
                clock,
            )?);
            let assets = Arc::new(Assets::new(client.clone()));
            Arc::new(HyperliquidMarket::new(client, assets))
        }
        "bitget" => {
            let client = Arc::new(BitgetClient::new(
                venue,
                bitget_endpoints()?,
                None,
                BitgetOptions::default(),
                clock,
            )?);
            let contracts = Arc::new(BitgetContracts::new(client.clone()));
            Arc::new(BitgetMarket::new(client, contracts))
        }
        _ => return Ok(None),
    };
    Ok(Some(market))
}

#[cfg(test)]
mod tests {
    use nofxi_domain::MarketSource;

    use super::PUBLIC_MARKETS;

    /// A paper account may follow every venue whose public market data nofxi reads, and no
    /// other: the two lists are one.
    #[test]
    fn a_paper_account_follows_every_public_market() {
        let followed: Vec<&str> = MarketSource::ALL.iter().filter_map(|m| m.venue()).collect();
        assert_eq!(followed, PUBLIC_MARKETS);
    }
}
