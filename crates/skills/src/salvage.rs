//! Every problem of a yaml block, not only the first. A typed parse of a whole block stops at
//! its first error, so when it fails the block is read again in parts: the YAML syntax once
//! (a syntax error stops everything, there is nothing to split), then each top-level key on
//! its own, and each item of `actions`, `functions` and `examples` on its own. Each part is
//! the block's own lines, parsed with the same typed deserializer, so positions and messages
//! are exactly those a file with only that problem gets. Every line is parsed once more at
//! most: the work stays linear in the block's size.
//!
//! What parsed is kept (with the original index of each kept item, for positions), so the
//! semantic checks can run over it too.

use std::collections::HashMap;

use crate::error::{Diagnostic, DiagnosticKind};
use crate::locate::YamlIndex;
use crate::markdown::Block;
use crate::parse::{BLOCK_KEYS, RawBlock, yaml_diagnostic};

/// The parts of a block that parsed, and the problems of those that did not.
#[derive(Debug, Default)]
pub(crate) struct Salvaged {
    pub raw: RawBlock,
    pub diagnostics: Vec<Diagnostic>,
    /// List key → the original index of each kept item (absent: all items kept).
    pub kept: HashMap<String, Vec<usize>>,
    /// `name` of each action or function that did not parse, so checks of the rest do not
    /// call it unknown.
    pub lost_names: Vec<String>,
}

const LISTS: &[&str] = &["actions", "functions", "examples"];

