//! The traders as MCP resources: the list, each trader, its journal (newest cycles first) and
//! its equity curve, as JSON. Reads only, per user; every text passes the assistant's
//! redaction before it leaves (a journal may quote what a venue or a model answered).

use nofxi_assistant::Assistant;
use nofxi_store::Store;
use serde_json::{Value, json};

/// The list of traders.
pub const TRADERS: &str = "nofxi://traders";
/// Cycles a journal resource holds.
const JOURNAL_CYCLES: i64 = 50;

/// The URI templates a client can fill.
pub fn templates() -> Value {
    json!([
        {"uriTemplate": "nofxi://traders/{trader}", "name": "trader",
         "description": "One trader (by name or id): its exchange, model, strategy, state.",
         "mimeType": "application/json"},
        {"uriTemplate": "nofxi://traders/{trader}/journal", "name": "trader_journal",
         "description": "The trader's journal: its newest cycles (decisions, refusals, orders), newest first.",
         "mimeType": "application/json"},
        {"uriTemplate": "nofxi://traders/{trader}/equity", "name": "trader_equity",
         "description": "The trader's equity curve: time (epoch ms) and equity (exact decimal) per cycle.",
         "mimeType": "application/json"}
    ])
}

/// What one URI names.
#[derive(Debug, PartialEq, Eq)]
enum Uri<'a> {
    Traders,
    Trader(&'a str),
    Journal(&'a str),
    Equity(&'a str),
}

fn parse(uri: &str) -> Option<Uri<'_>> {
    if uri == TRADERS {
        return Some(Uri::Traders);
    }
    let rest = uri.strip_prefix("nofxi://traders/")?;
    let (trader, part) = rest.split_once('/').unwrap_or((rest, ""));
    if trader.is_empty() {
        return None;
    }
    match part {
        "" => Some(Uri::Trader(trader)),
        "journal" => Some(Uri::Journal(trader)),
        "equity" => Some(Uri::Equity(trader)),
        _ => None,
    }
}

/// The resources to list: the traders, and each trader's three.
pub async fn list(store: &Store, user: &str) -> Result<Value, nofxi_store::StoreError> {
    let mut out = vec![json!({
        "uri": TRADERS, "name": "traders", "mimeType": "application/json",
        "description": "Every trader: name, id, whether it runs."
    })];
    for t in store.list_traders(user, false).await? {
        let name = &t.spec.name;
        let base = format!("{TRADERS}/{}", t.id);
        out.push(json!({"uri": base, "name": name, "mimeType": "application/json"}));
        out.push(json!({"uri": format!("{base}/journal"), "name": format!("{name} journal"), "mimeType": "application/json"}));
        out.push(json!({"uri": format!("{base}/equity"), "name": format!("{name} equity"), "mimeType": "application/json"}));
    }
    Ok(json!(out))
}

/// A resource's JSON text, redacted; `None` for a URI that names no resource.
pub async fn read(
    store: &Store,
    assistant: &Assistant,
    user: &str,
    uri: &str,
) -> Result<Option<String>, ReadError> {
    let Some(parsed) = parse(uri) else {
        return Ok(None);
    };
    let value = match parsed {
        Uri::Traders => {
            let traders = store.list_traders(user, false).await?;
            json!(
                traders
                    .iter()
                    .map(|t| json!({"id": t.id, "name": t.spec.name, "running": t.is_running}))
                    .collect::<Vec<_>>()
            )
        }
        Uri::Trader(reference) => serde_json::to_value(store.get_trader(user, reference).await?)?,
        Uri::Journal(reference) => {
            let trader = store.get_trader(user, reference).await?;
            let cycles = store.cycles(user, &trader.id, JOURNAL_CYCLES, None).await?;
            json!({
                "trader": trader.spec.name,
                "cycles": cycles.iter().map(|c| json!({
                    "cycle": c.cycle_number,
                    "phase": c.phase,
                    "started_at": c.started_at,
                    "equity": c.equity.map(|e| e.to_string()),
                    "record": c.record,
                })).collect::<Vec<_>>()
            })
        }
        Uri::Equity(reference) => {
            let trader = store.get_trader(user, reference).await?;
            let curve = store.equity_curve(user, &trader.id).await?;
            json!({
                "trader": trader.spec.name,
                "points": curve.iter().map(|(at, equity)| json!({"at": at, "equity": equity.to_string()})).collect::<Vec<_>>()
            })
        }
    };
    let text = serde_json::to_string_pretty(&value)?;
    Ok(Some(assistant.redact_for(user, &text).await?))
}

#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error(transparent)]
    Store(#[from] nofxi_store::StoreError),
    #[error(transparent)]
    Assistant(#[from] nofxi_assistant::AssistantError),
    #[error("cannot write the resource as JSON: {0}")]
    Json(#[from] serde_json::Error),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_name_the_list_a_trader_and_its_parts() {
        assert_eq!(parse("nofxi://traders"), Some(Uri::Traders));
        assert_eq!(parse("nofxi://traders/bot"), Some(Uri::Trader("bot")));
        assert_eq!(
            parse("nofxi://traders/bot/journal"),
            Some(Uri::Journal("bot"))
        );
        assert_eq!(
            parse("nofxi://traders/bot/equity"),
            Some(Uri::Equity("bot"))
        );
        assert_eq!(parse("nofxi://traders/bot/other"), None);
        assert_eq!(parse("nofxi://traders/"), None);
        assert_eq!(parse("file:///etc/passwd"), None);
    }
}
