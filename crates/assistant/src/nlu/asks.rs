//! Whether a message asks rather than requests: "did alpha stop?", "我有哪些交易所？", "should I
//! use ds for alpha?". A start, stop or delete must never run on a question, so every rule
//! that could act asks these first. A request put as a question ("can you stop alpha?",
//! "能帮我停掉 alpha 吗") is still a request. The words are the lexicon's; `lower` is the
//! message lower-cased.

use nofxi_skills::WordClass;

use super::lexicon::Lexicon;

/// A question for a fact: a question mark at the end, or a word that asks which, what or how
/// much ("which", "多少").
pub fn is_question(lower: &str, lexicon: &Lexicon) -> bool {
    let t = lower.trim_end();
    t.ends_with('?') || t.ends_with('？') || lexicon.any_in(WordClass::AsksWhich, lower)
}

/// A question and not a request put as one: "should I use ds for alpha?" asks, "can you use
/// ds for alpha?" requests.
pub fn only_asks(lower: &str, lexicon: &Lexicon) -> bool {
    asks_about(lower, lexicon) && !is_request_put_as_question(lower, lexicon)
}

/// "can you stop alpha?", "please start it?", "能帮我停掉 alpha 吗？": a request, though it
/// ends in a question mark.
pub fn is_request_put_as_question(lower: &str, lexicon: &Lexicon) -> bool {
    lexicon.any_in(WordClass::PoliteRequest, lower)
}

/// A question about how a resource stands or how something is done ("did alpha stop?",
/// "alpha 启动了吗？", "how do I start alpha?", "要不要停掉 alpha？"), wider than
/// [`is_question`].
fn asks_about(lower: &str, lexicon: &Lexicon) -> bool {
    is_question(lower, lexicon)
        || lexicon.opens(WordClass::StatusOpener, lower)
        || lexicon.any_in(WordClass::StatusMarker, lower)
}

/// "what exchanges do I have?", "which models are there?", "我有哪些交易所？": a question
/// about which resources of a kind exist, never an answer to what a task asked.
pub fn asks_what_exists(lower: &str, lexicon: &Lexicon) -> bool {
    lexicon.opens(WordClass::ExistsOpener, lower) || lexicon.any_in(WordClass::ExistsMarker, lower)
}

/// A message the rules could not place that still reads as a question: besides
/// [`is_question`], a yes/no particle at the end ("…吗") or an opening that asks for
/// judgement ("should I", "为什么"). It is answered over the user's facts.
pub fn is_open_question(lower: &str, lexicon: &Lexicon) -> bool {
    is_question(lower, lexicon)
        || lexicon.ends(WordClass::QuestionParticle, lower)
        || lexicon.opens(WordClass::OpenQuestionOpener, lower)
}

/// "how do I add an exchange", "怎么创建策略": a how-to lead opening the message right
/// before a verb of an action of the routed skill; that action as `skill.action`.
pub fn how_to(r: &super::route::Route, lower: &str, cx: &super::Context<'_>) -> Option<String> {
    let skill = cx.library.get(&r.skill)?;
    let t = lower.trim_start();
    let mut leads: Vec<&String> = cx.lexicon.words(WordClass::HowTo).iter().collect();
    leads.sort_by_key(|l| std::cmp::Reverse(l.len()));
    let rest = leads
        .iter()
        .find_map(|l| super::words::starts_with_word(t, l).then(|| t[l.len()..].trim_start()))?;
    skill
        .actions
        .iter()
        .flat_map(|a| {
            cx.lexicon
                .action_verbs(a)
                .map(move |v| (a, v.to_lowercase()))
        })
        .filter(|(_, v)| super::words::starts_with_word(rest, v))
        .max_by_key(|(_, v)| v.len())
        .map(|(a, _)| format!("{}.{}", skill.id, a.name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use nofxi_skills::Library;

    fn lexicon() -> Lexicon {
        Lexicon::from_library(&Library::builtin().expect("builtin skills"))
    }

    #[test]
    fn a_status_question_only_asks_and_a_polite_request_does_not() {
        let lx = lexicon();
        for q in [
            "did alpha stop",
            "alpha 启动了吗",
            "how do i start alpha",
            "要不要停掉 alpha",
        ] {
            assert!(only_asks(q, &lx), "{q}");
        }
        for r in [
            "can you stop alpha?",
            "能帮我停掉 alpha 吗？",
            "please start it?",
        ] {
            assert!(!only_asks(r, &lx), "{r}");
        }
        assert!(!only_asks("stop alpha", &lx));
        // A word only as a whole word: "isolated" does not open with "is".
        assert!(!only_asks("isolated margin for alpha", &lx));
    }

    #[test]
    fn which_exists_and_open_questions() {
        let lx = lexicon();
        assert!(asks_what_exists("what exchanges do i have", &lx));
        assert!(asks_what_exists("我有哪些交易所", &lx));
        assert!(!asks_what_exists("stop alpha", &lx));
        assert!(is_open_question("为什么 alpha 一直亏", &lx));
        assert!(is_open_question("alpha 还在跑呢", &lx));
        assert!(!is_open_question("alpha", &lx));
    }
}
