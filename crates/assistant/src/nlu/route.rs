//! Which task a message asks for: a skill by its nouns (or a resource name of its kind), an
//! action by its verbs. The longest verb wins ("set up" over "set"); among skills, the one
//! named earliest in the message ("把 btc-bot 的策略换成…" is about the trader btc-bot).

use nofxi_skills::{Library, ResourceKind, Risk, SkillKind, SlotType, WordClass};

use super::asks;
use super::extract::made_up_name;
use super::lexicon::Lexicon;
use super::names::Names;
use super::words::{find_phrase, find_verb, starts_with_word};

#[derive(Debug, Clone, PartialEq)]
pub struct Route {
    pub skill: String,
    pub action: String,
    pub has_verb: bool,
    pub has_noun: bool,
    pub has_name: bool,
}

/// The action that finds out why a resource is as it is, where its skill has one.
pub(crate) const DIAGNOSE: &str = "diagnose";

/// An action's verb found in a message: where, how long, and whose.
struct VerbHit<'a> {
    at: usize,
    end: usize,
    chars: usize,
    action: &'a nofxi_skills::Action,
}

/// "bot 的收益对不上", "the pnl on bot looks wrong": a read's verb said right before another
/// read's verb — at most one word between, not a join — is what that verb is about, so the
/// later one names the request. Only reads are reordered, so this never picks a change.
fn read_complained_of<'h, 'a>(
    text: &str,
    first: &VerbHit<'a>,
    hits: &'h [VerbHit<'a>],
    lexicon: &Lexicon,
) -> Option<&'h VerbHit<'a>> {
    if first.action.risk != Risk::Query {
        return None;
    }
    let joins = lexicon.words(WordClass::RequestJoin);
    let close = |gap: &str| {
        let words: Vec<&str> = gap.split_whitespace().collect();
        let joined = joins.iter().any(|j| {
            let j = j.trim();
            !j.is_empty() && words.contains(&j)
        });
        words.len() <= 1 && !joined && gap.chars().all(|c| c.is_alphanumeric() || c == ' ')
    };
    hits.iter().find(|h| {
        h.at >= first.end
            && h.action.risk == Risk::Query
            && h.action.name != first.action.name
            && text.get(first.end..h.at).is_some_and(close)
    })
}

/// Whether `lower` names a function skill's subject (price, 行情, K线): market data, which no
/// management task reads.
pub fn names_function_subject(library: &Library, lower: &str) -> bool {
    library
        .skills()
        .iter()
        .filter(|s| s.meta.kind == SkillKind::Function)
        .flat_map(|s| s.meta.nouns.iter())
        .any(|n| find_phrase(lower, &n.to_lowercase()).is_some())
}

/// Whether a managed skill's noun, or a word of a resource kind ("bot"), is said.
pub fn names_a_subject(library: &Library, lexicon: &Lexicon, lower: &str) -> bool {
    library
        .skills()
        .iter()
        .filter(|s| s.meta.kind == SkillKind::Management)
        .any(|s| {
            s.meta
                .nouns
                .iter()
                .any(|n| find_phrase(lower, &n.to_lowercase()).is_some())
                || ResourceKind::parse(&s.meta.domain)
                    .is_some_and(|k| lexicon.class_in(k, lower).is_some())
        })
}

/// A skill the message may be about: (where its first noun or name is said, the skill's
/// index, a noun said, a name said).
type Candidate = (usize, usize, bool, bool);

