//! Answers to open questions ("我的持仓风险大吗", "is BTC a buy now?") over a minimal composed
//! context (seed 001's context composer, REFERENCE §4's answer draft).
//!
//! [`plan`] picks at most four read-only steps from what the message mentions, [`facts`] runs
//! them, and [`compose`] fits persona, facts and history into a token budget, trimming
//! history first and facts second (lowest priority first). The model then answers as facts /
//! judgement / next steps; anything that would change state stays a separate, confirmed task.

pub mod facts;
pub mod plan;

use nofxi_llm::tokens::estimate_tokens;
use nofxi_skills::Lang;
use nofxi_store::Store;

use crate::conversation::RecentTurn;
use crate::gateway::prompt::PERSONA;
use crate::nlu::names::Names;

use self::facts::Fact;
use self::plan::Step;

const INSTRUCTIONS: &str = include_str!("../../prompts/answer.md");

/// Prompt tokens an answer may use (system, facts, history and the question together).
pub const ANSWER_BUDGET_TOKENS: u64 = 1_400;
/// History turns offered before trimming.
const HISTORY_TURNS: usize = 4;

/// A composed prompt, and what went into it, for the trace.
#[derive(Debug, Clone, PartialEq)]
pub struct Composed {
    pub system: String,
    pub user: String,
    pub facts: Vec<String>,
    /// Facts or turns left out or shortened to fit the budget.
    pub trimmed: Vec<String>,
}

pub async fn compose(
    store: &Store,
    user: &str,
    names: &Names,
    recent: &[RecentTurn],
    message: &str,
    lang: Lang,
) -> Composed {
    let gathered = gather(store, user, names, message, lang).await;
    fit(gathered, recent, message, lang)
}

/// The facts the message's plan reads: at most four read-only steps.
pub async fn gather(
    store: &Store,
    user: &str,
    names: &Names,
    message: &str,
    lang: Lang,
) -> Vec<Fact> {
    let mut gathered = Vec::new();
    for step in plan::plan(message, names) {
        let fact = match &step {
            Step::Trader(id) => facts::trader(store, user, names, id).await,
            Step::Overview => Some(facts::overview(names)),
            Step::Market(symbol) => facts::market(symbol).await,
            Step::Holding(said) => facts::holding(store, user, said, lang).await,
        };
        gathered.extend(fact);
    }
    gathered
}

/// `gathered` as a `## Facts` section of at most `budget` tokens, for the gateway's one call
/// when the rules could not place a message: the model may then answer a question over them
/// without a second call.
pub fn facts_section(gathered: Vec<Fact>, budget: u64) -> String {
    let (text, _, _) = fit_facts(gathered, budget);
    if text.is_empty() {
        return String::new();
    }
    format!("## Facts (for answering a question)\n{text}")
}

/// Fits everything into [`ANSWER_BUDGET_TOKENS`]: the system prompt and the question always
/// stay; history goes first, oldest turn first; then facts, lowest priority first, are cut
/// line by line.
pub fn fit(gathered: Vec<Fact>, recent: &[RecentTurn], message: &str, lang: Lang) -> Composed {
    let language = match lang {
        Lang::Zh => "Answer in Chinese.",
        Lang::En => "Answer in English.",
    };
    let system = format!("{PERSONA}\n{INSTRUCTIONS}\n{language}");
    let question = format!("## Question\n{message}\n");
    let fixed = estimate_tokens(&system) + estimate_tokens(&question);
    let mut room = ANSWER_BUDGET_TOKENS.saturating_sub(fixed);
    let mut trimmed = Vec::new();

    let facts_cost: u64 = gathered.iter().map(|f| estimate_tokens(&block(f))).sum();
    let mut history: Vec<String> = recent
        .iter()
        .rev()
        .take(HISTORY_TURNS)
        .rev()
        .map(|t| format!("user: {}\nnofxi: {}\n", t.user, t.reply))
        .collect();
    while !history.is_empty()
        && facts_cost + history.iter().map(|h| estimate_tokens(h)).sum::<u64>() > room
    {
        history.remove(0);
        trimmed.push("an earlier turn".to_string());
    }
    room = room.saturating_sub(history.iter().map(|h| estimate_tokens(h)).sum());

    let (facts_text, used, cut) = fit_facts(gathered, room);
    trimmed.extend(cut);
    let mut user = String::new();
    if !facts_text.is_empty() {
        user.push_str("## Facts\n");
        user.push_str(&facts_text);
    } else {
        user.push_str("## Facts\nnone available\n");
    }
    if !history.is_empty() {
        user.push_str("## Recent turns\n");
        user.push_str(&history.concat());
    }
    user.push_str(&question);
    Composed {
        system,
        user,
        facts: used,
        trimmed,
    }
}

/// The facts that fit in `room` tokens, highest priority first, so the cuts land on the least
/// important ones (cut line by line); with the labels used and the labels cut.
fn fit_facts(mut gathered: Vec<Fact>, mut room: u64) -> (String, Vec<String>, Vec<String>) {
    gathered.sort_by_key(|f| std::cmp::Reverse(f.priority));
    let (mut used, mut trimmed) = (Vec::new(), Vec::new());
    let mut facts_text = String::new();
    for fact in gathered {
        let mut text = block(&fact);
        while estimate_tokens(&text) > room {
            match text.trim_end().rfind('\n') {
                Some(cut) => text.truncate(cut + 1),
                None => {
                    text.clear();
                    break;
                }
            }
        }
        if text.len() < block(&fact).len() {
            trimmed.push(fact.label.clone());
        }
        if text.is_empty() {
            continue;
        }
        room = room.saturating_sub(estimate_tokens(&text));
        used.push(fact.label.clone());
        facts_text.push_str(&text);
    }
    (facts_text, used, trimmed)
}

fn block(fact: &Fact) -> String {
    format!("### {}\n{}", fact.label, fact.text)
}

/// The naive alternative, measured beside [`compose`] in the benchmark: every trader with
/// every journal entry. Not used to answer anything.
pub async fn inject_everything(store: &Store, user: &str) -> String {
    let mut out = String::new();
    let traders = store.list_traders(user, false).await.unwrap_or_default();
    for t in traders {
        out.push_str(&serde_json::to_string(&t).unwrap_or_default());
        out.push('\n');
        for row in store
            .cycles(user, &t.id, i64::MAX, None)
            .await
            .unwrap_or_default()
        {
            out.push_str(&row.record.to_string());
            out.push('\n');
        }
    }
    out
}
