//! `nofxi trace list|show`: what the assistant did in each turn — commands, tool calls with
//! redacted arguments and results, timings, model usage. Traces are stored redacted.

use anyhow::{Result, bail};
use clap::Subcommand;

use nofxi_domain::validation::shown_input;

use super::common::{block_on, open_store, print_json, print_table, time};
use crate::home::GlobalArgs;

#[derive(Debug, Subcommand)]
pub enum TraceCommand {
    /// The latest turns, newest first.
    List {
        #[arg(long, default_value_t = 20)]
        limit: i64,
        /// Only this conversation's turns.
        #[arg(long)]
        conversation: Option<String>,
    },
    /// One turn's whole record.
    Show { id: String },
}

pub fn run(global: &GlobalArgs, command: TraceCommand) -> Result<()> {
    block_on(async {
        let store = open_store(global).await?;
        match command {
            TraceCommand::List {
                limit,
                conversation,
            } => {
                let rows = store
                    .list_traces(&global.user, conversation.as_deref(), limit)
                    .await?;
                if global.json {
                    let values: Vec<_> = rows.iter().map(|r| serde_json::json!({"id": r.id, "conversation_id": r.conversation_id, "at": r.at, "message": r.message})).collect();
                    return print_json(&values);
                }
                let table: Vec<Vec<String>> = rows
                    .iter()
                    .map(|r| {
                        let tools = r
                            .record
                            .get("tool_calls")
                            .and_then(|t| t.as_array())
                            .map_or(0, Vec::len);
                        let ms = r
                            .record
                            .pointer("/timings_ms/total")
                            .and_then(|v| v.as_f64())
                            .unwrap_or(0.0);
                        // Model use: calls and prompt+completion tokens; "-" on the rules path.
                        let llm = r.record.get("llm");
                        let count = |k: &str| {
                            llm.and_then(|l| l.get(k))
                                .and_then(|v| v.as_u64())
                                .unwrap_or(0)
                        };
                        let model = match count("calls") {
                            0 => "-".to_string(),
                            calls => format!(
                                "{calls} ({}+{} tok)",
                                count("prompt_tokens"),
                                count("completion_tokens")
                            ),
                        };
                        vec![
                            time(r.at),
                            r.message.chars().take(40).collect(),
                            tools.to_string(),
                            model,
                            format!("{ms:.2}"),
                            r.id.clone(),
                        ]
                    })
                    .collect();
                print_table(&["TIME", "MESSAGE", "TOOLS", "LLM", "MS", "ID"], &table);
                Ok(())
            }
            TraceCommand::Show { id } => {
                let Some(row) = store.get_trace(&global.user, &id).await? else {
                    bail!(
                        "no trace \"{}\" for this user: see `nofxi trace list`",
                        shown_input(&id)
                    );
                };
                print_json(
                    &serde_json::json!({"id": row.id, "conversation_id": row.conversation_id, "at": row.at, "message": row.message, "record": row.record}),
                )
            }
        }
    })?
}
