//! Embeds the repository's built-in skill library (`skills/<name>/SKILL.md`) into the crate, so
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
    let mut out = String::from("pub(crate) static BUILTIN_FILES: &[(&str, &str)] = &[\n");
    for (rel, path) in &entries {
        writeln!(
            out,
            "    ({rel:?}, include_str!({:?})),",
            absolute(path)?.display()
        )?;
    }
    out.push_str("];\n");
    let dest = PathBuf::from(std::env::var("OUT_DIR")?).join("builtin_skills.rs");
    std::fs::write(dest, out)?;
    Ok(())
}

fn absolute(path: &Path) -> Result<PathBuf, Box<dyn Error>> {
    Ok(std::fs::canonicalize(path)?)
}
