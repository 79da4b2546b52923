//! Reply texts as message catalogs: `skills/messages/<lang>.ftl`, one Project Fluent file per
//! language beside the lexicon. Fluent rather than a home-made template table because its
//! files already carry what replies need and translators know: named arguments, selectors
//! for plurals and cases (`{ $count -> [one] … *[other] … }`), comments, and a parser that
//! reports where a file is wrong. Numbers are passed as text: money stays the exact decimal
//! the caller formatted, never a float Fluent would format.
//!
//! A catalog is checked like a skill file: a syntax error is a diagnostic with file, line and
//! column, and every message must exist in every language (a reply never falls back to its
//! id or to another language).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource};

use crate::error::{Diagnostic, DiagnosticKind, LoadError};
use crate::text::Lang;

include!(concat!(env!("OUT_DIR"), "/builtin_messages.rs"));

/// The messages of every language.
pub struct Catalog {
    bundles: BTreeMap<String, FluentBundle<FluentResource>>,
}

impl std::fmt::Debug for Catalog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Catalog")
            .field("languages", &self.bundles.keys().collect::<Vec<_>>())
            .finish()
    }
}

/// The file stem of a language's catalog.
fn code(lang: Lang) -> &'static str {
    match lang {
        Lang::Zh => "zh",
        Lang::En => "en",
    }
}

impl Catalog {
    /// The built-in catalogs, parsed once. A broken built-in catalog is a build-time mistake
    /// the `builtin_catalogs_load` test catches; at run time it yields an empty catalog whose
    /// every text says which message is missing, rather than a panic.
    pub fn builtin() -> &'static Catalog {
        static CATALOG: OnceLock<Catalog> = OnceLock::new();
        CATALOG.get_or_init(|| {
            Catalog::parse(builtin_files()).unwrap_or(Catalog {
                bundles: BTreeMap::new(),
            })
        })
    }

    /// Parse `(path, source)` pairs, `…/messages/<lang>.ftl`: the file stem is the language,
    /// the path is what diagnostics show.
    pub fn parse<'a>(
        files: impl Iterator<Item = (&'a str, &'a str)>,
    ) -> Result<Catalog, LoadError> {
        let mut bundles = BTreeMap::new();
        let mut ids: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        let mut files_of: BTreeMap<String, String> = BTreeMap::new();
        let mut diagnostics = Vec::new();
        for (rel, source) in files {
            let lang = std::path::Path::new(rel)
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or_default()
                .to_string();
            let file = rel.to_string();
            files_of.insert(lang.clone(), file.clone());
            let resource = match FluentResource::try_new(source.to_string()) {
                Ok(r) => r,
                Err((_, errors)) => {
                    diagnostics.extend(errors.iter().map(|e| {
                        at(
                            &file,
                            source,
                            e.pos.start,
                            DiagnosticKind::YamlSyntax,
                            e.to_string(),
                        )
                    }));
                    continue;
                }
            };
            ids.insert(lang.clone(), message_ids(&resource));
            // The language picks the plural rules (`[one]` in English; Chinese has only `other`).
            let locale = unic_langid::LanguageIdentifier::from_bytes(lang.as_bytes());
            let mut bundle = FluentBundle::new_concurrent(locale.into_iter().collect());
            // Isolation marks (U+2068/U+2069) around arguments show as boxes in terminals.
            bundle.set_use_isolating(false);
            if let Err(errors) = bundle.add_resource(resource) {
                diagnostics.extend(errors.iter().map(|e| {
                    at(
                        &file,
                        source,
                        0,
                        DiagnosticKind::Duplicate,
                        format!("{e:?}"),
                    )
                }));
            }
            bundles.insert(lang, bundle);
        }
        diagnostics.extend(missing_translations(&ids, &files_of));
        if diagnostics.is_empty() {
            Ok(Catalog { bundles })
        } else {
            Err(LoadError { diagnostics })
        }
    }

    /// Message `id` in `lang` with `args` (name, text). A missing message or argument shows
    /// as its id in braces, which the catalog test rules out for the built-ins.
    pub fn text(&self, lang: Lang, id: &str, args: &[(&str, &str)]) -> String {
        self.format(lang, id, None, args)
    }

    /// Message `id` with a count that selects its plural form (`$count`), plus `args`.
    pub fn counted(&self, lang: Lang, id: &str, count: usize, args: &[(&str, &str)]) -> String {
        self.format(lang, id, Some(count), args)
    }

    fn format(&self, lang: Lang, id: &str, count: Option<usize>, args: &[(&str, &str)]) -> String {
        let Some(bundle) = self.bundles.get(code(lang)) else {
            return format!("{{{id}}}");
        };
        let Some(pattern) = bundle.get_message(id).and_then(|m| m.value()) else {
            return format!("{{{id}}}");
        };
        let mut fluent_args = FluentArgs::new();
        if let Some(count) = count {
            fluent_args.set("count", count);
        }
        for (name, value) in args {
            fluent_args.set(*name, value.to_string());
        }
        let mut errors = Vec::new();
        bundle
            .format_pattern(pattern, Some(&fluent_args), &mut errors)
            .into_owned()
    }

    /// Whether `id` exists in every language.
    pub fn has(&self, id: &str) -> bool {
        !self.bundles.is_empty() && self.bundles.values().all(|b| b.has_message(id))
    }
}

