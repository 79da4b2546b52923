//! The engine's own phrases (not a task's): asking, clarifying, cancelling, not understanding.
//! Task messages (asks, summaries, success and failure) come from the skill files.

use nofxi_skills::Lang;

pub use crate::phrasing::{OtherReading, kind_word, other_reading, same_name_kinds, task_label};

pub fn t(lang: Lang, zh: &str, en: &str) -> String {
    match lang {
        Lang::Zh => zh.to_string(),
        Lang::En => en.to_string(),
    }
}

/// What nofxi does with the exchange type `said` names (`bybit`, `gate`): offered, with how
/// to add an account, or only kept as a stored config, with the ones it trades on. `None`
/// when `said` is no exchange type.
pub fn exchange_type_note(lang: Lang, said: &str) -> Option<String> {
    let kind = said.parse::<nofxi_domain::ExchangeType>().ok()?;
    let id = if kind.offered() {
        "exchange-type-offered"
    } else {
        "exchange-type-not-offered"
    };
    Some(crate::msg(
        lang,
        id,
        &[
            ("type", kind.as_str()),
            ("types", &nofxi_domain::ExchangeType::tradable()),
        ],
    ))
}

pub fn not_found(lang: Lang, kind: &str, said: &str) -> String {
    match lang {
        Lang::Zh => format!("没有找到叫「{said}」的{kind}。"),
        Lang::En => format!("I found no {kind} called \"{said}\"."),
    }
}

/// Values said for another resource than the open task's: nothing changed, and how to say it.
pub fn values_for_other(lang: Lang, other: &str) -> String {
    match lang {
        Lang::Zh => format!(
            "这句话说的是「{other}」，不是当前这个任务的对象，所以什么都没改。要改「{other}」，请单独说一句（例如“修改 {other} 的 API Key”）；或者继续回答当前的问题。"
        ),
        Lang::En => format!(
            "That is about \"{other}\", not what the open task changes, so nothing was changed. To change \"{other}\", say it as a request of its own (e.g. \"change the API key of {other}\"), or answer the open question."
        ),
    }
}

/// "remove ETH from default": nothing was deleted, and how to say the change meant.
pub fn part_not_deleted(lang: Lang, whole: &str) -> String {
    match lang {
        Lang::Zh => format!(
            "我没有删除「{whole}」。要不再交易某个币，可以说“{whole} 排除 ETH”；要换交易币种，可以说“把 {whole} 的币种改成 BTC、SOL”。"
        ),
        Lang::En => format!(
            "I did not delete \"{whole}\". To stop trading a coin, say \"exclude ETH on {whole}\"; to change its coins, \"set the coins of {whole} to BTC, SOL\"."
        ),
    }
}

/// "add SOL to default": nothing was created, and how to say the change meant.
pub fn nothing_created(lang: Lang, whole: &str) -> String {
    match lang {
        Lang::Zh => format!(
            "我没有新建任何东西。要改「{whole}」的交易币种，请说出完整的列表，例如“把 {whole} 的币种改成 BTC、ETH、SOL”。"
        ),
        Lang::En => format!(
            "I did not create anything. To change the coins \"{whole}\" trades, give the whole list, e.g. \"set the coins of {whole} to BTC, ETH, SOL\"."
        ),
    }
}

/// An action on "all" that has no bulk form: nothing was done, and how to say it per name.
pub fn no_bulk(lang: Lang, action: &str) -> String {
    match (lang, action) {
        (Lang::Zh, "start") => "没有启动任何交易员：一次只能启动点名的交易员（每个都要过启动前检查），例如“启动 alpha 和 beta”。".into(),
        (Lang::Zh, _) => "什么都没有删除：一次只能删除点名的对象，例如“删除 alpha”。".into(),
        (Lang::En, "start") => "I started nothing: traders start by name, each with its own pre-start check, e.g. \"start alpha and beta\".".into(),
        (Lang::En, _) => "I deleted nothing: deletes go by name, e.g. \"delete alpha\".".into(),
    }
}

