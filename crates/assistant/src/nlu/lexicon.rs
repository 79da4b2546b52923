//! Words read once from the skill library: the enum aliases of each resource's defining slot
//! (exchange types, providers), used to understand "币安账户" or "DeepSeek" as a reference to
//! the user's one resource of that type.

use nofxi_skills::{Library, ResourceKind, SkillKind, SlotType};

use super::words::find_phrase;

#[derive(Debug, Clone, Default)]
pub struct Lexicon {
    /// (kind, alias lower-cased, canonical value), longest alias first.
    class_aliases: Vec<(ResourceKind, String, String)>,
}

impl Lexicon {
    pub fn from_library(library: &Library) -> Lexicon {
        let mut class_aliases = Vec::new();
        for skill in library.skills() {
            if skill.meta.kind != SkillKind::Management {
                continue;
            }
            let Some(kind) = ResourceKind::parse(&skill.meta.domain) else {
                continue;
            };
            let Some(create) = skill.action("create") else {
                continue;
            };
            for slot in create.slots.iter().filter(|s| s.ty == SlotType::Enum) {
                for v in &slot.values {
                    class_aliases.push((kind, v.value.to_lowercase(), v.value.clone()));
                    for a in &v.aliases {
                        class_aliases.push((kind, a.to_lowercase(), v.value.clone()));
                    }
                }
            }
        }
        class_aliases.sort_by_key(|(_, a, _)| std::cmp::Reverse(a.len()));
        Lexicon { class_aliases }
    }

    /// The type or provider a phrase names, if any ("币安账户" → binance).
    pub fn class_in(&self, kind: ResourceKind, lower: &str) -> Option<(&str, usize, usize)> {
        self.class_aliases
            .iter()
            .filter(|(k, _, _)| *k == kind)
            .find_map(|(_, alias, value)| {
                find_phrase(lower, alias).map(|at| (value.as_str(), at, at + alias.len()))
            })
    }
}
