//! One broken fixture per error class: each fails with the right kind at the right
//! file:line:column, and the message says what was expected.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

use std::path::{Path, PathBuf};

use nofxi_skills::{DiagnosticKind, Library, load_dir, parse_skill};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/broken")
}

fn diagnose(name: &str) -> Vec<nofxi_skills::Diagnostic> {
    let file = fixtures().join(name).join("SKILL.md");
    let source = std::fs::read_to_string(&file).unwrap();
    match parse_skill(&source, &format!("{name}/SKILL.md"), name, false) {
        Ok(_) => panic!("{name} parsed without a diagnostic"),
        Err(e) => e.diagnostics,
    }
}

#[test]
fn each_broken_fixture_fails_at_its_line() {
    // (fixture, kind, line, column, a phrase the message must contain)
    let cases: &[(&str, DiagnosticKind, usize, usize, &str)] = &[
        (
            "unknown-key",
            DiagnosticKind::UnknownKey,
            27,
            9,
            "unknown key `colour`",
        ),
        (
            "unknown-slot-type",
            DiagnosticKind::UnknownSlotType,
            26,
            15,
            "expected one of `string`",
        ),
        (
            "unknown-ref-kind",
            DiagnosticKind::UnknownRefKind,
            33,
            14,
            "expected one of `trader`",
        ),
        (
            "unknown-action",
            DiagnosticKind::UnknownAction,
            48,
            5,
            "expected one of create",
        ),
        (
            "unknown-tool",
            DiagnosticKind::UnknownTool,
            35,
            9,
            "`trader fly` is not `<resource>.<verb>`",
        ),
        (
            "unknown-slot",
            DiagnosticKind::UnknownSlot,
            36,
            9,
            "`leverage` is not a slot",
        ),
        (
            "unknown-placeholder",
            DiagnosticKind::UnknownPlaceholder,
            39,
            7,
            "`{nmae}`",
        ),
        (
            "missing-text",
            DiagnosticKind::MissingText,
            21,
            7,
            "`actions[0].description.en` is empty",
        ),
        (
            "yaml-syntax",
            DiagnosticKind::YamlSyntax,
            23,
            1,
            "tab character",
        ),
        (
            "invalid-pattern",
            DiagnosticKind::InvalidPattern,
            28,
            9,
            "does not compile",
        ),
        (
            "invalid-value",
            DiagnosticKind::InvalidValue,
            38,
            9,
            "default of slot `limit`",
        ),
        (
            "frontmatter-name",
            DiagnosticKind::Frontmatter,
            2,
            1,
            "expected 1–64 lowercase",
        ),
        (
            "duplicate",
            DiagnosticKind::Duplicate,
            46,
            1,
            "`skill` is already defined",
        ),
        (
            "comment-in-text",
            DiagnosticKind::InvalidValue,
            21,
            22,
            "starts a YAML comment",
        ),
        (
            "unknown-field",
            DiagnosticKind::UnknownField,
            42,
            11,
            "`tradable` is not a field the steps of `create` report; expected one of can_trade",
        ),
        (
            "invalid-schema",
            DiagnosticKind::InvalidSchema,
            55,
            11,
            "not a valid JSON Schema",
        ),
    ];
    for (name, kind, line, column, phrase) in cases {
        let diags = diagnose(name);
        let d = diags
            .iter()
            .find(|d| d.kind == *kind)
            .unwrap_or_else(|| panic!("{name}: no {kind} diagnostic in {diags:#?}"));
        assert_eq!((d.line, d.column), (*line, *column), "{name}: {d}");
        assert_eq!(d.file, format!("{name}/SKILL.md"));
        assert!(
            d.message.contains(phrase),
            "{name}: message {:?} lacks {phrase:?}",
            d.message
        );
        let shown = d.to_string();
        assert!(
            shown.starts_with(&format!("{name}/SKILL.md:{line}:{column}: ")),
            "{shown}"
        );
    }
    let listed = std::fs::read_dir(fixtures()).unwrap().count();
    assert_eq!(listed, cases.len(), "every fixture has a case");
}

#[test]
fn loading_the_broken_directory_reports_every_file() {
    let err = load_dir(&fixtures(), false).unwrap_err();
    let files: std::collections::BTreeSet<&str> =
        err.diagnostics.iter().map(|d| d.file.as_str()).collect();
    assert_eq!(files.len(), std::fs::read_dir(fixtures()).unwrap().count());
}

