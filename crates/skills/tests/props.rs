//! Arbitrary input never panics: random bytes, and real skill files with random edits
//! (deleted, duplicated or swapped lines; inserted characters; truncation).
#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

use proptest::prelude::*;

use nofxi_skills::parse_skill;

const SOURCES: &[&str] = &[
    include_str!("../../../skills/trader-management/SKILL.md"),
    include_str!("../../../skills/exchange-management/SKILL.md"),
    include_str!("../../../skills/market-data/SKILL.md"),
    include_str!("fixtures/broken/invalid-schema/SKILL.md"),
];

#[derive(Debug, Clone)]
enum Edit {
    DeleteLine(usize),
    DuplicateLine(usize),
    SwapLines(usize, usize),
    Insert(usize, String),
    Truncate(usize),
    IndentLine(usize, usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    let snippet = prop_oneof![
        Just(":".to_string()),
        Just("- ".to_string()),
        Just("{".to_string()),
        Just("\t".to_string()),
        Just("```".to_string()),
        Just("---\n".to_string()),
        Just("&a ".to_string()),
        Just("*a".to_string()),
        Just("!tag ".to_string()),
        Just("\"".to_string()),
        Just("{nmae}".to_string()),
        Just("type: ref\n".to_string()),
        "[a-z\\[\\]{}:,\\- \\n]{0,12}",
    ];
    prop_oneof![
        any::<usize>().prop_map(Edit::DeleteLine),
        any::<usize>().prop_map(Edit::DuplicateLine),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::SwapLines(a, b)),
        (any::<usize>(), snippet).prop_map(|(a, s)| Edit::Insert(a, s)),
        any::<usize>().prop_map(Edit::Truncate),
        (any::<usize>(), 0usize..6).prop_map(|(a, n)| Edit::IndentLine(a, n)),
    ]
}

fn apply(source: &str, edits: &[Edit]) -> String {
    let mut lines: Vec<String> = source.lines().map(str::to_string).collect();
    for e in edits {
        if lines.is_empty() {
            break;
        }
        let n = lines.len();
        match e {
            Edit::DeleteLine(i) => {
                lines.remove(i % n);
            }
            Edit::DuplicateLine(i) => {
                let l = lines[i % n].clone();
                lines.insert(i % n, l);
            }
            Edit::SwapLines(a, b) => lines.swap(a % n, b % n),
            Edit::Insert(i, s) => {
                let line = &mut lines[i % n];
                let at = line
                    .char_indices()
                    .map(|(k, _)| k)
                    .nth(i % (line.chars().count() + 1))
                    .unwrap_or(line.len());
                line.insert_str(at, s);
            }
            Edit::Truncate(i) => lines.truncate(i % n),
            Edit::IndentLine(i, k) => {
                let line = &mut lines[i % n];
                line.insert_str(0, &" ".repeat(*k));
            }
        }
    }
    lines.join("\n")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, .. ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = parse_skill(&text, "fuzz/SKILL.md", "fuzz", false);
        let with_front = format!("---\nname: fuzz\ndescription: d\n---\n```yaml\n{text}\n```\n");
        let _ = parse_skill(&with_front, "fuzz/SKILL.md", "fuzz", false);
    }

    #[test]
    fn mutated_skill_files_never_panic(which in 0..SOURCES.len(), edits in proptest::collection::vec(edit(), 1..8)) {
        let source = apply(SOURCES[which], &edits);
        if let Err(e) = parse_skill(&source, "m/SKILL.md", "trader-management", false) {
            for d in &e.diagnostics {
                prop_assert!(d.line >= 1 && d.column >= 1, "{d}");
                prop_assert!(d.line <= source.lines().count().max(1) + 1, "line past the end: {d}");
            }
        }
    }
}

static LIBRARY: std::sync::LazyLock<nofxi_skills::Library> =
    std::sync::LazyLock::new(|| nofxi_skills::Library::builtin().unwrap());

