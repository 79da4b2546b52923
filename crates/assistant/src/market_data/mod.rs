//! The market-data skill's functions run for real (`get_realtime_price`, `get_order_book`,
//! `get_kline`): on the user's own account's market or a source named outright, through the
//! skill's constraints runtime, labelled with their source and time. The chat, the CLI, the
//! HTTP API and MCP all call them here.

pub mod call;
pub mod render;
pub mod report;
pub mod source;
pub mod unanswered;

pub use call::{GET_BOOK, GET_KLINE, GET_PRICE, MarketError};
pub use report::{BookReport, KlineReport, PriceReport, SourceView};
pub use source::{DataSource, Prefer};

/// Each function nofxi runs, and the chat tool that runs it.
const TOOLS: [(&str, &str); 3] = [
    (GET_PRICE, "market.price"),
    (GET_BOOK, "market.book"),
    (GET_KLINE, "market.klines"),
];

/// The chat tool that runs `function`; `None` for a function nothing runs.
pub fn tool_of(function: &str) -> Option<&'static str> {
    TOOLS
        .iter()
        .find(|(f, _)| *f == function)
        .map(|(_, tool)| *tool)
}

/// Whether nofxi runs `function` (MCP lists only these).
pub fn runs(function: &str) -> bool {
    tool_of(function).is_some()
}