#[test]
fn a_user_skill_named_like_a_builtin_is_a_clash() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("trader-management");
    std::fs::create_dir_all(&sub).unwrap();
    let source = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../skills/trader-management/SKILL.md"),
    )
    .unwrap();
    std::fs::write(sub.join("SKILL.md"), source).unwrap();
    let err = Library::load(&[dir.path().to_path_buf()]).unwrap_err();
    assert_eq!(err.diagnostics.len(), 1, "{err}");
    assert_eq!(err.diagnostics[0].kind, DiagnosticKind::NameClash);
    assert!(
        err.diagnostics[0]
            .message
            .contains("skills/trader-management/SKILL.md")
    );
}

#[test]
fn a_user_skill_loads_beside_the_builtins_and_recoveries_are_checked() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("my-skill");
    std::fs::create_dir_all(&sub).unwrap();
    let source = std::fs::read_to_string(fixtures().join("unknown-key/SKILL.md"))
        .unwrap()
        .replace("name: unknown-key", "name: my-skill")
        .replace("        colour: red\n", "");
    std::fs::write(sub.join("SKILL.md"), &source).unwrap();
    let lib = Library::load(&[dir.path().to_path_buf()]).unwrap();
    assert!(lib.get("my_skill").is_some() && lib.get("trader-management").is_some());

    let broken = source.replace(
        "      en: \"Failed: {error}\"\n",
        "      en: \"Failed: {error}\"\n    failures:\n      - code: x\n        message: {zh: 错, en: wrong}\n        recovery:\n          offer: {zh: 修吗, en: fix?}\n          task: exchange_management.fly\n",
    );
    std::fs::write(sub.join("SKILL.md"), broken).unwrap();
    let err = Library::load(&[dir.path().to_path_buf()]).unwrap_err();
    let d = &err.diagnostics[0];
    assert_eq!(d.kind, DiagnosticKind::UnknownAction, "{err}");
    assert_eq!(d.line, 48, "{d}");
}

/// A label for a slot no action has (a typo) is an error naming it; labels are optional.
#[test]
fn a_label_for_an_unknown_slot_is_reported() {
    let file =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../skills/trader-management/SKILL.md");
    let source = std::fs::read_to_string(file).unwrap();
    let typo = source.replacen(
        "  labels:\n",
        "  labels:\n    scan_intervall: {zh: \"间隔\", en: \"interval\"}\n",
        1,
    );
    assert_ne!(typo, source, "the skill has a labels block");
    let diagnostics = match parse_skill(
        &typo,
        "trader-management/SKILL.md",
        "trader-management",
        false,
    ) {
        Ok(_) => panic!("a label for an unknown slot parsed"),
        Err(e) => e.diagnostics,
    };
    assert!(
        diagnostics
            .iter()
            .any(|d| d.kind == DiagnosticKind::UnknownSlot && d.message.contains("scan_intervall")),
        "{diagnostics:?}"
    );
}

/// A Chinese text folded from two lines (`>-`) reads "强平。 降低": the space is reported.
#[test]
fn a_space_after_chinese_punctuation_is_reported() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../skills/glossary/SKILL.md");
    let source = std::fs::read_to_string(file).unwrap();
    let folded = source.replacen("通常还会收取强平费用。", "通常还会收取强平费用。 ", 1);
    assert_ne!(folded, source, "the glossary has the liquidation entry");
    let diagnostics = match parse_skill(&folded, "glossary/SKILL.md", "glossary", false) {
        Ok(_) => panic!("a folded Chinese text parsed"),
        Err(e) => e.diagnostics,
    };
    assert!(
        diagnostics
            .iter()
            .any(|d| d.kind == DiagnosticKind::InvalidValue
                && d.message.contains("space after Chinese punctuation")),
        "{diagnostics:?}"
    );
}

/// A success case tests a slot of its action: a name that is none is reported at its line,
/// and so is a case that names both a slot and a field.
#[test]
fn a_success_case_on_an_unknown_slot_is_reported() {
    let source = std::fs::read_to_string(fixtures().join("unknown-field/SKILL.md"))
        .unwrap()
        .replace(
            "          field: tradable\n",
            "          slot: exchange_typ\n",
        )
        .replace(
            "{field: can_trade, equals: false}",
            "{field: can_trade, slot: exchange_type, equals: false}",
        );
    let diagnostics = match parse_skill(&source, "u/SKILL.md", "unknown-field", false) {
        Ok(_) => panic!("a success case on an unknown slot parsed"),
        Err(e) => e.diagnostics,
    };
    let unknown = diagnostics
        .iter()
        .find(|d| d.kind == DiagnosticKind::UnknownSlot)
        .unwrap_or_else(|| panic!("{diagnostics:#?}"));
    assert_eq!((unknown.line, unknown.column), (42, 11), "{unknown}");
    assert!(unknown.message.contains("exchange_typ"), "{unknown}");
    assert!(
        diagnostics
            .iter()
            .any(|d| d.line == 38 && d.message.contains("exactly one of `slot`")),
        "{diagnostics:#?}"
    );
}

