//! Questions the skills' guidance answers: a whole message an entry is for ("hi", "谢谢"), a
//! request to see a stored credential, how something is done, a pasted error, and a question
//! about a word. None of them acts, and any open task stays as it is.

use nofxi_protocol::{AnswerKind, Command, Understanding};
use nofxi_skills::{Knowledge, Library, SkillKind, WordClass};

use super::Input;
use crate::nlu::lexicon::Lexicon;
use crate::nlu::names::Names;
use crate::nlu::words::{cover_by, trim_punct};
use crate::nlu::{Context, RuleUnderstander, asks, extract, is_read, one, repair, route};

/// The glossary entry that answers a request to see a stored credential.
const SECRETS_NEVER_SHOWN: &str = "secrets_are_never_shown";

fn answer(kind: AnswerKind, topic: String, confidence: f32) -> Understanding {
    one(Command::AnswerQuestion { kind, topic }, confidence)
}

/// "hi", "help", "谢谢": a whole message a guidance entry answers; any task stays put.
pub fn whole_message(
    _: &RuleUnderstander,
    input: &Input<'_>,
    cx: &Context<'_>,
) -> Option<Understanding> {
    let topic = whole_message_entry(cx.library, cx.lexicon, input.message)?;
    Some(answer(AnswerKind::Glossary, topic, 0.95))
}

/// "print the api key of ds", "显示 ds 的 key": a stored credential is never shown, and the
/// request must not become a change of it that the next reply would fill.
pub fn secret_request(
    _: &RuleUnderstander,
    input: &Input<'_>,
    cx: &Context<'_>,
) -> Option<Understanding> {
    asks_to_see_secret(&input.lower, cx.names, cx.lexicon)
        .then(|| answer(AnswerKind::Glossary, SECRETS_NEVER_SHOWN.into(), 0.9))
}

/// "how do I add an exchange?", "怎么创建策略": how it is done, never done; "how do I get a
/// binance api key?" is no action of ours: the guidance that tells it.
pub fn how_to(_: &RuleUnderstander, input: &Input<'_>, cx: &Context<'_>) -> Option<Understanding> {
    let topic = asks::how_to(input.routed(cx)?, &input.lower, cx)?;
    Some(answer(AnswerKind::HowTo, topic, 0.9))
}

/// A how-to question a guidance entry answers.
pub fn how_to_guidance(
    _: &RuleUnderstander,
    input: &Input<'_>,
    cx: &Context<'_>,
) -> Option<Understanding> {
    if !cx.lexicon.opens(WordClass::HowTo, &input.lower) {
        return None;
    }
    let topic = guidance_for(cx.library, input.message)?;
    Some(answer(AnswerKind::Glossary, topic, 0.85))
}

/// A pasted error or code: explained like a new goal; the task resumes after.
pub fn error_explanation(
    rules: &RuleUnderstander,
    input: &Input<'_>,
    cx: &Context<'_>,
) -> Option<Understanding> {
    let (message, lower, lx) = (input.message, &input.lower, cx.lexicon);
    let diag = cx
        .library
        .skills()
        .iter()
        .find(|s| s.meta.kind == SkillKind::Diagnosis)?;
    let k = diag.knowledge_matching(message).first().copied()?;
    // "switch alpha to isolated and give it 500 USDT" is a request, whatever code ("500") it
    // happens to contain.
    let not_a_request = input.routed(cx).is_none_or(|r| {
        !r.has_verb
            || !(r.has_noun || r.has_name)
            // "币安提示余额不足": the error's own words (余额不足) hold a read's verb (余额);
            // an error report is never a request to read. But "主账户为什么连不上" asks for
            // the check of the account named, which finds the error.
            || (k.phrase_in(lower) && is_read(cx.library, r) && !checks_named(r))
    });
    // "initial balance 500" (or a bare "500") while a task is open is an answer to it: a
    // bare code there reports an error only with words that say so.
    let answers_task = (cx.top.is_some() || !rules.values_for_top(message, cx).is_empty())
        && !k.phrase_in(lower)
        && !lx.any_in(WordClass::ErrorReport, lower);
    (not_a_request && !answers_task)
        .then(|| answer(AnswerKind::ErrorExplanation, k.id.clone(), 0.9))
}

