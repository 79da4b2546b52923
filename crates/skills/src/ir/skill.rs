//! A whole skill: identity (Agent Skills frontmatter), the `skill:` block, and its parts.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::{Action, Constraints, Example, Function};
use crate::text::Text;

/// The four resources a management skill can refer to (`ref:` on a slot).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResourceKind {
    Trader,
    Exchange,
    Model,
    Strategy,
}

/// The same four resources as the store names them.
impl From<ResourceKind> for nofxi_domain::ResourceKind {
    fn from(kind: ResourceKind) -> nofxi_domain::ResourceKind {
        match kind {
            ResourceKind::Trader => nofxi_domain::ResourceKind::Trader,
            ResourceKind::Exchange => nofxi_domain::ResourceKind::Exchange,
            ResourceKind::Model => nofxi_domain::ResourceKind::Model,
            ResourceKind::Strategy => nofxi_domain::ResourceKind::Strategy,
        }
    }
}

impl ResourceKind {
    pub const ALL: [ResourceKind; 4] = [
        ResourceKind::Trader,
        ResourceKind::Exchange,
        ResourceKind::Model,
        ResourceKind::Strategy,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ResourceKind::Trader => "trader",
            ResourceKind::Exchange => "exchange",
            ResourceKind::Model => "model",
            ResourceKind::Strategy => "strategy",
        }
    }

    pub fn parse(s: &str) -> Option<ResourceKind> {
        ResourceKind::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

impl fmt::Display for ResourceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What kind of user task a skill serves (DESIGN "Skill files").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SkillKind {
    /// Create / change / remove resources through actions with slots, risk and steps.
    Management,
    /// Explain an error: knowledge entries matched by code or phrase.
    Diagnosis,
    /// Answer a question from knowledge entries (the glossary).
    Guidance,
    /// Function-style capabilities with JSON-Schema parameters (seed 003).
    Function,
}

/// The `skill:` block.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SkillMeta {
    pub kind: SkillKind,
    /// The resource domain, e.g. `trader`, `market`.
    pub domain: String,
    /// Capabilities the skill needs, `<domain>:<read|write>` (e.g. `trader:write`).
    #[serde(default)]
    pub scopes: Vec<String>,
    pub version: String,
    pub title: Text,
    /// Words that name the skill's resource in user messages (交易员, bot, trader…): the rule
    /// router matches them together with an action's verbs.
    #[serde(default)]
    pub nouns: Vec<String>,
    /// Names users write for values, mapped to the canonical value (英伟达 → NVDA.US).
    #[serde(default)]
    pub value_aliases: BTreeMap<String, String>,
    /// Guidance and diagnosis entries.
    #[serde(default)]
    pub knowledge: Vec<Knowledge>,
    /// What each slot is called in a reply (`scan_interval_minutes` → 扫描间隔 / scan interval),
    /// once per skill for all its actions. A reply never shows a slot's identifier to a user.
    #[serde(default)]
    pub labels: BTreeMap<String, Text>,
}

/// One glossary term or one error explanation. Diagnosis entries fill `what`/`why`/`fix`
/// ("what happened / why / what to do now"); guidance entries fill `answer`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Knowledge {
    pub id: String,
    /// Phrases (either language, matched case-insensitively as substrings) that ask about it.
    #[serde(default)]
    pub phrases: Vec<String>,
    /// Error codes (`-1021`, `401`, `3001`) that identify it exactly.
    #[serde(default)]
    pub codes: Vec<String>,
    #[serde(default)]
    pub answer: Option<Text>,
    #[serde(default)]
    pub what: Option<Text>,
    #[serde(default)]
    pub why: Option<Text>,
    #[serde(default)]
    pub fix: Option<Text>,
    /// The entry answers a message that is one of its phrases and nothing else ("hi", "帮助",
    /// "thanks"), wherever the conversation is. Such phrases are not questions and carry no
    /// question word, and a substring match would take "help me add a model" for one.
    #[serde(default)]
    pub whole_message: bool,
    /// Words that say which side a message is about (an exchange, a model provider): among
    /// entries whose phrases match equally, the one whose context is named comes first
    /// ("deepseek 提示余额不足" is the model's balance, "币安余额不足" the margin).
    #[serde(default)]
    pub context: Vec<String>,
}

impl Knowledge {
    /// Whether one of the entry's phrases occurs in `lower` (lower-cased), as
    /// [`Skill::knowledge_matching`] counts it.
    pub fn phrase_in(&self, lower: &str) -> bool {
        self.phrases
            .iter()
            .any(|p| contains_phrase(lower, &p.to_lowercase()))
    }
}

/// Where a skill came from, for messages and for `skills list`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Source {
    /// The file, as shown in diagnostics (`skills/trader-management/SKILL.md`).
    pub path: String,
    pub builtin: bool,
}