fn json_value() -> impl Strategy<Value = serde_json::Value> {
    use serde_json::{Value, json};
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| json!(f)),
        "[a-zA-Z0-9 .:#{}币安\\-]{0,12}".prop_map(Value::String),
        Just(json!("1.5h")),
        Just(json!("NVDA.US")),
        Just(json!("binance")),
    ];
    leaf.prop_recursive(2, 16, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(serde_json::Value::Array),
            proptest::collection::btree_map("[a-z_]{1,8}", inner, 0..4)
                .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, .. ProptestConfig::default() })]

    /// Any arguments, against every action's slot rules and every function's schema: an
    /// answer (accepted or rejected with messages), never a panic.
    #[test]
    fn validation_never_panics(
        names in proptest::collection::vec("[a-z_]{1,24}", 0..6),
        values in proptest::collection::vec(json_value(), 0..6),
        whole in json_value(),
    ) {
        let lib = &*LIBRARY;
        let mut args = serde_json::Map::new();
        for (i, v) in values.into_iter().enumerate() {
            let name = names.get(i).cloned().unwrap_or_else(|| "target".into());
            args.insert(name, v);
        }
        for skill in lib.skills() {
            for action in &skill.actions {
                let mut with_real = args.clone();
                if let (Some(slot), Some(v)) = (action.slots.first(), args.values().next()) {
                    with_real.insert(slot.name.clone(), v.clone());
                }
                if let Err(e) = action.validate_args(&with_real) {
                    prop_assert!(!e.errors.is_empty());
                    prop_assert!(e.errors.iter().all(|x| !x.message.zh.is_empty() && !x.message.en.is_empty()));
                }
                for slot in &action.slots {
                    let _ = slot.check_value(&whole);
                }
            }
            for f in &skill.functions {
                let _ = f.validate_args(&serde_json::Value::Object(args.clone()));
                let _ = f.validate_args(&whole);
            }
        }
    }
}

/// Huge lines and deep nesting, where a recursive parser would overflow its stack or a
/// quadratic scan would stall: each is answered (a diagnostic or a skill), never a panic.
#[test]
fn huge_lines_and_deep_nesting_never_panic() {
    let head = "---\nname: big\ndescription: d\n---\n\n```yaml\nskill:\n  kind: management\n  domain: traders\n  version: 1\n  title: {zh: 大, en: Big}\n```\n\n";
    let deep = |open: &str, close: &str, n: usize| {
        format!(
            "{head}```yaml\nactions: {}{}\n```\n",
            open.repeat(n),
            close.repeat(n)
        )
    };
    let cases = [
        format!("{head}{}\n", "x".repeat(4 << 20)),
        format!("{head}```yaml\nactions: \"{}\"\n```\n", "y".repeat(1 << 20)),
        deep("[", "]", 100_000),
        deep("{a: ", "}", 50_000),
        format!("{head}```yaml\n{}\n```\n", "- ".repeat(50_000)),
        format!("---\nname: {}\n---\n", "n".repeat(1 << 20)),
    ];
    for (case, source) in cases.iter().enumerate() {
        let started = std::time::Instant::now();
        if let Err(e) = parse_skill(source, "big/SKILL.md", "big", false) {
            assert!(!e.diagnostics.is_empty());
        }
        // Quadratic nesting took 13 s for 100 KB of `[`; linear work is far under this.
        let took = started.elapsed();
        assert!(
            took < std::time::Duration::from_secs(10),
            "case {case}: {took:?}"
        );
    }
    let err = parse_skill(&deep("[", "]", 100_000), "big/SKILL.md", "big", false).unwrap_err();
    let said = err.diagnostics[0].to_string();
    assert!(
        said.contains("nested deeper than") && said.contains("big/SKILL.md:"),
        "{said}"
    );
}

/// A broken block is read part by part: 20 000 broken examples give 20 000 diagnostics, one
/// each. The time it takes against the file's size is measured by the example
/// `skill_parse_scaling`, not asserted here.
#[test]
fn every_problem_of_a_large_file_is_found() {
    let head = "---\nname: big\ndescription: d\n---\n\n```yaml\nskill:\n  kind: guidance\n  domain: d\n  version: 1\n  title: {zh: 大, en: Big}\n  knowledge:\n    - id: k\n      phrases: [k]\n      answer: {zh: 答, en: answer}\n```\n\n```yaml\nexamples:\n";
    let n = 20_000;
    let mut source = head.to_string();
    for i in 0..n {
        source.push_str(&format!("  - user: [bad, {i}]\n    knowledge: k\n"));
    }
    source.push_str("```\n");
    let err = parse_skill(&source, "big/SKILL.md", "big", false).unwrap_err();
    assert_eq!(err.diagnostics.len(), n);
}
