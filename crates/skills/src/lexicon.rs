//! Lexicon files: the words the assistant's understanding uses, as data beside the skills.
//!
//! `skills/lexicon/<lang>.yaml` holds one language's words (the file header of `en.yaml` says
//! why one file per language). Each top-level key is a [`WordClass`]; its value is a list of
//! words, or for [`WordClass::Ordinal`] a list of `word: position`. This module only reads and
//! checks the files — every problem a [`Diagnostic`] at `file:line:col`, all of them at once,
//! like a skill file's — and hands the words, lower-cased and in file order, to the assistant,
//! which folds them into its one `Lexicon`. What a class means to the understanding is the
//! assistant's business; the class names are here so a typo in a file is caught by the lint.

use std::collections::BTreeMap;

use yaml_serde::Value;

use crate::error::{Diagnostic, DiagnosticKind, LoadError};
use crate::locate::YamlIndex;

/// The classes of words the understanding reads. One per job a word does in a message;
/// a word may be in several classes ("继续" confirms and resumes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum WordClass {
    Confirm,
    Deny,
    Cancel,
    CancelAll,
    Reference,
    Ordinal,
    Resume,
    Defaults,
    OffPhrase,
    ErrorReport,
    Question,
    Negation,
    See,
    SecretNoun,
    RequestJoin,
    AndJoin,
    KeepAsIs,
    ToResource,
    FromResource,
    Except,
    ExceptEnd,
    ListSeparator,
    All,
    /// Takes back the request said before it ("actually no", "算了").
    Retraction,
    /// Puts the request under a condition or later ("if …", "remind me", "明天").
    Condition,
    /// Reports someone else's request ("I was told to …").
    Reported,
    /// Complains that something fails ("keeps failing", "启动不了").
    Complaint,
    /// Says to make a new one of whatever kind is named ("make me a", "spin up", "建个"):
    /// every create action's verbs, beside the ones its skill lists.
    CreateVerb,
    /// Right after a verb, joins it to a noun it describes ("删掉的交易员", the deleted trader):
    /// the verb says which one, not what to do.
    Attributive,
    /// Right before a value, says it is not the value meant ("不是币安", "instead of binance").
    NotValue,
    /// Right before a boolean's phrase, turns it off ("don't use", "不要", "disable").
    TurnOff,
    /// The turn-off words that reach over a name to the phrase ("禁用 main 的测试网").
    TurnOffVerb,
    /// Turns on the boolean phrase after it ("enable testnet on main", "开启").
    TurnOn,
    /// Right after a boolean's phrase, sets it false ("testnet false", "测试网 关").
    SetFalse,
    /// A few words after a boolean's phrase, sets it false ("testnet of main to false").
    SetFalseLater,
    /// Joins settings switched together ("disable RSI and MACD", "RSI、MACD").
    SettingJoin,
    /// Names a setting no slot holds ("stop loss", "止损"): a number after it is its own.
    OtherSetting,
    /// Before the value being replaced ("from 10x to 3x", "从 78").
    FromValue,
    /// Between the old value and the new ("from 10x to 3x", "从 78 调到 60").
    ToValue,
    /// After a yes, turns what follows into a change of what waits ("yes but 20", "可以，不过改成 20").
    Contrast,
}

impl WordClass {
    pub const ALL: [WordClass; 40] = [
        WordClass::Confirm,
        WordClass::Deny,
        WordClass::Cancel,
        WordClass::CancelAll,
        WordClass::Reference,
        WordClass::Ordinal,
        WordClass::Resume,
        WordClass::Defaults,
        WordClass::OffPhrase,
        WordClass::ErrorReport,
        WordClass::Question,
        WordClass::Negation,
        WordClass::See,
        WordClass::SecretNoun,
        WordClass::RequestJoin,
        WordClass::AndJoin,
        WordClass::KeepAsIs,
        WordClass::ToResource,
        WordClass::FromResource,
        WordClass::Except,
        WordClass::ExceptEnd,
        WordClass::ListSeparator,
        WordClass::All,
        WordClass::Retraction,
        WordClass::Condition,
        WordClass::Reported,
        WordClass::Complaint,
        WordClass::CreateVerb,
        WordClass::Attributive,
        WordClass::NotValue,
        WordClass::TurnOff,
        WordClass::TurnOffVerb,
        WordClass::TurnOn,
        WordClass::SetFalse,
        WordClass::SetFalseLater,
        WordClass::SettingJoin,
        WordClass::OtherSetting,
        WordClass::FromValue,
        WordClass::ToValue,
        WordClass::Contrast,
    ];

