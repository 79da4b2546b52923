//! What is wrong with a resource, said so that a person can fix it.
//!
//! Validation never stops at the first problem: a user who forgot two credentials should hear
//! about both in one message, not one per attempt. Each [`FieldProblem`] names the field (the
//! same snake_case name the CLI turns into `--flag-name` and the skills use as a slot name) and
//! knows its own fix, in English (`Display`) and Chinese ([`FieldProblem::to_zh`]), because the
//! assistant answers in the user's language. Values a user typed are echoed only when they are
//! not secret; problems about secrets never carry the secret.
//!
//! [`Adjustment`] is the other half: a value that was accepted after being changed (a scan
//! interval clamped into range). It is reported, never silent.

use std::fmt;

use serde::{Deserialize, Serialize};

/// One thing wrong with one field, and how to fix it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldProblem {
    /// The field's snake_case name, dotted for nested config (`risk_control.max_positions`).
    pub field: String,
    pub problem: Problem,
}

/// The kinds of problems, each carrying what its message needs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "problem", rename_all = "snake_case")]
pub enum Problem {
    /// A required value is absent or blank.
    Required,
    /// A credential this exchange type needs was not given.
    MissingCredential { exchange_type: String },
    /// A credential this exchange type does not use was given (likely a mix-up of fields).
    UnusedCredential { exchange_type: String },
    /// A credential given with nothing in it (`--passphrase ""`): refused rather than taken
    /// for "not given", which said "updated" and changed nothing. `issuer` is the exchange
    /// type or the model provider whose credential it is, for what to give instead.
    EmptyCredential { issuer: String },
    /// An API key given for a model provider that calls nothing with one (the offline rules).
    UnusedByProvider { provider: String },
    /// A number outside its allowed range.
    OutOfRange {
        min: String,
        max: String,
        got: String,
    },
    /// A value that is not one of the allowed choices.
    NotOneOf { allowed: Vec<String>, got: String },
    /// An exchange type nofxi knows (accounts made earlier still load) but no longer offers
    /// for new accounts, because it cannot trade on it; `offered` are the types it does.
    NotOffered {
        exchange_type: String,
        offered: Vec<String>,
    },
    /// A URL that would send credentials in clear text.
    InsecureUrl { got: String },
    /// A URL carrying credentials (`user:password@`, a query string): never repeated back.
    CredentialsInUrl,
    /// Text that does not parse as what the field holds.
    Malformed { expected: String, got: String },
    /// Another resource of the same kind already has this name (names compare case-insensitively).
    DuplicateName { name: String },
    /// Text longer than the field allows.
    TooLong { max: usize },
    /// A list with more entries than allowed.
    TooMany { max: usize },
    /// A coin the alias table does not know, with the known ones nearest to it.
    UnknownCoin { got: String, nearest: Vec<String> },
    /// A name holding a character that hides or rewrites text where it is shown (a control
    /// character, an escape sequence, a newline, a zero-width or bidi character).
    HiddenCharacter { code_point: String },
    /// A credential value holding a space inside, a control or an invisible character (`what`
    /// names it by code point; the value itself is never carried).
    CredentialCharacter { what: String },
    /// A credential not in the form its field takes (a private key that is not hex); the
    /// value is never repeated.
    CredentialFormat { expected: String },
    /// A credential wrapped in quote marks (`"AK…"`): shell quoting typed where no shell is.
    QuotedCredential { open: char, close: char },
    /// A name shaped like an API key or private key: it would be masked in every reply and
    /// refused wherever the chat reads it, so it could never be addressed there.
    LooksLikeKey,
    /// Free text (a description, a prompt, a model's name) holding something shaped like an
    /// API key or private key: it is stored and shown in clear, so the key would be too.
    KeyInText,
    /// Free text holding a control character other than a tab or a line break (ESC and so a
    /// terminal escape sequence, BEL, a lone carriage return).
    ControlCharacter { code_point: String },
    /// A name that is another resource's id, which would make references ambiguous.
    NameIsAnId { id: String },
    /// A reference (name or id) to another resource that this user does not have.
    UnknownReference { kind: String, reference: String },
    /// A referenced resource exists but is switched off.
    Disabled { kind: String, name: String },
    /// A referenced exchange account lacks credentials its type needs.
    IncompleteCredentials { name: String, missing: Vec<String> },
}

