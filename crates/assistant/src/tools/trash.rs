//! `trash.list`: what is in the trash and how long each stays restorable ("what's in the
//! trash", "回收站里有什么", "deleted traders"), newest deletion first, with how to restore one.

use async_trait::async_trait;
use nofxi_domain::ResourceKind;
use nofxi_skills::{Catalog, Lang};
use nofxi_store::StoreError;
use nofxi_store::clock::{DAY_MS, TRASH_KEEP_MS};
use schemars::JsonSchema;
use serde::Deserialize;

use super::registry::{Tool, ToolContext};
use super::{RiskLevel, ToolError, ToolOutput};
use crate::compose::facts::time;
use crate::tools::exec::store_error;

#[derive(Debug, Deserialize, JsonSchema)]
pub struct TrashArgs {
    /// Only this kind (`trader`, `exchange`, `model`, `strategy`); none for all.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub kind: Option<ResourceKind>,
}

pub struct TrashList;

/// One deleted resource.
struct Deleted {
    kind: ResourceKind,
    id: String,
    name: String,
    deleted_ms: i64,
}

#[async_trait]
impl Tool for TrashList {
    type Args = TrashArgs;
    const NAME: &'static str = "trash.list";
    const SCOPES: &'static [&'static str] = &[
        "trader:read",
        "exchange:read",
        "model:read",
        "strategy:read",
    ];
    const RISK: RiskLevel = RiskLevel::Read;

    async fn run(&self, cx: &ToolContext<'_>, args: TrashArgs) -> Result<ToolOutput, ToolError> {
        let kinds: Vec<ResourceKind> = match args.kind {
            Some(kind) => vec![kind],
            None => ResourceKind::ALL.to_vec(),
        };
        let mut deleted = Vec::new();
        for kind in kinds {
            deleted.extend(
                in_trash(cx, kind)
                    .await
                    .map_err(|e| store_error(&e, cx.lang))?,
            );
        }
        deleted.sort_by_key(|d| std::cmp::Reverse(d.deleted_ms));
        let text = render(cx.lang, args.kind, &deleted, cx.store.now_ms());
        // One kind listed: "restore it", "the first one" refer to these.
        let kinds: std::collections::BTreeSet<ResourceKind> =
            deleted.iter().map(|d| d.kind).collect();
        let kind = match kinds.into_iter().collect::<Vec<_>>().as_slice() {
            [one] => nofxi_skills::ResourceKind::parse(one.as_str()),
            _ => None,
        };
        let listed: Vec<(String, String)> = match kind {
            Some(_) => deleted
                .iter()
                .map(|d| (d.id.clone(), d.name.clone()))
                .collect(),
            None => Vec::new(),
        };
        let single = match listed.as_slice() {
            [one] => Some(one.clone()),
            _ => None,
        };
        Ok(ToolOutput {
            text: Some(text),
            resource_id: single.as_ref().map(|(id, _)| id.clone()),
            resource_name: single.map(|(_, name)| name),
            listed,
            kind,
            ..ToolOutput::default()
        })
    }
}

async fn in_trash(cx: &ToolContext<'_>, kind: ResourceKind) -> Result<Vec<Deleted>, StoreError> {
    let (st, user) = (cx.store, cx.user);
    let named: Vec<(String, String, Option<i64>)> = match kind {
        ResourceKind::Trader => (st.list_traders(user, true).await?)
            .into_iter()
            .map(|t| (t.id, t.spec.name, t.deleted_at))
            .collect(),
        ResourceKind::Exchange => (st.list_exchanges(user, true).await?)
            .into_iter()
            .map(|e| (e.id, e.spec.account_name, e.deleted_at))
            .collect(),
        ResourceKind::Model => (st.list_models(user, true).await?)
            .into_iter()
            .map(|m| (m.id, m.spec.name, m.deleted_at))
            .collect(),
        ResourceKind::Strategy => (st.list_strategies(user, true).await?)
            .into_iter()
            .map(|s| (s.id, s.spec.name, s.deleted_at))
            .collect(),
    };
    Ok(named
        .into_iter()
        .filter_map(|(id, name, at)| {
            at.map(|deleted_ms| Deleted {
                kind,
                id,
                name,
                deleted_ms,
            })
        })
        .collect())
}

fn kind_word(lang: Lang, kind: ResourceKind) -> String {
    Catalog::builtin().text(lang, &format!("kind-{}", kind.as_str()), &[])
}

fn render(lang: Lang, only: Option<ResourceKind>, deleted: &[Deleted], now_ms: i64) -> String {
    let c = Catalog::builtin();
    let Some(first) = deleted.first() else {
        return match only {
            Some(kind) => c.text(
                lang,
                "trash-empty-kind",
                &[("kind", &kind_word(lang, kind))],
            ),
            None => c.text(lang, "trash-empty", &[]),
        };
    };
    let mut lines = vec![c.text(lang, "trash-header", &[])];
    for d in deleted {
        // Whole days left, rounded up: "1 day left" until the purge, never "0 days".
        let left_ms = (d.deleted_ms + TRASH_KEEP_MS - now_ms).max(0);
        let days = usize::try_from((left_ms + DAY_MS - 1) / DAY_MS)
            .unwrap_or(0)
            .max(1);
        let kind = kind_word(lang, d.kind);
        lines.push(c.counted(
            lang,
            "trash-row",
            days,
            &[
                ("kind", &kind),
                ("name", &d.name),
                ("deleted", &time(d.deleted_ms)),
            ],
        ));
    }
    let kind = kind_word(lang, first.kind);
    lines.push(c.text(
        lang,
        "trash-restore",
        &[("kind", &kind), ("name", &first.name)],
    ));
    lines.join("\n")
}
