//! A compact text card of skills for LLM prompts: the least context that lets a model pick a
//! skill, an action and its slots (the "minimal composed context" of DESIGN "The turn").

use std::fmt::Write as _;

use crate::ir::{Skill, SlotType};
use crate::text::Lang;

/// One line per action or function: `skill.action — description | slots: a*, b=default, c(ref
/// exchange)`; `*` marks always-required slots. Guidance/diagnosis skills list their entries.
pub fn prompt_card(skills: &[Skill], lang: Lang) -> String {
    let mut out = String::new();
    for s in skills {
        let _ = writeln!(
            out,
            "## {} ({}): {}",
            s.id,
            s.meta.title.get(lang),
            s.description
        );
        for a in &s.actions {
            let slots: Vec<String> = a
                .slots
                .iter()
                .map(|slot| {
                    let mut t = slot.name.clone();
                    if slot.required {
                        t.push('*');
                    }
                    if let Some(k) = slot.ref_kind {
                        let _ = write!(t, "(ref {k})");
                    } else if slot.ty == SlotType::Enum {
                        let values: Vec<&str> =
                            slot.values.iter().map(|v| v.value.as_str()).collect();
                        let _ = write!(t, "({})", values.join("|"));
                    }
                    if let Some(d) = &slot.default {
                        let _ = write!(t, "={d}");
                    }
                    t
                })
                .collect();
            let _ = writeln!(
                out,
                "- {}.{} [{:?}] — {} | slots: {}",
                s.id,
                a.name,
                a.risk,
                a.description.get(lang),
                slots.join(", ")
            );
        }
        for f in &s.functions {
            let _ = writeln!(out, "- {} — {}", f.name, f.description.get(lang));
        }
        if !s.meta.knowledge.is_empty() {
            let ids: Vec<&str> = s.meta.knowledge.iter().map(|k| k.id.as_str()).collect();
            let _ = writeln!(out, "- entries: {}", ids.join(", "));
        }
    }
    out
}
