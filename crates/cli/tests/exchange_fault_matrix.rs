//! The exchange diagnosis over every live venue × every fault that applies to it (issue 50's
//! Done-when): clock, key, IP whitelist, permission, position mode, passphrase, agent wallet.
//! For each cell, the fault is injected into the venue's mock (`support::live`), then
//! `nofxi exchange test` and one chat turn must both name it as what happened / why / what to
//! do now in English, with the words of that fault; one Chinese chat turn per kind of fault
//! must do the same in Chinese. No output shows a credential. Every cell runs before the test
//! fails, and the failure lists each cell that did not hold.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use support::live::{self, FaultKind, Live, VenueFault};
use support::{home, nofxi, output_async, text};

/// What the answers must say of one kind of fault: words naming it anywhere, and a word its
/// "what happened" line must hold, in each language.
struct Expected {
    kind: FaultKind,
    en: &'static [&'static str],
    zh: &'static [&'static str],
    happened_en: &'static str,
    happened_zh: &'static str,
}

/// The table: each kind of fault and the words its explanation must hold.
const EXPECTED: &[Expected] = &[
    Expected {
        kind: FaultKind::Clock,
        en: &["clock"],
        zh: &["时钟"],
        happened_en: "clock",
        happened_zh: "时钟",
    },
    Expected {
        kind: FaultKind::Key,
        en: &["secret"],
        zh: &["Secret"],
        happened_en: "signature",
        happened_zh: "签名",
    },
    Expected {
        kind: FaultKind::Ip,
        en: &["whitelist"],
        zh: &["白名单"],
        happened_en: "IP",
        happened_zh: "IP",
    },
    Expected {
        kind: FaultKind::Permission,
        en: &["permission"],
        zh: &["权限"],
        happened_en: "permission",
        happened_zh: "权限",
    },
    Expected {
        kind: FaultKind::PositionMode,
        en: &["mode"],
        zh: &["模式"],
        happened_en: "mode",
        happened_zh: "模式",
    },
    Expected {
        kind: FaultKind::Passphrase,
        en: &["passphrase"],
        zh: &["密码短语"],
        happened_en: "passphrase",
        happened_zh: "密码短语",
    },
    Expected {
        kind: FaultKind::AgentWallet,
        en: &["agent wallet"],
        zh: &["agent 钱包"],
        happened_en: "agent",
        happened_zh: "agent",
    },
];

/// Cells whose exchange cannot tell one cause from others: Binance answers -2015 alike for an
/// unknown key, an IP off the whitelist and a missing permission, so its explanation lists
/// the causes in the order to check them. Every other cell names its one cause.
const SEVERAL_CAUSES: &[(&str, FaultKind)] = &[("binance", FaultKind::Ip)];

/// The three parts in one language, and how that language lists several causes.
struct Parts {
    labels: [&'static str; 3],
    several_causes: &'static str,
}

const EN: Parts = Parts {
    labels: ["What happened:", "Why:", "What to do now:"],
    several_causes: "Three usual causes",
};
const ZH: Parts = Parts {
    labels: ["发生了什么：", "原因：", "现在怎么做："],
    several_causes: "三个常见原因",
};

/// What one answer must hold: the parts of its language, the fault's words, the word of its
/// "what happened" line, whether it may list several causes, and the secrets it must not show.
struct Want<'a> {
    parts: &'a Parts,
    words: &'a [&'a str],
    happened: &'a str,
    several_causes: bool,
    secrets: &'a [&'a str],
}

fn expected(kind: FaultKind) -> &'static Expected {
    EXPECTED.iter().find(|e| e.kind == kind).unwrap()
}

/// The venues, each built afresh (a new mock, its account healthy) for every cell.
async fn venue(i: usize) -> Live {
    match i {
        0 => live::binance().await,
        1 => live::okx().await,
        2 => live::bybit().await,
        3 => live::bitget().await,
        _ => live::hyperliquid().await,
    }
}

