//! Reads one SKILL.md into a checked `Skill`, or into diagnostics that each name the file, line
//! and column. The pipeline: split markdown → frontmatter → each ```yaml block deserialized with
//! `deny_unknown_fields` (yaml_serde positions mapped back to the markdown line) → `check`.

use std::collections::{BTreeMap, HashMap};

use regex::Regex;
use serde::Deserialize;

use crate::check;
use crate::error::{Diagnostic, DiagnosticKind, LoadError};
use crate::ir::{Action, Constraints, Example, Function, Skill, SkillMeta, Source};
use crate::locate::YamlIndex;
use crate::markdown::{self, Block};
use crate::salvage;

/// The top-level keys a ```yaml block may hold.
pub const BLOCK_KEYS: &[&str] = &["skill", "actions", "functions", "examples", "constraints"];

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Frontmatter {
    name: String,
    description: String,
    #[serde(default)]
    license: Option<String>,
    #[serde(default)]
    compatibility: Option<String>,
    #[serde(default)]
    metadata: BTreeMap<String, String>,
    /// Space-delimited, per the Agent Skills spec.
    #[serde(default, rename = "allowed-tools")]
    allowed_tools: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawBlock {
    #[serde(default)]
    pub skill: Option<SkillMeta>,
    #[serde(default)]
    pub actions: Option<Vec<Action>>,
    #[serde(default)]
    pub functions: Option<Vec<Function>>,
    #[serde(default)]
    pub examples: Option<Vec<Example>>,
    #[serde(default)]
    pub constraints: Option<Constraints>,
}

/// Where each part of a file is written, for the semantic checks (and the library's
/// cross-skill checks, which is why a `Skill` keeps it).
#[derive(Debug, Clone)]
pub(crate) struct Locator {
    pub file: String,
    frontmatter: (usize, YamlIndex),
    blocks: Vec<(usize, YamlIndex)>,
    /// Top-level key → index into `blocks`.
    owner: HashMap<String, usize>,
    /// List key → the written index of each item kept, when some did not parse
    /// ([`crate::salvage`]): the checks number what they got, the file numbers what it holds.
    kept: HashMap<String, Vec<usize>>,
}

impl Locator {
    /// (line, column) in the file of a YAML path such as `examples[3].action`.
    pub fn at(&self, path: &str) -> (usize, usize) {
        let top = path.split(['.', '[']).next().unwrap_or("");
        let Some(&i) = self.owner.get(top) else {
            return (self.blocks.first().map_or(1, |b| b.0), 1);
        };
        let (first_line, index) = &self.blocks[i];
        let path = self.written_path(top, path);
        match index.locate(&path) {
            Some((line, col)) => (first_line + line - 1, col),
            None => (*first_line, 1),
        }
    }

    /// `actions[1].name` as the file numbers it, when items before it did not parse.
    fn written_path(&self, top: &str, path: &str) -> String {
        let Some(kept) = self.kept.get(top) else {
            return path.to_string();
        };
        let rest = &path[top.len()..];
        let Some((k, tail)) = rest
            .strip_prefix('[')
            .and_then(|r| r.split_once(']'))
            .and_then(|(n, tail)| Some((n.parse::<usize>().ok()?, tail)))
        else {
            return path.to_string();
        };
        match kept.get(k) {
            Some(written) => format!("{top}[{written}]{tail}"),
            None => path.to_string(),
        }
    }

    pub fn frontmatter_at(&self, key: &str) -> (usize, usize) {
        let (first_line, index) = &self.frontmatter;
        match index.locate(key) {
            Some((line, col)) => (first_line + line - 1, col),
            None => (first_line.saturating_sub(1).max(1), 1),
        }
    }

    pub fn diag(&self, path: &str, kind: DiagnosticKind, message: impl Into<String>) -> Diagnostic {
        let (line, column) = self.at(path);
        Diagnostic {
            file: self.file.clone(),
            line,
            column,
            kind,
            message: message.into(),
        }
    }
}

/// Parse and check one SKILL.md. `file` is the path shown in diagnostics; `dir_name` is the
/// name of the directory holding it (the frontmatter `name` must equal it).
pub fn parse_skill(
    source: &str,
    file: &str,
    dir_name: &str,
    builtin: bool,
) -> Result<Skill, LoadError> {
    let fail = |line: usize, column: usize, kind: DiagnosticKind, message: String| LoadError {
        diagnostics: vec![Diagnostic {
            file: file.to_string(),
            line,
            column,
            kind,
            message,
        }],
    };
    let doc = markdown::split(source)
        .map_err(|e| fail(e.line, 1, DiagnosticKind::Frontmatter, e.message))?;
    if let Some((line, column)) = too_deep(&doc.frontmatter.text) {
        return Err(fail(
            doc.frontmatter.first_line + line - 1,
            column,
            DiagnosticKind::Frontmatter,
            format!(
                "brackets nested deeper than {MAX_FLOW_DEPTH} levels; expected plain `key: value` lines"
            ),
        ));
    }
    let front: Frontmatter =
        yaml_serde::from_str(&doc.frontmatter.text).map_err(|e| LoadError {
            diagnostics: vec![yaml_diagnostic(
                &e,
                file,
                &doc.frontmatter,
                &YamlIndex::build(&doc.frontmatter.text),
                DiagnosticKind::Frontmatter,
            )],
        })?;

    let mut diagnostics = Vec::new();
    let mut merged = RawBlock::default();
    let mut locator = Locator {
        file: file.to_string(),
        frontmatter: (
            doc.frontmatter.first_line,
            YamlIndex::build(&doc.frontmatter.text),
        ),
        blocks: Vec::new(),
        owner: HashMap::new(),
        kept: HashMap::new(),
    };
    let mut lost_names: Vec<String> = Vec::new();
    for block in &doc.yaml_blocks {
        let block_no = locator.blocks.len();
        // Checked before the index is built: building it is quadratic in the depth too.
        if let Some((line, column)) = too_deep(&block.text) {
            diagnostics.push(Diagnostic {
                file: file.to_string(),
                line: block.first_line + line - 1,
                column,
                kind: DiagnosticKind::YamlSyntax,
                message: format!(
                    "brackets nested deeper than {MAX_FLOW_DEPTH} levels: no skill needs that; expected a flatter list or map"
                ),
            });
            locator
                .blocks
                .push((block.first_line, YamlIndex::build("")));
            continue;
        }
        let index = YamlIndex::build(&block.text);
        let raw: RawBlock = match yaml_serde::from_str(&block.text) {
            Ok(raw) => raw,
            Err(e) => {
                // Read again part by part, so every problem of the block is reported.
                let salvaged = salvage::block(file, block, &index, &e);
                diagnostics.extend(salvaged.diagnostics);
                locator.kept.extend(salvaged.kept);
                lost_names.extend(salvaged.lost_names);
                salvaged.raw
            }
        };
        comment_traps(file, block, &mut diagnostics);
        let mut claim = |key: &str, present: bool, diagnostics: &mut Vec<Diagnostic>| {
            if !present {
                return;
            }
            if locator.owner.contains_key(key) {
                let (line, col) = index.locate(key).unwrap_or((1, 1));
                diagnostics.push(Diagnostic {
                    file: file.to_string(),
                    line: block.first_line + line - 1,
                    column: col,
                    kind: DiagnosticKind::Duplicate,
                    message: format!("`{key}` is already defined in an earlier yaml block; expected each top-level key once per file"),
                });
            } else {
                locator.owner.insert(key.to_string(), block_no);
            }
        };
        claim("skill", raw.skill.is_some(), &mut diagnostics);
        claim("actions", raw.actions.is_some(), &mut diagnostics);
        claim("functions", raw.functions.is_some(), &mut diagnostics);
        claim("examples", raw.examples.is_some(), &mut diagnostics);
        claim("constraints", raw.constraints.is_some(), &mut diagnostics);
        locator.blocks.push((block.first_line, index));
        merged.skill = merged.skill.or(raw.skill);
        merged.actions = merged.actions.or(raw.actions);
        merged.functions = merged.functions.or(raw.functions);
        merged.examples = merged.examples.or(raw.examples);
        merged.constraints = merged.constraints.or(raw.constraints);
    }
    let parse_failed = !diagnostics.is_empty();
    let Some(meta) = merged.skill else {
        if parse_failed {
            return Err(LoadError { diagnostics });
        }
        return Err(fail(
            doc.yaml_blocks.first().map_or(1, |b| b.first_line),
            1,
            DiagnosticKind::MissingKey,
            "no `skill:` block: expected a ```yaml block with `skill: {kind, domain, version, title}`".into(),
        ));
    };
    let mut skill = Skill {
        id: front.name.replace('-', "_"),
        name: front.name,
        description: front.description,
        license: front.license,
        compatibility: front.compatibility,
        metadata: front.metadata,
        allowed_tools: front
            .allowed_tools
            .map(|s| s.split_whitespace().map(str::to_string).collect())
            .unwrap_or_default(),
        meta,
        actions: merged.actions.unwrap_or_default(),
        functions: merged.functions.unwrap_or_default(),
        examples: merged.examples.unwrap_or_default(),
        constraints: merged.constraints.unwrap_or_default(),
        body: doc.body,
        locator: None,
        source: Source {
            path: file.to_string(),
            builtin,
        },
    };
    check::frontmatter(&skill, dir_name, &locator, &mut diagnostics);
    if parse_failed {
        // The semantic checks run over what parsed; an example of an action that did not
        // parse would only be called unknown, so it waits for the action to be fixed.
        drop_orphan_examples(&mut skill, &lost_names, &mut locator);
        let kind_at = locator.at("skill.kind");
        let mut semantic = Vec::new();
        check::skill(&mut skill, &locator, &mut semantic);
        // "needs an `actions:` list" is no news when the list is there but did not parse.
        diagnostics.extend(
            semantic.into_iter().filter(|d| {
                !(d.kind == DiagnosticKind::MissingKey && (d.line, d.column) == kind_at)
            }),
        );
    } else {
        check::skill(&mut skill, &locator, &mut diagnostics);
    }
    if diagnostics.is_empty() {
        skill.locator = Some(std::sync::Arc::new(locator));
        Ok(skill)
    } else {
        Err(LoadError { diagnostics })
    }
}

/// Leaves out the examples that name an action or function in `lost` (written but not
/// parsed), keeping the locator's numbering of the rest.
fn drop_orphan_examples(skill: &mut Skill, lost: &[String], locator: &mut Locator) {
    if lost.is_empty() {
        return;
    }
    let names = |e: &Example| {
        let task = e.context.as_ref().and_then(|c| c.task.as_ref());
        [
            e.action.as_ref(),
            e.function.as_ref(),
            task.map(|t| &t.action),
        ]
        .into_iter()
        .flatten()
        .any(|n| lost.contains(n))
    };
    let written: Vec<usize> = match locator.kept.get("examples") {
        Some(kept) => kept.clone(),
        None => (0..skill.examples.len()).collect(),
    };
    let mut kept = Vec::new();
    let mut examples = Vec::new();
    for (example, at) in std::mem::take(&mut skill.examples).into_iter().zip(written) {
        if !names(&example) {
            kept.push(at);
            examples.push(example);
        }
    }
    skill.examples = examples;
    locator.kept.insert("examples".into(), kept);
}

/// Deepest `[`/`{` nesting a yaml block may have. The yaml parser's time grows with the
/// square of the depth (10 KB of `[` took 0.2 s, 100 KB 13 s), and a skill's deepest real
/// nesting is a handful of levels.
const MAX_FLOW_DEPTH: usize = 64;

/// Where (1-based line and column) a block's flow brackets first nest past
/// [`MAX_FLOW_DEPTH`], in one pass. Quoted text and comments are skipped, so a bracket
/// inside a string does not count.
fn too_deep(text: &str) -> Option<(usize, usize)> {
    // Block sequences nest too: `- - - x` is three levels on one line.
    for (i, l) in text.lines().enumerate() {
        let mut rest = l.trim_start();
        let mut dashes = 0;
        while let Some(r) = rest.strip_prefix('-').filter(|r| r.starts_with(' ')) {
            rest = r.trim_start();
            dashes += 1;
            if dashes > MAX_FLOW_DEPTH {
                return Some((i + 1, l.len() - rest.len()));
            }
        }
    }
    let mut depth = 0usize;
    let (mut line, mut column) = (1usize, 0usize);
    let mut quote: Option<char> = None;
    let mut comment = false;
    let mut prev = '\n';
    for c in text.chars() {
        column += 1;
        let before = std::mem::replace(&mut prev, c);
        if c == '\n' {
            line += 1;
            column = 0;
            comment = false;
            continue;
        }
        if comment {
            continue;
        }
        // A quote opens a string only where a value can start (`don't` is plain text), and
        // `#` is a comment only after a space.
        let value_start = before.is_whitespace() || matches!(before, ':' | ',' | '[' | '{');
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') if value_start => quote = Some(c),
            (None, '#') if before.is_whitespace() => comment = true,
            (None, '[' | '{') => {
                depth += 1;
                if depth > MAX_FLOW_DEPTH {
                    return Some((line, column));
                }
            }
            (None, ']' | '}') => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// Turn a yaml_serde error into a diagnostic at the right place with a readable message.
pub(crate) fn yaml_diagnostic(
    err: &yaml_serde::Error,
    file: &str,
    block: &Block,
    index: &YamlIndex,
    fallback: DiagnosticKind,
) -> Diagnostic {
    let full = err.to_string();
    let text = match full.rfind(" at line ") {
        Some(cut) => full[..cut].to_string(),
        None => full.clone(),
    };
    // libyaml also names positions inside its message; make them file positions too.
    let text = match position_regex() {
        Some(re) => re
            .replace_all(&text, |c: &regex::Captures<'_>| {
                let line: usize = c[1].parse().unwrap_or(1);
                format!(
                    "line {} column {}",
                    block.first_line + line.max(1) - 1,
                    &c[2]
                )
            })
            .into_owned(),
        None => text,
    };
    let (path, message) = split_path(&text);
    let path = if path == "." { "" } else { path };
    let (mut line, mut column) = err.location().map_or((1, 1), |l| (l.line(), l.column()));
    let mut kind = fallback;
    let mut message = message.to_string();
    if let Some(field) = between(&message, "unknown field `", "`") {
        kind = DiagnosticKind::UnknownKey;
        let key_path = if path.is_empty() {
            field.clone()
        } else {
            format!("{path}.{field}")
        };
        if let Some((l, c)) = index.locate(&key_path) {
            (line, column) = (l, c);
        }
        let place = if path.is_empty() {
            "at the top level".to_string()
        } else {
            format!("in `{path}`")
        };
        message = format!(
            "unknown key `{field}` {place}; {}",
            after(&message, ", ").unwrap_or("see the skill format")
        );
    } else if message.starts_with("unknown variant") {
        kind = if path.ends_with(".type") {
            DiagnosticKind::UnknownSlotType
        } else if path.ends_with(".ref") || path.contains(".current") {
            DiagnosticKind::UnknownRefKind
        } else {
            DiagnosticKind::InvalidValue
        };
        if !path.is_empty() {
            message = format!("`{path}`: {message}");
        }
    } else if message.starts_with("missing field") {
        kind = DiagnosticKind::MissingKey;
        if !path.is_empty() {
            message = format!("`{path}`: {message}");
        }
    } else if message.starts_with("invalid type") {
        kind = DiagnosticKind::WrongType;
        if !path.is_empty() {
            message = format!("`{path}`: {message}");
        }
    } else if message.contains("<resource>.<verb>")
        || message.starts_with("unknown resource")
        || message.starts_with("unknown verb")
    {
        kind = DiagnosticKind::UnknownTool;
        if let Some((l, c)) = index.locate(&format!("{path}.tool")) {
            (line, column) = (l, c);
        }
        message = format!("`{path}`: {message}");
    } else if !path.is_empty() {
        message = format!("`{path}`: {message}");
    }
    Diagnostic {
        file: file.to_string(),
        line: block.first_line + line.max(1) - 1,
        column: column.max(1),
        kind,
        message,
    }
}

/// yaml_serde prefixes messages with the path of the value (`actions[0].risk: …`).
fn split_path(text: &str) -> (&str, &str) {
    static_path_regex()
        .and_then(|re| re.captures(text))
        .and_then(|c| Some((c.get(1)?.as_str(), c.get(2)?.as_str())))
        .unwrap_or(("", text))
}

/// Compiled once: a file with thousands of problems formats thousands of messages.
fn position_regex() -> Option<&'static Regex> {
    use std::sync::OnceLock;
    static RE: OnceLock<Option<Regex>> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"line (\d+) column (\d+)").ok())
        .as_ref()
}