/// Independent problems of one file are all reported, each at its line: two bad actions in
/// one block, a bad slot in a third, a bad example and an unknown top-level key in another
/// block, and what the semantic checks find in the parts that parsed (a pattern that does not
/// compile, an example naming no action). An example of an action that did not parse is not
/// called unknown: that action's own problem is the one to fix.
#[test]
fn every_problem_of_a_file_is_reported() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/many");
    let source = std::fs::read_to_string(dir.join("many-problems/SKILL.md")).unwrap();
    let diagnostics = match parse_skill(&source, "m/SKILL.md", "many-problems", false) {
        Ok(_) => panic!("a file with many problems parsed"),
        Err(e) => e.diagnostics,
    };
    let found: Vec<(DiagnosticKind, usize)> =
        diagnostics.iter().map(|d| (d.kind, d.line)).collect();
    let want = [
        (DiagnosticKind::InvalidPattern, 25),
        (DiagnosticKind::InvalidValue, 39),
        (DiagnosticKind::UnknownKey, 49),
        (DiagnosticKind::UnknownSlotType, 64),
        (DiagnosticKind::WrongType, 76),
        (DiagnosticKind::UnknownAction, 81),
        (DiagnosticKind::UnknownKey, 82),
    ];
    for w in want {
        assert!(found.contains(&w), "no {w:?} in {diagnostics:#?}");
    }
    assert_eq!(diagnostics.len(), want.len(), "{diagnostics:#?}");
    let risk = diagnostics.iter().find(|d| d.line == 39).unwrap();
    assert!(
        risk.message.contains("actions[1].risk") && risk.message.contains("expected one of"),
        "{risk}"
    );
    let colour = diagnostics.iter().find(|d| d.line == 49).unwrap();
    assert!(
        colour
            .message
            .contains("unknown key `colour` in `actions[2]`"),
        "{colour}"
    );
    let slot = diagnostics.iter().find(|d| d.line == 64).unwrap();
    assert!(slot.message.contains("actions[3].slots[0].type"), "{slot}");
    // `lint DIR` says the same.
    let err = nofxi_skills::Library::lint_dir(&dir).unwrap_err();
    assert_eq!(err.diagnostics.len(), want.len(), "{err}");
}

/// `lint DIR` with one file that does not load still cross-checks the others: a recovery
/// naming no real task in a file that parsed is reported beside the broken file's problems.
#[test]
fn lint_cross_checks_the_files_that_load_beside_one_that_does_not() {
    let dir = tempfile::tempdir().unwrap();
    let many = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/many/many-problems");
    std::fs::create_dir_all(dir.path().join("many-problems")).unwrap();
    std::fs::copy(
        many.join("SKILL.md"),
        dir.path().join("many-problems/SKILL.md"),
    )
    .unwrap();
    let sub = dir.path().join("my-skill");
    std::fs::create_dir_all(&sub).unwrap();
    let source = std::fs::read_to_string(fixtures().join("unknown-key/SKILL.md"))
        .unwrap()
        .replace("name: unknown-key", "name: my-skill")
        .replace("        colour: red\n", "")
        .replace(
            "      en: \"Failed: {error}\"\n",
            "      en: \"Failed: {error}\"\n    failures:\n      - code: x\n        message: {zh: 错, en: wrong}\n        recovery:\n          offer: {zh: 修吗, en: fix?}\n          task: exchange_management.fly\n",
        );
    std::fs::write(sub.join("SKILL.md"), source).unwrap();
    let err = Library::lint_dir(dir.path()).unwrap_err();
    let mine: Vec<_> = err
        .diagnostics
        .iter()
        .filter(|d| d.file.contains("my-skill"))
        .collect();
    assert_eq!(mine.len(), 1, "{err}");
    assert_eq!(
        (mine[0].kind, mine[0].line),
        (DiagnosticKind::UnknownAction, 48)
    );
    assert_eq!(err.diagnostics.len(), 8, "{err}");
}
