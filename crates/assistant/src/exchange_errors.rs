//! A problem the exchange check found, in the error-diagnosis skill's words: the same what /
//! why / what-now a user gets for a pasted "-2015", so "test main" in the chat explains a
//! refused key exactly as the diagnosis does, in the user's language.

use nofxi_domain::validation::shown_input;
use nofxi_skills::{Knowledge, Lang, Library, SkillKind};
use nofxi_trader::runtime::connect::BaseUrlOverride;
use nofxi_venues::connectivity::{Diagnosis, Problem};

use crate::model_errors::Explanation;
use crate::msg;

/// The diagnosis entry for a problem the exchange gave no code for.
fn diagnosis_id(diagnosis: Diagnosis) -> Option<&'static str> {
    Some(match diagnosis {
        Diagnosis::Unreachable => "exchange_unreachable",
        Diagnosis::ClockDrift => "binance_timestamp",
        Diagnosis::ClockOffset => "clock_offset",
        Diagnosis::BadSignature => "binance_signature",
        Diagnosis::BadPassphrase => "okx_passphrase",
        Diagnosis::IpNotWhitelisted => "ip_not_whitelisted",
        Diagnosis::BadKeyFormat => "binance_key_format",
        // -2015 covers an unknown key, a missing whitelist entry and a missing permission.
        Diagnosis::KeyOrIpRejected => "binance_key_ip_permission",
        Diagnosis::AgentWallet => "hyperliquid_agent_wallet",
        Diagnosis::FuturesPermissionMissing => "binance_futures_permission",
        Diagnosis::HedgeMode => "position_mode_hedge",
        Diagnosis::AccountMode => "account_mode",
        Diagnosis::NoBalance | Diagnosis::Unreadable | Diagnosis::Other => return None,
    })
}

/// The exchange's own code first (as for a pasted error), then the check's diagnosis; but a
/// cause the check proved (the key's restrictions say futures is off, the exchange named the
/// IP or the passphrase, the mode read from the account) before the code's several (-2015:
/// unknown key, IP or permission).
fn entry<'a>(problem: &Problem, library: &'a Library) -> Option<&'a Knowledge> {
    let by_diagnosis = || {
        diagnosis_id(problem.diagnosis).and_then(|id| library.knowledge(SkillKind::Diagnosis, id))
    };
    let proved = matches!(
        problem.diagnosis,
        Diagnosis::FuturesPermissionMissing
            | Diagnosis::IpNotWhitelisted
            | Diagnosis::BadPassphrase
            | Diagnosis::ClockOffset
            | Diagnosis::HedgeMode
            | Diagnosis::AccountMode
    );
    if proved && let Some(proved) = by_diagnosis() {
        return Some(proved);
    }
    let by_code = problem.code.and_then(|code| {
        library
            .skills()
            .iter()
            .filter(|s| s.meta.kind == SkillKind::Diagnosis)
            .find_map(|s| s.knowledge_matching(&code.to_string()).first().copied())
    });
    by_code.or_else(by_diagnosis)
}

/// One problem as the chat and `nofxi exchange test` show it: what happened / why / what to
/// do now, then the exchange's own words (or the check's, when the exchange gave no code).
pub fn explained(problem: &Problem, library: &Library, lang: Lang) -> String {
    explained_at(problem, library, lang, None)
}

/// [`explained`] for an account whose venue is reached through a base URL the user set
/// (`overridden`): a venue that could not be reached, or answered without what the check
/// reads, may be that address's doing, so the override is named, and only then. With none
/// set, nothing names a variable the user never set.
pub fn explained_at(
    problem: &Problem,
    library: &Library,
    lang: Lang,
    overridden: Option<&BaseUrlOverride>,
) -> String {
    let e = explain(problem, library, lang);
    let explanation = crate::texts::what_why_fix(lang, Some(&e.what), Some(&e.why), Some(&e.fix))
        .unwrap_or_default();
    let id = match problem.code {
        Some(_) => "probe-exchange-said",
        None => "probe-details",
    };
    let mut said = msg(
        lang,
        id,
        &[("explanation", &explanation), ("words", &problem.words())],
    );
    let about_the_address = matches!(
        problem.diagnosis,
        Diagnosis::Unreachable | Diagnosis::Unreadable
    );
    if let Some(o) = overridden.filter(|_| about_the_address) {
        said.push('\n');
        said.push_str(&msg(
            lang,
            "exchange-base-url-override",
            &[
                ("variable", o.variable),
                ("venue", o.venue),
                ("url", &shown_input(&o.url)),
            ],
        ));
    }
    said
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
    // What / why / what now from the catalogs, `<key>-what`, `<key>-why`, `<key>-fix`.
    let key = match problem.diagnosis {
        Diagnosis::NoBalance => "exchange-no-balance",
        // Not a refusal: an answer without the field the check reads (a wrong base URL or a
        // proxy). The details name the field and the endpoint.
        Diagnosis::Unreadable => "exchange-unreadable",
        _ => "exchange-refused",
    };
    let part = |part: &str| msg(lang, &format!("{key}-{part}"), &[]);
    Explanation {
        diagnosis: None,
        what: part("what"),
        why: part("why"),
        fix: part("fix"),
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

    #[test]
    fn a_base_url_override_is_named_only_where_set_and_only_for_the_address() {
        let library = Library::builtin().unwrap();
        let unreachable = problem(Diagnosis::Unreachable, None, "cannot reach okx");
        let plain = explained_at(&unreachable, &library, Lang::En, None);
        assert!(!plain.contains("NOFXI_"), "{plain}");
        let set = BaseUrlOverride {
            venue: "okx",
            variable: "NOFXI_OKX_BASE_URL",
            url: "http://127.0.0.1:9".into(),
        };
        let noted = explained_at(&unreachable, &library, Lang::En, Some(&set));
        assert!(
            noted.contains(
                "NOFXI_OKX_BASE_URL is set, so nofxi sent okx's requests to http://127.0.0.1:9"
            ),
            "{noted}"
        );
        let zh = explained_at(&unreachable, &library, Lang::Zh, Some(&set));
        assert!(zh.contains("已设置 NOFXI_OKX_BASE_URL"), "{zh}");
        // A refused key is no matter of the address.
        let refused = problem(Diagnosis::BadSignature, Some(50113), "Invalid Sign");
        let said = explained_at(&refused, &library, Lang::En, Some(&set));
        assert!(!said.contains("NOFXI_"), "{said}");
    }
}