/// `it_kind`: the kind "it"/"that one" stands for, when the message has such a word.
pub fn route(
    library: &Library,
    lower: &str,
    names: &Names,
    lexicon: &Lexicon,
    it_kind: Option<(ResourceKind, usize)>,
) -> Option<Route> {
    let mentioned = names.mentioned(lower);
    // "create a bott named zeta on paper with builtin": with a create said, a name or kind
    // after a binding lead is what the new one uses, never what is made.
    let bound = match says_create(library, lexicon, lower) {
        true => bound_at(lexicon, lower, &mentioned),
        false => Vec::new(),
    };
    let said = Said {
        library,
        lexicon,
        lower,
        names,
    };
    let mut candidates = said.subjects(&mentioned, &bound, it_kind);
    let verb_text = verb_text(library, lexicon, lower, &mentioned);
    let verbs = Verbs::new(library, lexicon, &verb_text);
    let verb_of = |i: usize| verbs.of(i);
    // "茅台的成本是多少", "sold 10 AAPL at 190", "600519": a security said, alone or with a
    // word of a skill that takes one, is that skill's request, ranked where it is said. Not
    // when a resource is named: "btc-bot bought 0.1 BTC", "btc-bot 的盈亏" are the trader's.
    if mentioned.is_empty() {
        with_instrument(library, &verb_text, &verb_of, &mut candidates);
    }
    if candidates.is_empty() {
        candidates = binder_of(library, &bound);
    }
    if candidates.is_empty() {
        candidates = unnamed(library, lexicon, lower, &verb_of);
    }
    candidates.sort();
    rank(library, lexicon, lower, &verb_text, &mut candidates);
    for &(_, i, noun, name) in &candidates {
        if let Some((_, action)) = verb_of(i) {
            let skill = &library.skills()[i];
            return Some(Route {
                skill: skill.id.clone(),
                action: said.action(skill, &verb_text, action),
                has_verb: true,
                has_noun: noun,
                has_name: name,
            });
        }
    }
    let &(_, i, noun, name) = candidates.first()?;
    let skill = &library.skills()[i];
    skill.action("query").map(|_| Route {
        skill: skill.id.clone(),
        action: "query".into(),
        has_verb: false,
        has_noun: noun,
        has_name: name,
    })
}

/// What the router reads a message with.
struct Said<'a> {
    library: &'a Library,
    lexicon: &'a Lexicon,
    lower: &'a str,
    names: &'a Names,
}

