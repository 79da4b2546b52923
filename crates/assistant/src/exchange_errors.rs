//! A problem the exchange check found, in the error-diagnosis skill's words: the same what /
//! why / what-now a user gets for a pasted "-2015", so "test main" in the chat explains a
//! refused key exactly as the diagnosis does, in the user's language.

use nofxi_skills::{Knowledge, Lang, Library, SkillKind};
use nofxi_venues::connectivity::{Diagnosis, Problem};

use crate::model_errors::Explanation;
use crate::texts::t;

/// The diagnosis entry for a problem the exchange gave no code for.
fn diagnosis_id(diagnosis: Diagnosis) -> Option<&'static str> {
    Some(match diagnosis {
        Diagnosis::Unreachable => "exchange_unreachable",
        Diagnosis::ClockDrift => "binance_timestamp",
        Diagnosis::BadSignature => "binance_signature",
        Diagnosis::BadKeyFormat => "binance_key_format",
        // -2015 covers an unknown key, a missing whitelist entry and a missing permission.
        Diagnosis::KeyOrIpRejected | Diagnosis::FuturesPermissionMissing => {
            "binance_key_ip_permission"
        }
        Diagnosis::NoBalance | Diagnosis::Unreadable | Diagnosis::Other => return None,
    })
}

/// The exchange's own code first (as for a pasted error), then the check's diagnosis.
fn entry<'a>(problem: &Problem, library: &'a Library) -> Option<&'a Knowledge> {
    let by_code = problem.code.and_then(|code| {
        library
            .skills()
            .iter()
            .filter(|s| s.meta.kind == SkillKind::Diagnosis)
            .find_map(|s| s.knowledge_matching(&code.to_string()).first().copied())
    });
    by_code.or_else(|| {
        diagnosis_id(problem.diagnosis).and_then(|id| library.knowledge(SkillKind::Diagnosis, id))
    })
}

pub fn explain(problem: &Problem, library: &Library, lang: Lang) -> Explanation {
    let said = problem.words();
    if let Some(k) = entry(problem, library) {
        let text = |x: Option<&nofxi_skills::Text>| x.map(|x| x.get(lang).to_string());
        return Explanation {
            diagnosis: Some(k.id.clone()),
            what: text(k.what.as_ref()).unwrap_or_else(|| said.clone()),
            why: text(k.why.as_ref()).unwrap_or_else(|| said.clone()),
            fix: text(k.fix.as_ref()).unwrap_or_else(|| problem.diagnosis.advice().into()),
        };
    }
    let (what, why, fix) = match problem.diagnosis {
        Diagnosis::NoBalance => (
            t(
                lang,
                "合约钱包里没有 USDT。",
                "The futures wallet holds no USDT.",
            ),
            t(
                lang,
                "余额为 0 时，交易员无法开仓。",
                "With a zero balance a trader cannot open a position.",
            ),
            t(
                lang,
                "先把 USDT 划转到合约账户，再启动交易员。",
                "Transfer USDT to the futures wallet before starting a trader.",
            ),
        ),
        // Not a refusal: an answer without the field the check reads (a wrong base URL or a
        // proxy). The details name the field and the endpoint.
        Diagnosis::Unreadable => (
            t(
                lang,
                "交易所的回答里缺少检查要读的字段，这项检查无法判断。",
                "The exchange's answer lacks the field this check reads, so the check cannot tell.",
            ),
            t(
                lang,
                "回答的服务器多半不是交易所本身（基础 URL 指向了别的服务器或代理）。",
                "The server that answered is most likely not the exchange itself (the base URL points at another server or a proxy).",
            ),
            t(
                lang,
                "检查 NOFXI_BINANCE_BASE_URL 或代理设置，让它指向交易所的 API，再测试一次。",
                "Check NOFXI_BINANCE_BASE_URL or the proxy so it points at the exchange's API, then test again.",
            ),
        ),
        _ => (
            t(
                lang,
                "交易所拒绝了检查请求。",
                "The exchange refused the check.",
            ),
            t(
                lang,
                "nofxi 的诊断表里没有这个错误；交易所的原话附在后面。",
                "nofxi's diagnosis table has no entry for this error; the exchange's own words follow.",
            ),
            t(
                lang,
                "按交易所的提示处理，或把完整报错发给我，我来解读。",
                "Act on the exchange's message, or paste the whole error here and I will explain it.",
            ),
        ),
    };
    Explanation {
        diagnosis: None,
        what,
        why,
        fix,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    fn problem(diagnosis: Diagnosis, code: Option<i64>, message: &str) -> Problem {
        Problem {
            diagnosis,
            code,
            message: message.into(),
        }
    }

    #[test]
    fn the_exchange_code_picks_the_entry_a_pasted_error_would() {
        let library = Library::builtin().unwrap();
        let e = explain(
            &problem(
                Diagnosis::KeyOrIpRejected,
                Some(-2015),
                "Invalid API-key, IP, or permissions for action.",
            ),
            &library,
            Lang::Zh,
        );
        assert_eq!(e.diagnosis.as_deref(), Some("binance_key_ip_permission"));
        assert!(e.fix.contains("白名单"), "{}", e.fix);
        let e = explain(
            &problem(
                Diagnosis::Other,
                Some(-1022),
                "Signature for this request is not valid.",
            ),
            &library,
            Lang::En,
        );
        assert_eq!(e.diagnosis.as_deref(), Some("binance_signature"));
    }

    #[test]
    fn without_a_code_the_diagnosis_decides_and_unknowns_keep_the_exchanges_words() {
        let library = Library::builtin().unwrap();
        let e = explain(
            &problem(Diagnosis::Unreachable, None, "connection refused"),
            &library,
            Lang::En,
        );
        assert_eq!(e.diagnosis.as_deref(), Some("exchange_unreachable"));
        let e = explain(
            &problem(Diagnosis::Other, Some(-9999), "Something odd."),
            &library,
            Lang::En,
        );
        assert_eq!(e.diagnosis, None);
        // The exchange's words are shown once, after the explanation, not inside it.
        assert!(!e.what.contains("Something odd"), "{}", e.what);
    }
}