impl FieldProblem {
    pub fn new(field: impl Into<String>, problem: Problem) -> Self {
        FieldProblem {
            field: field.into(),
            problem,
        }
    }

    /// The fix in English, without the field prefix.
    pub fn fix(&self) -> String {
        let f = &self.field;
        match &self.problem {
            Problem::Required => format!("`{f}` is required: give it a value"),
            Problem::MissingCredential { exchange_type } => {
                format!("`{f}` is required for {exchange_type} accounts: provide it")
            }
            Problem::UnusedCredential { exchange_type } => format!(
                "`{f}` is not used by {exchange_type} accounts: leave it out (check the type or the field)"
            ),
            Problem::EmptyCredential { issuer } => format!(
                "`{f}` is empty: give {}",
                crate::credentials::what_to_give(&self.field, issuer, false)
            ),
            Problem::UnusedByProvider { provider } => format!(
                "`{f}` is not used by {provider} models, which call no API: leave it out (check the provider)"
            ),
            Problem::OutOfRange { min, max, got } => {
                format!("`{f}` must be between {min} and {max}, got {got}: choose a value in range")
            }
            Problem::NotOneOf { allowed, got } => {
                format!(
                    "`{f}` cannot be \"{}\": use one of {}",
                    shown_input(got),
                    allowed.join(", ")
                )
            }
            Problem::NotOffered {
                exchange_type,
                offered,
            } => format!(
                "`{f}` cannot be \"{0}\" for a new account: nofxi cannot trade on {0}, so it no longer offers it (accounts made earlier are kept); use one of {1}",
                shown_input(exchange_type),
                offered.join(", ")
            ),
            Problem::InsecureUrl { got } => format!(
                "`{f}` must use https (plain http only for localhost / 127.0.0.1 / ::1), got \"{}\": switch to the https URL",
                shown_input(got)
            ),
            Problem::CredentialsInUrl => format!(
                "`{f}` must not carry credentials (user info, a query or fragment, a key in the path): they would be stored and shown in clear; give the URL without them, and the key as the API key"
            ),
            Problem::Malformed { expected, got } => {
                format!(
                    "`{f}` must be {expected}, got \"{}\": correct the value",
                    shown_input(got)
                )
            }
            Problem::DuplicateName { name } => format!(
                "`{f}` \"{}\" is already taken (names are case-insensitive): choose another name or update the existing one",
                shown_input(name)
            ),
            Problem::TooLong { max } => {
                format!("`{f}` is longer than {max} characters: shorten it")
            }
            Problem::TooMany { max } => format!("`{f}` has more than {max} entries: remove some"),
            Problem::HiddenCharacter { code_point } => format!(
                "`{f}` contains the invisible or control character {code_point} (names are shown in terminals, logs and chats, where it hides or rewrites text): remove it"
            ),
            Problem::CredentialCharacter { what } => format!(
                "`{f}` contains {what}, which no credential holds (a copy from a web page or a chat often picks one up): paste the value again without it"
            ),
            Problem::QuotedCredential { open, close } => format!(
                "`{f}` is wrapped in quote marks ({open}…{close}), which are no part of a key: give the value without them"
            ),
            Problem::CredentialFormat { expected } => format!(
                "`{f}` must be {expected}, and the value given is not (it is not repeated here): check that you pasted the right value into the right field"
            ),
            Problem::LooksLikeKey => format!(
                "`{f}` looks like an API key or private key, and a name is shown in every list and reply: choose a name that is not a key"
            ),
            Problem::KeyInText => format!(
                "`{f}` holds what looks like an API key or private key, and this field is stored and shown in clear in every list and reply: remove it (a key goes in its own credential field, which is kept encrypted)"
            ),
            Problem::ControlCharacter { code_point } => format!(
                "`{f}` contains the control character {code_point}, which rewrites the terminal or chat the text is shown in: remove it (tabs and line breaks are fine)"
            ),
            Problem::NameIsAnId { id } => format!(
                "`{f}` \"{}\" is the id of another resource, so references to it would be ambiguous: choose another name",
                shown_input(id)
            ),
            Problem::UnknownCoin { got, nearest } if nearest.is_empty() => {
                format!(
                    "`{f}`: unknown coin \"{}\": use coins nofxi knows, such as BTC, ETH, SOL",
                    shown_input(got)
                )
            }
            Problem::UnknownCoin { got, nearest } => format!(
                "`{f}`: unknown coin \"{}\"; did you mean {}?",
                shown_input(got),
                nearest.join(", ")
            ),
            Problem::UnknownReference { kind, reference } => format!(
                "`{f}`: there is no {kind} \"{}\": pick one from `nofxi {kind} list` or create it first",
                shown_input(reference)
            ),
            Problem::Disabled { kind, name } => format!(
                "`{f}`: {kind} \"{0}\" is disabled: enable it (`nofxi {kind} update \"{0}\" --enabled true`) or pick another",
                shown_input(name)
            ),
            Problem::IncompleteCredentials { name, missing } => format!(
                "`{f}`: exchange \"{0}\" lacks {1}: add them with `nofxi exchange update \"{0}\"`",
                shown_input(name),
                missing.join(", ")
            ),
        }
    }