/// A verb on a name that no trader, exchange account, model or strategy has; `similar` are
/// names close to it, offered, never taken.
pub fn nothing_called(lang: Lang, word: &str, similar: &[String]) -> String {
    let mut out = match lang {
        Lang::Zh => format!("没有叫「{word}」的交易员、交易所账户、模型或策略。"),
        Lang::En => format!(
            "Nothing is called \"{word}\": no trader, exchange account, model or strategy has that name."
        ),
    };
    match (lang, similar.is_empty()) {
        (_, true) => out.push_str(match lang {
            Lang::Zh => "可以说“我的交易员有哪些”查看名字。",
            Lang::En => " Say \"list my traders\" to see the names.",
        }),
        (Lang::Zh, false) => out.push_str(&format!("是不是指：{}？", similar.join("、"))),
        (Lang::En, false) => out.push_str(&format!(" Did you mean {}?", similar.join(" or "))),
    }
    out
}

/// The one name close to what was said, offered: "yes" or the name takes it.
pub fn did_you_mean(lang: Lang, name: &str) -> String {
    match lang {
        Lang::Zh => format!("你是指「{name}」吗？是的话回复“是”或它的名字。"),
        Lang::En => format!("Did you mean \"{name}\"? Say yes or its name to go on."),
    }
}

pub fn which_one(lang: Lang, options: &[String]) -> String {
    let list = options
        .iter()
        .enumerate()
        .map(|(i, o)| format!("{}. {o}", i + 1))
        .collect::<Vec<_>>()
        .join("\n");
    match lang {
        Lang::Zh => format!("有几个符合的，你指的是哪一个？\n{list}"),
        Lang::En => format!("Several match; which one do you mean?\n{list}"),
    }
}

pub fn gone(lang: Lang, name: &str) -> String {
    match lang {
        Lang::Zh => format!("「{name}」已经不存在了（可能刚被删除），请重新指定。"),
        Lang::En => format!(
            "\"{name}\" no longer exists (it may have just been deleted); please name another."
        ),
    }
}

/// A slot value as a reply shows it: yes/no (是/否) for a boolean, a list joined, text as
/// written.
pub fn value(lang: Lang, v: &serde_json::Value) -> String {
    use serde_json::Value;
    match v {
        Value::Bool(b) => t(
            lang,
            if *b { "是" } else { "否" },
            if *b { "yes" } else { "no" },
        ),
        Value::String(s) => s.clone(),
        Value::Array(items) => items
            .iter()
            .map(|item| value(lang, item))
            .collect::<Vec<_>>()
            .join(&t(lang, "、", ", ")),
        other => other.to_string(),
    }
}

/// `defaults`: each slot's label and its default value.
pub fn defaults_note(lang: Lang, defaults: &[(String, String)]) -> Option<String> {
    if defaults.is_empty() {
        return None;
    }
    let list = defaults
        .iter()
        .map(|(label, v)| match lang {
            Lang::Zh => format!("{label}：{v}"),
            Lang::En => format!("{label}: {v}"),
        })
        .collect::<Vec<_>>()
        .join(t(lang, "，", ", ").as_str());
    Some(match lang {
        Lang::Zh => format!("其余使用默认值（{list}），需要改的话直接说。"),
        Lang::En => format!("The rest uses defaults ({list}); say so to change any."),
    })
}

/// A task that needs a confirmation, reached in a reply that already says something else.
pub fn confirmation_waits(lang: Lang, label: &str) -> String {
    match lang {
        Lang::Zh => format!("「{label}」还需要你确认，说“继续”查看要确认的内容。"),
        Lang::En => format!(
            "\"{label}\" still needs your confirmation; say \"continue\" to see what it will do."
        ),
    }
}

/// An update that names no field it can change: which ones it can.
/// Said before the confirmation of a change that moves something onto a live account, or
/// turns a testnet account into one.
pub fn binds_live(lang: Lang, account: &str) -> String {
    match lang {
        Lang::Zh => format!("注意：改完之后，经「{account}」下的单都是真实下单（实盘，真钱）。"),
        Lang::En => format!(
            "Note: after this change, orders through \"{account}\" are real (a live account, real money)."
        ),
    }
}