/// "which permissions should I tick for the binance key", "kimi的key哪里申请": a question
/// about a word, or a read of a kind the user has none of by that name (binance, kimi), is
/// the guidance asked.
pub fn glossary_question(
    _: &RuleUnderstander,
    input: &Input<'_>,
    cx: &Context<'_>,
) -> Option<Understanding> {
    let (message, lower) = (input.message, &input.lower);
    if !input.questioning(cx) {
        return None;
    }
    let none_named = cx.names.mentioned(lower).is_empty();
    let about_guidance = input.routed(cx).is_none_or(|r| {
        let about_resource = r.has_name && repair::names_a_field(cx.library, &r.skill, lower);
        !(r.has_verb || about_resource) || (none_named && is_read(cx.library, r))
    });
    if !about_guidance {
        return None;
    }
    let glossary = cx
        .library
        .skills()
        .iter()
        .find(|s| s.meta.kind == SkillKind::Guidance)?;
    let k = glossary.knowledge_matching(message).first().copied()?;
    Some(answer(AnswerKind::Glossary, k.id.clone(), 0.85))
}

/// A check of a resource the message names: its connectivity test, a trader's diagnosis.
fn checks_named(r: &route::Route) -> bool {
    r.has_name && matches!(r.action.as_str(), "test" | "diagnose")
}

/// The guidance entry a whole message is for: every part of it (split at punctuation) is
/// made of that kind of entry's phrases and filler words alone ("你好呀", "ok 拜拜", "thanks
/// gn"), ignoring case and spaces. Of the entries said, the one with the longest phrase (the
/// question, not the greeting) is answered.
fn whole_message_entry(library: &Library, lexicon: &Lexicon, message: &str) -> Option<String> {
    // Small talk is short; a long message is a request, and the cover below stays cheap.
    if message.chars().count() > WHOLE_MESSAGE_MAX_CHARS {
        return None;
    }
    let entries: Vec<&Knowledge> = library
        .skills()
        .iter()
        .filter(|s| s.meta.kind == SkillKind::Guidance)
        .flat_map(|s| s.meta.knowledge.iter())
        .filter(|k| k.whole_message)
        .collect();
    let mut best: Option<(usize, &Knowledge)> = None;
    for part in message.split([
        ',', '，', '.', '。', '!', '！', '?', '？', ';', '；', '~', '～',
    ]) {
        let part = trim_punct(part).to_lowercase();
        if part.is_empty() {
            continue;
        }
        let (len, k) = cover(&part, &entries, lexicon.words(WordClass::Filler))?;
        if best.is_none_or(|(l, _)| len > l) {
            best = Some((len, k));
        }
    }
    best.map(|(_, k)| k.id.clone())
}

/// Messages longer than this are never small talk.
const WHOLE_MESSAGE_MAX_CHARS: usize = 48;

/// `part` read as entry phrases and filler words ([`cover_by`]): the entry of the longest
/// phrase in it, with that phrase's length, or `None` when a word is neither or no phrase
/// is said.
fn cover<'k>(
    part: &str,
    entries: &[&'k Knowledge],
    filler: &[String],
) -> Option<(usize, &'k Knowledge)> {
    let phrases: Vec<Vec<String>> = entries
        .iter()
        .map(|k| k.phrases.iter().map(|p| p.to_lowercase()).collect())
        .collect();
    let mut lists: Vec<&[String]> = phrases.iter().map(Vec::as_slice).collect();
    lists.push(filler);
    let mut best: Option<(usize, &Knowledge)> = None;
    for (list, at) in cover_by(part, &lists)? {
        let len = part[at].chars().count();
        if let Some(k) = entries.get(list)
            && best.is_none_or(|(l, _)| len > l)
        {
            best = Some((len, *k));
        }
    }
    best
}