fn static_path_regex() -> Option<&'static Regex> {
    use std::sync::OnceLock;
    static RE: OnceLock<Option<Regex>> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"(?s)^([A-Za-z0-9_\-\[\]\.]+): (.*)$").ok())
        .as_ref()
}

fn between(s: &str, start: &str, end: &str) -> Option<String> {
    let from = s.find(start)? + start.len();
    let to = s[from..].find(end)? + from;
    Some(s[from..to].to_string())
}

fn after<'a>(s: &'a str, sep: &str) -> Option<&'a str> {
    s.split_once(sep).map(|(_, rest)| rest)
}

/// A ` #` inside an unquoted `zh:`/`en:` text starts a YAML comment, silently cutting the
/// sentence ("末尾加 # 表示…" became "末尾加"). Product text must never lose words quietly.
fn comment_traps(file: &str, block: &Block, out: &mut Vec<Diagnostic>) {
    for (i, line) in block.text.lines().enumerate() {
        let t = line.trim_start();
        let t = t.strip_prefix("- ").unwrap_or(t);
        let Some(value) = t.strip_prefix("zh: ").or_else(|| t.strip_prefix("en: ")) else {
            continue;
        };
        let value = value.trim_start();
        if value.starts_with(['"', '\'', '|', '>', '{', '[']) {
            continue;
        }
        if let Some(at) = value.find(" #") {
            out.push(Diagnostic {
                file: file.to_string(),
                line: block.first_line + i,
                column: line.len() - value.len() + at + 2,
                kind: DiagnosticKind::InvalidValue,
                message: "` #` starts a YAML comment here, so the rest of the text is dropped; put the text in quotes".into(),
            });
        }
    }
}