/// The value a change replaces, after the new one: "(was 3)".
pub fn was(lang: Lang, old: &str) -> String {
    let old = if old.is_empty() {
        t(lang, "空", "none")
    } else {
        old.to_string()
    };
    match lang {
        Lang::Zh => format!("（原为 {old}）"),
        Lang::En => format!("(was {old})"),
    }
}

pub fn what_to_change(lang: Lang, target: &str, fields: &[String]) -> String {
    match lang {
        Lang::Zh => format!(
            "没有听出要修改「{target}」的哪一项。可以改：{}。",
            fields.join("、")
        ),
        Lang::En => format!(
            "I did not catch what to change on \"{target}\". It can change: {}.",
            fields.join(", ")
        ),
    }
}

/// The question for a slot the skill gives no `ask` text for (an optional one whose value
/// was refused, say): by its label.
pub fn ask_by_label(lang: Lang, label: &str) -> String {
    match lang {
        Lang::Zh => format!("请提供{label}。"),
        Lang::En => format!("What should the {label} be?"),
    }
}

/// The names a reference question can be answered with, after the question: all of them up
/// to six, then how many more. None when there are none.
pub fn existing_note(lang: Lang, names: &[&str]) -> Option<String> {
    const SHOWN: usize = 6;
    if names.is_empty() {
        return None;
    }
    let mut sorted = names.to_vec();
    sorted.sort_unstable();
    let more = sorted.len().saturating_sub(SHOWN);
    sorted.truncate(SHOWN);
    Some(match (lang, more) {
        (Lang::Zh, 0) => format!("（现有：{}）", sorted.join("、")),
        (Lang::Zh, n) => format!("（现有：{} 等 {} 个）", sorted.join("、"), SHOWN + n),
        (Lang::En, 0) => format!(" (you have: {})", sorted.join(", ")),
        (Lang::En, n) => format!(" (you have: {} and {n} more)", sorted.join(", ")),
    })
}

/// An error explained as the diagnosis skill does, one labelled line per part given:
/// "What happened: … / Why: … / What to do now: …". None when no part is given.
pub fn what_why_fix(
    lang: Lang,
    what: Option<&str>,
    why: Option<&str>,
    fix: Option<&str>,
) -> Option<String> {
    let labels = match lang {
        Lang::Zh => ["发生了什么：", "原因：", "现在怎么做："],
        Lang::En => ["What happened: ", "Why: ", "What to do now: "],
    };
    let lines: Vec<String> = labels
        .into_iter()
        .zip([what, why, fix])
        .filter_map(|(label, text)| text.map(|text| format!("{label}{text}")))
        .collect();
    (!lines.is_empty()).then(|| lines.join("\n"))
}

pub fn cannot_handle(lang: Lang) -> String {
    t(
        lang,
        "抱歉，这句我没理解。我可以帮你创建、修改、启动、停止、删除和查询交易员、交易所账户、模型和策略，回答投资组合里持仓的问题、记录你已成交的交易（“今天买了 100 股腾讯，380 元”），也能解释术语和报错。开放式问题需要先配置一个助手模型。",
        "Sorry, I did not understand that. I can create, change, start, stop, delete and list traders, exchange accounts, models and strategies, answer about your portfolio's holdings and record a trade you made (\"bought 100 Tencent at 380\"), and explain terms and errors. Open questions need an assistant model configured.",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn existing_names_are_sorted_and_capped() {
        assert_eq!(existing_note(Lang::En, &[]), None);
        assert_eq!(
            existing_note(Lang::En, &["b", "a"]).as_deref(),
            Some(" (you have: a, b)")
        );
        let many = ["h", "g", "f", "e", "d", "c", "b", "a"];
        assert_eq!(
            existing_note(Lang::En, &many).as_deref(),
            Some(" (you have: a, b, c, d, e, f and 2 more)")
        );
        assert_eq!(
            existing_note(Lang::Zh, &many).as_deref(),
            Some("（现有：a、b、c、d、e、f 等 8 个）")
        );
    }
}