    /// The same message in Chinese, for replies to a user who writes Chinese.
    pub fn to_zh(&self) -> String {
        let f = &self.field;
        match &self.problem {
            Problem::Required => format!("缺少 `{f}`：请填写"),
            Problem::MissingCredential { exchange_type } => {
                format!("{exchange_type} 账户需要 `{f}`：请提供")
            }
            Problem::UnusedCredential { exchange_type } => {
                format!(
                    "{exchange_type} 账户不使用 `{f}`：请去掉它（检查交易所类型或字段是否填错）"
                )
            }
            Problem::UnusedByProvider { provider } => {
                format!(
                    "{provider} 模型不调用任何 API，不使用 `{f}`：请去掉它（检查 provider 是否填错）"
                )
            }
            Problem::EmptyCredential { issuer } => format!(
                "`{f}` 是空的：请填{}",
                crate::credentials::what_to_give(&self.field, issuer, true)
            ),
            Problem::OutOfRange { min, max, got } => {
                format!("`{f}` 必须在 {min} 到 {max} 之间，当前为 {got}：请改为范围内的值")
            }
            Problem::NotOneOf { allowed, got } => {
                format!(
                    "`{f}` 不能是 \"{}\"：可选值为 {}",
                    shown_input(got),
                    allowed.join("、")
                )
            }
            Problem::NotOffered {
                exchange_type,
                offered,
            } => format!(
                "`{f}` 不能是 \"{0}\"：nofxi 不能在 {0} 上交易，所以不再提供它来新建账户（以前建的账户会保留）；可选值为 {1}",
                shown_input(exchange_type),
                offered.join("、")
            ),
            Problem::InsecureUrl { got } => format!(
                "`{f}` 必须使用 https（仅 localhost / 127.0.0.1 / ::1 可用 http），当前为 \"{}\"：请改用 https 地址",
                shown_input(got)
            ),
            Problem::CredentialsInUrl => format!(
                "`{f}` 不能包含凭证（用户信息、查询参数或片段、路径里的密钥）：它们会被明文保存和显示；请去掉它们，密钥作为 API Key 单独提供"
            ),
            Problem::Malformed { expected, got } => {
                format!(
                    "`{f}` 应为{expected}，当前为 \"{}\"：请更正",
                    shown_input(got)
                )
            }
            Problem::DuplicateName { name } => {
                format!(
                    "名称 \"{}\" 已被使用（不区分大小写）：请换一个名称，或修改已有的那个",
                    shown_input(name)
                )
            }
            Problem::TooLong { max } => format!("`{f}` 超过 {max} 个字符：请缩短"),
            Problem::TooMany { max } => format!("`{f}` 超过 {max} 项：请删掉一些"),
            Problem::HiddenCharacter { code_point } => {
                format!("`{f}` 含有不可见或控制字符 {code_point}：请删除它")
            }
            Problem::CredentialCharacter { what } => {
                format!(
                    "`{f}` 含有凭证里不会有的字符（{what}，常见于从网页或聊天中复制）：请去掉后重新粘贴"
                )
            }
            Problem::QuotedCredential { open, close } => format!(
                "`{f}` 两端带有引号（{open}…{close}），引号不是密钥的一部分：请去掉引号后重新提供"
            ),
            Problem::CredentialFormat { expected } => format!(
                "`{f}` 应为{expected}，所给的值不是（此处不复述该值）：请确认粘贴的是正确的值、填在正确的字段"
            ),
            Problem::LooksLikeKey => {
                format!(
                    "`{f}` 看起来像 API 密钥或私钥，而名称会出现在每个列表和回复里：请换一个不是密钥的名称"
                )
            }
            Problem::KeyInText => format!(
                "`{f}` 里有看起来像 API 密钥或私钥的内容，而这个字段会明文保存并出现在每个列表和回复里：请去掉它（密钥请填在它自己的凭证字段，那里加密保存）"
            ),
            Problem::ControlCharacter { code_point } => format!(
                "`{f}` 含有控制字符 {code_point}，会改写显示它的终端或聊天：请删除它（制表符和换行可以保留）"
            ),
            Problem::NameIsAnId { id } => {
                format!(
                    "`{f}` \"{}\" 是另一个资源的 ID，会让引用产生歧义：请换一个名称",
                    shown_input(id)
                )
            }
            Problem::UnknownCoin { got, nearest } if nearest.is_empty() => {
                format!(
                    "`{f}`：不认识的币种 \"{}\"：请使用 BTC、ETH、SOL 等已知币种",
                    shown_input(got)
                )
            }
            Problem::UnknownCoin { got, nearest } => format!(
                "`{f}`：不认识的币种 \"{}\"；是不是 {}？",
                shown_input(got),
                nearest.join("、")
            ),
            Problem::UnknownReference { kind, reference } => format!(
                "`{f}`：找不到 {kind} \"{}\"：请从 `nofxi {kind} list` 中选择，或先创建它",
                shown_input(reference)
            ),
            Problem::Disabled { kind, name } => {
                format!(
                    "`{f}`：{kind} \"{}\" 已停用：请先启用，或换一个",
                    shown_input(name)
                )
            }
            Problem::IncompleteCredentials { name, missing } => format!(
                "`{f}`：交易所账户 \"{0}\" 缺少 {1}：请用 `nofxi exchange update \"{0}\"` 补全",
                shown_input(name),
                missing.join("、")
            ),
        }
    }
}