/// The built-in catalogs as `(skills/messages/<lang>.ftl, source)`.
fn builtin_files() -> impl Iterator<Item = (&'static str, &'static str)> {
    BUILTIN_MESSAGES.iter().map(|(rel, src)| (*rel, *src))
}

/// Check `dir/messages/*.ftl` as `nofxi skills lint DIR` does: how many files, and their
/// problems (a directory without catalogs has none).
pub fn lint_messages_dir(dir: &std::path::Path) -> (usize, Vec<Diagnostic>) {
    let Ok(entries) = std::fs::read_dir(dir.join("messages")) else {
        return (0, Vec::new());
    };
    let mut files = Vec::new();
    let mut problems = Vec::new();
    for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
        if path.extension().is_none_or(|e| e != "ftl") {
            continue;
        }
        let shown = path.display().to_string();
        match std::fs::read_to_string(&path) {
            Ok(source) => files.push((shown, source)),
            Err(e) => problems.push(at(&shown, "", 0, DiagnosticKind::YamlSyntax, e.to_string())),
        }
    }
    files.sort();
    if let Err(e) = Catalog::parse(files.iter().map(|(p, s)| (p.as_str(), s.as_str()))) {
        problems.extend(e.diagnostics);
    }
    (files.len(), problems)
}

fn message_ids(resource: &FluentResource) -> BTreeSet<String> {
    resource
        .entries()
        .filter_map(|e| match e {
            fluent_syntax::ast::Entry::Message(m) => Some(m.id.name.to_string()),
            _ => None,
        })
        .collect()
}

/// A message one language has and another lacks.
fn missing_translations(
    ids: &BTreeMap<String, BTreeSet<String>>,
    files: &BTreeMap<String, String>,
) -> Vec<Diagnostic> {
    let all: BTreeSet<&String> = ids.values().flatten().collect();
    let mut out = Vec::new();
    for (lang, have) in ids {
        for id in all.iter().filter(|id| !have.contains(**id)) {
            out.push(Diagnostic {
                file: files.get(lang).cloned().unwrap_or_default(),
                line: 1,
                column: 1,
                kind: DiagnosticKind::MissingText,
                message: format!("message `{id}` is missing in this language; add it"),
            });
        }
    }
    out
}

/// A diagnostic at byte `offset` of `source`.
fn at(
    file: &str,
    source: &str,
    offset: usize,
    kind: DiagnosticKind,
    message: String,
) -> Diagnostic {
    let before = &source[..offset.min(source.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    Diagnostic {
        file: file.to_string(),
        line,
        column,
        kind,
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_catalogs_load() {
        let catalog = Catalog::parse(builtin_files()).map_err(|e| e.to_string());
        assert!(catalog.is_ok(), "{catalog:?}");
    }

    #[test]
    fn a_message_missing_in_one_language_is_named() {
        let files = [
            (
                "skills/messages/en.ftl",
                "hello = Hello { $name }\nbye = Bye\n",
            ),
            ("skills/messages/zh.ftl", "hello = 你好 { $name }\n"),
        ];
        let err = Catalog::parse(files.into_iter())
            .err()
            .map(|e| e.to_string());
        let err = err.unwrap_or_default();
        assert!(
            err.contains("skills/messages/zh.ftl") && err.contains("`bye`"),
            "{err}"
        );
    }

    #[test]
    fn a_syntax_error_points_at_its_line() {
        let files = [("skills/messages/en.ftl", "ok = fine\nbroken = { $\n")];
        let err = Catalog::parse(files.into_iter())
            .err()
            .map(|e| e.to_string());
        assert!(
            err.unwrap_or_default()
                .contains("skills/messages/en.ftl:2:")
        );
    }

    #[test]
    fn arguments_and_plurals_are_filled() {
        let files = [
            (
                "messages/en.ftl",
                "n = { $count ->\n    [one] one cycle of { $who }\n   *[other] { $count } cycles of { $who }\n}\n",
            ),
            (
                "skills/messages/zh.ftl",
                "n = { $who } 的 { $count } 个周期\n",
            ),
        ];
        let Ok(c) = Catalog::parse(files.into_iter()) else {
            panic!("the test catalog parses");
        };
        assert_eq!(
            c.counted(Lang::En, "n", 1, &[("who", "alpha")]),
            "one cycle of alpha"
        );
        assert_eq!(
            c.counted(Lang::En, "n", 3, &[("who", "alpha")]),
            "3 cycles of alpha"
        );
        assert_eq!(
            c.counted(Lang::Zh, "n", 3, &[("who", "alpha")]),
            "alpha 的 3 个周期"
        );
        assert_eq!(c.text(Lang::En, "missing", &[]), "{missing}");
    }
}