impl Said<'_> {
    /// The managed skills whose noun, or a name of whose kind, the message says.
    fn subjects(
        &self,
        mentioned: &[(&super::names::NameEntry, usize, usize)],
        bound: &[(ResourceKind, usize)],
        it_kind: Option<(ResourceKind, usize)>,
    ) -> Vec<Candidate> {
        let (library, lexicon, lower) = (self.library, self.lexicon, self.lower);
        // "btc price", "看看 BTC 价格": a word that is only part of a name (btc of btc-bot)
        // beside a function skill's subject (price, 行情) is that subject's word, not the
        // resource's name.
        let function_subject = names_function_subject(library, lower);
        let free = |at: usize| !bound.iter().any(|(_, b)| *b == at);
        let mut candidates: Vec<Candidate> = Vec::new();
        for (i, skill) in library.skills().iter().enumerate() {
            if skill.meta.kind != SkillKind::Management {
                continue;
            }
            let noun_at = skill
                .meta
                .nouns
                .iter()
                .filter_map(|n| find_phrase(lower, &n.to_lowercase()))
                .min();
            let kind = ResourceKind::parse(&skill.meta.domain);
            let name_at = mentioned
                .iter()
                .filter(|(e, at, _)| Some(e.kind) == kind && free(*at))
                .map(|(_, at, _)| *at)
                .min();
            let name_at = name_at.or_else(|| {
                kind.filter(|_| !function_subject)
                    .and_then(|k| self.names.partial(lower, k))
                    .map(|(_, at)| at)
            });
            let noun_at = noun_at.or_else(|| {
                kind.and_then(|k| lexicon.class_in(k, lower))
                    .map(|(_, at, _)| at)
                    .filter(|at| free(*at))
            });
            let name_at = name_at.or_else(|| {
                it_kind.and_then(|(k, at)| (Some(k) == kind && noun_at.is_none()).then_some(at))
            });
            let at = match (noun_at, name_at) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            if let Some(at) = at {
                candidates.push((at, i, noun_at.is_some(), name_at.is_some()));
            }
        }
        candidates
    }

    /// The action a verb of `skill` names, as the rest of the message bends it: a switch of
    /// a setting, all but some, a question about the resource, a read named by its word.
    fn action(&self, skill: &nofxi_skills::Skill, verb_text: &str, mut action: String) -> String {
        let (lexicon, lower) = (self.lexicon, self.lower);
        // "turn off cross margin for alpha", "关闭 alpha 的全仓": the switch is on a setting of
        // the trader, not on the trader.
        if action != "update" && switches_a_setting(skill, lexicon, verb_text) {
            action = "update".into();
        }
        // "停止除了 alpha 之外的所有交易员": every one but some, not the one named.
        let on_all = format!("{action}_all");
        if skill.action(&on_all).is_some() && all_but_some(lower, lexicon) {
            action = on_all;
        }
        // "我配置了哪些交易所？", "did alpha stop?", "alpha 启动了吗？", "how do I start
        // alpha?": a question about the resource, not a request to change it. A request put
        // as a question ("can you stop alpha?", "能帮我停掉 alpha 吗") stays one.
        let asks_only = if action == "create" {
            asks::is_question(lower, lexicon)
        } else {
            asks::only_asks(lower, lexicon)
        };
        let reads = |name: &str| skill.action(name).is_some_and(|a| a.risk == Risk::Query);
        // "what happens if I delete btc-bot?", "该不该停掉 alpha": a question about what the
        // change would do stays that change, for its effects to answer (never done).
        let hypothetical = lexicon.any_in(WordClass::Hypothetical, lower)
            && skill.action(&action).is_some_and(|a| a.effects.is_some());
        if !reads(&action) && asks_only && !hypothetical && skill.action("query").is_some() {
            // "why did alpha stop?" asks for the cause: the diagnosis, where there is one.
            let cause =
                lexicon.any_in(WordClass::CauseQuestion, lower) && skill.action(DIAGNOSE).is_some();
            action = if cause { DIAGNOSE } else { "query" }.into();
        }
        // "show btc-bot's journal", "看看 main 的持仓": the look-up verb opens any read; the
        // read's own word (journal, 持仓) says which one.
        if action == "query"
            && let Some(read) = named_read(skill, lexicon, verb_text)
        {
            action = read;
        }
        action
    }
}

/// The message as verbs are looked for in it: outside the names said ("把 测试账户 切回正式网"
/// has no "测试" (test) verb, only a name that contains one), outside quotes ("重命名为「币安
/// 测试」" names something, it does not test it), and outside a question about a change
/// ("what happens if I delete beta" asks about the delete, its "what" is no look-up verb).
fn verb_text(
    library: &Library,
    lexicon: &Lexicon,
    lower: &str,
    mentioned: &[(&super::names::NameEntry, usize, usize)],
) -> String {
    let blank = super::extract::tokens::blank;
    let mut unnamed_text = lower.to_string();
    for (_, from, to) in mentioned {
        blank(&mut unnamed_text, *from, *to);
    }
    for (from, to) in quoted_spans(lower) {
        blank(&mut unnamed_text, from, to);
    }
    blank_attributive_verbs(library, lexicon, &mut unnamed_text);
    for word in lexicon.words(WordClass::Hypothetical) {
        let at: Vec<usize> = super::words::phrase_positions(lower, word).collect();
        for at in at {
            blank(&mut unnamed_text, at, at + word.len());
        }
    }
    unnamed_text
}

/// Finds each skill's verb in the message: the earliest, at one position the longest.
struct Verbs<'a> {
    library: &'a Library,
    lexicon: &'a Lexicon,
    guards: super::words::VerbGuards<'a>,
    text: &'a str,
    /// The text with the blanks of the names closed up.
    closed: String,
}

