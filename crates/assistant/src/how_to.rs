//! "How do I add an exchange?", "怎么创建策略": how an action is done, answered from its skill
//! (what it needs, how to say it) with an offer to start it. Read as a look-up before ("There
//! is no trader yet") or as a request held back, it never told the user what to say.

use nofxi_skills::{Action, Lang, Skill};

use crate::conversation::Pending;
use crate::msg;
use crate::turn::Turn;

/// Answers the how-to of `topic` (`skill.action`) and offers to start it: a yes starts it.
pub fn answer(turn: &mut Turn<'_>, topic: &str) {
    let lang = turn.lang;
    let library = turn.engine.library.clone();
    let found = topic
        .split_once('.')
        .and_then(|(skill, action)| Some((library.get(skill)?, library.action(skill, action)?)));
    let Some((skill, action)) = found else {
        turn.say(crate::texts::cannot_handle(lang));
        return;
    };
    let task = crate::texts::task_label(&library, &skill.id, &action.name, lang);
    let fields = needed(action, lang);
    let mut lines = vec![match fields.is_empty() {
        true => msg(lang, "howto-needs-nothing", &[("task", &task)]),
        false => msg(lang, "howto-needs", &[("task", &task), ("fields", &fields)]),
    }];
    if let Some(example) = example(skill, action, lang) {
        lines.push(msg(lang, "howto-say-it", &[("example", &example)]));
    }
    if let Some(request) = request(skill, action, lang) {
        lines.push(msg(lang, "howto-offer", &[]));
        turn.conv.pending = Some(Pending::Retry { message: request });
    }
    turn.events.push(nofxi_protocol::Event::Answered {
        kind: nofxi_protocol::AnswerKind::HowTo,
    });
    turn.say(lines.join("\n"));
    crate::policy::reprompt(turn);
}

/// The labels of what the action cannot do without: required, with no default.
fn needed(action: &Action, lang: Lang) -> String {
    let labels: Vec<String> = action
        .slots
        .iter()
        .filter(|s| s.required && s.default.is_none())
        .map(|s| s.label().get(lang).to_string())
        .collect();
    labels.join(&msg(lang, "list-separator", &[]))
}

/// The skill's example of the action in `lang` that says the most, said with no task open
/// and with no credential in it (shown masked, it would read as a broken example).
fn example(skill: &Skill, action: &Action, lang: Lang) -> Option<String> {
    let secret = |slot: &String| action.slot(slot).is_some_and(|s| s.is_secret());
    skill
        .examples_for(&action.name)
        .filter(|e| e.context.is_none() && Lang::detect(&e.user) == lang)
        .filter(|e| !e.slots.keys().any(secret))
        .max_by_key(|e| e.slots.len())
        .map(|e| e.user.clone())
}

/// The request a yes makes: the action's first verb and the skill's first noun in `lang`
/// ("create trader", "创建交易员"), which the rules read as that action.
fn request(skill: &Skill, action: &Action, lang: Lang) -> Option<String> {
    let verb = action.verbs.iter().find(|v| Lang::detect(v) == lang)?;
    let noun = skill.meta.nouns.iter().find(|n| Lang::detect(n) == lang)?;
    let gap = if lang == Lang::Zh { "" } else { " " };
    Some(format!("{verb}{gap}{noun}"))
}