    /// The class's key in a lexicon file.
    pub fn name(self) -> &'static str {
        match self {
            WordClass::Confirm => "confirm",
            WordClass::Deny => "deny",
            WordClass::Cancel => "cancel",
            WordClass::CancelAll => "cancel_all",
            WordClass::Reference => "reference",
            WordClass::Ordinal => "ordinal",
            WordClass::Resume => "resume",
            WordClass::Defaults => "defaults",
            WordClass::OffPhrase => "off_phrase",
            WordClass::ErrorReport => "error_report",
            WordClass::Question => "question",
            WordClass::Negation => "negation",
            WordClass::See => "see",
            WordClass::SecretNoun => "secret_noun",
            WordClass::RequestJoin => "request_join",
            WordClass::AndJoin => "and_join",
            WordClass::KeepAsIs => "keep_as_is",
            WordClass::ToResource => "to_resource",
            WordClass::FromResource => "from_resource",
            WordClass::Except => "except",
            WordClass::ExceptEnd => "except_end",
            WordClass::ListSeparator => "list_separator",
            WordClass::All => "all",
            WordClass::Retraction => "retraction",
            WordClass::Condition => "condition",
            WordClass::Reported => "reported",
            WordClass::Complaint => "complaint",
            WordClass::CreateVerb => "create_verb",
            WordClass::Attributive => "attributive",
            WordClass::NotValue => "not_value",
            WordClass::TurnOff => "turn_off",
            WordClass::TurnOffVerb => "turn_off_verb",
            WordClass::TurnOn => "turn_on",
            WordClass::SetFalse => "set_false",
            WordClass::SetFalseLater => "set_false_later",
            WordClass::SettingJoin => "setting_join",
            WordClass::OtherSetting => "other_setting",
            WordClass::FromValue => "from_value",
            WordClass::ToValue => "to_value",
            WordClass::Contrast => "contrast",
        }
    }

    pub fn parse(name: &str) -> Option<WordClass> {
        WordClass::ALL.into_iter().find(|c| c.name() == name)
    }

    /// Whether the class's items carry a position (`word: 2`) rather than being bare words.
    fn positional(self) -> bool {
        self == WordClass::Ordinal
    }
}

/// One word of a class: its text, lower-cased, and for an ordinal its 1-based position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    pub text: String,
    pub position: Option<usize>,
}

/// The words of one or more lexicon files, by class, each class in file order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Words {
    classes: BTreeMap<WordClass, Vec<Word>>,
}

impl Words {
    /// The words of `class`, in the order the files list them.
    pub fn of(&self, class: WordClass) -> &[Word] {
        self.classes.get(&class).map_or(&[], Vec::as_slice)
    }

    /// `other`'s words after this one's; a word already in a class is not added again.
    pub fn extend(&mut self, other: Words) {
        for (class, words) in other.classes {
            let mine = self.classes.entry(class).or_default();
            for w in words {
                if !mine.iter().any(|m| m.text == w.text) {
                    mine.push(w);
                }
            }
        }
    }

