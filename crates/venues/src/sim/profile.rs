//! Per-symbol character of the simulated market: price level, tick and step sizes, volatility.
//! Known coins get realistic levels so prompts and fees look familiar; any other symbol gets a
//! profile derived from its name, so every symbol the alias parser accepts can be simulated.

use rust_decimal::Decimal;

use super::path::{mix, symbol_key};

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SymbolProfile {
    pub base_price: f64,
    /// Decimal places of the price tick (BTC: 1 → 0.1).
    pub price_dp: u32,
    /// Decimal places of the quantity step (BTC: 3 → 0.001).
    pub qty_dp: u32,
    /// Per-minute volatility of the log price.
    pub sigma: f64,
    /// Typical volume of one 1-minute candle, in base units.
    pub volume_1m: f64,
}

impl SymbolProfile {
    pub fn for_symbol(symbol: &str) -> SymbolProfile {
        let p = |base_price, price_dp, qty_dp, sigma, volume_1m| SymbolProfile {
            base_price,
            price_dp,
            qty_dp,
            sigma,
            volume_1m,
        };
        match symbol {
            "BTCUSDT" => p(60_000.0, 1, 3, 0.0008, 120.0),
            "ETHUSDT" => p(3_000.0, 2, 3, 0.0011, 1_500.0),
            "SOLUSDT" => p(150.0, 3, 2, 0.0016, 20_000.0),
            "BNBUSDT" => p(600.0, 2, 2, 0.0010, 800.0),
            "XRPUSDT" => p(0.6, 4, 1, 0.0014, 2_000_000.0),
            "DOGEUSDT" => p(0.15, 5, 0, 0.0018, 8_000_000.0),
            "ADAUSDT" => p(0.45, 4, 0, 0.0015, 1_500_000.0),
            "LTCUSDT" => p(80.0, 2, 3, 0.0013, 5_000.0),
            _ => {
                // 0.01 … 100 on a log scale, from the name.
                let u = (mix(symbol_key(symbol)) >> 11) as f64 / (1u64 << 53) as f64;
                let base = 10f64.powf(-2.0 + 4.0 * u);
                p(base, 4 + u32::from(base < 1.0) * 2, 0, 0.0018, 100_000.0)
            }
        }
    }

    pub fn tick(&self) -> Decimal {
        Decimal::new(1, self.price_dp)
    }

    pub fn step(&self) -> Decimal {
        Decimal::new(1, self.qty_dp)
    }
}
