//! "我最近的交易记录", "my last 3 trades": words that name reads of two skills (the traders'
//! journal, the portfolio's records) with nothing saying whose. A skill of resources the user
//! has none of is no candidate; one candidate left is that skill's read, two or more are asked
//! back once, each option the user's own request with the skill's noun added, so choosing one
//! keeps everything else said ("my last 3 trades (portfolio)").

use nofxi_skills::{Action, Lang, Library, ResourceKind, Risk, Skill, SkillKind};

use super::lexicon::Lexicon;
use super::names::Names;
use super::words::find_phrase;
use crate::phrasing::msg;

/// What the words said decide between the skills that read by them.
pub enum SharedRead {
    /// One skill can be meant: its read (`skill` id, `action`).
    Only { skill: String, action: String },
    /// Several: the question, and the requests to choose from.
    Ask {
        question: String,
        options: Vec<String>,
    },
}

/// `None` unless the same words name reads of two or more managed skills (a skill's general
/// look-up, "show", names none), one of them a read of something without a name.
pub fn choice(
    library: &Library,
    lexicon: &Lexicon,
    names: &Names,
    message: &str,
    lower: &str,
) -> Option<SharedRead> {
    let readers: Vec<(&Skill, &Action, Vec<String>)> = library
        .skills()
        .iter()
        .filter(|s| s.meta.kind == SkillKind::Management)
        .filter_map(|skill| read_said(skill, lexicon, lower))
        .collect();
    // Two resources' reads that share a word ("test o1": the exchange's or the model's) are
    // told apart by the name said, as any request on a resource is.
    let of_a_resource = |a: &Action| a.slot("target").is_some();
    if readers.len() < 2 || readers.iter().all(|(_, a, _)| of_a_resource(a)) {
        return None;
    }
    // The same words, read by each: different words are told apart by the rules.
    let (_, _, first) = readers.first()?;
    first
        .iter()
        .find(|v| readers.iter().all(|(_, _, said)| said.contains(v)))?;
    // A skill of resources the user has none of ("my recent trades" with no trader yet).
    let has_some = |skill: &Skill| match ResourceKind::parse(&skill.meta.domain) {
        Some(kind) => names.entries.iter().any(|e| e.kind == kind && !e.deleted),
        None => true,
    };
    let candidates: Vec<&(&Skill, &Action, Vec<String>)> =
        readers.iter().filter(|(s, ..)| has_some(s)).collect();
    if let [(skill, action, _)] = candidates.as_slice() {
        return Some(SharedRead::Only {
            skill: skill.id.clone(),
            action: action.name.clone(),
        });
    }
    let lang = Lang::detect(message);
    let options: Vec<String> = candidates
        .iter()
        .filter_map(|(skill, ..)| {
            let noun = noun(skill, lang)?;
            Some(msg(
                lang,
                "clarify-read-option",
                &[("noun", &noun), ("message", message.trim())],
            ))
        })
        .collect();
    if options.len() < 2 {
        return None;
    }
    let list = options
        .iter()
        .map(|o| format!("- {o}"))
        .collect::<Vec<_>>()
        .join("\n");
    let question = msg(lang, "clarify-read-which", &[("list", &list)]);
    Some(SharedRead::Ask { question, options })
}

/// The skill's read named by the words said (not its general look-up), with those words,
/// longest first.
fn read_said<'a>(
    skill: &'a Skill,
    lexicon: &Lexicon,
    lower: &str,
) -> Option<(&'a Skill, &'a Action, Vec<String>)> {
    skill
        .actions
        .iter()
        .filter(|a| a.risk == Risk::Query && a.name != "query")
        .filter_map(|a| {
            let mut said: Vec<String> = lexicon
                .action_verbs(a)
                .map(|v| v.to_lowercase())
                .filter(|v| find_phrase(lower, v).is_some())
                .collect();
            said.sort_by_key(|v| std::cmp::Reverse(v.chars().count()));
            (!said.is_empty()).then_some((skill, a, said))
        })
        .max_by_key(|(_, _, said)| said.first().map(|v| v.chars().count()))
}

/// The word that names what the skill is about, in `lang`: a resource kind's ("trader",
/// "交易员"), else the skill's first noun in that language ("portfolio", "投资组合").
fn noun(skill: &Skill, lang: Lang) -> Option<String> {
    match ResourceKind::parse(&skill.meta.domain) {
        Some(kind) => Some(crate::phrasing::kind_word(lang, kind)),
        None => skill
            .meta
            .nouns
            .iter()
            .find(|n| Lang::detect(n) == lang)
            .cloned(),
    }
}
