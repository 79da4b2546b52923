//! Embeds the repository's built-in skill library (`skills/<name>/SKILL.md`, the lexicon
//! `skills/lexicon/<lang>.yaml` and the message catalogs `skills/messages/<lang>.ftl`) into the crate, so
//! an installed `nofxi` binary carries its skills wherever it runs. The generated file is a list
//! of `(relative path, contents)` pairs; parsing happens at run time, through the same code path
//! as user skills, so a broken built-in is reported exactly like a broken user file.

use std::error::Error;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() -> Result<(), Box<dyn Error>> {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR")?);
    let root = manifest.join("..").join("..").join("skills");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut entries: Vec<(String, PathBuf)> = Vec::new();
    if root.is_dir() {
        for entry in std::fs::read_dir(&root)? {
            let dir = entry?.path();
            let file = dir.join("SKILL.md");
            if file.is_file() {
                println!("cargo:rerun-if-changed={}", file.display());
                println!("cargo:rerun-if-changed={}", dir.display());
                let name = dir
                    .file_name()
                    .and_then(|n| n.to_str())
                    .ok_or("skill directory name is not UTF-8")?
                    .to_string();
                entries.push((format!("{name}/SKILL.md"), file));
            }
        }
    }
    // Sorted so the generated file, and so the library order, does not depend on the filesystem.
    entries.sort();
    let mut out = String::new();
    embed(&mut out, "BUILTIN_FILES", &entries)?;
    embed(
        &mut out,
        "BUILTIN_LEXICON",
        &language_files(&root.join("lexicon"), "lexicon", "yaml")?,
    )?;
    let dest = PathBuf::from(std::env::var("OUT_DIR")?).join("builtin_skills.rs");
    std::fs::write(dest, out)?;
    let mut messages = String::new();
    embed(
        &mut messages,
        "BUILTIN_MESSAGES",
        &language_files(&root.join("messages"), "messages", "ftl")?,
    )?;
    let dest = PathBuf::from(std::env::var("OUT_DIR")?).join("builtin_messages.rs");
    std::fs::write(dest, messages)?;
    Ok(())
}

/// `skills/<folder>/<lang>.<ext>`, sorted: the words the understanding uses (`lexicon/*.yaml`)
/// or the reply texts (`messages/*.ftl`), one file per language.
fn language_files(
    dir: &Path,
    folder: &str,
    ext: &str,
) -> Result<Vec<(String, PathBuf)>, Box<dyn Error>> {
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files = Vec::new();
    if dir.is_dir() {
        for entry in std::fs::read_dir(dir)? {
            let file = entry?.path();
            if file.extension().is_some_and(|e| e == ext) {
                println!("cargo:rerun-if-changed={}", file.display());
                let name = file
                    .file_name()
                    .and_then(|n| n.to_str())
                    .ok_or("language file name is not UTF-8")?;
                files.push((format!("{folder}/{name}"), file));
            }
        }
    }
    files.sort();
    Ok(files)
}

/// `static NAME: &[(&str, &str)]` of (path relative to `skills/`, embedded contents).
fn embed(
    out: &mut String,
    name: &str,
    entries: &[(String, PathBuf)],
) -> Result<(), Box<dyn Error>> {
    writeln!(out, "pub(crate) static {name}: &[(&str, &str)] = &[")?;
    for (rel, path) in entries {
        writeln!(
            out,
            "    ({rel:?}, include_str!({:?})),",
            absolute(path)?.display()
        )?;
    }
    out.push_str("];\n");
    Ok(())
}

fn absolute(path: &Path) -> Result<PathBuf, Box<dyn Error>> {
    Ok(std::fs::canonicalize(path)?)
}
