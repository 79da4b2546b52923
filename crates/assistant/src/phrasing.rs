//! The clarifying questions understanding asks, worded, and the words they are made of (a
//! kind's noun, a task's label). A leaf: it reads only the skills and their message catalogs,
//! so understanding ([`crate::nlu`]) can word a question without depending on the replies'
//! module ([`crate::texts`], which re-exports these), and nothing here depends back on it.

use nofxi_skills::{Lang, Library};

/// Reply text `id` in `lang` from the message catalogs beside the skills, as [`crate::msg`];
/// in a web turn its `<id>-web` variant when the catalogs have one (see
/// [`crate::web_client`]).
pub fn msg(lang: Lang, id: &str, args: &[(&str, &str)]) -> String {
    let catalog = nofxi_skills::Catalog::builtin();
    if crate::web_client::in_web_app() {
        let web = format!("{id}-web");
        if catalog.has(&web) {
            return catalog.text(lang, &web, args);
        }
    }
    catalog.text(lang, id, args)
}

/// What a reply calls a resource kind: 交易员, exchange …
pub fn kind_word(lang: Lang, kind: nofxi_skills::ResourceKind) -> String {
    match lang {
        Lang::Zh => nofxi_domain::ResourceKind::from(kind).zh().to_string(),
        Lang::En => kind.as_str().to_string(),
    }
}

/// Resources of several kinds share `name`: the request put once per kind, to pick from.
pub fn same_name_kinds(lang: Lang, name: &str, requests: &[String]) -> String {
    let list = requests
        .iter()
        .map(|r| format!("- {r}"))
        .collect::<Vec<_>>()
        .join("\n");
    match lang {
        Lang::Zh => format!("有不止一种资源叫「{name}」，你指的是哪一个？请这样说：\n{list}"),
        Lang::En => format!(
            "More than one kind of thing is called \"{name}\"; which one do you mean? Say one of:\n{list}"
        ),
    }
}

/// What else a message held back from acting may have meant ([`crate::nlu::unexplained`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OtherReading {
    /// A question or a complaint: find out how it stands.
    LookFirst,
    /// A negation, a retraction, someone else's words: leave it as it is.
    LeaveIt,
    /// A condition or a time: nothing here waits for one.
    NotNow,
    /// A yes before a new request: the yes was for the question asked before.
    EarlierQuestion,
    /// Words nothing explains: ask whether the action is what was meant.
    Unsure,
}

/// One short question offering the readings of a message that was not acted on; `act` is the
/// action as the user would say it ("start live-bot", "启动 live1").
pub fn other_reading(lang: Lang, act: &str, other: OtherReading) -> String {
    match (lang, other) {
        (_, OtherReading::Unsure) => msg(lang, "dialogue-unsure", &[("act", act)]),
        (Lang::Zh, OtherReading::LookFirst) => {
            format!("要{act}，还是先查一下它为什么这样？我还什么都没做。")
        }
        (Lang::Zh, OtherReading::LeaveIt) => format!("要{act}，还是保持原样？我什么都没做。"),
        (Lang::Zh, OtherReading::NotNow) => {
            format!("我没法等条件或到时间再做。现在就{act}，还是先不动？我什么都没做。")
        }
        (Lang::Zh, OtherReading::EarlierQuestion) => {
            format!("这是对刚才那个问题的“是”，还是要{act}？我什么都没做。")
        }
        (Lang::En, OtherReading::LookFirst) => format!(
            "{}, or find out why it is as it is? I have done nothing yet.",
            capitalized(act)
        ),
        (Lang::En, OtherReading::LeaveIt) => format!(
            "{}, or leave it as it is? I have done nothing.",
            capitalized(act)
        ),
        (Lang::En, OtherReading::NotNow) => format!(
            "I cannot wait for a condition or a time. {} now, or leave it for now? I have done nothing.",
            capitalized(act)
        ),
        (Lang::En, OtherReading::EarlierQuestion) => format!(
            "Is that a yes to my question before, or do you want me to {act}? I have done nothing."
        ),
    }
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A task as the user would say it, from its action's description up to the first clause
/// break ("创建一个交易员", "Create a trader bound to an exchange account"); the skill and
/// action ids only when the library lacks them.
pub fn task_label(library: &Library, skill: &str, action: &str, lang: Lang) -> String {
    let described = library
        .action(skill, action)
        .map(|a| a.description.get(lang).to_string())
        .unwrap_or_default();
    // The first clause, up to what it lists: "修改交易员的名称、…" is "修改交易员", "Change a
    // trader's name, …" is "Change a trader".
    let first = described
        .split([
            '，', '。', '；', '：', ',', '.', ';', ':', '—', '(', '（', '的',
        ])
        .next()
        .unwrap_or_default();
    let first = first.split("'s ").next().unwrap_or_default().trim();
    if first.is_empty() {
        format!("{skill}.{action}")
    } else {
        first.to_string()
    }
}
