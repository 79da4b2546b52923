//! Just-in-time resource lists (seed 004 §8.1.2): the gateway sees the user's resources of a
//! kind only when a slot of that kind is still missing. Traders come with their state and P&L,
//! because "the worst one" can only be picked from data.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use nofxi_protocol::{Command, Understanding};
use nofxi_skills::{Library, ResourceKind};
use nofxi_store::Store;
use nofxi_trader::runtime::baseline::{pnl_basis, trades_paper};

use crate::conversation::Conversation;
use crate::nlu::names::Names;

/// The kinds whose lists the model needs: missing required ref slots of the active task and of
/// any task the rules proposed.
pub fn needed_kinds(
    library: &Library,
    conv: &Conversation,
    rules: &Understanding,
) -> BTreeSet<ResourceKind> {
    let mut kinds = BTreeSet::new();
    let mut add =
        |skill: &str, action: &str, slots: &serde_json::Map<String, serde_json::Value>| {
            if let Some(a) = library.action(skill, action) {
                kinds.extend(a.missing_slots(slots).iter().filter_map(|s| s.ref_kind));
            }
        };
    if let Some(top) = conv.top() {
        add(&top.skill, &top.action, &top.slots);
    }
    for c in &rules.commands {
        if let Command::StartTask {
            skill,
            action,
            slots,
        } = c
        {
            add(skill, action, &slots.clone().into_iter().collect());
        }
    }
    kinds
}

pub async fn render(
    store: &Store,
    user: &str,
    names: &Names,
    kinds: &BTreeSet<ResourceKind>,
) -> String {
    let mut out = String::new();
    for kind in kinds {
        let _ = writeln!(out, "## Your {}s", kind.as_str());
        if *kind == ResourceKind::Trader {
            traders(store, user, &mut out).await;
            continue;
        }
        for e in names.of_kind(*kind).filter(|e| !e.deleted) {
            let _ = writeln!(
                out,
                "- {}{}{}",
                e.name,
                e.class
                    .as_deref()
                    .map(|c| format!(" ({c})"))
                    .unwrap_or_default(),
                if e.enabled { "" } else { ", disabled" }
            );
        }
    }
    out
}

async fn traders(store: &Store, user: &str, out: &mut String) {
    for t in store.list_traders(user, false).await.unwrap_or_default() {
        // The latest journalled equity is enough for P&L; the whole curve is not read. A few rows,
        // because the newest cycle may still be running and have none yet.
        let latest = store
            .cycles(user, &t.id, 3, None)
            .await
            .unwrap_or_default()
            .into_iter()
            .find_map(|row| row.equity);
        // From the trader's own start, never the default initial balance.
        let paper = trades_paper(store, user, &t).await;
        let basis = pnl_basis(store, user, &t, paper).await;
        let pnl = match (latest, basis) {
            (Some(e), Some(basis)) => format!("{} USDT", basis.pnl(e).0.round_dp(2)),
            (Some(_), None) => "unknown (no equity recorded at its start)".into(),
            (None, _) => "no equity recorded yet".into(),
        };
        let _ = writeln!(
            out,
            "- {}: {}, P&L {pnl}",
            t.spec.name,
            if t.is_running { "running" } else { "stopped" }
        );
    }
}