const VENUES: usize = 5;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_diagnosis_explains_every_fault_on_every_venue() {
    let mut failures = Vec::new();
    let mut kinds_said_in_chinese = Vec::new();
    let mut cells = 0;
    for v in 0..VENUES {
        let count = venue(v).await.faults.len();
        for f in 0..count {
            let live = venue(v).await;
            let fault = &live.faults[f];
            let chinese = !kinds_said_in_chinese.contains(&fault.kind);
            if chinese {
                kinds_said_in_chinese.push(fault.kind);
            }
            cells += 1;
            failures.extend(cell(&live, fault, chinese).await);
        }
    }
    let every_kind: Vec<FaultKind> = EXPECTED.iter().map(|e| e.kind).collect();
    assert!(
        every_kind.iter().all(|k| kinds_said_in_chinese.contains(k)),
        "a kind of fault no venue injects: {every_kind:?} vs {kinds_said_in_chinese:?}"
    );
    assert!(cells >= 25, "only {cells} cells");
    assert!(
        failures.is_empty(),
        "{} of {cells} cells failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// One venue × fault: the CLI's test and a chat turn in English, and in Chinese when asked.
/// The problems found, each naming the cell.
async fn cell(live: &Live, fault: &VenueFault, chinese: bool) -> Vec<String> {
    let (_dir, home) = home();
    let name = format!("{}-acct", live.kind);
    let credentials = fault.credentials.as_ref().unwrap_or(&live.credentials);
    let mut add = vec!["exchange", "add", "--type", live.kind, "--name", &name];
    add.extend(credentials.iter().copied());
    let added = output_async(nofxi(&home, &add)).await;
    assert!(added.status.success(), "{}", text(&added));
    (fault.inject)();

    let cell = format!("{} × {:?} ({})", live.kind, fault.kind, fault.what);
    let e = expected(fault.kind);
    let secrets = secret_values(credentials);
    let several_causes = SEVERAL_CAUSES.contains(&(live.kind, fault.kind));
    let en = Want {
        parts: &EN,
        words: e.en,
        happened: e.happened_en,
        several_causes,
        secrets: &secrets,
    };
    let mut problems = Vec::new();
    let tested = output_async(live.at_mock(nofxi(&home, &["exchange", "test", &name]))).await;
    let said = text(&tested);
    problems.extend(judge(&said, &en).map(|p| format!("{cell}: exchange test {p}")));
    let reply = support::chat(&home, |c| live.at_mock(c), "check my exchange").await;
    problems.extend(judge(&reply, &en).map(|p| format!("{cell}: chat {p}")));
    if chinese {
        let zh = Want {
            parts: &ZH,
            words: e.zh,
            happened: e.happened_zh,
            ..en
        };
        let reply = support::chat(&home, |c| live.at_mock(c), "我的交易所账户正常吗？").await;
        problems.extend(judge(&reply, &zh).map(|p| format!("{cell}: 中文 chat {p}")));
    }
    problems
}

/// What `said` lacks of what it must say, or says that it must not: a secret, a mask where
/// no credential was meant (a word taken for a key), several causes where the exchange named
/// one.
fn judge(said: &str, want: &Want<'_>) -> Option<String> {
    let lower = said.to_lowercase();
    let mut wrong: Vec<String> = want
        .parts
        .labels
        .iter()
        .filter(|p| !said.contains(*p))
        .chain(
            want.words
                .iter()
                .filter(|w| !lower.contains(&w.to_lowercase())),
        )
        .map(|w| format!("lacks {w:?}"))
        .collect();
    let happened = said
        .lines()
        .find(|l| l.starts_with(want.parts.labels[0]))
        .unwrap_or_default();
    if !happened
        .to_lowercase()
        .contains(&want.happened.to_lowercase())
    {
        wrong.push(format!("what happened lacks {:?}", want.happened));
    }
    if !want.several_causes && said.contains(want.parts.several_causes) {
        wrong.push("lists several causes where the exchange named one".into());
    }
    if said.contains("••••") {
        wrong.push("masks a word no credential holds".into());
    }
    let shown = want.secrets.iter().filter(|s| said.contains(*s)).count();
    if shown > 0 {
        wrong.push(format!("shows {shown} credential(s)"));
    }
    (!wrong.is_empty()).then(|| format!("{}:\n{said}", wrong.join("; ")))
}

/// The values of secret flags (keys, secrets, passphrases); addresses are public.
fn secret_values<'a>(credentials: &[&'a str]) -> Vec<&'a str> {
    credentials
        .chunks(2)
        .filter(|pair| matches!(pair[0], "--api-key" | "--secret-key" | "--passphrase"))
        .map(|pair| pair[1])
        .collect()
}
