//! What the strategy form is built from, so the page holds no copy of a domain table: the
//! default config (`nofxi strategy add`'s REFERENCE defaults), the candle intervals, each
//! bounded field's range as the validation enforces it, the list and text limits, and the
//! symbol parser's reading of a coin as it is typed (`btc`, `以太坊`, `ETH-USDT-SWAP` →
//! the canonical symbol, or why it is refused, with the known coins nearest to it).

use axum::Json;
use axum::extract::Query;
use axum::http::Method;
use axum::routing::get;
use nofxi_domain::market::{Symbol, SymbolAlias, UnknownSymbol, known_symbols};
use nofxi_domain::strategy_config::{MAX_SELECTED_TIMEFRAMES, PROMPT_SECTION_MAX};
use nofxi_domain::validation::shown_input;
use nofxi_domain::{Interval, StrategyConfig};
use nofxi_skills::Catalog;
use nofxi_skills::text::Lang;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Op, Reply, schema};
use crate::error::{ApiError, ApiResult, Worded};

pub fn operations() -> Vec<Op> {
    vec![
        Op::new(
            Method::GET,
            "/api/strategy-defaults",
            "forms",
            "What a strategy's config holds before anything is changed (the REFERENCE defaults a new strategy gets), the candle intervals its timeframes take, each bounded field's range and the list and text limits the server enforces",
            Reply::Json(200, schema::<StrategyDefaults>),
            get(defaults),
        ),
        Op::new(
            Method::GET,
            "/api/symbols",
            "forms",
            "A coin as typed (`btc`, `比特币`, `ETH-USDT-SWAP`) read by the symbol parser strategies use: its canonical symbol, the known coins it may mean, or why it is refused",
            Reply::Json(200, schema::<SymbolReading>),
            get(symbols),
        )
        .query(schema::<SymbolQuery>),
    ]
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct StrategyDefaults {
    /// The config a strategy created without one gets.
    pub config: StrategyConfig,
    /// Every candle interval a timeframe may be, shortest first (`1m` … `1w`).
    pub intervals: Vec<String>,
    /// Each bounded field of the config by its dotted path
    /// (`risk_control.btc_eth_max_leverage`), with its inclusive range.
    pub bounds: std::collections::BTreeMap<String, Bound>,
    /// Most extra timeframes `indicators.klines.selected_timeframes` may list.
    pub max_selected_timeframes: usize,
    /// Longest prompt section, in characters.
    pub prompt_section_max: usize,
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct Bound {
    /// Exact decimals, as text.
    pub min: String,
    pub max: String,
    /// A whole number (a count, a leverage), not a decimal.
    pub whole: bool,
}

async fn defaults() -> ApiResult<Json<StrategyDefaults>> {
    let config = StrategyConfig::default();
    let json = serde_json::to_value(&config).map_err(ApiError::internal)?;
    let mut bounds = std::collections::BTreeMap::new();
    bounded_leaves(&json, String::new(), &mut bounds);
    Ok(Json(StrategyDefaults {
        config,
        intervals: Interval::NAMES.iter().map(|n| n.to_string()).collect(),
        bounds,
        max_selected_timeframes: MAX_SELECTED_TIMEFRAMES,
        prompt_section_max: PROMPT_SECTION_MAX,
    }))
}

/// Every leaf of the config that the bounds table bounds, by its dotted path: the same table
/// the validation reads, so the form's hints and checks cannot drift from the server's.
fn bounded_leaves(
    value: &Value,
    path: String,
    out: &mut std::collections::BTreeMap<String, Bound>,
) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                let path = if path.is_empty() {
                    key.clone()
                } else {
                    format!("{path}.{key}")
                };
                bounded_leaves(inner, path, out);
            }
        }
        Value::Number(_) | Value::String(_) => {
            if let Some(b) = nofxi_domain::bounds::of(&path) {
                out.insert(
                    path,
                    Bound {
                        min: b.min.normalize().to_string(),
                        max: b.max.normalize().to_string(),
                        whole: value.is_number(),
                    },
                );
            }
        }
        _ => {}
    }
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct SymbolQuery {
    /// What was typed: a ticker (`btc`), a name (`比特币`), a symbol or a venue's spelling of
    /// the USDT perpetual (`ETH-USDT-SWAP`, `BTCUSDT.P`). Empty: every known coin.
    #[serde(default)]
    pub q: String,
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct SymbolReading {
    /// What was asked, trimmed.
    pub query: String,
    /// The canonical symbol (`BTCUSDT`) when what was typed names a coin nofxi knows: what a
    /// strategy stores for it.
    pub symbol: Option<String>,
    /// Known coins it may mean, best first (at most 8): the one it reads as, those whose
    /// ticker, symbol or a name begins with it, else the nearest by spelling. Every known
    /// coin for an empty query.
    pub candidates: Vec<SymbolCandidate>,
    /// Why it is no coin a strategy can hold, in the request's language; absent when it is
    /// one, or nothing was typed.
    pub refused: Option<String>,
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct SymbolCandidate {
    pub symbol: String,
    /// The base asset (`BTC`).
    pub base: String,
    /// Other names it is known by (`比特币`, `bitcoin`).
    pub names: Vec<String>,
}

/// Most candidates offered for a non-empty query.
const CANDIDATES_MAX: usize = 8;

impl From<&SymbolAlias> for SymbolCandidate {
    fn from(row: &SymbolAlias) -> SymbolCandidate {
        SymbolCandidate {
            symbol: row.symbol.clone(),
            base: row.base.clone(),
            names: row.names.clone(),
        }
    }
}

async fn symbols(Query(q): Query<SymbolQuery>) -> Json<SymbolReading> {
    Json(read_symbol(&q.q, crate::lang::current()))
}

fn read_symbol(typed: &str, lang: Lang) -> SymbolReading {
    let query = typed.trim().to_string();
    let table = known_symbols();
    if query.is_empty() {
        return SymbolReading {
            query,
            symbol: None,
            candidates: table.iter().map(SymbolCandidate::from).collect(),
            refused: None,
        };
    }
    let parsed = Symbol::parse_known(&query);
    let symbol = parsed.as_ref().ok().map(|s| s.to_string());
    let lower = query.to_lowercase();
    let begins = |row: &&SymbolAlias| {
        row.base.to_lowercase().starts_with(&lower)
            || row.symbol.to_lowercase().starts_with(&lower)
            || row
                .names
                .iter()
                .any(|n| n.to_lowercase().starts_with(&lower))
    };
    let mut rows: Vec<&SymbolAlias> = Vec::new();
    rows.extend(table.iter().filter(|r| Some(&r.symbol) == symbol.as_ref()));
    rows.extend(table.iter().filter(begins));
    if let Err(unknown) = &parsed {
        for base in &unknown.nearest {
            rows.extend(table.iter().filter(|r| &r.base == base));
        }
    }
    let mut candidates: Vec<SymbolCandidate> = Vec::new();
    for row in rows {
        if candidates.len() < CANDIDATES_MAX && !candidates.iter().any(|c| c.symbol == row.symbol) {
            candidates.push(row.into());
        }
    }
    let refused = parsed
        .err()
        .map(|unknown| refusal(&unknown).in_lang(lang).to_string());
    SymbolReading {
        query,
        symbol,
        candidates,
        refused,
    }
}

/// Why a typed coin is refused, worded from the catalogs: another contract than a USDT
/// perpetual, a coin near known ones, or one near none (then every known coin is named).
fn refusal(unknown: &UnknownSymbol) -> Worded {
    let catalog = Catalog::builtin();
    let given = shown_input(&unknown.given);
    let in_lang = |lang: Lang| {
        let sep = catalog.text(lang, "list-separator", &[]);
        if unknown.not_usdt_perpetual {
            catalog.text(lang, "symbol-not-perpetual", &[("given", &given)])
        } else if unknown.nearest.is_empty() {
            let known: Vec<&str> = known_symbols().iter().map(|r| r.base.as_str()).collect();
            catalog.text(
                lang,
                "symbol-unknown",
                &[("given", &given), ("known", &known.join(&sep))],
            )
        } else {
            catalog.text(
                lang,
                "symbol-unknown-nearest",
                &[("given", &given), ("nearest", &unknown.nearest.join(&sep))],
            )
        }
    };
    Worded::new(in_lang(Lang::En), in_lang(Lang::Zh))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_tickers_and_venue_spellings_read_as_the_canonical_symbol() {
        for (typed, symbol) in [
            ("btc", "BTCUSDT"),
            ("以太坊", "ETHUSDT"),
            ("ETH-USDT-SWAP", "ETHUSDT"),
            (" solusdt ", "SOLUSDT"),
        ] {
            let read = read_symbol(typed, Lang::En);
            assert_eq!(read.symbol.as_deref(), Some(symbol), "{typed}");
            assert_eq!(read.candidates[0].symbol, symbol, "{typed}");
            assert!(read.refused.is_none(), "{typed}");
        }
    }

    #[test]
    fn a_refusal_says_why_in_both_languages_with_the_nearest_coins() {
        let read = read_symbol("dogee", Lang::En);
        assert_eq!(read.symbol, None);
        assert_eq!(read.candidates[0].symbol, "DOGEUSDT");
        let said = read.refused.unwrap_or_default();
        assert!(
            said.contains("\"dogee\"") && said.contains("DOGE?"),
            "{said}"
        );
        let zh = read_symbol("dogee", Lang::Zh).refused.unwrap_or_default();
        assert!(zh.contains("DOGE") && zh.contains("是不是"), "{zh}");
        let other = read_symbol("BTC-USD-SWAP", Lang::En)
            .refused
            .unwrap_or_default();
        assert!(other.contains("USDT perpetual"), "{other}");
    }

    #[test]
    fn every_config_bound_is_offered_with_its_path() {
        let json = serde_json::to_value(StrategyConfig::default()).unwrap_or_default();
        let mut bounds = std::collections::BTreeMap::new();
        bounded_leaves(&json, String::new(), &mut bounds);
        let lev = &bounds["risk_control.btc_eth_max_leverage"];
        assert_eq!(
            (lev.min.as_str(), lev.max.as_str(), lev.whole),
            ("1", "20", true)
        );
        let margin = &bounds["risk_control.max_margin_usage"];
        assert_eq!(
            (margin.min.as_str(), margin.max.as_str(), margin.whole),
            ("0.01", "1", false)
        );
        assert!(bounds.contains_key("indicators.klines.primary_count"));
        assert_eq!(bounds.len(), 10, "{:?}", bounds.keys().collect::<Vec<_>>());
    }
}