/// A parsed and checked skill.
///
/// Naming: the frontmatter `name` follows the Agent Skills spec (lowercase letters, digits and
/// single hyphens, equal to the directory name): `trader-management`. The `id` used everywhere
/// inside nofxi (chat protocol, events, examples, recovery tasks) is the same name with hyphens
/// replaced by underscores: `trader_management`. Lookups accept either spelling.
#[derive(Debug, Clone, Serialize)]
pub struct Skill {
    pub name: String,
    pub id: String,
    pub description: String,
    pub license: Option<String>,
    pub compatibility: Option<String>,
    pub metadata: BTreeMap<String, String>,
    pub allowed_tools: Vec<String>,
    pub meta: SkillMeta,
    pub actions: Vec<Action>,
    pub functions: Vec<Function>,
    pub examples: Vec<Example>,
    pub constraints: Constraints,
    /// The markdown after the frontmatter, for humans and for "load the body on use".
    #[serde(skip)]
    pub body: String,
    pub source: Source,
    #[serde(skip)]
    pub(crate) locator: Option<std::sync::Arc<crate::parse::Locator>>,
}

impl Skill {
    /// A diagnostic at the line of a YAML path of this skill's file (`actions[0].failures[1]`).
    pub(crate) fn diag(
        &self,
        path: &str,
        kind: crate::DiagnosticKind,
        message: String,
    ) -> crate::Diagnostic {
        match &self.locator {
            Some(loc) => loc.diag(path, kind, message),
            None => crate::Diagnostic {
                file: self.source.path.clone(),
                line: 1,
                column: 1,
                kind,
                message,
            },
        }
    }

    pub fn action(&self, name: &str) -> Option<&Action> {
        self.actions.iter().find(|a| a.name == name)
    }

    pub fn function(&self, name: &str) -> Option<&Function> {
        self.functions.iter().find(|f| f.name == name)
    }

    /// Examples of one action, for the router's phrase table and for prompts.
    pub fn examples_for<'a>(&'a self, action: &'a str) -> impl Iterator<Item = &'a Example> {
        self.examples
            .iter()
            .filter(move |e| e.action.as_deref() == Some(action))
    }

    /// Diagnosis/guidance entries whose code occurs in `message` as a whole token, else those
    /// one of whose phrases occurs in it (case-insensitive), most specific (longest phrase)
    /// first. The engine answers with the first and may offer the rest.
    pub fn knowledge_matching(&self, message: &str) -> Vec<&Knowledge> {
        let lower = message.to_lowercase();
        let by_code: Vec<&Knowledge> = self
            .meta
            .knowledge
            .iter()
            .filter(|k| {
                k.codes
                    .iter()
                    .any(|c| contains_code(&lower, &c.to_lowercase()))
            })
            .collect();
        if !by_code.is_empty() {
            return by_code;
        }
        // The most specific entry first: "逐仓和全仓有什么区别" is about the difference, not
        // about 全仓 alone, so the longest matching phrase wins.
        let mut scored: Vec<((usize, bool), &Knowledge)> = self
            .meta
            .knowledge
            .iter()
            .filter_map(|k| {
                k.phrases
                    .iter()
                    .filter(|p| contains_phrase(&lower, &p.to_lowercase()))
                    .map(|p| p.chars().count())
                    .max()
                    .map(|len| {
                        let named = k
                            .context
                            .iter()
                            .any(|c| contains_phrase(&lower, &c.to_lowercase()));
                        ((len, named), k)
                    })
            })
            .collect();
        scored.sort_by_key(|(score, _)| std::cmp::Reverse(*score));
        scored.into_iter().map(|(_, k)| k).collect()
    }
}

/// An ASCII phrase must stand as whole words (`ip` must not match inside "zip"); a phrase
/// with CJK characters matches anywhere, since Chinese has no spaces between words.
fn contains_phrase(text: &str, phrase: &str) -> bool {
    if phrase.is_empty() {
        return false;
    }
    // Chinese is written with or without spaces around Latin words ("千问 key", "千问的key"):
    // a phrase with Chinese in it matches with the spaces of both left out.
    if !phrase.is_ascii() {
        let unspaced = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
        return unspaced(text).contains(&unspaced(phrase));
    }
    let bytes = text.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    text.match_indices(phrase).any(|(at, m)| {
        let starts_word = phrase.as_bytes().first().is_some_and(|b| word(*b));
        let ends_word = phrase.as_bytes().last().is_some_and(|b| word(*b));
        let before_ok = !starts_word || at == 0 || !word(bytes[at - 1]);
        let after_ok = !ends_word || bytes.get(at + m.len()).is_none_or(|b| !word(*b));
        before_ok && after_ok
    })
}

/// `code` occurs in `text` as a whole token: `-1021` matches "code -1021," but `1021` does not
/// match inside `-10210`.
fn contains_code(text: &str, code: &str) -> bool {
    let bytes = text.as_bytes();
    text.match_indices(code).any(|(at, m)| {
        let before = at.checked_sub(1).map(|i| bytes[i]);
        let after = bytes.get(at + m.len()).copied();
        let edge = |b: Option<u8>| b.is_none_or(|b| !(b.is_ascii_alphanumeric() || b == b'-'));
        edge(before) && edge(after)
    })
}

#[cfg(test)]
mod tests {
    use super::contains_phrase;

    #[test]
    fn a_chinese_phrase_matches_with_or_without_spaces_around_latin_words() {
        assert!(contains_phrase("千问的key在哪申请", "千问的 key"));
        assert!(contains_phrase("千问的 key 在哪申请", "千问的key"));
        assert!(!contains_phrase("千问在哪申请", "千问的 key"));
        assert!(contains_phrase("how do i get a key", "get a key"));
        assert!(!contains_phrase("forget a key", "get a key"));
    }
}
