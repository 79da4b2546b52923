//! "我最近的交易记录", "my recent trades": a look-up word that two skills read by (the traders'
//! journal, the portfolio's records) with nothing saying whose. Rather than guess, the
//! request is asked back once, as the words that would name each ("交易员的交易记录",
//! "投资组合的交易记录").

use nofxi_skills::{Lang, Library, ResourceKind, Risk, SkillKind};

use super::lexicon::Lexicon;
use super::words::find_phrase;
use crate::msg;

/// The question and its options when the same words said name reads of two or more managed
/// skills (a skill's general look-up, "show", names none), one of them a read of no
/// resource; `None` otherwise.
pub fn choice(
    library: &Library,
    lexicon: &Lexicon,
    message: &str,
    lower: &str,
) -> Option<(String, Vec<String>)> {
    // Each skill's read verbs said, longest first, and whether that read names a resource.
    let mut readers: Vec<(&nofxi_skills::Skill, Vec<String>, bool)> = Vec::new();
    for skill in library
        .skills()
        .iter()
        .filter(|s| s.meta.kind == SkillKind::Management)
    {
        let mut said: Vec<String> = Vec::new();
        let mut of_a_resource = false;
        for read in skill
            .actions
            .iter()
            .filter(|a| a.risk == Risk::Query && a.name != "query")
        {
            let before = said.len();
            said.extend(
                lexicon
                    .action_verbs(read)
                    .map(|v| v.to_lowercase())
                    .filter(|v| find_phrase(lower, v).is_some()),
            );
            of_a_resource |= said.len() > before && read.slot("target").is_some();
        }
        said.sort_by_key(|v| std::cmp::Reverse(v.chars().count()));
        if !said.is_empty() {
            readers.push((skill, said, of_a_resource));
        }
    }
    // Two resources' reads that share a word ("test o1": the exchange's or the model's) are
    // told apart by the name said, as any request on a resource is; the question is for a
    // read of something that has no name (the portfolio) sharing words with a resource's.
    if readers.len() < 2 || readers.iter().all(|(_, _, of_a_resource)| *of_a_resource) {
        return None;
    }
    // The words every one of them reads by: the options then differ only in whose
    // ("交易员的交易记录" / "投资组合的交易记录"). Different words are told apart by the rules.
    let shared = readers.first().and_then(|(_, first, _)| {
        first
            .iter()
            .find(|v| readers.iter().all(|(_, said, _)| said.contains(v)))
            .cloned()
    })?;
    let lang = Lang::detect(message);
    let options: Vec<String> = readers
        .iter()
        .filter_map(|(skill, ..)| {
            let noun = match ResourceKind::parse(&skill.meta.domain) {
                Some(kind) => crate::texts::kind_word(lang, kind),
                None => skill
                    .meta
                    .nouns
                    .iter()
                    .find(|n| Lang::detect(n) == lang)?
                    .clone(),
            };
            Some(msg(
                lang,
                "clarify-read-option",
                &[("noun", &noun), ("verb", &shared)],
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
    Some((question, options))
}
