//! REFERENCE §2's prompts, rendered from the templates in `templates/` with minijinja.
//!
//! The system prompt carries the strategy's own sections and the hard constraints derived from
//! its risk control, so the model is told the same limits the guard enforces. The user prompt
//! is compact on purpose: candles as CSV lines and one line per indicator, because prompt size
//! is money and context length (a "context too long" error is a frequent user report).

use minijinja::value::Serde;
use minijinja::{Environment, Value, context};
use nofxi_domain::indicators::{atr, bollinger, ema, last, macd, rsi};
use nofxi_domain::market::Candle;
use nofxi_domain::strategy_config::{Indicators, StrategyConfig};
use serde::Serialize;

use super::DeciderError;
use crate::cycle::{CandidateData, CycleInput};

const SYSTEM: &str = include_str!("../../templates/system.md.j2");
const USER: &str = include_str!("../../templates/user.md.j2");

const DEFAULT_ROLE: &str = "You are a disciplined crypto futures trader. You protect capital first \
and trade only clear setups.";
const DEFAULT_FREQUENCY: &str = "Most cycles need no trade. Prefer waiting to forcing entries.";
const DEFAULT_ENTRY: &str = "Enter only when trend, momentum and volume agree on the primary and \
the longer timeframe.";
const DEFAULT_PROCESS: &str = "1. Review open positions: close those whose thesis is broken. \
2. Scan candidates for setups. 3. Size each trade so that the stop loss risks little of equity.";

pub struct Prompts {
    env: Environment<'static>,
}

impl Prompts {
    pub fn new() -> Result<Prompts, DeciderError> {
        let mut env = Environment::new();
        env.add_template("system", SYSTEM)
            .map_err(|e| DeciderError::Prompt(e.to_string()))?;
        env.add_template("user", USER)
            .map_err(|e| DeciderError::Prompt(e.to_string()))?;
        Ok(Prompts { env })
    }

    pub fn system(&self, strategy: &StrategyConfig) -> Result<String, DeciderError> {
        let s = &strategy.prompt_sections;
        let or = |text: &str, default: &'static str| {
            if text.trim().is_empty() {
                default.to_string()
            } else {
                text.to_string()
            }
        };
        self.render(
            "system",
            context! {
                role => or(&s.role_definition, DEFAULT_ROLE),
                trading_frequency => or(&s.trading_frequency, DEFAULT_FREQUENCY),
                entry_standards => or(&s.entry_standards, DEFAULT_ENTRY),
                decision_process => or(&s.decision_process, DEFAULT_PROCESS),
                custom_prompt => s.custom_prompt.trim(),
                risk => Value::from(Serde(&strategy.risk_control)),
            },
        )
    }

    pub fn user(&self, input: &CycleInput<'_>) -> Result<String, DeciderError> {
        let time = jiff::Timestamp::from_millisecond(input.now_ms)
            .map(|t| t.to_string())
            .unwrap_or_else(|_| input.now_ms.to_string());
        let candidates: Vec<CandidateView> = input
            .candidates
            .iter()
            .map(|c| CandidateView::new(c, &input.strategy.indicators))
            .collect();
        self.render(
            "user",
            context! {
                time, cycle_number => input.cycle_number, trader_name => input.trader_name,
                account => Value::from(Serde(input.account)),
                positions => Value::from(Serde(input.positions)),
                candidates => Value::from(Serde(&candidates)),
            },
        )
    }

    fn render(&self, name: &str, ctx: Value) -> Result<String, DeciderError> {
        self.env
            .get_template(name)
            .and_then(|t| t.render(ctx))
            .map_err(|e| DeciderError::Prompt(format!("template {name}: {e}")))
    }
}

#[derive(Serialize)]
struct CandidateView {
    symbol: String,
    price: String,
    funding: Option<String>,
    series: Vec<SeriesView>,
}

#[derive(Serialize)]
struct SeriesView {
    interval: String,
    candles: Vec<String>,
    indicators: Vec<String>,
}

impl CandidateView {
    fn new(c: &CandidateData, indicators: &Indicators) -> CandidateView {
        let count = indicators.klines.primary_count as usize;
        CandidateView {
            symbol: c.symbol.to_string(),
            price: c.price.to_string(),
            funding: c.funding.as_ref().map(|f| f.rate.to_string()),
            series: c
                .series
                .iter()
                .map(|(interval, candles)| SeriesView {
                    interval: interval.to_string(),
                    candles: candles[candles.len().saturating_sub(count)..]
                        .iter()
                        .map(candle_line)
                        .collect(),
                    indicators: indicator_lines(candles, indicators),
                })
                .collect(),
        }
    }
}

fn candle_line(c: &Candle) -> String {
    let time = jiff::Timestamp::from_millisecond(c.open_time_ms)
        .map(|t| t.strftime("%m-%d %H:%M").to_string())
        .unwrap_or_default();
    format!(
        "{time},{},{},{},{},{}",
        c.open,
        c.high,
        c.low,
        c.close,
        c.volume.round_dp(2)
    )
}

/// The latest value of each enabled indicator, computed over the whole series it was given.
fn indicator_lines(candles: &[Candle], on: &Indicators) -> Vec<String> {
    let close: Vec<f64> = candles.iter().map(Candle::close_f64).collect();
    let high: Vec<f64> = candles.iter().map(Candle::high_f64).collect();
    let low: Vec<f64> = candles.iter().map(Candle::low_f64).collect();
    let fmt = |v: Option<f64>| v.map(|x| format!("{x:.4}")).unwrap_or_else(|| "n/a".into());
    let mut lines = Vec::new();
    if on.enable_ema {
        for p in &on.ema_periods {
            lines.push(format!("EMA{p}: {}", fmt(last(&ema(&close, *p as usize)))));
        }
    }
    if on.enable_macd
        && let Some(Some(m)) = macd(&close, 12, 26, 9).last()
    {
        lines.push(format!(
            "MACD: DIF {:.4} DEA {:.4} hist {:.4}",
            m.dif, m.dea, m.hist
        ));
    }
    if on.enable_rsi {
        for p in &on.rsi_periods {
            lines.push(format!("RSI{p}: {}", fmt(last(&rsi(&close, *p as usize)))));
        }
    }
    if on.enable_atr {
        for p in &on.atr_periods {
            lines.push(format!(
                "ATR{p}: {}",
                fmt(last(&atr(&high, &low, &close, *p as usize)))
            ));
        }
    }
    if on.enable_boll {
        for p in &on.boll_periods {
            if let Some(Some(b)) = bollinger(&close, *p as usize, 2.0).last() {
                lines.push(format!(
                    "BOLL{p}: upper {:.4} mid {:.4} lower {:.4}",
                    b.upper, b.middle, b.lower
                ));
            }
        }
    }
    lines
}
