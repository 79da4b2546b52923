//! Diagnostics: every problem in a skill file is reported as `file:line:column: kind: message`,
//! where the message says what was found and what was expected. The loader collects all of them
//! (not only the first) so `nofxi skills lint` shows a whole file's problems in one run.

use std::fmt;

use serde::Serialize;

/// The class of a problem, stable for tests and for machine-readable lint output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DiagnosticKind {
    Io,
    Frontmatter,
    YamlSyntax,
    UnknownKey,
    MissingKey,
    WrongType,
    UnknownSlotType,
    UnknownRefKind,
    UnknownAction,
    UnknownFunction,
    UnknownSlot,
    UnknownField,
    UnknownEntry,
    UnknownSkill,
    UnknownTool,
    UnknownPlaceholder,
    InvalidSchema,
    InvalidPattern,
    InvalidValue,
    Duplicate,
    MissingText,
    NameClash,
    UnknownClass,
    EmptyWord,
}

impl DiagnosticKind {
    pub fn as_str(self) -> &'static str {
        match self {
            DiagnosticKind::Io => "io",
            DiagnosticKind::Frontmatter => "frontmatter",
            DiagnosticKind::YamlSyntax => "yaml_syntax",
            DiagnosticKind::UnknownKey => "unknown_key",
            DiagnosticKind::MissingKey => "missing_key",
            DiagnosticKind::WrongType => "wrong_type",
            DiagnosticKind::UnknownSlotType => "unknown_slot_type",
            DiagnosticKind::UnknownRefKind => "unknown_ref_kind",
            DiagnosticKind::UnknownAction => "unknown_action",
            DiagnosticKind::UnknownFunction => "unknown_function",
            DiagnosticKind::UnknownSlot => "unknown_slot",
            DiagnosticKind::UnknownField => "unknown_field",
            DiagnosticKind::UnknownEntry => "unknown_entry",
            DiagnosticKind::UnknownSkill => "unknown_skill",
            DiagnosticKind::UnknownTool => "unknown_tool",
            DiagnosticKind::UnknownPlaceholder => "unknown_placeholder",
            DiagnosticKind::InvalidSchema => "invalid_schema",
            DiagnosticKind::InvalidPattern => "invalid_pattern",
            DiagnosticKind::InvalidValue => "invalid_value",
            DiagnosticKind::Duplicate => "duplicate",
            DiagnosticKind::MissingText => "missing_text",
            DiagnosticKind::NameClash => "name_clash",
            DiagnosticKind::UnknownClass => "unknown_class",
            DiagnosticKind::EmptyWord => "empty_word",
        }
    }
}

impl fmt::Display for DiagnosticKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One problem at one place. Lines and columns are 1-based and refer to the SKILL.md file as a
/// whole (YAML block positions are mapped back to the markdown line).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub kind: DiagnosticKind,
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}: {}",
            self.file, self.line, self.column, self.kind, self.message
        )
    }
}

/// Loading failed: one or more diagnostics, printed one per line.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{}", render(.diagnostics))]
pub struct LoadError {
    pub diagnostics: Vec<Diagnostic>,
}

fn render(diagnostics: &[Diagnostic]) -> String {
    diagnostics
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}
