//! `nofxi skills …` end to end: lint passes on the built-ins and fails with file:line:column on
//! every broken fixture; list, show and export work on a fresh home.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

use std::path::Path;
use std::process::Command;

fn nofxi(home: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_nofxi"))
        .args(args)
        .env("NOFXI_HOME", home)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn lint_passes_on_builtins_and_fails_on_each_broken_fixture() {
    let home = tempfile::tempdir().unwrap();
    let (code, out, err) = nofxi(home.path(), &["skills", "lint"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("no problems"));

    let broken = Path::new(env!("CARGO_MANIFEST_DIR")).join("../skills/tests/fixtures/broken");
    for entry in std::fs::read_dir(&broken).unwrap() {
        let dir = entry.unwrap().path();
        let name = dir.file_name().unwrap().to_str().unwrap().to_string();
        let one = tempfile::tempdir().unwrap();
        let target = one.path().join(&name);
        std::fs::create_dir_all(&target).unwrap();
        std::fs::copy(dir.join("SKILL.md"), target.join("SKILL.md")).unwrap();
        let (code, _, err) = nofxi(
            home.path(),
            &["skills", "lint", one.path().to_str().unwrap()],
        );
        assert_eq!(code, 1, "{name}: {err}");
        let prefix = format!("{name}/SKILL.md:");
        let re = regex_lite(&prefix);
        assert!(err.lines().any(&re), "{name}: no file:line:col in {err}");
    }
}

/// The lint covers a directory's `lexicon/*.yaml`: the repository's own lexicon is clean, and a
/// broken one is named at its line with each problem.
#[test]
fn lint_checks_lexicon_files() {
    let home = tempfile::tempdir().unwrap();
    let skills = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../skills");
    let (code, out, err) = nofxi(home.path(), &["skills", "lint", skills.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("2 lexicon file(s) and 2 message catalog(s) checked"),
        "{out}"
    );

    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("lexicon")).unwrap();
    std::fs::write(
        dir.path().join("lexicon/en.yaml"),
        "confirm:\n  - sure\n  - sure\nconfrim:\n  - ok\ndeny:\n  - \"\"\n",
    )
    .unwrap();
    let (code, _, err) = nofxi(
        home.path(),
        &["skills", "lint", dir.path().to_str().unwrap()],
    );
    assert_eq!(code, 1, "{err}");
    for want in [
        "lexicon/en.yaml:3:3: duplicate:",
        "lexicon/en.yaml:4:1: unknown_class:",
        "lexicon/en.yaml:7:3: empty_word:",
    ] {
        assert!(err.contains(want), "no `{want}` in {err}");
    }
}

/// `…/<name>/SKILL.md:<line>:<col>: ` somewhere in the line.
fn regex_lite(prefix: &str) -> impl Fn(&str) -> bool + '_ {
    move |line: &str| {
        line.find(prefix).is_some_and(|at| {
            let rest = &line[at + prefix.len()..];
            let mut parts = rest.splitn(3, ':');
            let l = parts.next().unwrap_or("");
            let c = parts.next().unwrap_or("");
            !l.is_empty()
                && l.chars().all(|ch| ch.is_ascii_digit())
                && !c.is_empty()
                && c.chars().all(|ch| ch.is_ascii_digit())
        })
    }
}

#[test]
fn list_show_export_and_user_skill_clash() {
    let home = tempfile::tempdir().unwrap();
    let (code, out, _) = nofxi(home.path(), &["skills", "list"]);
    assert_eq!(code, 0);
    for name in [
        "trader-management",
        "exchange-management",
        "model-management",
        "strategy-management",
        "market-data",
    ] {
        assert!(out.contains(name), "{out}");
    }
    let (code, out, _) = nofxi(home.path(), &["skills", "show", "trader_management"]);
    assert_eq!(code, 0);
    assert!(out.contains("trader_management.start") && out.contains("scan_interval_minutes"));
    for format in ["openai", "anthropic", "gemini", "mcp"] {
        let (code, out, err) = nofxi(home.path(), &["skills", "export", "--format", format]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert!(!v.is_null());
    }
    let (code, _, err) = nofxi(home.path(), &["skills", "show", "nope"]);
    assert_eq!(code, 1);
    assert!(err.contains("trader-management"), "{err}");

    // A user skill with a built-in's name makes every skills command fail with the clash.
    let user = home.path().join("skills/trader-management");
    std::fs::create_dir_all(&user).unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../skills/trader-management/SKILL.md"),
        user.join("SKILL.md"),
    )
    .unwrap();
    let (code, _, err) = nofxi(home.path(), &["skills", "list"]);
    assert_eq!(code, 1);
    assert!(err.contains("name_clash"), "{err}");
}

/// A step is checked against the tools nofxi has, not only for its shape: `trader.fly` is a
/// well-formed name no tool answers to, and a typed tool's step passes only its arguments.
#[test]
fn lint_names_a_step_whose_tool_or_argument_does_not_exist() {
    let home = tempfile::tempdir().unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../skills/tests/fixtures/broken/unknown-tool/SKILL.md");
    let source = std::fs::read_to_string(fixture).unwrap();
    for (tool, said) in [
        ("trader.fly", "nofxi has no tool `trader.fly`"),
        (
            "trader.journal",
            "`trader.journal` takes no argument `name`",
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let skill = dir.path().join("unknown-tool");
        std::fs::create_dir_all(&skill).unwrap();
        let text = source.replace("tool: trader fly", &format!("tool: {tool}"));
        std::fs::write(skill.join("SKILL.md"), text).unwrap();
        let (code, _, err) = nofxi(
            home.path(),
            &["skills", "lint", dir.path().to_str().unwrap()],
        );
        assert_eq!(code, 1, "{err}");
        assert!(err.contains(said), "{err}");
    }
}
