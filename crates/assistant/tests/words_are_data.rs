//! Words are data (issue 24): the understanding's Rust source (`src/nlu/**`, outside
//! `#[cfg(test)]` modules) holds no Chinese literal and no list of words; they live in
//! `skills/lexicon/<lang>.yaml` and the skill files, read through `nlu::lexicon::Lexicon`.
//!
//! Not every file is converted yet. [`NOT_YET_CONVERTED`] holds each remaining file's count
//! of code lines with a CJK character and of word lists (a `&[&str]` / `&[(&str, …)]` item, or
//! an inline array of string literals) as a ceiling: a file may only go down, and a file that
//! went down must have its entry lowered (or removed at zero), so the list only ever shrinks.
//! Remaining: no CJK code line; three lists of punctuation signs in 2 files (292 CJK lines
//! and 62 lists before the lexicon, at 2f0f614; measure a tree with `NOFXI_NLU_DIR=<its src/nlu>`).
#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic in a test is a failed assertion

use std::path::{Path, PathBuf};

/// (file under `src/nlu/`, CJK code lines, word lists) still allowed.
const NOT_YET_CONVERTED: &[(&str, usize, usize)] = &[
    // Punctuation, not words: the signs that end a clause or a token and open a value.
    ("extract/lists.rs", 0, 1),
    ("extract/tokens.rs", 0, 2),
];

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Count {
    cjk_lines: usize,
    lists: usize,
}

fn is_cjk(c: char) -> bool {
    ('\u{4e00}'..='\u{9fff}').contains(&c)
}

/// `line` without its `//` comment (a `//` inside a string literal is kept).
fn code_of(line: &str) -> &str {
    let mut in_string = false;
    let mut escaped = false;
    let bytes = line.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
        } else if b == b'"' {
            in_string = true;
        } else if b == b'/' && bytes.get(i + 1) == Some(&b'/') {
            return &line[..i];
        }
    }
    line
}

/// The lines of `source` outside `#[cfg(test)]` items, comments cut off.
fn product_code(source: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut skipping = false;
    let mut depth: i64 = 0;
    let mut opened = false;
    for line in source.lines() {
        let code = code_of(line);
        if !skipping && code.trim_start().starts_with("#[cfg(test)]") {
            (skipping, depth, opened) = (true, 0, false);
        }
        if skipping {
            for c in code.chars() {
                match c {
                    '{' => (depth, opened) = (depth + 1, true),
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            // A `#[cfg(test)] use …;` line ends at its semicolon.
            if (opened && depth <= 0) || (!opened && code.trim_end().ends_with(';')) {
                skipping = false;
            }
            continue;
        }
        out.push(code);
    }
    out
}

fn count(source: &str) -> Count {
    let mut n = Count::default();
    for code in product_code(source) {
        if code.chars().any(is_cjk) {
            n.cjk_lines += 1;
        }
        n.lists += word_lists_in(code);
    }
    n
}

/// Word-list items and inline arrays of string literals on one line of code.
fn word_lists_in(code: &str) -> usize {
    let squeezed: String = code.chars().filter(|c| !c.is_whitespace()).collect();
    let declared = squeezed.matches(":&[&str]=").count() + squeezed.matches(":&[(&str,").count();
    let inline = squeezed.match_indices("[\"").filter(|(at, _)| {
        // `["a", "b"…`: a string literal, a comma, another string literal.
        let rest = &squeezed[at + 2..];
        let mut escaped = false;
        let end = rest.char_indices().find(|(_, c)| {
            let close = *c == '"' && !escaped;
            escaped = *c == '\\' && !escaped;
            close
        });
        end.is_some_and(|(e, _)| rest[e + 1..].starts_with(",\""))
    });
    // A list declared on one line is one list, not two.
    if declared > 0 {
        declared
    } else {
        inline.count()
    }
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            // A `tests` directory is test code.
            if path.file_name().is_some_and(|n| n != "tests") {
                rust_files(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `NOFXI_NLU_DIR` measures another tree (an older commit's `src/nlu`, unpacked) the same way.
fn nlu_counts() -> Vec<(String, Count)> {
    let root = std::env::var_os("NOFXI_NLU_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("src/nlu"));
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    files.sort();
    files
        .iter()
        .map(|f| {
            let rel = f
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            (rel, count(&std::fs::read_to_string(f).unwrap()))
        })
        .collect()
}

#[test]
fn the_understanding_holds_no_chinese_literal_and_no_word_list() {
    let mut problems = Vec::new();
    let mut total = Count::default();
    for (file, found) in nlu_counts() {
        total.cjk_lines += found.cjk_lines;
        total.lists += found.lists;
        let allowed = NOT_YET_CONVERTED.iter().find(|(f, ..)| *f == file).map_or(
            Count::default(),
            |&(_, cjk_lines, lists)| Count { cjk_lines, lists },
        );
        if found.cjk_lines > allowed.cjk_lines || found.lists > allowed.lists {
            problems.push(format!(
                "src/nlu/{file}: {} CJK code line(s) and {} word list(s), {} and {} allowed; \
                 put the words in skills/lexicon/<lang>.yaml and read them through the Lexicon",
                found.cjk_lines, found.lists, allowed.cjk_lines, allowed.lists
            ));
        } else if found != allowed {
            problems.push(format!(
                "src/nlu/{file} is down to {} CJK code line(s) and {} word list(s): lower its \
                 NOT_YET_CONVERTED entry to (\"{file}\", {}, {}) (remove it at zero)",
                found.cjk_lines, found.lists, found.cjk_lines, found.lists
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "{}\n(total: {} CJK code lines, {} word lists)",
        problems.join("\n"),
        total.cjk_lines,
        total.lists
    );
}

/// The scanner itself: what it counts and what it leaves alone.
#[test]
fn the_scanner_counts_literals_and_lists_but_not_comments_or_tests() {
    let source = r#"
// "不要" in a comment is no literal
const A: &[&str] = &["x", "y"];
fn f(s: &str) -> bool { s.ends_with('在') || ["a", "b"].contains(&s) || s == "http://x" }
#[cfg(test)]
mod tests {
    const B: &[&str] = &["不"];
}
"#;
    assert_eq!(
        count(source),
        Count {
            cjk_lines: 1,
            lists: 2
        }
    );
}