impl fmt::Display for FieldProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.fix())
    }
}

/// Every problem found in one resource. Never empty when returned as an error.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
pub struct ValidationError {
    pub problems: Vec<FieldProblem>,
}

impl ValidationError {
    pub fn single(field: impl Into<String>, problem: Problem) -> Self {
        ValidationError {
            problems: vec![FieldProblem::new(field, problem)],
        }
    }

    /// The field names in order, for tests and for asking the user for exactly those slots.
    pub fn fields(&self) -> Vec<&str> {
        self.problems.iter().map(|p| p.field.as_str()).collect()
    }

    pub fn to_zh(&self) -> String {
        let mut out = format!("有 {} 处需要修改：", self.problems.len());
        for p in &self.problems {
            out.push_str("\n  - ");
            out.push_str(&p.to_zh());
        }
        out
    }
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.problems.as_slice() {
            [one] => write!(f, "invalid input: {one}"),
            many => {
                write!(f, "invalid input ({} problems):", many.len())?;
                for p in many {
                    write!(f, "\n  - {p}")?;
                }
                Ok(())
            }
        }
    }
}

/// Collects problems while a validator walks every field.
#[derive(Debug, Default)]
pub struct Problems(Vec<FieldProblem>);

impl Problems {
    pub fn push(&mut self, field: impl Into<String>, problem: Problem) {
        self.0.push(FieldProblem::new(field, problem));
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// `Ok(value)` when nothing was found, otherwise every problem at once.
    pub fn finish<T>(self, value: T) -> Result<T, ValidationError> {
        if self.0.is_empty() {
            Ok(value)
        } else {
            Err(ValidationError { problems: self.0 })
        }
    }

    /// Checks `min <= got <= max` for any ordered, printable value.
    pub fn range<T: PartialOrd + fmt::Display>(&mut self, field: &str, got: T, min: T, max: T) {
        if got < min || got > max {
            self.push(
                field,
                Problem::OutOfRange {
                    min: min.to_string(),
                    max: max.to_string(),
                    got: got.to_string(),
                },
            );
        }
    }

    /// Checks a display name by [`name_problem`].
    pub fn name(&mut self, field: &str, value: &str, max: usize) {
        if let Some(problem) = name_problem(value, max) {
            self.push(field, problem);
        }
    }

    /// Checks free text by [`text_problem`].
    pub fn text(&mut self, field: &str, value: &str) {
        if let Some(problem) = text_problem(value) {
            self.push(field, problem);
        }
    }

    /// Checks every credential value given now ([`credential_value_problem`]).
    pub fn credential(&mut self, field: &str, value: &crate::Secret) {
        if let Some(problem) = crate::secret::credential_value_problem(field, value.expose()) {
            self.push(field, problem);
        }
    }
}

/// The one rule for every name a user gives a resource (a trader, an exchange account, a
/// model, a strategy, a portfolio and its accounts): present after trimming, at most `max`
/// characters, free of characters that hide or rewrite text where a name is shown
/// ([`hidden_character`]), and not shaped like a key. `None` when the name is fine.
pub fn name_problem(value: &str, max: usize) -> Option<Problem> {
    if value.trim().is_empty() {
        Some(Problem::Required)
    } else if value.chars().count() > max {
        Some(Problem::TooLong { max })
    } else if let Some(c) = value.chars().find(|&c| hidden_character(c)) {
        Some(Problem::HiddenCharacter {
            code_point: format!("U+{:04X}", u32::from(c)),
        })
    } else if crate::redact::looks_like_key(&name_key(value)) {
        // Checked on the normalised form, as names are looked up: a full-width key is still
        // a key.
        Some(Problem::LooksLikeKey)
    } else {
        None
    }
}

/// The one rule for every free-text field of a resource (a model's name, a description, a
/// prompt section): no control character but tabs and line breaks ([`text_control`]), and
/// nothing shaped like a key, by the detector that masks keys in every reply
/// ([`crate::redact::looks_like_key`]), since the field is stored and shown in clear. Checked
/// on the compatibility form too, so a full-width key is still a key. `None` when it is fine.
pub fn text_problem(value: &str) -> Option<Problem> {
    use unicode_normalization::UnicodeNormalization;
    if let Some(c) = text_control(value) {
        Some(Problem::ControlCharacter {
            code_point: format!("U+{:04X}", u32::from(c)),
        })
    } else if crate::redact::looks_like_key(&value.nfkc().collect::<String>()) {
        Some(Problem::KeyInText)
    } else {
        None
    }
}

/// Characters of a user's value an error repeats before cutting it short with `…`: as many
/// as a name may have ([`crate::resource::NAME_MAX`]), so a valid name is never cut.
pub const SHOWN_INPUT_CHARS: usize = crate::resource::NAME_MAX;

/// A value a user or a file gave (a flag, a CSV field, a name, a reference), as an error or
/// any other line repeats it: the one rule. A value in which the credential detector finds a
/// key ([`crate::redact::looks_like_key`]: a key typed where a name or a type goes) is not
/// repeated at all, only its length ([`not_repeated`]). Any other value is shown, escaped and
/// cut, so the user sees what was wrong: every character that hides or rewrites text where it
/// is shown ([`hidden_character`]: controls and so every terminal escape sequence, zero-width
/// and bidi characters) is written as its escape (`\u{1b}`, `\n`), so a broker's file cannot
/// move the cursor, retitle or recolour the terminal, or reorder a line, through an error
/// about it; and a value longer than [`SHOWN_INPUT_CHARS`] characters is cut there with `…`,
/// so one field cannot flood the screen. The caller puts its own quote marks around it.
pub fn shown_input(value: &str) -> String {
    if crate::redact::looks_like_key(value) {
        not_repeated(value)
    } else {
        escaped(value, SHOWN_INPUT_CHARS)
    }
}

/// What stands for a value that could be a credential: its length, never a character of it.
pub fn not_repeated(value: &str) -> String {
    format!("[{} characters, not repeated]", value.chars().count())
}

/// [`shown_input`] without the cut, for a line whose point is the whole value (the paths
/// `nofxi paths` reports, which a user copies to back them up).
pub fn escaped_input(value: &str) -> String {
    escaped(value, usize::MAX)
}

fn escaped(value: &str, max_chars: usize) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(value.len().min(4 * SHOWN_INPUT_CHARS));
    for (i, c) in value.chars().enumerate() {
        if i == max_chars {
            out.push('…');
            break;
        }
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            // Writing into a String cannot fail.
            c if hidden_character(c) => {
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out
}

/// The first control character free text (a note, a description) may not hold: every one
/// (C0, DEL, C1: ESC and so every terminal escape sequence, BEL, a lone carriage return that
/// writes over a line) but the tab and line breaks (LF, CRLF), which are text.
pub fn text_control(value: &str) -> Option<char> {
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        if !is_text(c, chars.peek().copied()) {
            return Some(c);
        }
    }
    None
}

/// Free text, whole, with every control character [`text_control`] refuses written as its
/// escape (`\u{1b}`), for output that shows stored text (an export), where data stored before
/// the rule could still hold one.
pub fn shown_text(value: &str) -> std::borrow::Cow<'_, str> {
    use std::fmt::Write;
    if text_control(value).is_none() {
        return value.into();
    }
    let mut out = String::with_capacity(value.len() + 16);
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        if is_text(c, chars.peek().copied()) {
            out.push(c);
        } else {
            // Writing into a String cannot fail.
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        }
    }
    out.into()
}