impl<'a> Verbs<'a> {
    fn new(library: &'a Library, lexicon: &'a Lexicon, text: &'a str) -> Verbs<'a> {
        Verbs {
            library,
            lexicon,
            guards: lexicon.verb_guards(),
            text,
            closed: text.split_whitespace().collect::<Vec<_>>().join(" "),
        }
    }

    /// The verb of skill `i` said, (its length in characters, its action's name). "why
    /// doesn't ds work?", "why can't noip connect": a verb a name is said inside of is read
    /// with the name taken out.
    fn of(&self, i: usize) -> Option<(usize, String)> {
        let with_names = self.verb_in(i, self.text);
        if self.closed == self.text {
            return with_names;
        }
        // The longer verb wins, as at one position ("can't connect" over "connect").
        match (with_names, self.verb_in(i, &self.closed)) {
            (Some(a), Some(b)) if b.0 > a.0 => Some(b),
            (None, b) => b,
            (a, _) => a,
        }
    }

    fn verb_in(&self, i: usize, text: &str) -> Option<(usize, String)> {
        let skill = &self.library.skills()[i];
        // A verb inside one of the skill's own terms is part of that term (测试网, testnet).
        let terms = || {
            skill
                .actions
                .iter()
                .flat_map(|a| a.slots.iter())
                .flat_map(|slot| slot.phrases.iter())
                .map(|p| p.to_lowercase())
                .collect()
        };
        let mut hits: Vec<VerbHit<'_>> = skill
            .actions
            .iter()
            .filter_map(|a| {
                self.lexicon
                    .action_verbs(a)
                    .filter_map(|v| {
                        let verb = v.to_lowercase();
                        find_verb(text, &verb, &self.guards, terms).map(|at| VerbHit {
                            at,
                            end: at + verb.len(),
                            chars: v.chars().count(),
                            action: a,
                        })
                    })
                    .min_by_key(|h| (h.at, std::cmp::Reverse(h.chars)))
            })
            .collect();
        // The earliest verb names the request; at one position the longest ("set up").
        hits.sort_by_key(|h| (h.at, std::cmp::Reverse(h.chars)));
        let first = hits.first()?;
        let chosen = read_complained_of(text, first, &hits, self.lexicon).unwrap_or(first);
        Some((chosen.chars, chosen.action.name.clone()))
    }
}

/// The skills that take a security, when one is said in `verb_text`: alone, or with the
/// skill's verb.
fn with_instrument(
    library: &Library,
    verb_text: &str,
    verb_of: &dyn Fn(usize) -> Option<(usize, String)>,
    candidates: &mut Vec<Candidate>,
) {
    let Some((at, end)) = super::instruments::find(verb_text) else {
        return;
    };
    let alone = verb_text[..at].trim().is_empty() && verb_text[end..].trim().is_empty();
    for (i, skill) in library.skills().iter().enumerate() {
        let takes_one = skill
            .actions
            .iter()
            .flat_map(|a| a.slots.iter())
            .any(|slot| slot.ty == SlotType::Instrument);
        let listed = candidates.iter().any(|c| c.1 == i);
        if takes_one && !listed && (alone || verb_of(i).is_some()) {
            candidates.push((at, i, false, true));
        }
    }
}

/// The sorted candidates, with the one the message's shape says is meant moved first.
fn rank(
    library: &Library,
    lexicon: &Lexicon,
    lower: &str,
    verb_text: &str,
    candidates: &mut Vec<Candidate>,
) {
    // "用 main、builtin 和 default 创建交易员 alpha": a verb right before a skill's noun says
    // what is made, whatever names come first.
    if let Some(pos) = candidates
        .iter()
        .position(|c| c.2 && verb_before_noun(&library.skills()[c.1], lexicon, verb_text))
    {
        let first = candidates.remove(pos);
        candidates.insert(0, first);
    }
    // "any strategies in the bin?", "回收站里的模型": a noun that is one of another named
    // skill's values (the trash's kinds) is that skill's filter, not a request of its own.
    if let Some(pos) = candidates
        .iter()
        .position(|c| c.2 && holds_a_noun_of(library, c.1, candidates, lower))
    {
        let first = candidates.remove(pos);
        candidates.insert(0, first);
    }
}

/// Whether a create verb of a managed skill is said.
fn says_create(library: &Library, lexicon: &Lexicon, lower: &str) -> bool {
    let guards = lexicon.verb_guards();
    library
        .skills()
        .iter()
        .filter(|s| s.meta.kind == SkillKind::Management)
        .filter_map(|s| s.action("create"))
        .flat_map(|a| lexicon.action_verbs(a))
        .any(|v| find_verb(lower, &v.to_lowercase(), &guards, Vec::new).is_some())
}

/// The kinds of the names and kinds said right after a binding lead ("on paper", "用
/// builtin"), with where each starts.
fn bound_at(
    lexicon: &Lexicon,
    lower: &str,
    mentioned: &[(&super::names::NameEntry, usize, usize)],
) -> Vec<(ResourceKind, usize)> {
    let leads = lexicon.words(WordClass::BindingLead);
    let after_lead = |at: usize| {
        let before = lower[..at].trim_end();
        leads.iter().any(|l| {
            before.strip_suffix(l.as_str()).is_some_and(|rest| {
                // An English lead is a word of its own: "on" of "python" is none.
                !l.is_ascii() || !rest.ends_with(|c: char| c.is_ascii_alphanumeric())
            })
        })
    };
    let mut bound: Vec<(ResourceKind, usize)> = mentioned
        .iter()
        .filter(|(_, at, _)| after_lead(*at))
        .map(|(e, at, _)| (e.kind, *at))
        .collect();
    for kind in [
        ResourceKind::Exchange,
        ResourceKind::Model,
        ResourceKind::Strategy,
    ] {
        if let Some((_, at, _)) = lexicon.class_in(kind, lower)
            && after_lead(at)
        {
            bound.push((kind, at));
        }
    }
    bound
}

/// The one managed skill whose create takes a reference to every kind bound ("zeta on
/// paper with builtin": exchange and model, so a trader); none when no kind is bound or two
/// skills could.
fn binder_of(
    library: &Library,
    bound: &[(ResourceKind, usize)],
) -> Vec<(usize, usize, bool, bool)> {
    if bound.is_empty() {
        return Vec::new();
    }
    let binders: Vec<usize> = library
        .skills()
        .iter()
        .enumerate()
        .filter(|(_, s)| s.meta.kind == SkillKind::Management)
        .filter(|(_, s)| {
            s.action("create").is_some_and(|a| {
                bound
                    .iter()
                    .all(|(k, _)| a.slots.iter().any(|slot| slot.ref_kind == Some(*k)))
            })
        })
        .map(|(i, _)| i)
        .collect();
    match binders.as_slice() {
        [only] => vec![(0, *only, true, false)],
        _ => Vec::new(),
    }
}

/// "把删掉的交易员恢复": a verb joined to a skill's noun by an attributive word (的) says which
/// one ("the deleted trader"), not what to do; it is blanked, longest verb first, so neither
/// "删掉" nor the "删" inside it is read as the request.
fn blank_attributive_verbs(library: &Library, lexicon: &Lexicon, text: &mut String) {
    let attributives = lexicon.words(WordClass::Attributive);
    let management = || {
        library
            .skills()
            .iter()
            .filter(|s| s.meta.kind == SkillKind::Management)
    };
    let nouns: Vec<String> = management()
        .flat_map(|s| s.meta.nouns.iter().map(|n| n.to_lowercase()))
        .collect();
    let describes = |rest: &str| {
        attributives.iter().any(|a| {
            rest.trim_start()
                .strip_prefix(a.as_str())
                .is_some_and(|after| {
                    let after = after.trim_start();
                    nouns.iter().any(|n| after.starts_with(n.as_str()))
                })
        })
    };
    let mut verbs: Vec<String> = management()
        .flat_map(|s| s.actions.iter())
        .flat_map(|a| lexicon.action_verbs(a))
        .map(|v| v.to_lowercase())
        .collect();
    verbs.sort_by_key(|v| std::cmp::Reverse(v.len()));
    verbs.dedup();
    for verb in &verbs {
        let found: Vec<usize> = super::words::phrase_positions(text, verb)
            .filter(|&at| describes(&text[at + verb.len()..]))
            .collect();
        for at in found {
            super::extract::tokens::blank(text, at, at + verb.len());
        }
    }
}

/// Whether a value of one of skill `i`'s enum slots covers where another candidate's noun or
/// name stands.
fn holds_a_noun_of(
    library: &Library,
    i: usize,
    candidates: &[(usize, usize, bool, bool)],
    lower: &str,
) -> bool {
    let skill = &library.skills()[i];
    let spans: Vec<(usize, usize)> = skill
        .actions
        .iter()
        .flat_map(|a| a.slots.iter())
        .filter(|slot| slot.ty == SlotType::Enum)
        .flat_map(|slot| slot.values.iter())
        .flat_map(|v| v.aliases.iter())
        .map(|alias| alias.to_lowercase())
        .filter_map(|alias| find_phrase(lower, &alias).map(|at| (at, at + alias.len())))
        .collect();
    candidates
        .iter()
        .filter(|c| c.1 != i)
        .any(|c| spans.iter().any(|&(from, to)| from <= c.0 && c.0 < to))
}

/// The read action other than the generic look-up whose verb the message says earliest
/// (`journal`, `stats`, `balance`), if any.
fn named_read(skill: &nofxi_skills::Skill, lexicon: &Lexicon, verb_text: &str) -> Option<String> {
    skill
        .actions
        .iter()
        .filter(|a| a.risk == Risk::Query && a.name != "query")
        .filter_map(|a| {
            lexicon
                .action_verbs(a)
                .filter_map(|v| {
                    find_verb(
                        verb_text,
                        &v.to_lowercase(),
                        &lexicon.verb_guards(),
                        Vec::new,
                    )
                })
                .min()
                .map(|at| (at, a.name.clone()))
        })
        .min()
        .map(|(_, name)| name)
}

/// "all", "every", "所有": the message is about every resource of a kind.
pub fn says_all(lower: &str, lexicon: &Lexicon) -> bool {
    lexicon.any_in(WordClass::All, lower)
}

/// "all … except alpha", "除了 alpha 之外的所有": a bulk request that leaves some out.
fn all_but_some(lower: &str, lexicon: &Lexicon) -> bool {
    super::extract::except::except_at(lower, lexicon).is_some() && says_all(lower, lexicon)
}

/// Whether one of the skill's verbs is followed by one of its nouns ("创建交易员", "create a
/// trader").
fn verb_before_noun(skill: &nofxi_skills::Skill, lexicon: &Lexicon, text: &str) -> bool {
    let nouns: Vec<String> = skill.meta.nouns.iter().map(|n| n.to_lowercase()).collect();
    skill.actions.iter().flat_map(|a| a.verbs.iter()).any(|v| {
        let v = v.to_lowercase();
        find_phrase(text, &v).is_some_and(|at| {
            let mut rest = text[at + v.len()..].trim_start();
            if let Some(article) = lexicon
                .words(WordClass::Article)
                .iter()
                .find(|a| starts_with_word(rest, a))
            {
                rest = rest[article.len()..].trim_start();
            }
            nouns.iter().any(|n| rest.starts_with(n.as_str()))
        })
    })
}

/// The byte spans of text between quotes: 「…」, "…", “…”.
pub(crate) fn quoted_spans(text: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    for (open, close) in [('「', '」'), ('"', '"'), ('“', '”')] {
        let mut from = 0;
        while let Some(start) = text[from..].find(open).map(|i| from + i + open.len_utf8()) {
            let Some(end) = text[start..].find(close).map(|i| start + i) else {
                break;
            };
            spans.push((start, end));
            from = end + close.len_utf8();
        }
    }
    spans
}

/// Whether a switch word stands right before (a name between at most) a yes/no setting of
/// the skill's update.
fn switches_a_setting(skill: &nofxi_skills::Skill, lexicon: &Lexicon, text: &str) -> bool {
    let Some(update) = skill.action("update") else {
        return false;
    };
    let phrases: Vec<String> = update
        .slots
        .iter()
        .filter(|s| s.ty == SlotType::Boolean)
        .flat_map(|s| s.phrases.iter().map(|p| p.to_lowercase()))
        .collect();
    let switches = [WordClass::TurnOn, WordClass::TurnOffVerb].map(|c| lexicon.words(c));
    switches.into_iter().flatten().any(|w| {
        find_phrase(text, w).is_some_and(|at| {
            let after = &text[at + w.len()..];
            let window = &after[..after.floor_char_boundary(24.min(after.len()))];
            !window.contains([',', '，', ';', '；'])
                && phrases.iter().any(|p| find_phrase(window, p).is_some())
        })
    })
}

/// Candidates when no noun and no known name is said: the verb of an action that needs
/// nothing else ("全部停掉"), a field of one skill's resources with one of its verbs ("set min
/// confidence on grid-master to 90" is about a strategy), else a
/// made-up name with a verb only one skill has ("ghost-bot 现在怎么样" asks about a trader).
/// Resolution then says the name is not found rather than the message not understood.
fn unnamed(
    library: &Library,
    lexicon: &Lexicon,
    lower: &str,
    verb_of: &dyn Fn(usize) -> Option<(usize, String)>,
) -> Vec<Candidate> {
    let managed: Vec<usize> = library
        .skills()
        .iter()
        .enumerate()
        .filter(|(_, s)| s.meta.kind == SkillKind::Management)
        .map(|(i, _)| i)
        .collect();
    // An action that needs nothing more than its verb ("全部停掉", "stop everything") is
    // named by the verb alone, when one skill has it: the verb says what it acts on, as a
    // noun would. A look-up verb ("what", "看看") never does: it says nothing of what to read.
    let whole: Vec<(usize, usize, bool, bool)> = managed
        .iter()
        .filter(|&&i| {
            verb_of(i).is_some_and(|(_, action)| {
                library.skills()[i].action(&action).is_some_and(|a| {
                    a.risk != Risk::Query
                        && a.slot("target").is_none()
                        && a.slots
                            .iter()
                            .all(|s| !s.required && s.required_when.is_none())
                })
            })
        })
        .map(|&i| (0, i, true, false))
        .collect();
    if whole.len() == 1 {
        return whole;
    }
    // A field alone is a weak signal: it counts with a verb that changes something (not
    // "what is a funding rate?") and only when one skill has that field.
    let by_field: Vec<(usize, usize, bool, bool)> = managed
        .iter()
        .filter(|i| verb_of(**i).is_some_and(|(_, action)| action != "query"))
        .filter_map(|&i| {
            library.skills()[i]
                .actions
                .iter()
                .filter(|a| a.slot("target").is_some())
                .flat_map(|a| a.slots.iter())
                .filter(|s| s.ty != SlotType::Ref && !s.is_secret())
                .flat_map(|s| s.phrases.iter())
                .filter(|p| p.chars().count() >= 3)
                .filter_map(|p| find_phrase(lower, &p.to_lowercase()))
                .min()
                .map(|at| (at, i, true, false))
        })
        .collect();
    match by_field.len() {
        0 => {}
        1 => return by_field,
        _ => return Vec::new(),
    }
    let Some(word) = made_up_name(lower, lexicon) else {
        return read_alone(library, &managed, verb_of);
    };
    let at = lower.find(&word).unwrap_or(0);
    // Only a skill whose actions name a resource can be the one the made-up name is of.
    let with_verb: Vec<usize> = managed
        .iter()
        .copied()
        .filter(|i| {
            library.skills()[*i]
                .actions
                .iter()
                .any(|a| a.slot("target").is_some())
        })
        .filter(|i| verb_of(*i).is_some())
        .collect();
    match with_verb.as_slice() {
        [only] => vec![(at, *only, false, true)],
        [] => read_alone(library, &managed, verb_of),
        _ => Vec::new(),
    }
}

/// "最近的交易": a read of something that has no name (the portfolio's records) says what to
/// read, as a noun would, when one skill has it. A resource's read ("balance of ghost") is
/// left to the name said, and the general look-up ("看看", "show") never names a read.
fn read_alone(
    library: &Library,
    managed: &[usize],
    verb_of: &dyn Fn(usize) -> Option<(usize, String)>,
) -> Vec<Candidate> {
    let reads: Vec<(usize, usize, bool, bool)> = managed
        .iter()
        .filter(|&&i| {
            verb_of(i).is_some_and(|(_, action)| {
                action != "query"
                    && library.skills()[i]
                        .action(&action)
                        .is_some_and(|a| a.risk == Risk::Query && a.slot("target").is_none())
            })
        })
        .map(|&i| (0, i, true, false))
        .collect();
    match reads.len() {
        1 => reads,
        _ => Vec::new(),
    }
}

/// The word a verb acts on when no noun says what it is ("delete nosuchbot", "rename foo to
/// bar", "删除 foo"): a name the user believes exists. `None` when no verb of an action with
/// a target is said, or nothing name-like follows it.
/// Whether the message says a verb of an action on a resource ("日志", "stop").
pub fn says_a_verb(library: &Library, lower: &str) -> bool {
    target_verbs(library).any(|v| find_phrase(lower, &v).is_some())
}

/// The verbs of every action that acts on one resource, lower-cased.
fn target_verbs(library: &Library) -> impl Iterator<Item = String> + '_ {
    library
        .skills()
        .iter()
        .filter(|s| s.meta.kind == SkillKind::Management)
        .flat_map(|s| s.actions.iter())
        .filter(|a| a.slot("target").is_some())
        .flat_map(|a| a.verbs.iter())
        .map(|v| v.to_lowercase())
}