/// Reads `block` part by part after its whole typed parse failed with `first`.
pub(crate) fn block(
    file: &str,
    block: &Block,
    index: &YamlIndex,
    first: &yaml_serde::Error,
) -> Salvaged {
    let mut out = Salvaged::default();
    let whole = || yaml_diagnostic(first, file, block, index, DiagnosticKind::YamlSyntax);
    let Ok(yaml_serde::Value::Mapping(map)) = yaml_serde::from_str(&block.text) else {
        // A syntax error, or a block that is no mapping: nothing to split.
        out.diagnostics.push(whole());
        return out;
    };
    let lines: Vec<&str> = block.text.lines().collect();
    let keys: Vec<(String, usize)> = top_level_keys(&map, index);
    for (k, (key, start)) in keys.iter().enumerate() {
        let end = keys.get(k + 1).map_or(lines.len() + 1, |next| next.1);
        if !BLOCK_KEYS.contains(&key.as_str()) {
            let (line, column) = index.locate(key).unwrap_or((*start, 1));
            out.diagnostics.push(Diagnostic {
                file: file.to_string(),
                line: block.first_line + line - 1,
                column,
                kind: DiagnosticKind::UnknownKey,
                message: format!(
                    "unknown key `{key}` at the top level; expected one of {}",
                    BLOCK_KEYS
                        .iter()
                        .map(|k| format!("`{k}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            });
            continue;
        }
        let items = item_lines(index, key, *start, end);
        match items {
            Some(items) if LISTS.contains(&key.as_str()) => {
                list(file, block, &lines, key, &items, end, &map, &mut out);
            }
            _ => {
                let part = Part::new(block, &lines, *start, end, None);
                match part.parse() {
                    Ok(raw) => merge(&mut out.raw, raw),
                    Err(e) => out.diagnostics.push(part.diagnostic(file, &e, key, 0)),
                }
            }
        }
    }
    if out.diagnostics.is_empty() {
        // The parts parse but the whole does not: say what the whole parse said.
        out.diagnostics.push(whole());
    }
    out
}

/// Each item of the list under `key` parsed on its own.
#[allow(clippy::too_many_arguments)]
fn list(
    file: &str,
    block: &Block,
    lines: &[&str],
    key: &str,
    items: &[usize],
    end: usize,
    map: &yaml_serde::Mapping,
    out: &mut Salvaged,
) {
    let mut kept = Vec::new();
    let mut parsed = RawBlock::default();
    for (i, start) in items.iter().enumerate() {
        let stop = items.get(i + 1).copied().unwrap_or(end);
        let part = Part::new(block, lines, *start, stop, Some(key));
        match part.parse() {
            Ok(raw) => {
                kept.push(i);
                merge_lists(&mut parsed, raw.actions, raw.functions, raw.examples);
            }
            Err(e) => {
                out.diagnostics.push(part.diagnostic(file, &e, key, i));
                if let Some(name) = item_name(map, key, i) {
                    out.lost_names.push(name);
                }
            }
        }
    }
    // The key is there even if no item parsed: a later block defining it again is a duplicate.
    match key {
        "actions" => out.raw.actions = Some(parsed.actions.unwrap_or_default()),
        "functions" => out.raw.functions = Some(parsed.functions.unwrap_or_default()),
        _ => out.raw.examples = Some(parsed.examples.unwrap_or_default()),
    }
    out.kept.insert(key.to_string(), kept);
}

/// Some lines of the block, parsed as a block of their own.
struct Part {
    text: String,
    /// The file line of the part's first line.
    first_line: usize,
    index: YamlIndex,
}

impl Part {
    /// Block lines `start..end` (1-based, end excluded). A list item is put under a line
    /// `key:` of its own, so it parses as a one-item list with its own indentation.
    fn new(block: &Block, lines: &[&str], start: usize, end: usize, key: Option<&str>) -> Part {
        let body = lines
            .get(start.saturating_sub(1)..end.saturating_sub(1).min(lines.len()))
            .unwrap_or_default()
            .join("\n");
        let (text, first_line) = match key {
            Some(key) => (format!("{key}:\n{body}"), block.first_line + start - 2),
            None => (body, block.first_line + start - 1),
        };
        let index = YamlIndex::build(&text);
        Part {
            text,
            first_line,
            index,
        }
    }

    fn parse(&self) -> Result<RawBlock, yaml_serde::Error> {
        yaml_serde::from_str(&self.text)
    }

    /// The diagnostic of a part's error, with the item's index as the whole block has it.
    fn diagnostic(&self, file: &str, e: &yaml_serde::Error, key: &str, item: usize) -> Diagnostic {
        let as_block = Block {
            text: String::new(),
            first_line: self.first_line,
        };
        let mut d = yaml_diagnostic(e, file, &as_block, &self.index, DiagnosticKind::YamlSyntax);
        if item > 0 {
            d.message = d
                .message
                .replacen(&format!("{key}[0]"), &format!("{key}[{item}]"), 1);
        }
        d
    }
}

/// The top-level keys in the order written, with the block line each starts on.
fn top_level_keys(map: &yaml_serde::Mapping, index: &YamlIndex) -> Vec<(String, usize)> {
    let mut keys: Vec<(String, usize)> = map
        .keys()
        .filter_map(|k| k.as_str())
        .filter_map(|k| Some((k.to_string(), index.locate_exact(k)?.0)))
        .collect();
    keys.sort_by_key(|(_, line)| *line);
    keys
}

/// The block line each item of the list under `key` starts on, when the list is written in
/// block style inside `start..end` (a flow list `[...]` gives none: it is parsed whole).
fn item_lines(index: &YamlIndex, key: &str, start: usize, end: usize) -> Option<Vec<usize>> {
    let mut out = Vec::new();
    while let Some((line, _)) = index.locate_exact(&format!("{key}[{}]", out.len())) {
        if line <= start || line >= end {
            break;
        }
        out.push(line);
    }
    (!out.is_empty()).then_some(out)
}

fn item_name(map: &yaml_serde::Mapping, key: &str, i: usize) -> Option<String> {
    let item = map.get(key)?.as_sequence()?.get(i)?;
    Some(item.get("name")?.as_str()?.to_string())
}

fn merge(into: &mut RawBlock, raw: RawBlock) {
    into.skill = into.skill.take().or(raw.skill);
    into.constraints = into.constraints.take().or(raw.constraints);
    merge_lists(into, raw.actions, raw.functions, raw.examples);
}

fn merge_lists(
    into: &mut RawBlock,
    actions: Option<Vec<crate::ir::Action>>,
    functions: Option<Vec<crate::ir::Function>>,
    examples: Option<Vec<crate::ir::Example>>,
) {
    if let Some(a) = actions {
        into.actions.get_or_insert_with(Vec::new).extend(a);
    }
    if let Some(f) = functions {
        into.functions.get_or_insert_with(Vec::new).extend(f);
    }
    if let Some(e) = examples {
        into.examples.get_or_insert_with(Vec::new).extend(e);
    }
}