/// Whether `c`, followed by `next`, is text rather than a control (see [`text_control`]).
fn is_text(c: char, next: Option<char>) -> bool {
    match c {
        '\t' | '\n' => true,
        '\r' => next == Some('\n'),
        c => !c.is_control(),
    }
}

/// JSON text with DEL and the C1 controls written as `\u` escapes: serde_json escapes only
/// C0, and a C1 CSI (U+009B) starts an escape sequence on many terminals. The escapes are
/// JSON's own, so the data read back is unchanged (JSON puts such characters only in strings).
pub fn json_without_raw_controls(json: String) -> String {
    use std::fmt::Write;
    if !json.chars().any(|c| ('\u{7f}'..='\u{9f}').contains(&c)) {
        return json;
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if ('\u{7f}'..='\u{9f}').contains(&c) {
            let _ = write!(out, "\\u{:04x}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    out
}

/// A value accepted after nofxi changed it, reported so the change is never silent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Adjustment {
    pub field: String,
    pub given: String,
    pub applied: String,
    /// The rule that forced the change, in English (`allowed range is 3..=60`).
    pub rule: String,
}

impl Adjustment {
    pub fn to_zh(&self) -> String {
        format!(
            "`{}` 的值 {} 超出允许范围（{}），已调整为 {}",
            self.field, self.given, self.rule, self.applied
        )
    }
}

impl fmt::Display for Adjustment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` {} was adjusted to {} ({})",
            self.field, self.given, self.applied, self.rule
        )
    }
}

/// Names are unique per user and kind regardless of case and of Unicode's compatibility
/// forms: "Main", "main" and full-width "ｍａｉｎ" are one name (NFKC, then lower case).
pub fn name_key(name: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    name.trim().nfkc().collect::<String>().to_lowercase()
}

/// Characters a name may not hold: controls (newline, tab, ESC and so the start of every
/// terminal escape sequence, DEL, the C1 range) and the invisible format characters that
/// make two names look alike or reorder text on screen (zero-width spaces and joiners, the
/// word joiner and invisible operators, bidi embeddings, overrides and isolates, the BOM,
/// the soft hyphen and the Arabic letter and Mongolian vowel marks).
pub fn hidden_character(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{00AD}'
                | '\u{061C}'
                | '\u{180E}'
                | '\u{200B}'..='\u{200F}'
                | '\u{2028}'..='\u{202E}'
                | '\u{2060}'..='\u{206F}'
                | '\u{FEFF}'
                | '\u{FFF9}'..='\u{FFFB}'
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_problems_are_listed_with_field_and_fix() {
        let mut p = Problems::default();
        p.push(
            "secret_key",
            Problem::MissingCredential {
                exchange_type: "okx".into(),
            },
        );
        p.push(
            "passphrase",
            Problem::MissingCredential {
                exchange_type: "okx".into(),
            },
        );
        let err = p.finish(()).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("2 problems"), "{text}");
        assert!(text.contains("`secret_key` is required for okx"), "{text}");
        assert!(text.contains("`passphrase` is required for okx"), "{text}");
        assert!(err.to_zh().contains("okx 账户需要 `passphrase`"));
        assert_eq!(err.fields(), vec!["secret_key", "passphrase"]);
    }

    #[test]
    fn range_accepts_bounds_and_rejects_outside() {
        let mut p = Problems::default();
        p.range("a", 1, 1, 20);
        p.range("b", 20, 1, 20);
        assert!(p.is_empty());
        p.range("c", 21, 1, 20);
        p.range("d", 0, 1, 20);
        assert_eq!(p.finish(()).unwrap_err().fields(), vec!["c", "d"]);
    }

    #[test]
    fn name_key_ignores_case_and_outer_spaces() {
        assert_eq!(name_key(" Main "), name_key("MAIN"));
    }

    #[test]
    fn compatibility_forms_are_one_name() {
        assert_eq!(name_key("ｄｅｆａｕｌｔ"), name_key("default"));
        assert_eq!(name_key("Ｍａｉｎ"), "main");
        assert_eq!(name_key("ﬁre"), name_key("fire"));
    }

    #[test]
    fn key_shaped_names_are_refused_in_any_width() {
        for bad in [
            "sk-abcdefghijklmnopqrstu",
            "ｓｋ-abcdefghijklmnopqrstu",
            "AKIAKEYMATERIAL7f3e9c1d2b",
        ] {
            let mut p = Problems::default();
            p.name("name", bad, 64);
            let err = p.finish(()).unwrap_err();
            assert_eq!(err.problems[0].problem, Problem::LooksLikeKey, "{bad:?}");
            assert!(!err.to_string().contains(bad), "{err}");
        }
    }

    /// Errors quoted broker-file fields raw: an ESC sequence in a CSV cell rewrote the
    /// terminal the import's errors were printed on.
    #[test]
    fn shown_input_escapes_what_hides_or_rewrites_text_and_cuts_long_values() {
        for (given, shown) in [
            ("600519", "600519"),
            ("贵州茅台 A", "贵州茅台 A"),
            ("red\u{1b}[31m", "red\\u{1b}[31m"),
            ("\u{1b}]0;pwned\u{7}", "\\u{1b}]0;pwned\\u{7}"),
            ("a\nb\r\tc", "a\\nb\\r\\tc"),
            ("zero\u{200b}width", "zero\\u{200b}width"),
            ("evil\u{202e}txt", "evil\\u{202e}txt"),
            ("c1\u{9b}31m", "c1\\u{9b}31m"),
            ("bom\u{feff}", "bom\\u{feff}"),
        ] {
            assert_eq!(shown_input(given), shown, "{given:?}");
        }
        let long = "x".repeat(1024);
        let cut = shown_input(&long);
        assert_eq!(cut, format!("{}…", "x".repeat(SHOWN_INPUT_CHARS)));
        let exact = "y".repeat(SHOWN_INPUT_CHARS);
        assert_eq!(shown_input(&exact), exact);
        // Escapes are counted as the one character they stand for, and nothing hidden is
        // left whole or cut in half.
        let escapes = "\u{1b}".repeat(1024);
        let shown = shown_input(&escapes);
        assert!(shown.ends_with('…') && !shown.contains('\u{1b}'), "{shown}");
        assert_eq!(shown.matches("\\u{1b}").count(), SHOWN_INPUT_CHARS);
    }

    /// Keys typed where a name or a type goes were repeated by errors, while harmless values
    /// (`0m`, `localhost:18732`) were hidden: a value is masked when, and only when, the
    /// credential detector finds a key in it.
    #[test]
    fn shown_input_masks_a_key_and_shows_any_other_value() {
        for key in [
            "sk-abc123def456ghi789jkl012mno345",
            "sk-proj-ZZSECRETabcdefghijklmnopqrstuvwx",
            "AIzaSyA1b2C3d4E5f6G7h8I9j0",
            "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318",
            "my token sk-abc123def456ghi789jkl012",
        ] {
            let shown = shown_input(key);
            assert_eq!(shown, not_repeated(key), "{key}");
            assert!(shown.contains("not repeated"), "{shown}");
        }
        for plain in [
            "0m",
            "localhost:18732",
            "hunter2",
            "12abc",
            "deepseek",
            "t2old",
        ] {
            assert_eq!(shown_input(plain), plain);
        }
        let problem = FieldProblem::new(
            "provider",
            Problem::NotOneOf {
                allowed: vec!["openai".into()],
                got: "sk-abc123def456ghi789jkl012mno345".into(),
            },
        );
        for said in [problem.fix(), problem.to_zh()] {
            assert!(!said.contains("abc123def456"), "{said}");
        }
    }

    #[test]
    fn names_that_hide_or_rewrite_text_are_refused() {
        for bad in [
            "a\nb",
            "a\tb",
            "red\u{1b}[31m",
            "default\u{200b}",
            "zero\u{200d}joiner",
            "evil\u{202e}txt",
            "\u{feff}bom",
            "del\u{7f}",
            "c1\u{9b}31m",
        ] {
            let mut p = Problems::default();
            p.name("name", bad, 64);
            let err = p.finish(()).unwrap_err();
            assert!(
                matches!(err.problems[0].problem, Problem::HiddenCharacter { .. }),
                "{bad:?}"
            );
            assert!(err.to_string().contains("U+"), "{err}");
        }
        for good in [
            "main",
            "比特币 bot",
            "btc-bot_2",
            "Ünïcödé",
            "ｍａｉｎ",
            "deepseek-reasoner",
            "gemini-2.5-flash-preview-05-20",
        ] {
            let mut p = Problems::default();
            p.name("name", good, 64);
            assert!(p.is_empty(), "{good:?}");
        }
    }
}
