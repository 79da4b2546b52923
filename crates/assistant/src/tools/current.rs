//! What a resource holds now, for the fields an update is about to change: list edits apply
//! to it ("also exclude SHIB" keeps the coins already excluded) and the confirmation shows
//! it ("leverage → 5 (was 3)").

use nofxi_domain::ResourceKind;
use serde::Serialize;
use serde_json::{Map, Value};

use super::exec::ToolRunner;

impl ToolRunner {
    /// The current values of `fields` on the resource `tool` updates (`strategy.update` →
    /// the strategy `target_id`), each found by its name anywhere in the resource's spec, as
    /// the update sets it. Fields the spec does not have, and every field when `tool` is no
    /// update or the resource cannot be read, are left out: a summary without "(was …)" is
    /// better than a wrong one.
    pub async fn current_values(
        &self,
        tool: &str,
        target_id: &str,
        user: &str,
        fields: &[String],
    ) -> Map<String, Value> {
        let Some((resource, "update")) = tool.split_once('.') else {
            return Map::new();
        };
        let st = &self.store;
        let spec = match resource.parse::<ResourceKind>() {
            Ok(ResourceKind::Strategy) => {
                tree(st.get_strategy(user, target_id).await.map(|x| x.spec))
            }
            Ok(ResourceKind::Trader) => tree(st.get_trader(user, target_id).await.map(|x| x.spec)),
            Ok(ResourceKind::Exchange) => {
                tree(st.get_exchange(user, target_id).await.map(|x| x.spec))
            }
            Ok(ResourceKind::Model) => tree(st.get_model(user, target_id).await.map(|x| x.spec)),
            _ => None,
        };
        let Some(spec) = spec else {
            return Map::new();
        };
        fields
            .iter()
            .filter_map(|f| field(&spec, f).map(|v| (f.clone(), v.clone())))
            // Not set before: nothing to show as "was".
            .filter(|(_, v)| !v.is_null())
            .collect()
    }
}

fn tree<T: Serialize, E>(spec: Result<T, E>) -> Option<Value> {
    spec.ok().and_then(|s| serde_json::to_value(s).ok())
}

/// The value under `key` in the first object on the way down that has it, looked for in the
/// order `patch_config` sets fields in, so the value read is the value an update replaces.
pub(super) fn field<'a>(tree: &'a Value, key: &str) -> Option<&'a Value> {
    match tree {
        Value::Object(map) => map
            .get(key)
            .or_else(|| map.values().find_map(|v| field(v, key))),
        _ => None,
    }
}
