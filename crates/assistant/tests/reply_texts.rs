//! Reply texts are data: the catalogs beside the skills (`skills/messages/<lang>.ftl`). Every
//! message id the source passes as a literal (`msg(lang, "id", …)`, `Catalog::text`) is in
//! every language, so a mistyped id fails here instead of a reply showing `{id}`.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_message_id_in_the_source_is_in_the_catalogs() {
    let call = regex::Regex::new(r#"(?:\bmsg|\.text)\(\s*[\w.]+,\s*"([a-z0-9_-]+)""#).unwrap();
    let catalog = nofxi_skills::Catalog::builtin();
    let mut files = Vec::new();
    rust_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    let (mut used, mut missing) = (0, Vec::new());
    for path in files {
        let source = std::fs::read_to_string(&path).unwrap();
        for id in call.captures_iter(&source).map(|c| c[1].to_string()) {
            used += 1;
            if !catalog.has(&id) {
                missing.push(format!("{}: {id}", path.display()));
            }
        }
    }
    assert!(
        used > 50,
        "only {used} message ids found: was `msg` renamed?"
    );
    assert!(
        missing.is_empty(),
        "not in every skills/messages/*.ftl:\n{}",
        missing.join("\n")
    );
}