pub fn target_word_after_verb(library: &Library, lexicon: &Lexicon, lower: &str) -> Option<String> {
    let not_names = lexicon.words(WordClass::NotAName);
    let verbs: Vec<String> = target_verbs(library).collect();
    verbs
        .iter()
        .filter_map(|v| find_phrase(lower, v).map(|at| (at, v)))
        .min_by_key(|(at, v)| (*at, std::cmp::Reverse(v.len())))
        .and_then(|(at, v)| {
            let word: String = lower[at + v.len()..]
                .trim_start()
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                .collect();
            // Two characters are a name when they mix a letter and a digit ("o1", "b2"), as
            // model and account names often do; two letters are mostly a word ("me", "it").
            let letters = word.chars().any(|c| c.is_ascii_alphabetic());
            let digits = word.chars().any(|c| c.is_ascii_digit());
            let long_enough = word.len() >= 3 || (word.len() == 2 && digits);
            // "show journal for x": a verb right after a verb is the request's, not a name.
            let a_verb = verbs.contains(&word);
            (long_enough && letters && !a_verb && !not_names.contains(&word)).then_some(word)
        })
}

/// The message carries a verb of another management action and none of the active one's.
/// Update verbs ("改成", "change to") do not count: that is how people correct a value of any
/// task.
pub fn has_foreign_verb(library: &Library, lower: &str, skill: &str, action: &str) -> bool {
    let own: Vec<String> = library
        .action(skill, action)
        .map(|a| a.verbs.iter().map(|v| v.to_lowercase()).collect())
        .unwrap_or_default();
    if own.iter().any(|v| find_phrase(lower, v).is_some()) {
        return false;
    }
    library
        .skills()
        .iter()
        .filter(|s| s.meta.kind == SkillKind::Management)
        .flat_map(|s| s.actions.iter())
        .filter(|a| a.name != "update")
        .flat_map(|a| a.verbs.iter())
        .map(|v| v.to_lowercase())
        .any(|v| !own.contains(&v) && find_phrase(lower, &v).is_some())
}