    /// How many words in all classes.
    pub fn len(&self) -> usize {
        self.classes.values().map(Vec::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Parse one lexicon file; `file` is the path diagnostics name.
pub fn parse_lexicon(source: &str, file: &str) -> Result<Words, LoadError> {
    let index = YamlIndex::build(source);
    let at = |path: &str| index.locate(path).unwrap_or((1, 1));
    let diag = |path: &str, kind: DiagnosticKind, message: String| {
        let (line, column) = at(path);
        Diagnostic {
            file: file.to_string(),
            line,
            column,
            kind,
            message,
        }
    };
    let root: Value = match yaml_serde::from_str(source) {
        Ok(v) => v,
        Err(e) => {
            let (line, column) = e.location().map_or((1, 1), |l| (l.line(), l.column()));
            return Err(LoadError {
                diagnostics: vec![Diagnostic {
                    file: file.to_string(),
                    line,
                    column,
                    kind: DiagnosticKind::YamlSyntax,
                    message: e.to_string(),
                }],
            });
        }
    };
    let mut words = Words::default();
    let mut diagnostics = Vec::new();
    let Value::Mapping(map) = root else {
        // An empty file is an empty lexicon; anything else but a map is a mistake.
        if root.is_null() {
            return Ok(words);
        }
        return Err(LoadError {
            diagnostics: vec![diag(
                "",
                DiagnosticKind::WrongType,
                "a lexicon file is a map of word classes to lists of words".into(),
            )],
        });
    };
    for (key, value) in map {
        let Some(name) = key.as_str() else {
            diagnostics.push(diag(
                "",
                DiagnosticKind::WrongType,
                "a word class is named by a string".into(),
            ));
            continue;
        };
        let Some(class) = WordClass::parse(name) else {
            diagnostics.push(diag(
                name,
                DiagnosticKind::UnknownClass,
                unknown_class(name),
            ));
            continue;
        };
        let Value::Sequence(items) = value else {
            diagnostics.push(diag(
                name,
                DiagnosticKind::WrongType,
                format!("`{name}` must be a list of words"),
            ));
            continue;
        };
        let list = words.classes.entry(class).or_default();
        for (i, item) in items.iter().enumerate() {
            let path = format!("{name}[{i}]");
            match read_word(class, item) {
                Err(problem) => diagnostics.push(diag(&path, problem.0, problem.1)),
                Ok(word) if list.iter().any(|w| w.text == word.text) => diagnostics.push(diag(
                    &path,
                    DiagnosticKind::Duplicate,
                    format!("`{}` is already a word of `{name}`; remove one", word.text),
                )),
                Ok(word) => list.push(word),
            }
        }
    }
    if diagnostics.is_empty() {
        Ok(words)
    } else {
        Err(LoadError { diagnostics })
    }
}

fn unknown_class(name: &str) -> String {
    let known: Vec<&str> = WordClass::ALL.iter().map(|c| c.name()).collect();
    format!(
        "unknown word class `{name}`; expected one of: {}",
        known.join(", ")
    )
}

/// One list item as a word of `class`, or what is wrong with it.
fn read_word(class: WordClass, item: &Value) -> Result<Word, (DiagnosticKind, String)> {
    let name = class.name();
    let (text, position) = match (class.positional(), item) {
        (false, Value::String(s)) => (s.as_str(), None),
        (false, _) => {
            return Err((
                DiagnosticKind::WrongType,
                format!("a word of `{name}` is a string; quote it (\"no\", \"?\")"),
            ));
        }
        (true, Value::Mapping(m)) if m.len() == 1 => {
            let (k, v) = m.iter().next().ok_or_else(|| ordinal_shape(name))?;
            let text = k.as_str().ok_or_else(|| ordinal_shape(name))?;
            let position = v
                .as_u64()
                .filter(|p| *p >= 1)
                .and_then(|p| usize::try_from(p).ok())
                .ok_or_else(|| ordinal_shape(name))?;
            (text, Some(position))
        }
        (true, _) => return Err(ordinal_shape(name)),
    };
    if text.trim().is_empty() {
        return Err((
            DiagnosticKind::EmptyWord,
            format!("an empty word in `{name}` would match every message; remove it"),
        ));
    }
    Ok(Word {
        text: text.to_lowercase(),
        position,
    })
}

fn ordinal_shape(name: &str) -> (DiagnosticKind, String) {
    (
        DiagnosticKind::WrongType,
        format!("an item of `{name}` is `word: position`, a position from 1 (`the second: 2`)"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problems(source: &str) -> Vec<String> {
        match parse_lexicon(source, "lexicon/en.yaml") {
            Ok(_) => Vec::new(),
            Err(e) => e.diagnostics.iter().map(ToString::to_string).collect(),
        }
    }

    #[test]
    fn words_are_read_by_class_lower_cased_in_order() {
        let words = parse_lexicon(
            "confirm:\n  - Yes\n  - go ahead\nordinal:\n  - the second: 2\n",
            "en.yaml",
        )
        .unwrap();
        let texts: Vec<&str> = words
            .of(WordClass::Confirm)
            .iter()
            .map(|w| w.text.as_str())
            .collect();
        assert_eq!(texts, ["yes", "go ahead"]);
        assert_eq!(
            words.of(WordClass::Ordinal),
            [Word {
                text: "the second".into(),
                position: Some(2)
            }]
        );
        assert!(words.of(WordClass::Deny).is_empty());
    }

    #[test]
    fn an_unknown_class_is_named_at_its_line() {
        let found = problems("confirm:\n  - yes\nconfirmm:\n  - ok\n");
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].starts_with(
                "lexicon/en.yaml:3:1: unknown_class: unknown word class `confirmm`; expected one of: confirm, deny,"
            ),
            "{found:?}"
        );
        // Every class is offered, so the message never goes stale as classes are added.
        for class in WordClass::ALL {
            assert!(found[0].contains(class.name()), "{found:?}");
        }
    }

    #[test]
    fn a_duplicate_word_is_found_after_lower_casing() {
        assert_eq!(
            problems("deny:\n  - no\n  - nope\n  - NO\n"),
            ["lexicon/en.yaml:4:3: duplicate: `no` is already a word of `deny`; remove one"]
        );
    }

    #[test]
    fn an_empty_word_and_a_bad_ordinal_are_each_reported() {
        assert_eq!(
            problems("cancel:\n  - \"  \"\nordinal:\n  - first\n  - the second: 0\n"),
            [
                "lexicon/en.yaml:2:3: empty_word: an empty word in `cancel` would match every message; remove it",
                "lexicon/en.yaml:4:3: wrong_type: an item of `ordinal` is `word: position`, a position from 1 (`the second: 2`)",
                "lexicon/en.yaml:5:3: wrong_type: an item of `ordinal` is `word: position`, a position from 1 (`the second: 2`)",
            ]
        );
    }

    #[test]
    fn a_class_that_is_no_list_and_a_word_that_is_no_string() {
        assert_eq!(
            problems("question: what\nnegation:\n  - [not]\n"),
            [
                "lexicon/en.yaml:1:1: wrong_type: `question` must be a list of words",
                "lexicon/en.yaml:3:3: wrong_type: a word of `negation` is a string; quote it (\"no\", \"?\")",
            ]
        );
    }

    #[test]
    fn yaml_syntax_errors_carry_their_position() {
        let found = problems("confirm:\n  - yes\n - no\n");
        assert_eq!(found.len(), 1);
        assert!(found[0].starts_with("lexicon/en.yaml:3:"), "{found:?}");
        assert!(found[0].contains("yaml_syntax"), "{found:?}");
    }

    #[test]
    fn extending_keeps_order_and_skips_words_already_there() {
        let mut a = parse_lexicon("confirm: [ok, sure]\n", "en.yaml").unwrap();
        let b = parse_lexicon("confirm: [好, ok]\n", "zh.yaml").unwrap();
        a.extend(b);
        let texts: Vec<&str> = a
            .of(WordClass::Confirm)
            .iter()
            .map(|w| w.text.as_str())
            .collect();
        assert_eq!(texts, ["ok", "sure", "好"]);
        assert_eq!(a.len(), 3);
    }
}
