//! Splits a SKILL.md into its frontmatter and its fenced ```yaml blocks, remembering on which
//! line of the file each block's first content line sits, so YAML positions can be reported as
//! positions in the markdown file. Other fenced blocks (```json, ```text) are prose for humans.

use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};

/// A piece of YAML and the 1-based line of the file its first line is on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Block {
    pub text: String,
    pub first_line: usize,
}

#[derive(Debug, Clone)]
pub(crate) struct Document {
    pub frontmatter: Block,
    pub yaml_blocks: Vec<Block>,
    /// The markdown after the frontmatter: prose for humans (and the "body on use" of the
    /// Agent Skills spec).
    pub body: String,
}

/// Why a file does not even have the shape of a SKILL.md.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ShapeError {
    pub line: usize,
    pub message: String,
}

pub(crate) fn split(source: &str) -> Result<Document, ShapeError> {
    let source = source.strip_prefix('\u{feff}').unwrap_or(source);
    let mut lines = source.split_inclusive('\n');
    let first = lines.next().unwrap_or("");
    if first.trim_end() != "---" {
        return Err(ShapeError {
            line: 1,
            message: "expected the file to start with YAML frontmatter: a line `---`, the \
                      fields `name` and `description`, and a closing `---`"
                .into(),
        });
    }
    let mut offset = first.len();
    let front_start = offset;
    let mut line_no = 1;
    let mut front_end = None;
    for line in lines {
        line_no += 1;
        if matches!(line.trim_end(), "---" | "...") {
            front_end = Some((offset, offset + line.len()));
            break;
        }
        offset += line.len();
    }
    let Some((front_stop, body_start)) = front_end else {
        return Err(ShapeError {
            line: 1,
            message: "the frontmatter opened on line 1 is never closed: expected a line `---`"
                .into(),
        });
    };
    let frontmatter = Block {
        text: source[front_start..front_stop].to_string(),
        first_line: 2,
    };
    let body = &source[body_start..];
    let body_first_line = line_no + 1;
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(body.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let line_of = |byte: usize| match line_starts.binary_search(&byte) {
        Ok(i) => i,
        Err(i) => i.saturating_sub(1),
    };

    let mut yaml_blocks = Vec::new();
    let mut current: Option<(usize, String, bool)> = None;
    for (event, range) in Parser::new(body).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) => {
                let lang = info.split_whitespace().next().unwrap_or("");
                let is_yaml = matches!(lang, "yaml" | "yml");
                // The content starts on the line after the opening fence.
                current = Some((line_of(range.start) + 1, String::new(), is_yaml));
            }
            Event::Text(text) => {
                if let Some((_, buf, _)) = current.as_mut() {
                    buf.push_str(&text);
                }
            }
            Event::End(TagEnd::CodeBlock) => {
                if let Some((line, text, true)) = current.take() {
                    yaml_blocks.push(Block {
                        text,
                        first_line: body_first_line + line,
                    });
                }
            }
            _ => {}
        }
    }
    Ok(Document {
        frontmatter,
        yaml_blocks,
        body: body.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_know_their_file_lines() {
        let src = "---\nname: a\ndescription: b\n---\n# Title\n\n```yaml\nskill:\n  kind: guidance\n```\n\ntext\n\n```json\n{}\n```\n```yaml\nexamples: []\n```\n";
        let doc = split(src).unwrap();
        assert_eq!(doc.frontmatter.first_line, 2);
        assert_eq!(doc.frontmatter.text, "name: a\ndescription: b\n");
        assert_eq!(doc.yaml_blocks.len(), 2);
        assert_eq!(doc.yaml_blocks[0].first_line, 8);
        assert_eq!(doc.yaml_blocks[0].text, "skill:\n  kind: guidance\n");
        assert_eq!(doc.yaml_blocks[1].first_line, 18);
    }

    #[test]
    fn missing_frontmatter_is_reported_on_line_one() {
        let err = split("# no frontmatter\n").unwrap_err();
        assert_eq!(err.line, 1);
        assert!(split("---\nname: a\n").is_err());
    }
}
