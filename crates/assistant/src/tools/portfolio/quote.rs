//! A listed security's quote in the chat ("茅台现在多少钱", "what's Tencent trading at"),
//! reached through `market.price` when the symbol is no crypto pair. The chat stays offline:
//! the quote is the simulated market's, said to be simulated every time, with the command
//! that asks the public feeds and the user's own latest recorded price beside it.

use jiff::Timestamp;
use nofxi_quotes::Quotes;
use rust_decimal::Decimal;

use super::security::security;
use super::{code, label, signed};
use crate::msg;
use crate::tools::registry::ToolContext;
use crate::tools::{ToolError, ToolOutput};

/// The reply to a quote of the security `said`.
pub async fn stock_quote(cx: &ToolContext<'_>, said: &str) -> Result<ToolOutput, ToolError> {
    let lang = cx.lang;
    let found = security(cx.store, cx.user, lang, said, None).await?;
    let instrument = &found.named.instrument;
    let quote = Quotes::offline()
        .quote(instrument, Timestamp::now())
        .await
        .map_err(|e| ToolError::new("error", e.to_string()))?;
    let currency = instrument.currency.to_string();
    let or_dash = |v: Option<Decimal>| v.map(|d| d.normalize().to_string()).unwrap_or("–".into());
    let mut lines = vec![msg(
        lang,
        "market-stock-quote",
        &[
            ("name", &label(&found.named, lang)),
            ("last", &quote.last.normalize().to_string()),
            ("currency", &currency),
            (
                "change",
                &quote
                    .change_pct
                    .map(|c| format!("{}%", signed(c)))
                    .unwrap_or("–".into()),
            ),
            ("previous", &or_dash(quote.previous_close)),
            ("open", &or_dash(quote.open)),
            ("high", &or_dash(quote.high)),
            ("low", &or_dash(quote.low)),
            (
                "time",
                &quote.as_of.strftime("%Y-%m-%d %H:%M UTC").to_string(),
            ),
        ],
    )];
    lines.push(msg(
        lang,
        "market-stock-simulated",
        &[("code", &code(instrument))],
    ));
    if let Some(mark) = found.recorded_price() {
        lines.push(msg(
            lang,
            "market-stock-recorded",
            &[
                ("price", &mark.price.normalize().to_string()),
                ("currency", &currency),
                ("date", &mark.date.to_string()),
                ("source", &mark.source),
            ],
        ));
    }
    Ok(ToolOutput {
        text: Some(lines.join("\n")),
        ..ToolOutput::default()
    })
}
