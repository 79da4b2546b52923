//! Reply texts of the model-backed paths (gateway and open answers).

use nofxi_skills::Lang;

use crate::model_errors::Explanation;
use crate::msg;

pub fn gateway_unsure(lang: Lang) -> String {
    msg(lang, "model-gateway-unsure", &[])
}

/// The model call failed; the rules' reading stands. Said as what happened / why / what now.
pub fn model_failed(lang: Lang, why: &Explanation) -> String {
    msg(
        lang,
        "model-failed",
        &[("what", &why.what), ("why", &why.why), ("fix", &why.fix)],
    )
}

pub fn model_unusable(lang: Lang, why: &str) -> String {
    msg(lang, "model-unusable", &[("why", why)])
}

/// Where market data is without an assistant model: the command line reads it directly.
pub fn market_data_without_model(lang: Lang) -> String {
    msg(lang, "model-market-data-without-model", &[])
}

pub fn open_question_needs_model(lang: Lang) -> String {
    msg(lang, "model-open-question-needs-model", &[])
}
