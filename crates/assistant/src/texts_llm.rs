//! Reply texts of the model-backed paths (gateway and open answers).

use nofxi_skills::Lang;

use crate::model_errors::Explanation;
use crate::texts::t;

pub fn gateway_unsure(lang: Lang) -> String {
    t(
        lang,
        "我不太确定你的意思。你想做的是下面哪一个？也可以换个说法。",
        "I am not sure what you mean. Is it one of these? You can also say it another way.",
    )
}

/// The model call failed; the rules' reading stands. Said as what happened / why / what now.
pub fn model_failed(lang: Lang, why: &Explanation) -> String {
    t(
        lang,
        &format!(
            "（助手模型这次没有应答，我先按规则处理。发生了什么：{} 原因：{} 现在怎么做：{}）",
            why.what, why.why, why.fix
        ),
        &format!(
            "(The assistant model did not answer, so I used the rules. What happened: {} Why: {} What to do now: {})",
            why.what, why.why, why.fix
        ),
    )
}

pub fn model_unusable(lang: Lang, why: &str) -> String {
    t(
        lang,
        &format!("（助手模型不可用：{why}）"),
        &format!("(The assistant model cannot be used: {why})"),
    )
}

/// Where market data is without an assistant model: the command line reads it directly.
pub fn market_data_without_model(lang: Lang) -> String {
    t(
        lang,
        "行情可以先在命令行查看：`nofxi market price BTC --source binance`（币安实时报价），K 线用 `nofxi market klines BTC --source binance`。",
        "Market data is on the command line meanwhile: `nofxi market price BTC --source binance` (Binance's live quote), candles with `nofxi market klines BTC --source binance`.",
    )
}

pub fn open_question_needs_model(lang: Lang) -> String {
    t(
        lang,
        "这是一个开放式问题，需要先设置助手模型：`nofxi config set assistant.model 模型名`。不设置模型时，我仍然可以管理交易员、交易所、模型和策略，并解释术语和报错。",
        "This is an open question; it needs an assistant model: `nofxi config set assistant.model NAME`. Without one I can still manage traders, exchanges, models and strategies, and explain terms and errors.",
    )
}
