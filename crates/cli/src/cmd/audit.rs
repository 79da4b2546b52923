//! `nofxi audit`: the user's audit trail, newest first — every create, update, delete,
//! restore and purge, with the channel it came through and whether it was confirmed.

use anyhow::Result;
use clap::Args;

use super::common::{block_on, open_store, print_json, print_table, time, yes_no};
use crate::home::GlobalArgs;

#[derive(Debug, Args)]
pub struct AuditArgs {
    /// How many entries to show.
    #[arg(long, default_value_t = 50)]
    pub limit: u32,
}

pub fn run(global: &GlobalArgs, args: AuditArgs) -> Result<()> {
    block_on(async {
        let store = open_store(global).await?;
        let entries = store.audit_log(&global.user, i64::from(args.limit)).await?;
        if global.json {
            return print_json(&entries);
        }
        let rows = entries
            .iter()
            .map(|e| {
                vec![
                    time(e.at),
                    e.action.clone(),
                    e.resource_kind.clone(),
                    e.detail.clone().unwrap_or_default(),
                    e.channel.clone(),
                    yes_no(e.confirmed),
                    e.resource_id.clone(),
                ]
            })
            .collect::<Vec<_>>();
        print_table(
            &[
                "TIME",
                "ACTION",
                "KIND",
                "DETAIL",
                "CHANNEL",
                "CONFIRMED",
                "ID",
            ],
            &rows,
        );
        Ok(())
    })?
}
