//! `portfolio.technical`: "茅台的技术指标", "Tencent technicals", "RSI of AAPL". The REFERENCE §4
//! indicators over the last 60 daily bars: moving averages, EMA, MACD, RSI, Bollinger bands,
//! ATR, support and resistance, each value as computed and a short reading of three of them
//! by fixed rules (close against MA20, RSI zone, the MACD histogram's sign). The bars are the
//! simulated market's, offline, and the answer says so; a missing figure is named, never
//! made up (the simulated market has no volume, so no volume ratio).

use async_trait::async_trait;
use jiff::Timestamp;
use nofxi_domain::indicators::{TechnicalSnapshot, snapshot};
use nofxi_domain::market::Candle;
use nofxi_quotes::SimulatedSource;
use nofxi_skills::Lang;
use rust_decimal::Decimal;
use schemars::JsonSchema;
use serde::Deserialize;

use super::label;
use super::security::security;
use crate::msg;
use crate::tools::registry::{Tool, ToolContext};
use crate::tools::{RiskLevel, ToolError, ToolOutput};

/// Daily bars read: enough for MACD's 26 + 9 and EMA50 to settle.
const BARS: usize = 60;
/// RSI at or above this reads overbought, at or below its complement oversold.
const RSI_HIGH: f64 = 70.0;
const RSI_LOW: f64 = 30.0;

#[derive(Debug, Deserialize, JsonSchema)]
pub struct TechnicalArgs {
    /// The security as said (成都银行, Tencent, 600519, AAPL.US).
    pub stock: String,
    /// Which portfolio's records to resolve codes from; the only one when there is one.
    #[serde(default)]
    pub portfolio: Option<String>,
}

pub struct PortfolioTechnical;

#[async_trait]
impl Tool for PortfolioTechnical {
    type Args = TechnicalArgs;
    const NAME: &'static str = "portfolio.technical";
    const SCOPES: &'static [&'static str] = &["portfolio:read"];
    const RISK: RiskLevel = RiskLevel::Read;

    async fn run(
        &self,
        cx: &ToolContext<'_>,
        args: TechnicalArgs,
    ) -> Result<ToolOutput, ToolError> {
        let lang = cx.lang;
        let found = security(
            cx.store,
            cx.user,
            lang,
            &args.stock,
            args.portfolio.as_deref(),
        )
        .await?;
        let bars = SimulatedSource.daily_bars(&found.named.instrument, BARS, Timestamp::now());
        let candles: Vec<Candle> = bars
            .iter()
            .map(|b| Candle {
                open_time_ms: b.day_start.as_millisecond(),
                open: b.open,
                high: b.high,
                low: b.low,
                close: b.close,
                volume: Decimal::ZERO,
            })
            .collect();
        let s = snapshot(&candles);
        let last_day = bars
            .last()
            .map(|b| b.day_start.strftime("%Y-%m-%d").to_string())
            .unwrap_or_default();
        let mut lines = vec![msg(
            lang,
            "technical-header",
            &[
                ("name", &label(&found.named, lang)),
                ("bars", &s.bars.to_string()),
                ("last_day", &last_day),
            ],
        )];
        lines.push(values(&s, lang));
        lines.extend(readings(&s, lang));
        lines.push(msg(lang, "technical-missing-volume", &[]));
        Ok(ToolOutput {
            text: Some(lines.join("\n")),
            ..ToolOutput::default()
        })
    }
}

/// A value as the reply shows it: two decimals, or "–" when the bars were too few.
fn shown(v: Option<f64>) -> String {
    v.filter(|x| x.is_finite())
        .map(|x| format!("{x:.2}"))
        .unwrap_or_else(|| "–".into())
}

fn values(s: &TechnicalSnapshot, lang: Lang) -> String {
    msg(
        lang,
        "technical-values",
        &[
            ("close", &shown(s.close)),
            ("ma5", &shown(s.ma5)),
            ("ma10", &shown(s.ma10)),
            ("ma20", &shown(s.ma20)),
            ("ema12", &shown(s.ema12)),
            ("ema26", &shown(s.ema26)),
            ("dif", &shown(s.macd.map(|m| m.dif))),
            ("dea", &shown(s.macd.map(|m| m.dea))),
            ("hist", &shown(s.macd.map(|m| m.hist))),
            ("rsi", &shown(s.rsi14)),
            ("upper", &shown(s.bollinger.map(|b| b.upper))),
            ("middle", &shown(s.bollinger.map(|b| b.middle))),
            ("lower", &shown(s.bollinger.map(|b| b.lower))),
            ("atr", &shown(s.atr14)),
            ("support", &shown(s.support)),
            ("resistance", &shown(s.resistance)),
        ],
    )
}

/// The fixed-rule readings, each only when its inputs exist.
fn readings(s: &TechnicalSnapshot, lang: Lang) -> Vec<String> {
    let mut out = Vec::new();
    if let (Some(close), Some(ma20)) = (s.close, s.ma20) {
        let id = if close >= ma20 {
            "technical-above-ma20"
        } else {
            "technical-below-ma20"
        };
        out.push(msg(lang, id, &[]));
    }
    if let Some(rsi) = s.rsi14 {
        let id = if rsi >= RSI_HIGH {
            "technical-rsi-high"
        } else if rsi <= RSI_LOW {
            "technical-rsi-low"
        } else {
            "technical-rsi-middle"
        };
        out.push(msg(lang, id, &[("rsi", &format!("{rsi:.1}"))]));
    }
    if let Some(m) = s.macd {
        let id = if m.hist >= 0.0 {
            "technical-macd-up"
        } else {
            "technical-macd-down"
        };
        out.push(msg(lang, id, &[]));
    }
    out
}