/// Whether the message asks to see a stored credential ("print the api key of ds", "what is
/// my okx passphrase", "显示 ds 的 key"). A message that carries a key-shaped value gives
/// one instead, and is not such a request. A credential repeated ("echo", "复述") is one
/// shown, so the lexicon's `see` words include asking to have it said again.
fn asks_to_see_secret(lower: &str, names: &Names, lexicon: &Lexicon) -> bool {
    let said = |text: &str| {
        lexicon.any_in(WordClass::See, text) && lexicon.any_in(WordClass::SecretNoun, text)
    };
    // Most messages have neither word: the names are looked for only when both are there.
    if !said(lower) {
        return false;
    }
    // "show strategy secret": a name of the user's is no word of the request.
    let mut unnamed = lower.to_string();
    for (_, from, to) in names.mentioned(lower) {
        extract::tokens::blank(&mut unnamed, from, to);
    }
    said(&unnamed) && crate::scrub::scrub(lower) == lower
}

/// The guidance entry whose phrase the message says most specifically.
fn guidance_for(library: &Library, message: &str) -> Option<String> {
    let glossary = library
        .skills()
        .iter()
        .find(|s| s.meta.kind == SkillKind::Guidance)?;
    glossary
        .knowledge_matching(message)
        .first()
        .map(|k| k.id.clone())
}

#[cfg(test)]
mod tests {
    use nofxi_protocol::{AnswerKind, Command};

    use super::super::testing::{Fixture, claimed_by, run};

    fn topic_kind(u: &nofxi_protocol::Understanding) -> Option<AnswerKind> {
        match u.commands.as_slice() {
            [Command::AnswerQuestion { kind, .. }] => Some(*kind),
            _ => None,
        }
    }

    #[test]
    fn a_greeting_is_answered_whole_and_a_request_is_not() {
        let f = Fixture::new();
        let cx = f.cx();
        let u = run("whole_message_guidance", "hi", &cx).expect("a greeting");
        assert_eq!(topic_kind(&u), Some(AnswerKind::Glossary));
        assert!(run("whole_message_guidance", "hi, stop alpha", &cx).is_none());
    }

    /// Small talk with particles and filler around it is still small talk; a word that is
    /// neither keeps the message from being one.
    #[test]
    fn small_talk_with_particles_and_filler_is_answered_and_a_request_inside_is_not() {
        let f = Fixture::new();
        let cx = f.cx();
        for said in [
            "你好呀",
            "hey there",
            "ok 拜拜",
            "thanks gn",
            "行 知道了",
            "嗯嗯 好的谢谢～",
        ] {
            let u = run("whole_message_guidance", said, &cx);
            assert!(
                u.as_ref().and_then(topic_kind) == Some(AnswerKind::Glossary),
                "{said}"
            );
        }
        for said in [
            "你好 帮我停掉 alpha",
            "thanks, now delete alpha",
            "hi alpha",
        ] {
            assert!(run("whole_message_guidance", said, &cx).is_none(), "{said}");
        }
    }

    #[test]
    fn a_stored_key_is_never_shown_and_a_pasted_one_is_no_request_to_see() {
        let f = Fixture::new();
        let cx = f.cx();
        let u = run("secret_request", "显示 paper 的 api key", &cx).expect("a request to see");
        assert_eq!(
            u.commands,
            [Command::AnswerQuestion {
                kind: AnswerKind::Glossary,
                topic: super::SECRETS_NEVER_SHOWN.into()
            }]
        );
        assert!(run("secret_request", "stop alpha", &cx).is_none());
    }

    #[test]
    fn how_it_is_done_is_answered_never_done() {
        let f = Fixture::new();
        let cx = f.cx();
        let u = run("how_to", "how do I create a strategy?", &cx).expect("a how-to");
        assert_eq!(topic_kind(&u), Some(AnswerKind::HowTo));
        assert!(run("how_to", "create a strategy", &cx).is_none());
        assert_eq!(claimed_by("怎么创建策略", &cx), "how_to");
    }
}
