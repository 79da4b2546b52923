//! Maps a YAML path (`actions[2].slots[0].type`, the same spelling yaml_serde uses in its error
//! messages) to the line and column where that key or list item is written.
//!
//! serde gives no positions for values it accepted, yet the semantic checks (an example naming
//! an action that does not exist, a schema that does not compile) must point at a line. This is
//! a small indentation scanner for block-style YAML, which is how skill files are written; inside
//! flow collections (`{a: 1}`, `[x, y]`) and block scalars it reports the enclosing key instead.
//! It never fails: an unknown path falls back to its nearest known ancestor, then to the block.

use std::collections::HashMap;

#[derive(Debug, Default, Clone)]
pub(crate) struct YamlIndex {
    /// Path → (line, column), both 1-based and relative to the block.
    positions: HashMap<String, (usize, usize)>,
}

#[derive(Debug, Clone)]
struct Frame {
    column: usize,
    /// The full path of this node.
    path: String,
    /// For list items: the item's index.
    index: Option<usize>,
}

impl YamlIndex {
    pub fn build(text: &str) -> YamlIndex {
        let mut positions = HashMap::new();
        let mut stack: Vec<Frame> = Vec::new();
        // While inside a block scalar (`|` or `>`), lines indented deeper than this are text.
        let mut scalar_indent: Option<usize> = None;
        for (line_idx, raw) in text.lines().enumerate() {
            let indent = raw.len() - raw.trim_start_matches(' ').len();
            let trimmed = raw.trim();
            if let Some(limit) = scalar_indent {
                if trimmed.is_empty() || indent > limit {
                    continue;
                }
                scalar_indent = None;
            }
            if trimmed.is_empty() || trimmed.starts_with('#') || trimmed == "---" {
                continue;
            }
            let mut column = indent;
            let mut rest = &raw[indent..];
            // Sequence items, possibly several on one line (`- - x`).
            while rest == "-" || rest.starts_with("- ") {
                let mut last_index = None;
                while let Some(top) = stack.last() {
                    if top.column > column || (top.column == column && top.index.is_some()) {
                        if top.column == column {
                            last_index = top.index;
                        }
                        stack.pop();
                    } else {
                        break;
                    }
                }
                let index = last_index.map_or(0, |i| i + 1);
                let parent = stack.last().map(|f| f.path.as_str()).unwrap_or("");
                let path = format!("{parent}[{index}]");
                positions
                    .entry(path.clone())
                    .or_insert((line_idx + 1, column + 1));
                stack.push(Frame {
                    column,
                    path,
                    index: Some(index),
                });
                let after = &rest[1..];
                let spaces = after.len() - after.trim_start_matches(' ').len();
                column += 1 + spaces;
                rest = &after[spaces..];
            }
            let Some((key, value)) = split_key(rest) else {
                continue;
            };
            while let Some(top) = stack.last() {
                if top.column >= column {
                    stack.pop();
                } else {
                    break;
                }
            }
            let parent = stack.last().map(|f| f.path.as_str()).unwrap_or("");
            let path = if parent.is_empty() {
                key.to_string()
            } else {
                format!("{parent}.{key}")
            };
            positions
                .entry(path.clone())
                .or_insert((line_idx + 1, column + 1));
            stack.push(Frame {
                column,
                path,
                index: None,
            });
            let value = value.trim();
            if value.starts_with('|') || value.starts_with('>') {
                scalar_indent = Some(column);
            }
        }
        YamlIndex { positions }
    }

    /// The position of `path` itself, when it is written in block style.
    pub fn locate_exact(&self, path: &str) -> Option<(usize, usize)> {
        self.positions.get(path).copied()
    }

    /// The position of `path`, or of its nearest ancestor that is written in block style.
    pub fn locate(&self, path: &str) -> Option<(usize, usize)> {
        let mut current = path;
        loop {
            if let Some(pos) = self.positions.get(current) {
                return Some(*pos);
            }
            let cut = current.rfind(['.', '['])?;
            current = &current[..cut];
            if current.is_empty() {
                return None;
            }
        }
    }
}

/// `key: value` → (key, value) for a plain or quoted key; None for anything else.
fn split_key(s: &str) -> Option<(&str, &str)> {
    let first = s.chars().next()?;
    if matches!(first, '[' | '{' | '#' | '|' | '>' | '&' | '*' | '!') {
        return None;
    }
    if first == '"' || first == '\'' {
        let close = s[1..].find(first)? + 1;
        let key = &s[1..close];
        let after = s[close + 1..].strip_prefix(':')?;
        if after.is_empty() || after.starts_with(' ') {
            return Some((key, after));
        }
        return None;
    }
    let mut search = 0;
    while let Some(pos) = s[search..].find(':') {
        let at = search + pos;
        let after = &s[at + 1..];
        if after.is_empty() || after.starts_with(' ') {
            return Some((s[..at].trim_end(), after));
        }
        search = at + 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "\
actions:
  - name: create
    description: |
      text: not a key
    slots:
      - name: a
        type: string
      - name: b
        type: ref
examples:
- user: hi
  action: create
- user: yo
  action: nope
";

    #[test]
    fn finds_keys_and_items() {
        let idx = YamlIndex::build(DOC);
        assert_eq!(idx.locate("actions"), Some((1, 1)));
        assert_eq!(idx.locate("actions[0]"), Some((2, 3)));
        assert_eq!(idx.locate("actions[0].slots[1].type"), Some((9, 9)));
        assert_eq!(idx.locate("examples[1].action"), Some((14, 3)));
        assert_eq!(idx.locate("actions[0].description.text"), Some((3, 5)));
        assert_eq!(idx.locate("examples[1].slots.x"), Some((13, 1)));
    }
}
