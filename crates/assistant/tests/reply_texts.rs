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

/// nofxi's own words are never taken for a credential: every knowledge answer of the skills
/// and every catalog message passes the chat's redaction unchanged ("私钥：它们加密保存" once
/// lost its second half to the labelled-value rule, as if it were a pasted key).
#[test]
fn no_text_of_the_skills_or_catalogs_is_masked_as_a_secret() {
    let library = nofxi_skills::Library::builtin().unwrap();
    let mut texts: Vec<(String, String)> = Vec::new();
    for skill in library.skills() {
        for k in &skill.meta.knowledge {
            for text in [&k.answer, &k.what, &k.why, &k.fix].into_iter().flatten() {
                for lang in [nofxi_skills::Lang::En, nofxi_skills::Lang::Zh] {
                    texts.push((
                        format!("{}:{}", skill.name, k.id),
                        text.get(lang).to_string(),
                    ));
                }
            }
        }
    }
    let messages = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../skills/messages");
    for entry in std::fs::read_dir(messages).unwrap() {
        let path = entry.unwrap().path();
        for line in std::fs::read_to_string(&path).unwrap().lines() {
            // A message's text, its placeholders left out: they are the caller's values.
            if let Some((id, text)) = line.split_once(" = ")
                && !text.contains('{')
            {
                texts.push((format!("{}:{id}", path.display()), text.to_string()));
            }
        }
    }
    assert!(texts.len() > 500, "only {} texts", texts.len());
    let masked: Vec<String> = texts
        .iter()
        .filter(|(_, text)| nofxi_assistant::scrub::scrub(text) != *text)
        .map(|(at, text)| format!("{at}: {text}\n  → {}", nofxi_assistant::scrub::scrub(text)))
        .collect();
    assert!(
        masked.is_empty(),
        "{} masked:\n{}",
        masked.len(),
        masked.join("\n")
    );
}
