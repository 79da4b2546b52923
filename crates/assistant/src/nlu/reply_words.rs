//! What a short reply may say besides a yes or a no, worked out once from the skills: the
//! verbs of every changing action on a resource ("ok yes stop", "那不删了", a lone "pause") and
//! the small-talk phrases ("got it", "知道了"). Read by [`super::reply_tone`] and the lone-verb
//! recogniser on every short message, so they are not rebuilt per message.

use nofxi_skills::{Library, ResourceKind, Risk, SkillKind};

/// A changing action of a management skill and its verbs, lower-cased.
#[derive(Debug, Clone)]
pub struct ChangingAction {
    pub skill: String,
    pub action: String,
    pub kind: Option<ResourceKind>,
    /// Whether it acts on one named resource (a `target` slot).
    pub takes_target: bool,
    pub verbs: Vec<String>,
}

#[derive(Debug, Clone, Default)]
pub struct ReplyWords {
    pub actions: Vec<ChangingAction>,
    /// Every changing action's verbs, in one list.
    pub all_verbs: Vec<String>,
    /// The verbs of the actions that take a target, in one list.
    pub target_verbs: Vec<String>,
    /// The phrases of the whole-message small-talk entries.
    pub small_talk: Vec<String>,
}

impl ReplyWords {
    /// `create_verbs`: the lexicon's verbs every create shares.
    pub fn from_library(library: &Library, create_verbs: &[String]) -> ReplyWords {
        let actions: Vec<ChangingAction> = library
            .skills()
            .iter()
            .filter(|s| s.meta.kind == SkillKind::Management)
            .flat_map(|s| {
                let kind = ResourceKind::parse(&s.meta.domain);
                s.actions
                    .iter()
                    .filter(|a| a.risk != Risk::Query)
                    .map(move |a| {
                        let shared = if a.name == "create" {
                            create_verbs
                        } else {
                            &[]
                        };
                        ChangingAction {
                            skill: s.id.clone(),
                            action: a.name.clone(),
                            kind,
                            takes_target: a.slot("target").is_some(),
                            verbs: a
                                .verbs
                                .iter()
                                .chain(shared)
                                .map(|v| v.to_lowercase())
                                .collect(),
                        }
                    })
            })
            .collect();
        let flat = |keep: &dyn Fn(&ChangingAction) -> bool| -> Vec<String> {
            actions
                .iter()
                .filter(|a| keep(a))
                .flat_map(|a| a.verbs.iter().cloned())
                .collect()
        };
        let all_verbs = flat(&|_| true);
        let target_verbs = flat(&|a| a.takes_target);
        let small_talk = library
            .skills()
            .iter()
            .filter(|s| s.meta.kind == SkillKind::Guidance)
            .flat_map(|s| s.meta.knowledge.iter())
            .filter(|k| k.whole_message)
            .flat_map(|k| k.phrases.iter().map(|p| p.to_lowercase()))
            .collect();
        ReplyWords {
            actions,
            all_verbs,
            target_verbs,
            small_talk,
        }
    }

    /// The verbs of `skill`'s `action` (none when it is no changing action).
    pub fn verbs_of(&self, skill: &str, action: &str) -> &[String] {
        self.actions
            .iter()
            .find(|a| a.skill == skill && a.action == action)
            .map_or(&[], |a| a.verbs.as_slice())
    }
}
