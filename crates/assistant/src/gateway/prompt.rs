//! What the gateway model sees: just enough to place one message (seed 004 §8.1.2,
//! just-in-time context). Resource lists appear only for the slots still missing, so a
//! message about a model never carries the user's exchange accounts.

use std::fmt::Write as _;

use nofxi_protocol::Understanding;
use nofxi_skills::export::prompt_card;
use nofxi_skills::{Lang, Library, SkillKind};

use crate::conversation::Conversation;
use crate::nlu::names::Names;

pub const PERSONA: &str = include_str!("../../prompts/persona.md");
const INSTRUCTIONS: &str = include_str!("../../prompts/gateway.md");
/// Earlier turns shown to the model: enough for "that one", little enough to stay cheap.
const HISTORY_TURNS: usize = 2;
/// How many turns back the last completed request is shown, for follow-ups.
const LAST_REQUEST_TURNS: u64 = 3;

pub struct GatewayPrompt<'a> {
    pub library: &'a Library,
    pub lang: Lang,
    pub message: &'a str,
    pub conv: &'a Conversation,
    pub names: &'a Names,
    pub rules: &'a Understanding,
    /// `## Your traders …` sections for the missing ref slots, composed by the caller.
    pub resource_lists: String,
    /// A `## Facts` section for a message the rules could not place (empty otherwise): what
    /// the model may answer a question from in this same call.
    pub facts: String,
}

impl GatewayPrompt<'_> {
    pub fn system(&self) -> String {
        let skills: Vec<_> = self
            .library
            .skills()
            .iter()
            .filter(|s| s.meta.kind == SkillKind::Management)
            .cloned()
            .collect();
        format!(
            "{PERSONA}\n{INSTRUCTIONS}\n## Skills (skill.action [risk] — description | slots; * = required)\n{}",
            prompt_card(&skills, self.lang)
        )
    }

    pub fn user(&self) -> String {
        let mut out = String::new();
        self.write_stack(&mut out);
        self.write_references(&mut out);
        out.push_str(&self.resource_lists);
        out.push_str(&self.facts);
        let recent = self.conv.recent.iter().rev().take(HISTORY_TURNS).rev();
        let mut first = true;
        for turn in recent {
            if first {
                out.push_str("## Recent turns\n");
                first = false;
            }
            let _ = writeln!(out, "user: {}\nnofxi: {}", turn.user, turn.reply);
        }
        if let Some(frame) = self.conv.recent_request(LAST_REQUEST_TURNS) {
            let frame = serde_json::to_string(frame).unwrap_or_default();
            let _ = writeln!(
                out,
                "## Last completed request (a fragment like \"eth?\" or \"and alpha too\" repeats it on the new name)\n{frame}"
            );
        }
        let rules = serde_json::to_string(&self.rules.commands).unwrap_or_default();
        let _ = writeln!(
            out,
            "## Rules' reading (confidence {:.2})\n{rules}\n## Message\n{}",
            self.rules.confidence, self.message
        );
        out
    }

    fn write_stack(&self, out: &mut String) {
        let Some(top) = self.conv.top() else {
            out.push_str("## Active task\nnone\n");
            return;
        };
        let missing = self
            .library
            .action(&top.skill, &top.action)
            .map(|a| {
                a.missing_slots(&top.slots)
                    .iter()
                    .map(|s| s.name.clone())
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "## Active task\n{}.{} ({:?}); collected: {}; missing: [{}]",
            top.skill,
            top.action,
            top.status,
            serde_json::Value::Object(top.slots.clone()),
            missing.join(", ")
        );
        let suspended: Vec<String> = self
            .conv
            .stack
            .iter()
            .rev()
            .skip(1)
            .map(|t| format!("{}.{} ({:?})", t.skill, t.action, t.status))
            .collect();
        if !suspended.is_empty() {
            let _ = writeln!(out, "## Suspended tasks\n{}", suspended.join("; "));
        }
    }

    fn write_references(&self, out: &mut String) {
        let refs: Vec<String> = self
            .conv
            .current
            .iter()
            .filter_map(|(kind, id)| {
                self.names
                    .by_id(id)
                    .map(|e| format!("{} = {}", kind.as_str(), e.name))
            })
            .collect();
        if !refs.is_empty() {
            let _ = writeln!(
                out,
                "## Current references (\"it\", \"that one\")\n{}",
                refs.join("; ")
            );
        }
    }
}
